#!/bin/bash
# fuzz.sh SECONDS TARGET... - run each libFuzzer target (built by `make
# fuzz` into $FUZZ_BUILD/fuzz-NAME) for SECONDS, one after the other, from
# the committed seeds (tests/fuzz/corpus/NAME, tests/fuzz/regress/NAME).
# New inputs libFuzzer finds go to $FUZZ_BUILD/corpus/NAME (not committed;
# minimise and copy the interesting ones into tests/fuzz/corpus by hand),
# crashes, leaks and hangs to $FUZZ_BUILD/artifacts/NAME-*.  Prints one
# line per target and a summary; exits 1 when any target found something.
# Every finding becomes a file in tests/fuzz/regress/NAME/ once fixed.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
FUZZ_BUILD=${FUZZ_BUILD:-build-fuzz}
secs=${1:?usage: fuzz.sh SECONDS TARGET...}
shift
# per-input limits: a hang is an input taking longer than this
TIMEOUT=${FUZZ_TIMEOUT:-20}
declare -A maxlen=([menu]=8192 [cache]=8192 [kconfig]=16384 [conf]=16384 [dotconfig]=16384 [profile]=16384 [json]=4096 [modalias]=8192)
found=0
for t in "$@"; do
	bin=$FUZZ_BUILD/fuzz-$t
	corpus=$FUZZ_BUILD/corpus/$t
	mkdir -p "$corpus" "$FUZZ_BUILD/artifacts"
	seeds=(tests/fuzz/corpus/$t)
	[ -d tests/fuzz/regress/$t ] && seeds+=(tests/fuzz/regress/$t)
	log=$FUZZ_BUILD/fuzz-$t.log
	start=$(date +%s)
	"$bin" -max_total_time="$secs" -timeout="$TIMEOUT" -rss_limit_mb=2048 \
		-max_len="${maxlen[$t]:-8192}" -print_final_stats=1 \
		-artifact_prefix="$FUZZ_BUILD/artifacts/$t-" \
		"$corpus" "${seeds[@]}" >"$log" 2>&1
	rc=$?
	end=$(date +%s)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	if [ $rc -eq 0 ]; then
		echo "ok $t: $((end - start)) s, ${execs:-?} runs, $cov"
	else
		found=1
		echo "not ok $t: exit $rc after $((end - start)) s (log: $log)"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|ALARM|artifact_prefix)' "$log" | head -n 5 | sed 's/^/  /'
		ls "$FUZZ_BUILD"/artifacts/"$t"-* 2>/dev/null | sed 's/^/  artifact: /'
	fi
done
exit $found

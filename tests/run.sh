#!/bin/bash
# run.sh - the one test driver behind `make check`, `make check-full` and
# `make asan`.  Runs, in order:
#
#   unit     every program in $BUILD/tests/ (built from tests/unit/*.c)
#   cases    every golden case tests/cases/NAME/ (see below)
#   compat   every tests/compat/*.sh but lib.sh (kfit against the kernel's
#            own conf; helpers live in tests/compat/bin/)
#
# Protocol: a test program or script prints one line per test case,
# "ok NAME", "not ok NAME" (followed by "  ..." detail lines) or
# "skip NAME reason".  run.sh prefixes each name with its group
# (unit/tree/NAME, cases/NAME, compat/kconfig-modes/NAME), echoes the lines
# and ends with exactly one summary line:
#
#   N passed, N failed            (or: N passed, N failed, N skipped)
#
# and exits 1 when anything failed.  A program that exits non-zero without
# reporting a failure (a crash, a sanitizer report) counts as one failure.
#
# A golden case is a directory tests/cases/NAME/ with
#   cmd               shell text run by bash in the case directory, with
#                     $KFIT (the kfit binary), $T (an empty temp dir) and
#                     $ROOT (the repo) set
#   expected-stdout   exact expected stdout   (missing: must be empty)
#   expected-stderr   exact expected stderr   (missing: must be empty)
#   expected-exit     expected exit status    (missing: 0)
#   skip-if           shell text run first: a line it prints skips the
#                     case with that reason (a memory limit under a
#                     sanitizer or valgrind)
# Before comparing, the temp dir's path in the output is replaced by the
# literal text $T and the repo's path by $ROOT.
#
# Environment:
#   BUILD              build dir holding kfit and tests/ (default: build)
#   KFIT_TEST_FILTER   extended regex; only tests whose full name matches
#                      run and count (exported: scripts use it to skip work)
#   KFIT_TEST_FULL=1   run the exhaustive compat suite (make check-full)
#   KFIT_TEST_JOBS     parallel jobs: golden cases and compat scripts (2)
#   KFIT_TEST_QUIET=1  print only failures and skips (and "# group" lines)
#   KFIT_VALGRIND=1    run kfit and the unit tests under valgrind
#   KFIT_TEST_TIMEOUT  seconds one test program or script may take (3600);
#                      a group that times out counts as a failure
#   KFIT_TEST_CASE_TIMEOUT  seconds one golden case may take (600: a case
#                      that scans a tree's driver sources on an empty cache
#                      on a loaded machine takes minutes)
#   KFIT_TEST_TIMES    a file: each golden case and each group appends
#                      "SECONDS NAME" to it (to find what makes check slow)
set -uo pipefail
shopt -s lastpipe

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
KFIT=${KFIT:-$BUILD/kfit}
# make valgrind: kfit and the unit tests run under valgrind
VG=()
if [ -n "${KFIT_VALGRIND:-}" ]; then
	export KFIT_REAL=$KFIT
	KFIT=$ROOT/tests/valgrind-kfit.sh
	VG=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite)
fi
export ROOT BUILD KFIT
export KFIT_TEST_FILTER=${KFIT_TEST_FILTER:-}
export KFIT_TEST_FULL=${KFIT_TEST_FULL:-}
export KFIT_TEST_JOBS=${KFIT_TEST_JOBS:-2}
QUIET=${KFIT_TEST_QUIET:-}
TIMEOUT=${KFIT_TEST_TIMEOUT:-3600}
CASE_TIMEOUT=${KFIT_TEST_CASE_TIMEOUT:-600}
# A make that runs us (make check) must not leak its flags and jobserver
# into the kernel makes the compat suite runs.
unset MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES
# The kernel's conf reads these; tests set them explicitly where wanted.
unset KCONFIG_CONFIG KCONFIG_ALLCONFIG KCONFIG_SEED KCONFIG_PROBABILITY \
	KCONFIG_OVERWRITECONFIG KCONFIG_WARN_UNKNOWN_SYMBOLS KCONFIG_WERROR \
	KCONFIG_NOSILENTUPDATE KCONFIG_AUTOCONFIG KCONFIG_AUTOHEADER \
	KCONFIG_DEFCONFIG_LIST KFIT_KERNEL ARCH SRCARCH CROSS_COMPILE LLVM CC

passed=0
failed=0
skipped=0

want() { # full test name
	[ -z "$KFIT_TEST_FILTER" ] || [[ $1 =~ $KFIT_TEST_FILTER ]]
}

# Count and echo one group's result lines read from stdin.  $1 is the
# group prefix.  Sets group_failed to how many of its cases failed.
tally() {
	local prefix=$1 line name rest show=0
	group_failed=0
	group_seen=0
	while IFS= read -r line; do
		case $line in
		"ok "*)
			name=${line#ok }
			want "$prefix/$name" || { show=0; continue; }
			passed=$((passed + 1)); group_seen=$((group_seen + 1)); show=0
			[ -z "$QUIET" ] && echo "ok $prefix/$name"
			;;
		"not ok "*)
			name=${line#not ok }
			want "$prefix/$name" || { show=0; continue; }
			failed=$((failed + 1)); group_failed=$((group_failed + 1))
			group_seen=$((group_seen + 1)); show=1
			echo "not ok $prefix/$name"
			;;
		"skip "*)
			rest=${line#skip }
			name=${rest%% *}
			want "$prefix/$name" || { show=0; continue; }
			skipped=$((skipped + 1)); group_seen=$((group_seen + 1)); show=0
			echo "skip $prefix/$rest"
			;;
		"  "* | "	"*)
			[ $show = 1 ] && echo "$line"
			;;
		*)
			# stray output: show it when it follows a failure
			[ $show = 1 ] && echo "  $line"
			;;
		esac
	done
}

# Run one test program or script: $1 group prefix, rest the command (a
# program, or a function for the golden cases).  Programs get at most
# $KFIT_TEST_TIMEOUT seconds, so a hang cannot keep the summary away.
run_group() {
	local prefix=$1 out rc start=$SECONDS
	shift
	out=$(mktemp)
	# stream: results show as they come (lastpipe keeps tally's counts)
	local limit=()
	[ "$(type -t "$1")" = function ] || limit=(timeout -k 10 "$TIMEOUT")
	KFIT_TEST_GROUP=$prefix "${limit[@]}" "$@" </dev/null 2>&1 | tee "$out" | tally "$prefix"
	rc=${PIPESTATUS[0]}
	if [ $rc -ne 0 ] && [ "$group_failed" -eq 0 ] && want "$prefix/exit-status"; then
		failed=$((failed + 1))
		echo "not ok $prefix/exit-status"
		if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
			echo "  timed out after ${TIMEOUT}s; last output:"
		else
			echo "  exited with status $rc without reporting a failure; last output:"
		fi
		tail -n 20 "$out" | sed 's/^/  | /'
	fi
	[ "$group_seen" -gt 0 ] &&
		echo "# $prefix: $group_seen run, $group_failed failed, $((SECONDS - start))s"
	[ -n "${KFIT_TEST_TIMES:-}" ] && echo "$((SECONDS - start)) $prefix" >>"$KFIT_TEST_TIMES"
	rm -f "$out"
}

# ---- unit ----
if [ -d "$BUILD/tests" ]; then
	for t in "$BUILD"/tests/*; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		run_group "unit/${t##*/}" "${VG[@]}" "$t"
	done
fi

# ---- golden cases ----
run_case() { # case dir
	local dir=$1 name=${1##*/} T out err rc want_rc diffs="" start=$SECONDS
	if [ -f "$dir/skip-if" ]; then
		local why
		why=$(cd "$dir" && bash -c "$(cat skip-if)" 2>/dev/null </dev/null | head -n 1)
		[ -n "$why" ] && { echo "skip $name $why"; return 0; }
	fi
	T=$(mktemp -d)
	out=$T.stdout
	err=$T.stderr
	(cd "$dir" && T=$T exec timeout -k 10 "$CASE_TIMEOUT" bash -c "$(cat cmd)") >"$out" 2>"$err" </dev/null
	rc=$?
	want_rc=0
	[ -f "$dir/expected-exit" ] && want_rc=$(tr -d ' \n' <"$dir/expected-exit")
	local f kind
	for kind in stdout stderr; do
		f=$T.$kind
		# normalise the run's own paths
		sed -i -e "s|$T|\$T|g" -e "s|$ROOT|\$ROOT|g" "$f"
		if [ -f "$dir/expected-$kind" ]; then
			cmp -s "$dir/expected-$kind" "$f" ||
				diffs+="  $kind differs:"$'\n'"$(diff -u "$dir/expected-$kind" "$f" | head -n 40 | sed 's/^/  /')"$'\n'
		elif [ -s "$f" ]; then
			diffs+="  unexpected $kind:"$'\n'"$(head -n 20 "$f" | sed 's/^/  | /')"$'\n'
		fi
	done
	[ "$rc" = "$want_rc" ] || diffs+="  exit status $rc, expected $want_rc"$'\n'
	if [ -z "$diffs" ]; then
		echo "ok $name"
	else
		echo "not ok $name"
		printf '%s' "$diffs"
	fi
	chmod -R u+rwx "$T" 2>/dev/null
	rm -rf "$T" "$out" "$err"
	[ -n "${KFIT_TEST_TIMES:-}" ] && echo "$((SECONDS - start)) cases/$name" >>"$KFIT_TEST_TIMES"
	return 0
}

# The cases run $KFIT_TEST_JOBS at a time (they share nothing but kfit's
# cache, whose extraction, scan and $(shell) entries are locked or written
# atomically); their results are printed in directory order as they finish.
run_cases() {
	local dir res n=0 next=0 running=0 jobs=${KFIT_TEST_JOBS:-2}
	res=$(mktemp -d)
	flush() {
		while [ -e "$res/$next.done" ]; do
			cat "$res/$next.out"
			next=$((next + 1))
		done
	}
	for dir in "$ROOT"/tests/cases/*/; do
		dir=${dir%/}
		[ -f "$dir/cmd" ] || continue
		want "cases/${dir##*/}" || continue
		while [ "$running" -ge "$jobs" ]; do
			wait -n
			running=$((running - 1))
			flush
		done
		{ run_case "$dir" >"$res/$n.out"; : >"$res/$n.done"; } &
		n=$((n + 1))
		running=$((running + 1))
	done
	wait
	flush
	rm -rf "$res"
}
if compgen -G "tests/cases/*/cmd" >/dev/null; then
	run_group cases run_cases
fi

# ---- compat ----
# other_groups_only NAME: true when KFIT_TEST_FILTER is set and each of its
# top-level alternatives starts with unit/, cases/ or compat/OTHER/.
other_groups_only() {
	local alt c i depth=0 alts=() cur=""
	[ -n "$KFIT_TEST_FILTER" ] || return 1
	for ((i = 0; i < ${#KFIT_TEST_FILTER}; i++)); do
		c=${KFIT_TEST_FILTER:i:1}
		case $c in
		"(") depth=$((depth + 1)) ;;
		")") depth=$((depth - 1)) ;;
		"|") if [ $depth = 0 ]; then alts+=("$cur"); cur=""; continue; fi ;;
		esac
		cur+=$c
	done
	alts+=("$cur")
	for alt in "${alts[@]}"; do
		alt=${alt#^}
		case $alt in
		unit/* | cases/*) ;;
		compat/*/*)
			# another script's name, written out: skip; a pattern or
			# this script's name: run
			alt=${alt#compat/}
			alt=${alt%%/*}
			[[ $alt =~ ^[A-Za-z0-9_-]+$ ]] && [ "$alt" != "$1" ] || return 1
			;;
		*) return 1 ;;
		esac
	done
	return 0
}
for s in tests/compat/*.sh; do
	[ -f "$s" ] || continue
	case ${s##*/} in lib.sh | _*) continue ;; esac
	name=${s##*/}
	name=${name%.sh}
	# a filter whose every alternative names another group: do not start
	# this script (the scripts build trees' conf and can take minutes)
	other_groups_only "$name" && continue
	run_group "compat/$name" bash "$s"
done

if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]

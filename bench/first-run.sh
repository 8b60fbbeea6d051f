#!/bin/bash
# first-run.sh - what a user waits for the first time: `kfit generate
# --detect` from a fresh cache (the tarball extracted, the driver sources
# scanned, every $(shell,...) run), beside `tar xf` of the same tarball
# (the floor: nothing can be faster than unpacking it), alternated in one
# run.  Each run has its own empty XDG_CACHE_HOME (the shared cache is
# never touched) and KFIT_CACHE_DIR unset.  Prints the median wall time
# and peak RSS of each and the ratio.  Target (issue 18): the first
# generate --detect within 30 s on a quiet 2-core machine.
#
# usage: bench/first-run.sh [-n N] [TARBALL]
#   N        runs of each (default 3)
#   TARBALL  default /usr/src/linux-source-6.12.tar.xz
# Environment: KFIT (default build/kfit).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KFIT=${KFIT:-$ROOT/build/kfit}
N=3
while getopts n: o; do
	case $o in
	n) N=$OPTARG ;;
	*) echo "usage: bench/first-run.sh [-n N] [TARBALL]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
tarball=${1:-/usr/src/linux-source-6.12.tar.xz}
[ -f "$tarball" ] || { echo "bench: no $tarball" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
unset KFIT_CACHE_DIR
W=$(mktemp -d "${TMPDIR:-/tmp}/kfit-bench.XXXXXX")
trap 'chmod -R u+w "$W" 2>/dev/null; rm -rf "$W"' EXIT

run() { # label cmd... -> appends "ms kb" to $W/label
	local label=$1 t0 t1
	shift
	t0=$(date +%s%N)
	if ! /usr/bin/time -f %M -o "$W/rss" "$@" >"$W/$label.out" 2>&1; then
		echo "$label failed:" >&2
		tail -n 5 "$W/$label.out" >&2
		return 1
	fi
	t1=$(date +%s%N)
	echo "$(((t1 - t0) / 1000000)) $(tail -n 1 "$W/rss")" >>"$W/$label"
}
clean() { chmod -R u+w "$W/x" 2>/dev/null; rm -rf "$W/x"; mkdir "$W/x"; }
for ((i = 0; i < N; i++)); do
	clean
	run tar tar -xf "$tarball" -C "$W/x"
	clean
	run kfit env XDG_CACHE_HOME="$W/x" "$KFIT" generate --detect -k "$tarball" \
		-o "$W/g.config"
done
clean
median() { cut -d' ' -f"$2" "$W/$1" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf 'first run: %s, %d runs each (medians), load before: %s\n' "${tarball##*/}" "$N" \
	"$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %10s %14s\n' "" "time (ms)" "peak RSS (KB)"
printf '%-34s %10s %14s\n' "tar xf (the floor)" "$(median tar 1)" "$(median tar 2)"
printf '%-34s %10s %14s\n' "kfit generate --detect, first run" "$(median kfit 1)" "$(median kfit 2)"
awk -v k="$(median kfit 1)" -v t="$(median tar 1)" 'BEGIN {
	printf "ratio first run / tar xf: %.2f; first run %.1f s (target <= 30 s)\n", k / t, k / 1000 }'

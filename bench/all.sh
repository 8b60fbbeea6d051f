#!/bin/bash
# all.sh - every figure of issue 18 in one run, side by side: olddefconfig
# (warm, cold in parallel, cold one at a time, make, conf) and generate
# beside olddefconfig on 6.1 and 7.3, and the first run (generate --detect
# from a fresh cache) beside tar xf, with what overlapping the driver scan
# with the extraction could save at most.  Ratios of medians, peak RSS; the
# load average is printed with each, as the machine may be shared.
#
# usage: bench/all.sh [-n N]   (N runs of each, default 5; generate at
# least 11: its commands are short and noisy; first run: 3)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
N=5
while getopts n: o; do
	case $o in
	n) N=$OPTARG ;;
	*) echo "usage: bench/all.sh [-n N]" >&2; exit 2 ;;
	esac
done
G=$((N < 11 ? 11 : N))
t61=$("$ROOT/scripts/kernel-tree.sh" 6.1) || exit 2
echo "== 6.1: olddefconfig"
"$ROOT/bench/olddefconfig.sh" -n "$N" -k "$t61"
echo "== 6.1: generate"
"$ROOT/bench/generate.sh" -n "$G" -k "$t61"
if t73=$("$ROOT/scripts/kernel-tree.sh" 7.3 2>/dev/null); then
	cache=${KFIT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kfit}
	c73=$cache/debs/usr/src/linux-config-7.3/config.amd64_none_amd64.xz
	[ -f "$c73" ] || c73=
	if [ -n "$c73" ]; then
		echo "== 7.3: olddefconfig"
		"$ROOT/bench/olddefconfig.sh" -n "$N" -k "$t73" "$c73"
		echo "== 7.3: generate"
		CONFIG=$c73 "$ROOT/bench/generate.sh" -n "$G" -k "$t73"
	else
		echo "== 7.3: no Debian 7.3 config (make deps fetches it); skipped"
	fi
else
	echo "== 7.3: no tree (make deps fetches it); skipped"
fi
echo "== first run"
"$ROOT/bench/first-run.sh" -o -n $((N < 3 ? N : 3))

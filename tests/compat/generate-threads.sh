#!/bin/bash
# generate-threads.sh - `kfit generate --detect` of each real-PC fixture
# (tests/data/snapshots: the hw-probe laptops, desktop, mini PC and
# servers, the ThinkPad T60p) on the 6.1 and 7.3 trees, once as it runs
# (the Kconfig load in a thread of its own beside detection, the
# resolver's index of dependents built there beside the base) and once
# with KFIT_LOAD_AHEAD=0 (every stage in turn on one thread, the index
# built on the resolver's first change).  The two must write the same
# .config and print the same text, and exit alike.
set -uo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$ROOT/build}
KFIT=${KFIT:-$BUILD/kfit}
FILTER=${KFIT_TEST_FILTER:-}
S=$ROOT/tests/data/snapshots

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for v in 6.1 7.3; do
	t=$("$ROOT/scripts/kernel-tree.sh" "$v" 2>/dev/null) || {
		# make deps fetches every tree: one missing is a failure
		echo "not ok $v"
		echo "  linux-source-$v is not installed (make deps fetches it)"
		continue
	}
	warm=
	# the first six real machines (more add time to make check, not threads)
	for d in "$S"/hwprobe-desktop-z790-rtx4090 "$S"/hwprobe-minipc-asus-pn53 \
		"$S"/hwprobe-server-poweredge-r240 "$S"/hwprobe-server-poweredge-r340-perc \
		"$S"/hwprobe-thinkpad-t14-gen2i "$S"/hwprobe-thinkpad-t14-gen3-amd \
		"$S"/thinkpad-t60p-systemd; do
		[ -d "$d" ] || continue
		name=$v-${d##*/}
		if [ -n "$FILTER" ] && ! [[ compat/generate-threads/$name =~ $FILTER ]]; then
			continue
		fi
		if [ -z "$warm" ]; then
			# the tree's first detection scans its driver sources and
			# says so: both runs compared find the alias cache made
			"$KFIT" generate -k "$t" -a x86_64 --detect --root "$d" \
				-o "$work/warm.config" >/dev/null 2>&1
			warm=1
		fi
		for mode in ahead serial; do
			if [ $mode = serial ]; then
				export KFIT_LOAD_AHEAD=0
			else
				unset KFIT_LOAD_AHEAD
			fi
			# the same output path both times: generate prints it
			"$KFIT" generate -k "$t" -a x86_64 --detect --root "$d" \
				-o "$work/out.config" >"$work/$mode.out" 2>"$work/$mode.err"
			echo $? >"$work/$mode.rc"
			mv "$work/out.config" "$work/$mode.config" 2>/dev/null ||
				: >"$work/$mode.config"
		done
		unset KFIT_LOAD_AHEAD
		bad=
		for f in config out err rc; do
			cmp -s "$work/ahead.$f" "$work/serial.$f" || bad="$bad $f"
		done
		if [ -z "$bad" ] && [ "$(cat "$work/ahead.rc")" = 0 ] &&
			[ -s "$work/ahead.config" ]; then
			echo "ok $name"
		else
			echo "not ok $name"
			[ -n "$bad" ] && echo "  differ with KFIT_LOAD_AHEAD=0:$bad"
			echo "  exit $(cat "$work/ahead.rc") / $(cat "$work/serial.rc")"
			diff "$work/ahead.err" "$work/serial.err" | head -n 5 | sed 's/^/  /'
		fi
	done
done
exit 0

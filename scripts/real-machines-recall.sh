#!/bin/bash
# real-machines-recall.sh TREE - score `kfit generate --detect` on the
# real-machine fixtures (tests/data/snapshots/hwprobe-*, x86_64, and
# dt-*, arm64 boards described by their device tree): for each,
# how many of the devices that had a driver bound on the machine get that
# driver's symbol (tests/data/snapshots/bound-driver-symbols.txt, written
# by hand) set to y or m, which ones do not, and whether the result has a
# sound codec driver (CONFIG_SND_HDA_CODEC_*) and USB mass storage.  One
# line per fixture (a named exception, symbol -, counts as not
# enabled), then the total.  KFIT selects the binary (default
# build/kfit).
set -uo pipefail
[ $# = 1 ] || { echo "usage: $0 TREE" >&2; exit 2; }
tree=$1
here=$(cd "$(dirname "$0")/.." && pwd)
kfit=${KFIT:-$here/build/kfit}
S=$here/tests/data/snapshots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
T=0 O=0
for snap in "$S"/hwprobe-*/ "$S"/dt-*/; do
	snap=${snap%/}
	name=${snap##*/}
	arch=x86_64
	case $name in dt-*) arch=arm64 ;; esac
	[ -f "$snap/devices.tsv" ] || continue
	"$kfit" generate -k "$tree" -a "$arch" --detect --root "$snap" -o "$tmp/c" \
		>/dev/null 2>"$tmp/err"
	rc=$?
	total=0 ok=0 named=0 miss=
	while IFS=$'\t' read -r path alias drv; do
		case $path in ''|'#'*) continue ;; esac
		[ "$drv" = - ] && continue
		total=$((total + 1))
		sym=$(awk -F'\t' -v d="$drv" '$1 == d { print $2 }' "$S/bound-driver-symbols.txt")
		if [ "$sym" = - ]; then named=$((named + 1)); continue; fi
		if [ -n "$sym" ] && grep -qE "^CONFIG_$sym=[ym]$" "$tmp/c" 2>/dev/null; then
			ok=$((ok + 1))
		else
			case " $miss " in *" $drv "*) ;; *) miss="$miss $drv" ;; esac
		fi
	done <"$snap/devices.tsv"
	codec=$(grep -cE '^CONFIG_SND_HDA_CODEC_[A-Z0-9_]+=[ym]$' "$tmp/c" 2>/dev/null)
	stor=$(grep -qE '^CONFIG_USB_STORAGE=[ym]$' "$tmp/c" 2>/dev/null && echo yes || echo no)
	printf '%s\texit %s\t%d/%d\tnamed %d\tcodecs %s\tusb-storage %s\tmissed:%s\n' \
		"$name" "$rc" "$ok" "$total" "$named" "${codec:-0}" "$stor" "${miss:- -}"
	T=$((T + total)) O=$((O + ok))
done
echo "total	$O/$T"

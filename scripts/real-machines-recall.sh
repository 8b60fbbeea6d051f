#!/bin/bash
# real-machines-recall.sh TREE - score `kfit generate --detect` on the
# real-machine fixtures (tests/data/snapshots/hwprobe-*, x86_64, and
# dt-*, arm64 boards described by their device tree): for each,
# how many of the devices that had a driver bound on the machine get that
# driver's symbol (tests/data/snapshots/bound-driver-symbols.txt, written
# by hand) set to y or m, which ones do not, and whether the result has a
# sound codec driver (CONFIG_SND_HDA_CODEC_*) and USB mass storage, and
# on a board (dt-*) its consoles: serial (SERIAL_8250_CONSOLE or
# SERIAL_AMBA_PL011_CONSOLE built in) and screen (FRAMEBUFFER_CONSOLE
# built in with a framebuffer driver).  One line per fixture: the bound
# devices whose driver is enabled over those whose driver the tree has
# (a named exception, symbol - in the table, is a driver the tree does
# not have, e.g. NVIDIA's own nvidia module: counted apart and named),
# then the total.  KFIT selects the binary (default build/kfit).
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
	total=0 ok=0 named=0 miss= nnames=
	while IFS=$'\t' read -r path alias drv; do
		case $path in ''|'#'*) continue ;; esac
		[ "$drv" = - ] && continue
		total=$((total + 1))
		sym=$(awk -F'\t' -v d="$drv" '$1 == d { print $2 }' "$S/bound-driver-symbols.txt")
		if [ "$sym" = - ]; then
			named=$((named + 1))
			case " $nnames " in *" $drv "*) ;; *) nnames="$nnames $drv" ;; esac
			continue
		fi
		if [ -n "$sym" ] && grep -qE "^CONFIG_$sym=[ym]$" "$tmp/c" 2>/dev/null; then
			ok=$((ok + 1))
		else
			case " $miss " in *" $drv "*) ;; *) miss="$miss $drv" ;; esac
		fi
	done <"$snap/devices.tsv"
	codec=$(grep -cE '^CONFIG_SND_HDA_CODEC_[A-Z0-9_]+=[ym]$' "$tmp/c" 2>/dev/null)
	stor=$(grep -qE '^CONFIG_USB_STORAGE=[ym]$' "$tmp/c" 2>/dev/null && echo yes || echo no)
	cons=
	if [ "$arch" = arm64 ]; then
		ser=$(grep -oE '^CONFIG_(SERIAL_8250_CONSOLE|SERIAL_AMBA_PL011_CONSOLE)=y$' "$tmp/c" 2>/dev/null |
			sed 's/^CONFIG_//; s/=y$//' | tr '\n' ' ' | sed 's/ $//')
		scr=
		if grep -q '^CONFIG_FRAMEBUFFER_CONSOLE=y$' "$tmp/c" 2>/dev/null; then
			scr=$(grep -oE '^CONFIG_(DRM_SIMPLEDRM|FB_SIMPLE|DRM_VC4|FB_EFI|DRM_EFIDRM)=[ym]$' "$tmp/c" |
				sed 's/^CONFIG_//' | tr '\n' ' ' | sed 's/ $//')
		fi
		cons=$(printf '\tserial console: %s\tscreen console: %s' "${ser:-none}" \
			"${scr:+FRAMEBUFFER_CONSOLE=y on }${scr:-none}")
	fi
	printf '%s\texit %s\t%d/%d of the tree'"'"'s drivers\tnot in the tree %d%s\tcodecs %s\tusb-storage %s%s\tmissed:%s\n' \
		"$name" "$rc" "$ok" "$((total - named))" "$named" "${nnames:+ (}${nnames# }${nnames:+)}" \
		"${codec:-0}" "$stor" "$cons" "${miss:- -}"
	T=$((T + total - named)) O=$((O + ok))
done
echo "total	$O/$T of the tree's drivers"

#!/bin/bash
# localmodconfig-compare.sh SNAPSHOT TREE - what `make localmodconfig`
# keeps of a machine's running config (with the snapshot's proc/modules as
# LSMOD) against what `kfit generate --detect --root SNAPSHOT` writes, and
# which devices present in the snapshot lose the driver kfit requires for
# them under localmodconfig (a device whose module was not loaded when the
# snapshot was taken).  Work files go to a temp dir; the tree is not
# written (O=).
set -euo pipefail
[ $# = 2 ] || { echo "usage: $0 SNAPSHOT TREE" >&2; exit 2; }
snap=$(cd "$1" && pwd) tree=$2
kfit=${KFIT:-$(cd "$(dirname "$0")/.." && pwd)/build/kfit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
json=$tmp/detect.json
"$kfit" detect -k "$tree" --root "$snap" --json 2>/dev/null >"$json"
cfg=$(jq -r '.running_config // empty' "$json")
[ -n "$cfg" ] || { echo "$snap has no running config" >&2; exit 2; }
[ -f "$snap/proc/modules" ] || { echo "$snap has no proc/modules" >&2; exit 2; }
mkdir -p "$tmp/lmc"
zcat -f "$snap/$cfg" >"$tmp/lmc/.config"
make -s -C "$tree" O="$tmp/lmc" ARCH=x86_64 LSMOD="$snap/proc/modules" localmodconfig \
	</dev/null >"$tmp/lmc.log" 2>&1
"$kfit" generate --detect --root "$snap" -k "$tree" -o "$tmp/kfit.config" >"$tmp/gen.log" 2>&1 || true
count() { grep -c "=$2\$" "$1" || true; }
echo "snapshot $(basename "$snap"), tree $(basename "$tree"), $(wc -l <"$snap/proc/modules") modules loaded"
printf '%-28s %6s %6s\n' "" "=y" "=m"
printf '%-28s %6s %6s\n' "running config" "$(count "$tmp/lmc/.config.old" y)" "$(count "$tmp/lmc/.config.old" m)" 2>/dev/null ||
	printf '%-28s\n' "running config"
printf '%-28s %6s %6s\n' "make localmodconfig" "$(count "$tmp/lmc/.config" y)" "$(count "$tmp/lmc/.config" m)"
if [ -f "$tmp/kfit.config" ]; then
	printf '%-28s %6s %6s\n' "kfit generate --detect" "$(count "$tmp/kfit.config" y)" "$(count "$tmp/kfit.config" m)"
else
	echo "kfit generate --detect: nothing written"
	tail -3 "$tmp/gen.log"
fi
echo "devices whose required driver localmodconfig drops:"
jq -r '.hardware[] | select(.level == "require" and .module != null) | "\(.symbol)\t\(.reason)"' "$json" |
while IFS=$'\t' read -r sym reason; do
	grep -q "^CONFIG_$sym=[ym]$" "$tmp/lmc/.config" || echo "  CONFIG_$sym: $reason"
done

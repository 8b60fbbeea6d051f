#!/bin/bash
# detect-coverage.sh TREE IMAGE.deb [MORE.deb ...] - how much of a distro
# kernel's modules.alias (+ modules.builtin.modinfo aliases) kfit's
# source-derived alias table reproduces.  The .debs (apt-get download
# linux-image-...; Debian 13's backports split it: linux-modules-REL and
# linux-base-REL) are unpacked with dpkg-deb into one temp dir and
# depmod'ed there, never installed; the image's boot/config-REL (or the
# file $CONFIG names, e.g. linux-config-X's config.amd64_none_amd64)
# decides the table entries under #if CONFIG_ conditions (--config).
# Prints one line per modalias prefix ("pci 8013/8960"), the device buses
# together ("buses") and the rest ("other"), and the totals: recall
# (Debian's alias/module pairs kfit derives) and precision (kfit's pairs
# for modules Debian builds that Debian also has).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 TREE IMAGE.deb [MORE.deb ...]" >&2; exit 2; }
tree=$1
shift
kfit=${KFIT:-$(dirname "$0")/../build/kfit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for deb in "$@"; do dpkg-deb -x "$deb" "$tmp/x"; done
# merged /usr: the modules are in usr/lib/modules
[ -d "$tmp/x/lib/modules" ] || [ ! -d "$tmp/x/usr/lib/modules" ] || ln -s usr/lib "$tmp/x/lib"
rel=$(basename "$(ls -d "$tmp"/x/lib/modules/*)")
depmod -b "$tmp/x" "$rel"
m=$tmp/x/lib/modules/$rel
# the image's own config decides the #if CONFIG_ entries, as in its build
cfg=()
[ -f "$tmp/x/boot/config-$rel" ] && cfg=(--config "$tmp/x/boot/config-$rel")
[ -n "${CONFIG:-}" ] && cfg=(--config "$CONFIG")
"$kfit" detect -k "$tree" --aliases "${cfg[@]}" 2>/dev/null | awk '{print $2" "$3}' | sort -u >"$tmp/der"
{
	awk '$1 == "alias" {print $2" "$3}' "$m/modules.alias"
	tr '\0' '\n' <"$m/modules.builtin.modinfo" | sed -n 's/^\([^.]*\)\.alias=\(.*\)$/\2 \1/p'
} | sort -u >"$tmp/ref"
comm -12 "$tmp/der" "$tmp/ref" >"$tmp/hit"
echo "kernel $rel, tree $tree"
buses="pci usb hid virtio acpi of platform i2c spi serio sdio cpu pnp hdaudio wmi vmbus input mdio
dmi pcmcia ieee1394 ssb bcma sdw auxiliary mhi amba"
for p in $buses; do
	printf '%-9s %s/%s\n' "$p" "$(grep -c "^$p[:*]" "$tmp/hit" || true)" \
		"$(grep -c "^$p[:*]" "$tmp/ref" || true)"
done
re="^($(echo $buses | tr ' ' '|'))[:*]"
printf '%-9s %s/%s\n' buses "$(grep -Ec "$re" "$tmp/hit" || true)" "$(grep -Ec "$re" "$tmp/ref" || true)"
printf '%-9s %s/%s\n' other "$(grep -vEc "$re" "$tmp/hit" || true)" "$(grep -vEc "$re" "$tmp/ref" || true)"
echo "recall    $(wc -l <"$tmp/hit")/$(wc -l <"$tmp/ref")"
awk '{print $2}' "$tmp/ref" | sort -u >"$tmp/mods"
awk 'NR == FNR {m[$1] = 1; next} ($2 in m)' "$tmp/mods" "$tmp/der" | sort >"$tmp/derin"
echo "precision $(comm -12 "$tmp/derin" "$tmp/ref" | wc -l)/$(wc -l <"$tmp/derin")"

#!/bin/sh
# arm64-initrd.sh - an initramfs for kfit's arm64 kernel made on the host
# from the stock one (e2e/arm64-run.sh): Debian's update-initramfs in the
# arm64 image runs through qemu-user-static and takes 20 minutes and more
# on a loaded 2-core machine, so the stock initramfs (initramfs-tools,
# made by update-initramfs when the image was) is unpacked, its
# lib/modules/STOCK replaced by lib/modules/RELEASE with every module of
# kfit's kernel and the modules.* indexes modules_install wrote, and packed
# again (newc, gzip, as initramfs-tools compressed the stock one without
# zstd in the image).  Its init, udev rules and tools are Debian's; udev
# loads the modules by modalias as it does in the stock one.
#
# usage: e2e/arm64-initrd.sh STOCK-INITRD MODULES-DIR RELEASE OUT
set -eu

in=$1 mods=$2 rel=$3 outf=$4
tmp=$outf.d
rm -rf "$tmp"
mkdir -p "$tmp"
magic=$(od -An -tx1 -N4 "$in" | tr -d ' ')
case $magic in
28b52ffd) zstd -dc "$in" ;;
1f8b*) gzip -dc "$in" ;;
*)
	echo "arm64-initrd.sh: $in: not one zstd or gzip archive (magic $magic)" >&2
	exit 1
	;;
esac | (cd "$tmp" && cpio -idm --quiet)
# lib may be a symbolic link to usr/lib (merged /usr)
if [ -L "$tmp/lib" ]; then md=$tmp/usr/lib/modules; else md=$tmp/lib/modules; fi
[ -d "$md" ] || { echo "arm64-initrd.sh: no lib/modules in $in" >&2; exit 1; }
rm -rf "${md:?}"/*
mkdir -p "$md/$rel"
if [ -d "$mods" ]; then
	(cd "$mods" && find . \( -name '*.ko*' -o -name 'modules.*' \) -print |
		cpio -pdm --quiet "$md/$rel")
fi
(cd "$tmp" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -6 >"$outf.tmp"
mv "$outf.tmp" "$outf"
rm -rf "$tmp"
echo "arm64-initrd.sh: wrote $outf ($(find "$mods" -name '*.ko*' 2>/dev/null | wc -l) modules)"

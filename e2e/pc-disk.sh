#!/bin/sh
# pc-disk.sh - the emulated PC's NVMe disk image from a root directory
# (e2e/pc-rootfs.sh, or the copy with kfit's kernel installed): GPT with an
# EFI system partition (FAT32, 256 MiB, the directory's /boot/efi copied in
# with mtools) and an ext4 root partition (2 GiB, mkfs.ext4 -d), at the
# fixed UUIDs of e2e/pc-ids.env.  No loop device or mount is needed.
# Before that, the guest's test files are copied into the directory (the
# check script and its unit, networkd's DHCP file, snapshot-machine.sh) and
# loader.conf is set to boot the loader entry of kernel RELEASE at once.
#
# usage: e2e/pc-disk.sh ROOTDIR RELEASE IMAGE
set -eu

dir=$1 rel=$2 img=$3
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=e2e/lib.sh
. "$here/lib.sh"
# shellcheck source=e2e/pc-ids.env
. "$here/pc-ids.env"

guest_files "$here" "$dir" pc

entry=
for e in "$dir"/boot/efi/loader/entries/*-"$rel".conf; do
	[ -f "$e" ] && entry=${e##*/}
done
if [ -z "$entry" ]; then
	echo "pc-disk.sh: no loader entry for $rel in $dir/boot/efi/loader/entries" >&2
	exit 1
fi
printf 'timeout 0\ndefault %s\n' "$entry" >"$dir/boot/efi/loader/loader.conf"

esp_mib=256 root_mib=2048
rm -f "$img.esp" "$img.root" "$img.tmp"
mkfs.vfat -F 32 -n ESP -i "$esp_volid" -C "$img.esp" $((esp_mib * 1024)) >/dev/null
MTOOLS_SKIP_CHECK=1 mcopy -s -Q -i "$img.esp" "$dir"/boot/efi/* ::/
mkfs.ext4 -q -L root -U "$root_uuid" -d "$dir" "$img.root" "${root_mib}M"

truncate -s $((1 + esp_mib + root_mib + 1))M "$img.tmp"
sfdisk -q "$img.tmp" <<SFDISK
label: gpt
start=2048, size=$((esp_mib * 2048)), type=uefi, name=ESP
start=$((2048 + esp_mib * 2048)), size=$((root_mib * 2048)), type=linux, name=root
SFDISK
dd if="$img.esp" of="$img.tmp" bs=1M seek=1 conv=notrunc,sparse status=none
dd if="$img.root" of="$img.tmp" bs=1M seek=$((1 + esp_mib)) conv=notrunc,sparse status=none
rm -f "$img.esp" "$img.root"
mv "$img.tmp" "$img"
echo "pc-disk.sh: wrote $img (boots $entry)"

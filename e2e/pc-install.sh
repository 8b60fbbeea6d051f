#!/bin/sh
# pc-install.sh - install kfit's kernel into a copy of the emulated PC's
# root directory the way Debian installs a kernel package: `dpkg -i` of the
# linux-image package `kfit build` made, inside the root (chroot, with
# /dev, /proc and /sys mounted in a private mount namespace).  The
# package's postinst runs /etc/kernel/postinst.d: initramfs-tools'
# update-initramfs makes its initramfs, systemd-boot's hook runs
# kernel-install, which copies kernel and initramfs onto the ESP with a
# loader entry (e2e/pc-chroot.sh: the chroot with the ESP as a mount).
#
# usage: e2e/pc-install.sh SRCDIR DSTDIR LINUX-IMAGE.deb
# Prints the installed kernel release on the last line.
set -eu

src=$1 dst=$2 deb=$3
. "$(dirname "$0")/fs.sh"
remove_tree "$dst"
cp -a "$src" "$dst"
cp "$deb" "$dst/tmp/kernel.deb"
rel=$(dpkg-deb -f "$deb" Package | sed 's/^linux-image-//')
"$(dirname "$0")/pc-chroot.sh" "$dst" dpkg -i /tmp/kernel.deb
rm -f "$dst/tmp/kernel.deb"
if ! [ -f "$(echo "$dst"/boot/efi/loader/entries/*-"$rel".conf)" ]; then
	echo "pc-install.sh: no loader entry for $rel after dpkg -i" >&2
	exit 1
fi
[ -f "$dst/boot/initrd.img-$rel" ] || {
	echo "pc-install.sh: no initramfs for $rel after dpkg -i" >&2
	exit 1
}
echo "$rel"

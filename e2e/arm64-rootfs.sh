#!/bin/sh
# arm64-rootfs.sh - the Debian 12 arm64 root filesystem of the emulated
# arm64 board (`make e2e-arm64`, e2e/arm64-run.sh): a directory made by
# mmdebstrap --arch=arm64 from this machine's Debian apt sources (the
# Debian ones only: *.sources/*.list naming bookworm), the maintainer
# scripts run through qemu-user-static (binfmt_misc, mounted here when it
# is not), with systemd, udev, systemd-networkd, initramfs-tools and
# Debian's stock arm64 kernel (linux-image-arm64) and its initramfs.  The
# board boots with QEMU's -kernel/-initrd (no firmware, no boot loader), so
# the kernel and initramfs are read from the directory's /boot.
# initramfs-tools is set to MODULES=list with the modules of the virt
# board's root disk (virtio-pci, virtio-mmio, virtio-blk, ext4): with
# Debian's default MODULES=most, update-initramfs copies some thousand
# modules one emulated modprobe at a time and had not finished after 25
# minutes on a loaded 2-core machine.
#
# usage: e2e/arm64-rootfs.sh CACHEDIR
# Writes CACHEDIR/arm64/rootfs.d and CACHEDIR/arm64/stock.env.  Rebuilt
# only when missing or when this script changed.
set -eu

cache=$1
here=$(cd "$(dirname "$0")" && pwd)
dir=$cache/arm64/rootfs.d
stamp=$dir.stamp
mkdir -p "$cache/arm64"
sum=$(cat "$0" | sha256sum | cut -d' ' -f1)
if [ -d "$dir" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
	echo "arm64-rootfs.sh: $dir up to date"
	exit 0
fi

# Foreign maintainer scripts need binfmt_misc with qemu-aarch64 registered
# (Debian's qemu-user-static and binfmt-support do the registering).
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
	mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
	update-binfmts --enable qemu-aarch64 2>/dev/null || true
fi
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
	echo "arm64-rootfs.sh: qemu-aarch64 is not registered in binfmt_misc (qemu-user-static, binfmt-support)" >&2
	exit 1
fi

srcs=
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
	/etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	grep -Eq '^[^#]*\bbookworm\b' "$f" || continue
	grep -Eq '^[^#]*/debian(-security)?/?( |$)' "$f" || continue
	srcs="$srcs $f"
done
if [ -z "$srcs" ]; then
	echo "arm64-rootfs.sh: no Debian apt source for bookworm in /etc/apt" >&2
	exit 1
fi

pkgs="systemd,systemd-sysv,udev,dbus,iproute2,kmod,procps,initramfs-tools,linux-image-arm64"
. "$here/fs.sh"
remove_tree "$dir" "$dir.tmp"
rm -f "$stamp"
echo "arm64-rootfs.sh: mmdebstrap --arch=arm64 bookworm ($pkgs) from$srcs"
start=$(date +%s)
# shellcheck disable=SC2086  # the list of source files is split on purpose
mmdebstrap --arch=arm64 --variant=minbase --include="$pkgs" \
	--essential-hook='mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/usr/share/initramfs-tools/modules.d"' \
	--essential-hook='echo MODULES=list >"$1/etc/initramfs-tools/conf.d/kfit-e2e.conf"' \
	--essential-hook='printf "# kfit e2e-arm64: the root disk of qemu -M virt (virtio-blk on PCI or MMIO, ext4)\nvirtio_pci\nvirtio_mmio\nvirtio_blk\next4\ncrc32c_generic\n" >"$1/usr/share/initramfs-tools/modules.d/kfit-e2e"' \
	--customize-hook='echo kfit-arm64 >"$1/etc/hostname"' \
	--customize-hook='printf "LABEL=root / ext4 errors=remount-ro 0 1\n" >"$1/etc/fstab"' \
	--customize-hook='chroot "$1" systemd-machine-id-setup' \
	--customize-hook='chroot "$1" passwd -d root' \
	bookworm "$dir.tmp" $srcs
end=$(date +%s)
mv "$dir.tmp" "$dir"
ver=$(ls "$dir/boot" | sed -n 's/^vmlinuz-//p' | head -n 1)
[ -f "$dir/boot/initrd.img-$ver" ] || {
	echo "arm64-rootfs.sh: no initramfs for $ver in $dir/boot" >&2
	exit 1
}
{
	echo "stock_package=linux-image-$ver"
	echo "stock_version=$(chroot "$dir" dpkg-query -W -f='${Version}' "linux-image-$ver")"
	echo "stock_release=$ver"
	echo "rootfs_seconds=$((end - start))"
} >"$cache/arm64/stock.env"
echo "$sum" >"$stamp"
echo "arm64-rootfs.sh: wrote $dir ($((end - start)) s)"

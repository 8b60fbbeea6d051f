#!/bin/sh
# pc-rootfs.sh - the Debian 12 root filesystem of the emulated PC (`make
# e2e-pc`, e2e/pc-run.sh): a directory made by mmdebstrap from this
# machine's own apt sources, with systemd, udev, systemd-networkd,
# initramfs-tools, Debian's stock kernel (linux-image of the same version
# as the installed linux-source-6.1, else linux-image-amd64) and
# systemd-boot, installed the way Debian does it: `bootctl install` into
# /boot/efi (the ESP, FAT, mounted there by fstab in the guest), and the
# kernel with its initramfs put on the ESP by `kernel-install add` with a
# loader entry (/etc/kernel/cmdline gives the command line).  On the host
# the ESP is a plain directory, so bootctl and kernel-install run with
# SYSTEMD_RELAX_ESP_CHECKS=1; e2e/pc-disk.sh copies /boot/efi into the FAT
# partition of the disk image.
#
# usage: e2e/pc-rootfs.sh CACHEDIR
# Writes CACHEDIR/pc/rootfs.d (kept: the kfit kernel is installed into a
# copy of it).  Rebuilt only when missing or when this script changed.
set -eu

cache=$1
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=e2e/pc-ids.env
. "$here/pc-ids.env"
dir=$cache/pc/rootfs.d
stamp=$dir.stamp
mkdir -p "$cache/pc"
sum=$(cat "$0" "$here/pc-ids.env" | sha256sum | cut -d' ' -f1)
if [ -d "$dir" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
	echo "pc-rootfs.sh: $dir up to date"
	exit 0
fi

srcs=
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
	/etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	grep -Eq '^[^#]*\bbookworm\b' "$f" || continue
	srcs="$srcs $f"
done
if [ -z "$srcs" ]; then
	echo "pc-rootfs.sh: no apt source for bookworm in /etc/apt" >&2
	exit 1
fi

# Debian's stock kernel of the version of the installed linux-source-6.1
# (the tree kfit's kernel is built from), else the current one.
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || true)
stock=
if [ -n "$srcver" ]; then
	stock=$(apt-cache show "linux-image-amd64=$srcver" 2>/dev/null |
		sed -n 's/^Depends: \(linux-image-[^ ]*\) .*/\1/p' | head -n 1)
fi
[ -n "$stock" ] || stock=linux-image-amd64

pkgs="systemd,systemd-sysv,udev,dbus,iproute2,kmod,procps,initramfs-tools,systemd-boot,dosfstools,$stock"
. "$here/fs.sh"
remove_tree "$dir" "$dir.tmp"
rm -f "$stamp"
echo "pc-rootfs.sh: mmdebstrap bookworm ($pkgs) from$srcs"
start=$(date +%s)
# shellcheck disable=SC2086  # the list of source files is split on purpose
mmdebstrap --variant=minbase --include="$pkgs" \
	--customize-hook='echo kfit-pc >"$1/etc/hostname"' \
	--customize-hook="printf 'UUID=$root_uuid / ext4 errors=remount-ro 0 1\nUUID=$esp_uuid /boot/efi vfat umask=0077 0 2\n' >\"\$1/etc/fstab\"" \
	--customize-hook='chroot "$1" systemd-machine-id-setup' \
	--customize-hook='chroot "$1" passwd -d root' \
	--customize-hook="mkdir -p \"\$1/etc/kernel\" && echo '$cmdline' >\"\$1/etc/kernel/cmdline\"" \
	bookworm "$dir.tmp" $srcs
# systemd-boot and the stock kernel's loader entry.
"$here/pc-chroot.sh" "$dir.tmp" bootctl install --esp-path=/boot/efi --no-variables
for v in "$dir.tmp"/boot/vmlinuz-*; do
	v=${v##*/vmlinuz-}
	"$here/pc-chroot.sh" "$dir.tmp" kernel-install add "$v" "/boot/vmlinuz-$v" "/boot/initrd.img-$v"
done
end=$(date +%s)
mv "$dir.tmp" "$dir"
ver=$(ls "$dir/boot" | sed -n 's/^vmlinuz-//p' | head -n 1)
{
	echo "stock_package=linux-image-$ver"
	echo "stock_version=$(chroot "$dir" dpkg-query -W -f='${Version}' "linux-image-$ver")"
	echo "stock_release=$ver"
	echo "rootfs_seconds=$((end - start))"
} >"$cache/pc/stock.env"
echo "$sum" >"$stamp"
echo "pc-rootfs.sh: wrote $dir ($((end - start)) s)"

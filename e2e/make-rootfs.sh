#!/bin/sh
# make-rootfs.sh - build the Debian root filesystem the e2e kernels boot:
# an ext4 image made with mmdebstrap from this machine's own apt sources
# (/etc/apt/sources.list and /etc/apt/sources.list.d; no mirror names live
# in this repository) when they name SUITE, else from the machine's Debian
# mirror with the suite's name (the archive serves bullseye, trixie, forky
# and sid to a machine whose sources name only bookworm), with systemd, udev, iproute2, systemd-networkd (DHCP
# on the virtio-net interface), a serial getty on ttyS0 (systemd's getty
# generator starts it for console=ttyS0), the in-guest test unit
# (e2e/guest/), and Debian's stock kernel package of the same version as
# the installed linux-source-6.1 (bookworm only), so its vmlinuz and the
# initramfs made by its own mkinitramfs (initramfs-tools) can be booted
# for comparison.
#
# usage: e2e/make-rootfs.sh SUITE CACHEDIR
# Writes CACHEDIR/rootfs-SUITE.ext4, CACHEDIR/stock/{vmlinuz,initrd.img}.
# Cached: rebuilt only when the image is missing or this script or the
# guest files changed (a stamp holds their checksum).
set -eu

suite=$1 cache=$2
here=$(cd "$(dirname "$0")" && pwd)
img=$cache/rootfs-$suite.ext4
stamp=$img.stamp
mkdir -p "$cache/stock"

# The check script is copied into the image on every run (debugfs, no
# rebuild), so changing the checks costs nothing; the rest is stamped.
sync_check() {
	debugfs -w -R "rm /usr/local/sbin/kfit-e2e-check" "$img" >/dev/null 2>&1 || true
	debugfs -w -R "write $here/guest/kfit-e2e-check /usr/local/sbin/kfit-e2e-check" "$img" >/dev/null 2>&1
	debugfs -w -R "sif /usr/local/sbin/kfit-e2e-check mode 0100755" "$img" >/dev/null 2>&1
	debugfs -R "cat /usr/local/sbin/kfit-e2e-check" "$img" 2>/dev/null |
		cmp -s - "$here/guest/kfit-e2e-check" || {
		echo "make-rootfs.sh: could not copy the check script into $img" >&2
		exit 1
	}
}
sum=$(cat "$0" "$here/guest/kfit-e2e.service" "$here/guest/20-wired.network" | sha256sum | cut -d' ' -f1)
if [ -f "$img" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
	sync_check
	echo "make-rootfs.sh: $img up to date"
	exit 0
fi

# The machine's apt sources, as mmdebstrap takes them (a file argument is
# copied into the chroot's sources).  Only entries of the suite's family.
srcs= aptopt='Acquire::Check-Valid-Until "true"'
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
	/etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	grep -Eq "^[^#]*\b$suite\b" "$f" || continue
	srcs="$srcs $f"
done
if [ -z "$srcs" ]; then
	# No source names the suite: the machine's Debian mirror (not the
	# security one: scripts/apt-mirror.sh, none is an error), by suite.
	mirror=$("$here/../scripts/apt-mirror.sh") || exit 1
	srcs="deb ${mirror%/} $suite main"
	# testing and sid carry a Release file valid for a week: a mirror that
	# serves a frozen copy of the archive has them expired ("Release file
	# ... is expired"); the suite is still signed and checked.
	aptopt='Acquire::Check-Valid-Until "false"'
fi

# Debian's stock kernel of the version of the installed linux-source-6.1,
# from the machine's own (bookworm) sources.
srcver= stock=
if [ "$suite" = bookworm ]; then
	srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || true)
fi
if [ -n "$srcver" ]; then
	stock=$(apt-cache show "linux-image-amd64=$srcver" 2>/dev/null |
		sed -n 's/^Depends: \(linux-image-[^ ]*\) .*/\1/p' | head -n 1)
	[ -n "$stock" ] || echo "make-rootfs.sh: no stock linux-image for linux-source-6.1 $srcver; skipping it" >&2
fi

pkgs="systemd,systemd-sysv,udev,dbus,iproute2,kmod,procps,iputils-ping,initramfs-tools"
[ -z "$stock" ] || pkgs="$pkgs,$stock"

dir=$cache/rootfs-$suite.d
. "$here/fs.sh"
remove_tree "$dir"
rm -rf "$img.tmp"
echo "make-rootfs.sh: mmdebstrap $suite ($pkgs) from $srcs"
case $srcs in deb\ *) set -- "$srcs" ;; *) set -- $srcs ;; esac # shellcheck disable=SC2086
mmdebstrap --variant=minbase --include="$pkgs" --aptopt="$aptopt" \
	--customize-hook='echo kfit-e2e >"$1/etc/hostname"' \
	--customize-hook='printf "/dev/vda / ext4 errors=remount-ro 0 1\n" >"$1/etc/fstab"' \
	--customize-hook='chroot "$1" systemd-machine-id-setup' \
	--customize-hook='chroot "$1" passwd -d root' \
	--customize-hook="mkdir -p \"\$1/usr/local/sbin\" \"\$1/etc/systemd/network\" &&
		cp '$here/guest/kfit-e2e-check' \"\$1/usr/local/sbin/\" &&
		cp '$here/guest/kfit-e2e.service' \"\$1/etc/systemd/system/\" &&
		cp '$here/guest/20-wired.network' \"\$1/etc/systemd/network/\" &&
		chmod 755 \"\$1/usr/local/sbin/kfit-e2e-check\"" \
	--customize-hook='for d in lib usr/lib; do [ -x "$1/$d/systemd/systemd-networkd" ] && exit 0; done
		chroot "$1" apt-get install -y -q systemd-networkd' \
	--customize-hook='chroot "$1" systemctl enable kfit-e2e.service systemd-networkd.service' \
	"$suite" "$dir" "$@"

if [ -n "$stock" ]; then
	cp "$dir"/boot/vmlinuz-* "$cache/stock/vmlinuz"
	cp "$dir"/boot/initrd.img-* "$cache/stock/initrd.img"
	echo "stock_package=$stock" >"$cache/stock/result.env"
	echo "stock_version=$srcver" >>"$cache/stock/result.env"
fi

mkfs.ext4 -q -L root -d "$dir" "$img.tmp" 2G
mv "$img.tmp" "$img"
sync_check
remove_tree "$dir"
echo "$sum" >"$stamp"
echo "make-rootfs.sh: wrote $img"

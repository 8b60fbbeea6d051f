#!/bin/sh
# pc-chroot.sh - run a command in the emulated PC's root directory as if
# the system were running: a private mount namespace with /dev, /proc and
# /sys, and the ESP at /boot/efi as a mount of its own (a tmpfs holding a
# copy of the directory, copied back afterwards) so that bootctl and
# kernel-install treat it as the ESP: bootctl wants the root of a mount,
# and kernel-install writes loader entry paths relative to the mount point
# of /boot/efi (`stat -c %m`, which a bind mount of the same file system
# would not change).  SYSTEMD_RELAX_ESP_CHECKS=1 lets them accept a
# file system other than FAT; e2e/pc-disk.sh copies /boot/efi into the
# FAT partition.
#
# usage: e2e/pc-chroot.sh DIR COMMAND [ARG...]
set -eu
[ $# -ge 2 ] || { echo "usage: $0 DIR COMMAND [ARG...]" >&2; exit 2; }
# shellcheck disable=SC2016  # expanded by the inner shell
exec unshare -m sh -euc '
	d=$1
	shift
	mount --rbind /dev "$d/dev"
	mount -t proc proc "$d/proc"
	mount -t sysfs sysfs "$d/sys"
	mkdir -p "$d/boot/efi"
	rm -rf "$d/boot/.efi"
	cp -a "$d/boot/efi" "$d/boot/.efi"
	mount -t tmpfs -o mode=0755 esp "$d/boot/efi"
	cp -a "$d/boot/.efi/." "$d/boot/efi/"
	rc=0
	SYSTEMD_RELAX_ESP_CHECKS=1 chroot "$d" "$@" || rc=$?
	rm -rf "$d/boot/.efi"
	cp -a "$d/boot/efi" "$d/boot/.efi"
	umount "$d/boot/efi"
	rm -rf "$d/boot/efi"
	mv "$d/boot/.efi" "$d/boot/efi"
	exit "$rc"
' sh "$@"

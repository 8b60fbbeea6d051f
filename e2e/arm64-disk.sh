#!/bin/sh
# arm64-disk.sh - the emulated arm64 board's root disk image from a root
# directory (e2e/arm64-rootfs.sh, or the copy with kfit's kernel
# installed): one ext4 file system, no partition table (QEMU boots the
# kernel with -kernel/-initrd, root=/dev/vda), made by mkfs.ext4 -d, so no
# loop device or mount is needed.  Before that, the guest's test files are
# copied into the directory: the check script and its unit, networkd's
# DHCP file, snapshot-machine.sh and a drop-in that lifts the start
# timeout of /dev/ttyAMA0's device unit.
#
# usage: e2e/arm64-disk.sh ROOTDIR IMAGE
set -eu

dir=$1 img=$2
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=e2e/lib.sh
. "$here/lib.sh"

guest_files "$here" "$dir" arm64

# No start timeout for the console's device unit: udev's coldplug under TCG
# on a loaded machine took longer than systemd's 90 s, and
# serial-getty@ttyAMA0 then failed on its dependency (a stock boot here).
mkdir -p "$dir/etc/systemd/system/dev-ttyAMA0.device.d"
printf '[Unit]\nJobTimeoutSec=0\nJobRunningTimeoutSec=0\n' \
	>"$dir/etc/systemd/system/dev-ttyAMA0.device.d/kfit-e2e.conf"

rm -f "$img.tmp"
mkfs.ext4 -q -L root -d "$dir" "$img.tmp" 3072M
mv "$img.tmp" "$img"
echo "arm64-disk.sh: wrote $img"

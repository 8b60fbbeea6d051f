#!/bin/sh
# arm64-boot.sh - boot the emulated arm64 board (make e2e-arm64): QEMU TCG
# (a nested KVM guest does not work on this machine class), `-M virt` with
# the device tree QEMU makes for it, `-cpu cortex-a57`, 2 vCPUs, 2 GiB,
# the kernel and initramfs given with -kernel/-initrd (no firmware, no boot
# loader), the root disk (e2e/arm64-disk.sh, snapshot=on: every boot
# starts from the same image) and a 64 MiB results disk on virtio-blk-pci,
# virtio-net-pci with user networking, xHCI with a USB keyboard and
# tablet, and the board's PL011 as the serial console (ttyAMA0) into a
# file.  The guest's test unit (e2e/guest/kfit-e2e-arm64-check) prints its
# results on the serial console and writes them, the bound drivers and a
# snapshot of the machine as a tar archive onto the results disk.  With
# STICK, that raw image is a USB stick on the xHCI (usb-storage, opened
# with snapshot=on), which the guest test mounts and reads.  The host
# checks the serial log for the getty's login prompt on ttyAMA0.
#
# usage: e2e/arm64-boot.sh NAME IMAGE KERNEL INITRD DIR [STICK]
# Writes DIR/serial.log, DIR/results/ (the archive unpacked), DIR/boot.env.
# Exit 0 when every check passed, 1 otherwise (with a report on stderr).
set -eu

name=$1 image=$2 kernel=$3 initrd=$4 dir=$5 stick=${6:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/qemu.sh"
# shellcheck source=e2e/lib.sh
. "$here/lib.sh"
# shellcheck disable=SC2034  # read by run_qemu (qemu.sh)
qemu="qemu-system-aarch64"
timeout=${KFIT_E2E_BOOT_TIMEOUT:-3000}
smp=2
mkdir -p "$dir"
rm -rf "$dir/results" "$dir/serial.log" "$dir/boot.env"
rm -f "$dir/results.img"
truncate -s 64M "$dir/results.img"
log=$dir/serial.log
cmdline="root=/dev/vda ro console=ttyAMA0 kfit.e2e=arm64 kfit.smp=$smp"

set -- -accel tcg -machine virt -cpu cortex-a57 -smp "$smp" -m 2048 \
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
	-drive "file=$image,if=none,id=root,format=raw,snapshot=on" \
	-device virtio-blk-pci,drive=root \
	-drive "file=$dir/results.img,if=none,id=res,format=raw" \
	-device virtio-blk-pci,drive=res \
	-netdev user,id=net0 -device virtio-net-pci,netdev=net0,romfile= \
	-device qemu-xhci,id=xhci -device usb-kbd,bus=xhci.0 -device usb-tablet,bus=xhci.0 \
	-display none -monitor none -serial "file:$log" -no-reboot
if [ -n "$stick" ]; then
	set -- "$@" -drive "file=$stick,if=none,id=stick,format=raw,snapshot=on" \
		-device usb-storage,bus=xhci.0,drive=stick
fi

run_qemu "arm64-boot.sh: $name" "$image" "$timeout" "$dir" "$log" "$@"
boot_unpack "$dir" "$log"
# The getty's prompt on the PL011 (the hostname is kfit-arm64).
if tr -d '\r' <"$log" | grep -q 'kfit-arm64 login:'; then
	echo "ok serial-login-prompt" >>"$dir/results.txt"
else
	echo "not ok serial-login-prompt: no 'kfit-arm64 login:' in $log" >>"$dir/results.txt"
fi
boot_finish "arm64-boot.sh: $name" "$dir" "$log"
exit "$fail"

#!/bin/sh
# pc-boot.sh - boot the emulated PC (make e2e-pc) from a disk image made by
# e2e/pc-disk.sh: QEMU TCG (a nested KVM guest hangs on this machine
# class), q35, UEFI from Debian's ovmf (OVMF_CODE_4M read-only, a fresh
# copy of OVMF_VARS_4M per boot), 2 vCPUs, 2 GiB, the disk on NVMe
# (snapshot=on: every boot starts from the same image), xHCI with a USB
# keyboard and tablet, the i8042 PS/2 keyboard and mouse q35 always has,
# e1000e with user networking (no option ROM: no network boot to wait
# for), Intel HDA with an hda-duplex codec, -vga std (bochs), q35's own
# AHCI controller with a 64 MiB results disk, and the first serial port
# into a file.  The firmware boots systemd-boot from the ESP's removable
# path; the guest's test unit (e2e/guest/kfit-e2e-pc-check) prints its
# results on the serial console and writes them, the bound drivers and a
# snapshot of the machine as a tar archive onto the results disk.  With
# STICK, that raw image is a USB stick on the xHCI (usb-storage, opened
# with snapshot=on), which the guest test mounts and reads.
#
# usage: e2e/pc-boot.sh NAME IMAGE DIR [STICK]
# Writes DIR/serial.log, DIR/results/ (the archive unpacked), DIR/boot.env.
# Exit 0 when every check passed, 1 otherwise (with a report on stderr).
set -eu

name=$1 image=$2 dir=$3 stick=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/qemu.sh"
# shellcheck source=e2e/lib.sh
. "$here/lib.sh"
timeout=${KFIT_E2E_BOOT_TIMEOUT:-1500}
smp=2
code=/usr/share/OVMF/OVMF_CODE_4M.fd
vars=/usr/share/OVMF/OVMF_VARS_4M.fd
for f in "$code" "$vars"; do
	[ -f "$f" ] || { echo "pc-boot.sh: $f missing (Debian package ovmf)" >&2; exit 1; }
done
mkdir -p "$dir"
rm -rf "$dir/results" "$dir/serial.log" "$dir/boot.env"
cp "$vars" "$dir/OVMF_VARS.fd"
rm -f "$dir/results.img"
truncate -s 64M "$dir/results.img"
log=$dir/serial.log

set -- -accel tcg -machine q35 -smp "$smp" -m 2048 \
	-drive "if=pflash,format=raw,unit=0,readonly=on,file=$code" \
	-drive "if=pflash,format=raw,unit=1,file=$dir/OVMF_VARS.fd" \
	-drive "file=$image,if=none,id=root,format=raw,snapshot=on" \
	-device nvme,drive=root,serial=kfitroot,bootindex=0 \
	-device qemu-xhci,id=xhci -device usb-kbd,bus=xhci.0 -device usb-tablet,bus=xhci.0 \
	-netdev user,id=net0 -device e1000e,netdev=net0,romfile= \
	-audiodev none,id=snd0 -device intel-hda -device hda-duplex,audiodev=snd0 \
	-vga std \
	-drive "file=$dir/results.img,if=none,id=res,format=raw" \
	-device ide-hd,drive=res,bus=ide.0,serial=KFITRESULTS \
	-display none -monitor none -serial "file:$log" -no-reboot
if [ -n "$stick" ]; then
	set -- "$@" -drive "file=$stick,if=none,id=stick,format=raw,snapshot=on" \
		-device usb-storage,bus=xhci.0,drive=stick
fi

run_qemu "pc-boot.sh: $name" "$image" "$timeout" "$dir" "$log" "$@"
boot_unpack "$dir" "$log"
# Journal warnings, judged against the allow-list (reported, not failed:
# the firmware check above is the journal check the PC must pass).
boot_finish "pc-boot.sh: $name" "$dir" "$log" "$here/journal-allow.txt"
exit "$fail"

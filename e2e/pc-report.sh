#!/bin/sh
# pc-report.sh - the emulated PC's section of docs/e2e.md (make e2e-pc)
# from CACHE/pc: the stock and kfit kernels side by side, the bound-driver
# comparison, each boot's checks, the timings of each step and
# e2e/pc-findings.md.
#
# usage: e2e/pc-report.sh CACHE [FILE]
# Without FILE the section is printed; with FILE it replaces the part of
# FILE between the e2e-pc markers (appended when FILE has none), as
# e2e/report-all.sh does for its own section.
set -eu

pc=$1/pc file=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/section.sh"
begin='<!-- e2e-pc: begin (written by e2e/pc-report.sh) -->'
end='<!-- e2e-pc: end -->'
[ -f "$pc/stock.env" ] || exit 0

get() {
	v=
	if [ -f "$1" ]; then
		v=$(sed -n "s/^$2=//p" "$1" | tail -n 1 | sed "s/^'//; s/'\$//")
	fi
	echo "${v:--}"
}
mib() { [ "$1" = - ] && echo - || awk -v b="$1" 'BEGIN{printf "%.1f MiB", b/1048576}'; }
mmss() { [ "$1" = - ] && echo - || awk -v s="$1" 'BEGIN{printf "%d min %02d s", s/60, s%60}'; }
secs() { [ "$1" = - ] && echo - || echo "$1 s"; }
st() { case $(get "$1" boot_pass) in 1) echo pass ;; 0) echo "**fail**" ;; *) echo "not booted" ;; esac; }

sb=$pc/stock/boot/boot.env k=$pc/kfit kb=$pc/kfit/boot/boot.env
sroot=$pc/rootfs.d
srel=$(get "$pc/stock.env" stock_release)
cfg=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
sy=- sm=-
if [ -f "$cfg" ]; then sy=$(xz -dc "$cfg" | grep -c '=y$'); sm=$(xz -dc "$cfg" | grep -c '=m$'); fi
svz=- smod=- smodn=- sird=-
if [ -d "$sroot/lib/modules/$srel" ]; then
	svz=$(stat -c %s "$sroot/boot/vmlinuz-$srel")
	smod=$(du -sb "$sroot/lib/modules/$srel" | cut -f1)
	smodn=$(find "$sroot/lib/modules/$srel" -name '*.ko*' | wc -l)
	sird=$(stat -c %s "$sroot/boot/initrd.img-$srel")
fi

section() {
	echo "$begin"
	echo
	cat <<'HEAD'
## Emulated UEFI PC (`make e2e-pc`)

The loop a user goes through on a PC, on an emulated one (e2e/pc-run.sh):
QEMU TCG, `-machine q35`, UEFI from Debian's `ovmf` (OVMF_CODE_4M, a
fresh OVMF_VARS_4M per boot), 2 vCPUs, 2 GiB, an NVMe disk with a GPT, an
EFI system partition (FAT32, mounted at /boot/efi) and an ext4 root, xHCI
with a USB keyboard and tablet, q35's i8042 PS/2 keyboard and mouse,
e1000e (user networking), Intel HDA with hda-duplex, `-vga std` (bochs),
q35's AHCI controller with a 64 MiB results disk. Debian 12 (mmdebstrap
from the machine's apt sources) boots the way Debian installs it:
systemd-boot from the ESP's removable path, kernel and initramfs put on
the ESP by `kernel-install` with a loader entry.

1. Debian's stock kernel with its initramfs; inside,
   `scripts/snapshot-machine.sh` and the list of bound drivers
   (/sys/bus/*/devices/*/driver), written to the results disk.
2. On the host: `kfit generate --detect --root SNAPSHOT -k <6.1 tree>`
   (the default policy: initramfs, modules), `kfit build --format deb`, the
   linux-image package installed into the image with `dpkg -i` in a chroot
   (its postinst: update-initramfs, then systemd-boot's kernel-install hook
   adds the loader entry), that entry made the default.
3. Booted the same way and checked in the guest.

HEAD
	echo "| kernel | config | =y | =m | kernel image | modules | initramfs | build | boot to multi-user | systemd-analyze | boot wall | bound devices | checks |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	echo "| Debian stock $(get "$pc/stock.env" stock_package) ($(get "$pc/stock.env" stock_version)) | Debian's amd64 config | $sy | $sm | $(mib "$svz") | $smodn, $(mib "$smod") | $(mib "$sird") | not built here | $(secs "$(get "$sb" boot_multi_user_seconds)") | $(get "$sb" boot_startup) | $(secs "$(get "$sb" boot_wall_seconds)") (load $(get "$sb" boot_loadavg | cut -d' ' -f1)) | $(get "$sb" bound_devices) | $(st "$sb") |"
	echo "| kfit, Debian 6.1 tree ($(get "$k/install.env" release)) | generate --detect --root (stock boot's snapshot) | $(get "$k/result.env" opts_y) | $(get "$k/result.env" opts_m) | $(mib "$(get "$k/result.env" bzimage_bytes)") | $(get "$k/install.env" modules_count), $(mib "$(get "$k/install.env" modules_bytes)") | $(mib "$(get "$k/install.env" initrd_bytes)") | $(mmss "$(get "$k/result.env" build_seconds)") wall, -j$(get "$k/result.env" build_jobs), load $(get "$k/result.env" build_loadavg | cut -d' ' -f1); $(mmss "$(get "$k/result.env" build_cpu_seconds)") CPU | $(secs "$(get "$kb" boot_multi_user_seconds)") | $(get "$kb" boot_startup) | $(secs "$(get "$kb" boot_wall_seconds)") (load $(get "$kb" boot_loadavg | cut -d' ' -f1)) | $(get "$kb" bound_devices) | $(st "$kb") |"
	echo
	echo "Modules: the \`.ko\` files under /lib/modules/RELEASE and their total size"
	echo "(with modules.* indexes). Boot to multi-user is multi-user.target's"
	echo "activation on the monotonic clock (kernel, initrd, userspace);"
	echo "systemd-analyze adds the firmware (OVMF) and loader (systemd-boot) times"
	echo "systemd-boot passes on; wall is QEMU's start to power-off."
	echo
	if [ -f "$pc/compare.txt" ]; then
		echo "Bound drivers, stock vs kfit (e2e/pc-compare.sh; every device the stock kernel"
		echo "had bound must be bound again):"
		echo
		echo '```'
		cat "$pc/compare.txt"
		echo '```'
		echo
	fi
	for b in stock:Debian\ stock kfit:kfit; do
		d=$pc/${b%%:*}/boot
		[ -f "$d/results.txt" ] || continue
		echo "### ${b#*:} kernel on the PC: checks"
		echo
		echo '```'
		grep -E '^(ok|not ok|info )' "$d/results.txt" || true
		echo '```'
		echo
		echo "journalctl -b -p warning: $(get "$d/boot.env" journal_warnings) lines, $(get "$d/boot.env" journal_unexpected) not in e2e/journal-allow.txt (reported, not failed)."
		if [ -s "$d/journal-unexpected.txt" ]; then
			echo
			echo '```'
			cat "$d/journal-unexpected.txt"
			echo '```'
		fi
		echo
	done
	t=$pc/timings.env
	echo "Timings of the steps (seconds; a step the cache skipped keeps its last"
	echo "figure): root filesystem (mmdebstrap) $(get "$t" rootfs_seconds) ($(get "$pc/stock.env" rootfs_seconds) when made),"
	echo "stock disk image $(get "$t" stock_disk_seconds), stock boot $(get "$t" stock_boot_seconds), generate $(get "$t" generate_seconds),"
	echo "kfit build $(get "$t" build_seconds), install (dpkg -i, initramfs, kernel-install) $(get "$t" install_seconds),"
	echo "kfit disk image $(get "$t" kfit_disk_seconds), kfit boot $(get "$t" kfit_boot_seconds)."
	echo
	[ ! -f "$here/pc-findings.md" ] || cat "$here/pc-findings.md"
	echo "$end"
}

if [ -z "$file" ]; then
	section
	exit 0
fi
write_section "$file"

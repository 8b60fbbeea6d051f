#!/bin/sh
# pc-report.sh - the emulated PC's section of docs/e2e.md (make e2e-pc)
# from CACHE/pc: the stock and kfit kernels side by side, the bound-driver
# comparison, each boot's checks, the timings of each step and
# e2e/pc-findings.md.
#
# usage: e2e/pc-report.sh CACHE [FILE [TREE]]
# Without FILE the section is printed; with FILE it replaces the part of
# FILE between the e2e-pc markers (appended when FILE has none), as
# e2e/report-all.sh does for its own section.  With TREE (a run of `make
# e2e-pc KFIT_E2E_PC_TREE=TREE` other than 6.1, results in
# CACHE/pc/kfit-TREE) the section of that tree, between its own markers:
# the kfit kernel beside the same stock boot, the comparison, its checks.
set -eu

pc=$1/pc file=${2:-} ktree=${3:-}
[ "$ktree" != 6.1 ] || ktree=
here=$(cd "$(dirname "$0")" && pwd)
. "$here/section.sh"
begin='<!-- e2e-pc: begin (written by e2e/pc-report.sh) -->'
end='<!-- e2e-pc: end -->'
if [ -n "$ktree" ]; then
	begin="<!-- e2e-pc-$ktree: begin (written by e2e/pc-report.sh) -->"
	end="<!-- e2e-pc-$ktree: end -->"
fi
[ -f "$pc/stock.env" ] || exit 0

# shellcheck source=e2e/lib.sh
. "$here/lib.sh"

sb=$pc/stock/boot/boot.env k=$pc/kfit kb=$pc/kfit/boot/boot.env
[ -z "$ktree" ] || { k=$pc/kfit-$ktree kb=$pc/kfit-$ktree/boot/boot.env; }
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

rows() { # TREE-LABEL: the table of the stock and the kfit kernel
	echo "| kernel | config | =y | =m | kernel image | modules | initramfs | build | boot to multi-user | systemd-analyze | boot wall | bound devices | checks |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	echo "| Debian stock $(get "$pc/stock.env" stock_package) ($(get "$pc/stock.env" stock_version)) | Debian's amd64 config | $sy | $sm | $(mib "$svz") | $smodn, $(mib "$smod") | $(mib "$sird") | not built here | $(secs "$(get "$sb" boot_multi_user_seconds)") | $(get "$sb" boot_startup) | $(secs "$(get "$sb" boot_wall_seconds)") (load $(get "$sb" boot_loadavg | cut -d' ' -f1)) | $(get "$sb" bound_devices) | $(st "$sb") |"
	echo "| kfit, $1 tree ($(get "$k/install.env" release)) | generate --detect --root (stock boot's snapshot) | $(get "$k/result.env" opts_y) | $(get "$k/result.env" opts_m) | $(mib "$(get "$k/result.env" bzimage_bytes)") | $(get "$k/install.env" modules_count), $(mib "$(get "$k/install.env" modules_bytes)") | $(mib "$(get "$k/install.env" initrd_bytes)") | $(mmss "$(get "$k/result.env" build_seconds)") wall, -j$(get "$k/result.env" build_jobs), load $(get "$k/result.env" build_loadavg | cut -d' ' -f1); $(mmss "$(get "$k/result.env" build_cpu_seconds)") CPU | $(secs "$(get "$kb" boot_multi_user_seconds)") | $(get "$kb" boot_startup) | $(secs "$(get "$kb" boot_wall_seconds)") (load $(get "$kb" boot_loadavg | cut -d' ' -f1)) | $(get "$kb" bound_devices) | $(st "$kb") |"
}

# The section of another tree's run (make e2e-pc KFIT_E2E_PC_TREE=TREE).
section_tree() {
	echo "$begin"
	echo
	echo "## Emulated UEFI PC on $ktree (\`make e2e-pc KFIT_E2E_PC_TREE=$ktree\`)"
	echo
	echo "The same loop as the 6.1 run above, the same stock boot and its snapshot,"
	echo "with \`kfit generate --detect --root SNAPSHOT\` on Debian's $ktree tree. Debian 12's"
	echo "stock kernel is 6.1, so the comparison crosses kernel versions: a device"
	echo "$ktree puts on another bus is \"moved\" (bound by the same driver there), and a"
	echo "PNP device $ktree does not make at all (none of its IDs in the tree's"
	echo "drivers/acpi/acpi_pnp.c) is counted apart (e2e/pc-compare.sh). The kfit boot"
	echo "has a FAT USB stick on the xHCI that the snapshot never saw."
	echo
	rows "Debian $ktree"
	echo
	if [ -f "$k/compare.txt" ]; then
		echo "Bound drivers, stock 6.1 vs kfit $ktree (e2e/pc-compare.sh):"
		echo
		echo '```'
		cat "$k/compare.txt"
		echo '```'
		echo
	fi
	results_checks "$k/boot" "kfit $ktree kernel on the PC" allow
	t=$k/timings.env
	echo "Timings of the steps (seconds; a step the cache skipped keeps its last"
	echo "figure): generate $(get "$t" generate_seconds), kfit build $(get "$t" build_seconds),"
	echo "install (dpkg -i, initramfs, kernel-install) $(get "$t" install_seconds),"
	echo "kfit disk image $(get "$t" kfit_disk_seconds), kfit boot $(get "$t" kfit_boot_seconds)."
	echo
	[ ! -f "$here/pc-findings-$ktree.md" ] || cat "$here/pc-findings-$ktree.md"
	echo "$end"
}

section() {
	[ -z "$ktree" ] || { section_tree; return; }
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
	rows "Debian 6.1"
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
	results_checks "$pc/stock/boot" "Debian stock kernel on the PC" allow
	results_checks "$pc/kfit/boot" "kfit kernel on the PC" allow
	stock_timings "$pc/timings.env" "$pc/stock.env" mmdebstrap "kfit build" "dpkg -i, initramfs, kernel-install"
	[ ! -f "$here/pc-findings.md" ] || cat "$here/pc-findings.md"
	echo "$end"
}

if [ -z "$file" ]; then
	section
	exit 0
fi
write_section "$file"

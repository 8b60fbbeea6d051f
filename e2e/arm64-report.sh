#!/bin/sh
# arm64-report.sh - the emulated arm64 board's section of docs/e2e.md
# (make e2e-arm64) from CACHE/arm64: the stock and kfit kernels side by
# side, the bound-driver comparison, each boot's checks and the timings of
# each step, and e2e/arm64-findings.md (what the runs found) when there
# is one.
#
# usage: e2e/arm64-report.sh CACHE [FILE]
# Without FILE the section is printed; with FILE it replaces the part of
# FILE between the e2e-arm64 markers (appended when FILE has none).
set -eu

a=$1/arm64 file=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/section.sh"
begin='<!-- e2e-arm64: begin (written by e2e/arm64-report.sh) -->'
end='<!-- e2e-arm64: end -->'
[ -f "$a/stock.env" ] || exit 0

# shellcheck source=e2e/lib.sh
. "$here/lib.sh"

sb=$a/stock/boot/boot.env k=$a/kfit kb=$a/kfit/boot/boot.env
sroot=$a/rootfs.d
srel=$(get "$a/stock.env" stock_release)
sy=- sm=- svz=- smod=- smodn=- sird=-
if [ -f "$sroot/boot/config-$srel" ]; then
	sy=$(grep -c '=y$' "$sroot/boot/config-$srel")
	sm=$(grep -c '=m$' "$sroot/boot/config-$srel")
fi
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
## Emulated arm64 board (`make e2e-arm64`)

The loop a user goes through on a device-tree board, on an emulated one
(e2e/arm64-run.sh): QEMU TCG `qemu-system-aarch64 -M virt -cpu cortex-a57`,
2 vCPUs, 2 GiB, the device tree QEMU makes for the board (PL011 serial
console on ttyAMA0, PL031 RTC, the generic PCIe host), the kernel and
initramfs given with `-kernel`/`-initrd`, the root disk (ext4) and a
64 MiB results disk on virtio-blk-pci, virtio-net-pci (user networking),
xHCI with a USB keyboard and tablet. Debian 12 arm64 made by
`mmdebstrap --arch=arm64` through qemu-user-static.

1. Debian's stock arm64 kernel (linux-image-arm64) with its initramfs;
   inside, `scripts/snapshot-machine.sh` and the list of bound drivers.
2. On the host: `kfit generate --detect --root SNAPSHOT -a arm64 -k <6.12
   tree>`, the kernel cross-built by `kfit build -a arm64 --format plain`
   (CROSS_COMPILE=aarch64-linux-gnu-, which kfit build takes for another
   architecture), what it staged (image, System.map, config, modules)
   copied into the image, its
   initramfs Debian's stock one (initramfs-tools, MODULES=list) with the
   modules replaced by kfit's (e2e/arm64-initrd.sh).
3. Booted the same way, with a FAT USB stick on the xHCI that the
   snapshot never saw, and checked in the guest; the host looks for the
   getty's login prompt on the serial log.

HEAD
	echo "| kernel | config | =y | =m | kernel image | modules | initramfs | build | boot to multi-user | boot wall | bound devices | checks |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
	echo "| Debian stock $(get "$a/stock.env" stock_package) ($(get "$a/stock.env" stock_version)) | Debian's arm64 config | $sy | $sm | $(mib "$svz") (vmlinuz) | $smodn, $(mib "$smod") | $(mib "$sird") | not built here | $(secs "$(get "$sb" boot_multi_user_seconds)") | $(secs "$(get "$sb" boot_wall_seconds)") (load $(get "$sb" boot_loadavg | cut -d' ' -f1)) | $(get "$sb" bound_devices) | $(st "$sb") |"
	echo "| kfit, Debian 6.12 tree ($(get "$k/install.env" release)) | generate --detect --root (stock boot's snapshot) -a arm64 | $(get "$k/result.env" opts_y) | $(get "$k/result.env" opts_m) | $(mib "$(get "$k/result.env" image_bytes)") (Image) | $(get "$k/install.env" modules_count), $(mib "$(get "$k/install.env" modules_bytes)") | $(mib "$(get "$k/install.env" initrd_bytes)") | $(mmss "$(get "$k/result.env" build_seconds)") wall, -j$(get "$k/result.env" build_jobs), load $(get "$k/result.env" build_loadavg | cut -d' ' -f1); $(mmss "$(get "$k/result.env" build_cpu_seconds)") CPU | $(secs "$(get "$kb" boot_multi_user_seconds)") | $(secs "$(get "$kb" boot_wall_seconds)") (load $(get "$kb" boot_loadavg | cut -d' ' -f1)) | $(get "$kb" bound_devices) | $(st "$kb") |"
	echo
	if [ -f "$k/compare.txt" ]; then
		echo "Bound drivers, stock vs kfit (e2e/pc-compare.sh; every device the stock kernel"
		echo "had bound must be bound again):"
		echo
		echo '```'
		cat "$k/compare.txt"
		echo '```'
		echo
	fi
	for b in stock:Debian\ stock kfit:kfit; do
		results_checks "$a/${b%%:*}/boot" "${b#*:} kernel on the arm64 board"
	done
	stock_timings "$k/timings.env" "$a/stock.env" "mmdebstrap through qemu-user" "cross build" "modules, initramfs"
	[ ! -f "$here/arm64-findings.md" ] || cat "$here/arm64-findings.md"
	echo "$end"
}

if [ -z "$file" ]; then
	section
	exit 0
fi
write_section "$file"

#!/bin/sh
# arm64-run.sh - `make e2e-arm64`: proof on an emulated arm64 board, the
# loop a user would go through on a device-tree machine.  1. Debian 12
# arm64 (mmdebstrap --arch=arm64 through qemu-user-static:
# e2e/arm64-rootfs.sh) with its stock kernel (linux-image-arm64) and
# initramfs, booted under qemu-system-aarch64 -M virt (TCG, cortex-a57,
# -kernel/-initrd: e2e/arm64-disk.sh, arm64-boot.sh); inside,
# snapshot-machine.sh and the list of bound drivers.  2. On the host,
# `kfit generate --detect --root SNAPSHOT -a arm64` on Debian's 6.12 tree
# (KFIT_E2E_ARM64_TREE: any version or tarball scripts/kernel-tree.sh
# takes), the kernel cross-built by `kfit build -a arm64 --format plain`
# (CROSS_COMPILE=aarch64-linux-gnu-, Debian's gcc-aarch64-linux-gnu; the
# image, System.map, config and modules staged in CACHE/arm64/kfit/install),
# its modules installed into a copy of the image and its
# initramfs made there by update-initramfs (in a chroot, through
# qemu-user-static).  3. That kernel booted the same way, with a FAT USB
# stick on the xHCI the snapshot never saw, and checked: running, 0
# failed units, a login prompt on the PL011 (ttyAMA0), every device the
# stock kernel had bound bound again by the same driver
# (e2e/pc-compare.sh), the stick readable, the PL031 RTC.  Results and
# step timings in CACHE/arm64/ (6.12) or CACHE/arm64/kfit-TREE/ (another
# tree); its section of docs/e2e.md is rewritten (e2e/arm64-report.sh).
#
# Cached in ${KFIT_E2E_CACHE:-~/.cache/kfit/e2e}/arm64: the root directory
# (until arm64-rootfs.sh changes), the stock boot and its snapshot (until
# the guest files or the boot scripts change; KFIT_E2E_ARM64_STOCK=1
# reboots it), the kernel build (until the generated config changes; the
# build directory is kept, so a changed config rebuilds only what it
# changes).  The build runs under nice -n ${KFIT_E2E_NICE:-10}, with
# -j ${KFIT_E2E_JOBS:-2}.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cache=${KFIT_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kfit/e2e}
a=$cache/arm64
kfit=$root/build/kfit
ver=${KFIT_E2E_ARM64_TREE:-6.12}
if [ "$ver" = 6.12 ]; then k=$a/kfit; else k=$a/kfit-$(basename "$ver"); fi
out=$k
mkdir -p "$a/stock" "$k"
tm=$out/timings.env
: >"$tm.new"
t0=$(date +%s)
me="arm64-run.sh"
# shellcheck source=e2e/lib.sh
. "$here/lib.sh"
. "$here/fs.sh"

# 1. The root directory and the stock boot.
t=$(now)
"$here/arm64-rootfs.sh" "$cache"
step rootfs $(($(now) - t))
. "$a/stock.env"

sum=$(cat "$a/rootfs.d.stamp" "$here/guest/kfit-e2e-arm64-check" "$here/guest/kfit-e2e-arm64.service" \
	"$root/scripts/snapshot-machine.sh" "$here/arm64-disk.sh" "$here/arm64-boot.sh" "$here/qemu.sh" "$here/lib.sh" |
	sha256sum | cut -d' ' -f1)
snap=$a/stock/boot/results/snapshot
if ! stock_cached "$a/stock" "$sum" "$snap" "${KFIT_E2E_ARM64_STOCK:-0}"; then
	t=$(now)
	"$here/arm64-disk.sh" "$a/rootfs.d" "$a/stock/disk.img"
	step stock_disk $(($(now) - t))
	t=$(now)
	"$here/arm64-boot.sh" "debian-stock" "$a/stock/disk.img" \
		"$a/rootfs.d/boot/vmlinuz-$stock_release" "$a/rootfs.d/boot/initrd.img-$stock_release" \
		"$a/stock/boot" ||
		echo "arm64-run.sh: note: Debian's stock kernel did not pass every check (reported, not kfit's)"
	step stock_boot $(($(now) - t))
	stock_booted "$a/stock" "$sum" "$snap"
fi

# 2. kfit generate --detect on the snapshot, the cross build, install.
tree=$("$root/scripts/kernel-tree.sh" "$ver")
echo "arm64-run.sh: kernel tree $tree"
kfit_generate "$kfit" "$snap" "$tree" arm64 "$k" "-a arm64"

obj=$k/obj
stage=$k/install
if [ -f "$k/config.built" ] && cmp -s "$k/config.new" "$k/config.built" &&
	[ -f "$k/staged.txt" ]; then
	echo "arm64-run.sh: kernel build up to date ($obj)"
else
	rm -f "$k/config.built" "$k/staged.txt"
	remove_tree "$stage"
	t=$(now)
	# kfit build: cross-compiles for -a arm64 (CROSS_COMPILE from Debian's
	# gcc-aarch64-linux-gnu), builds everything make builds, installs
	# the modules and stages the image into $stage
	if ! nice -n "${KFIT_E2E_NICE:-10}" /usr/bin/time -f '%U %S' -o "$k/build.time" \
		"$kfit" build -k "$tree" -a arm64 -c "$k/config.new" -O "$obj" \
		--format plain -j "${KFIT_E2E_JOBS:-2}" >"$k/staged.txt.new" 2>"$k/build.log"; then
		tail -n 40 "$k/build.log" >&2
		echo "arm64-run.sh: FAIL: kfit build (log: $k/build.log)" >&2
		exit 1
	fi
	mv "$k/staged.txt.new" "$k/staged.txt"
	bs=$(($(now) - t))
	step build "$bs"
	# the kernel's make must not have changed what kfit wrote
	grep '^CONFIG_' "$k/config.new" | sort >"$k/config.new.sorted"
	grep '^CONFIG_' "$obj/.config" | sort >"$k/config.obj.sorted"
	if ! diff "$k/config.new.sorted" "$k/config.obj.sorted" >"$k/olddefconfig.diff" 2>&1; then
		echo "arm64-run.sh: note: the kernel's make changed the generated config ($k/olddefconfig.diff)"
	fi
	{
		build_figures "$k" "$bs"
		echo "image_bytes=$(stat -c %s "$(grep '/boot/vmlinuz-' "$k/staged.txt" | head -n 1)")"
	} >"$k/result.env"
	cp "$k/config.new" "$k/config.built"
fi

# The image: a copy of the stock root directory with what kfit build
# staged (kernel, System.map, config, modules) and an initramfs made by
# Debian's own update-initramfs.
t=$(now)
vmlinuz=$(grep '/boot/vmlinuz-' "$k/staged.txt" | head -n 1)
rel=${vmlinuz##*/vmlinuz-}
remove_tree "$k/rootfs.d"
cp -a "$a/rootfs.d" "$k/rootfs.d"
cp -a "$stage/boot/." "$k/rootfs.d/boot/"
if [ -d "$stage/lib/modules/$rel" ]; then
	mkdir -p "$k/rootfs.d/lib/modules"
	cp -a "$stage/lib/modules/$rel" "$k/rootfs.d/lib/modules/"
fi
if [ "${KFIT_E2E_ARM64_INITRAMFS:-repack}" = chroot ]; then
	# Debian's update-initramfs in the image (through qemu-user-static:
	# 20 minutes and more on a loaded 2-core machine)
	# shellcheck disable=SC2016  # expanded by the inner shell
	unshare -m sh -euc '
		d=$1 rel=$2
		mount --rbind /dev "$d/dev"
		mount -t proc proc "$d/proc"
		mount -t sysfs sysfs "$d/sys"
		chroot "$d" update-initramfs -c -k "$rel"
	' sh "$k/rootfs.d" "$rel" >>"$k/install.log" 2>&1 || {
		tail -n 20 "$k/install.log" >&2
		echo "arm64-run.sh: FAIL: update-initramfs for $rel (log: $k/install.log)" >&2
		exit 1
	}
else
	# The stock initramfs (made by Debian's update-initramfs when the
	# image was) with its modules replaced by every module of kfit's
	# kernel and their modules.* indexes: the same init, udev and tools,
	# on the host in seconds.
	"$here/arm64-initrd.sh" "$a/rootfs.d/boot/initrd.img-$stock_release" \
		"$k/rootfs.d/lib/modules/$rel" "$rel" "$k/rootfs.d/boot/initrd.img-$rel" >>"$k/install.log" 2>&1 || {
		tail -n 20 "$k/install.log" >&2
		echo "arm64-run.sh: FAIL: the initramfs for $rel (log: $k/install.log)" >&2
		exit 1
	}
fi
step install $(($(now) - t))
{
	echo "release=$rel"
	if [ -d "$k/rootfs.d/lib/modules/$rel" ]; then
		echo "modules_bytes=$(du -sb "$k/rootfs.d/lib/modules/$rel" | cut -f1)"
		echo "modules_count=$(find "$k/rootfs.d/lib/modules/$rel" -name '*.ko*' | wc -l)"
	fi
	echo "initrd_bytes=$(stat -c %s "$k/rootfs.d/boot/initrd.img-$rel")"
} >"$k/install.env"
cp "$k/rootfs.d/boot/vmlinuz-$rel" "$k/rootfs.d/boot/initrd.img-$rel" "$k/"

# 3. Boot kfit's kernel, with the USB stick plugged in, and compare.
t=$(now)
"$here/arm64-disk.sh" "$k/rootfs.d" "$k/disk.img"
step kfit_disk $(($(now) - t))
remove_tree "$k/rootfs.d"
make_stick "$k" "${KFIT_E2E_ARM64_STICK:-1}"
fail=0
t=$(now)
"$here/arm64-boot.sh" "kfit" "$k/disk.img" "$k/vmlinuz-$rel" "$k/initrd.img-$rel" "$k/boot" "$stick" || fail=1
step kfit_boot $(($(now) - t))
rm -f "$k/disk.img" ${stick:+"$stick"}

"$here/pc-compare.sh" "$a/stock/boot/results/drivers.txt" "$k/boot/results/drivers.txt" \
	>"$out/compare.txt" || fail=1
cat "$out/compare.txt"

timings_save
if [ "$ver" = 6.12 ]; then
	"$here/arm64-report.sh" "$cache" "$root/docs/e2e.md"
	echo "arm64-run.sh: wrote its section of docs/e2e.md"
else
	echo "arm64-run.sh: results in $k (docs/e2e.md reports the 6.12 run only)"
fi
run_result "$fail" "$t0"
exit "$fail"

#!/bin/sh
# pc-run.sh - `make e2e-pc`: proof on an emulated UEFI PC, the loop a user
# would go through.  1. Debian 12 with its stock kernel and initramfs,
# booted by systemd-boot from the ESP of an NVMe disk (e2e/pc-rootfs.sh,
# pc-disk.sh, pc-boot.sh: q35, OVMF, xHCI keyboard and tablet, PS/2, e1000e,
# HDA, std VGA, AHCI); inside, snapshot-machine.sh and the list of bound
# drivers.  2. On the host, `kfit generate --detect --root SNAPSHOT` on
# Debian's 6.1 tree (KFIT_E2E_PC_TREE=7.3, or any version or tarball
# scripts/kernel-tree.sh takes, for another) with the default policy,
# `kfit build` (a Debian
# package), the package installed into the image with dpkg as Debian does
# (initramfs, systemd-boot entry: pc-install.sh).  3. That kernel booted the
# same way, now with a FAT USB stick on the xHCI that the snapshot never
# saw (a 16 MiB vfat image holding KFIT.TXT), and checked: every device the
# stock kernel had bound is bound again by the same driver
# (e2e/pc-compare.sh), the stick mounts and KFIT.TXT
# reads back, the RTC gives the time, UEFI, fbcon, keyboards, network,
# sound, vCPUs, 0 failed units, no firmware load failure.  Results and
# step timings in CACHE/pc/ (6.1) or CACHE/pc/kfit-TREE/ (another tree);
# its section of docs/e2e.md is rewritten (e2e/pc-report.sh; another
# tree than 6.1 has a section of its own).
#
# Cached in ${KFIT_E2E_CACHE:-~/.cache/kfit/e2e}/pc: the root directory
# (until pc-rootfs.sh changes), the stock boot and its snapshot (until the
# guest files or the boot scripts change; KFIT_E2E_PC_STOCK=1 reboots it),
# the kernel build per tree (until the generated config changes).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cache=${KFIT_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kfit/e2e}
pc=$cache/pc
kfit=$root/build/kfit
ver=${KFIT_E2E_PC_TREE:-6.1}
# 6.1 keeps the directories it always had; another tree has its own
if [ "$ver" = 6.1 ]; then k=$pc/kfit out=$pc; else k=$pc/kfit-$(basename "$ver"); out=$k; fi
mkdir -p "$pc/stock" "$k"
tm=$out/timings.env
: >"$tm.new"
t0=$(date +%s)
me="pc-run.sh"
# shellcheck source=e2e/lib.sh
. "$here/lib.sh"

# 1. The root directory and the stock boot.
t=$(now)
"$here/pc-rootfs.sh" "$cache"
step rootfs $(($(now) - t))
. "$pc/stock.env"

sum=$(cat "$pc/rootfs.d.stamp" "$here/guest/kfit-e2e-pc-check" "$here/guest/kfit-e2e-pc.service" \
	"$root/scripts/snapshot-machine.sh" "$here/pc-disk.sh" "$here/pc-boot.sh" "$here/qemu.sh" "$here/pc-ids.env" \
	"$here/lib.sh" |
	sha256sum | cut -d' ' -f1)
snap=$pc/stock/boot/results/snapshot
if ! stock_cached "$pc/stock" "$sum" "$snap" "${KFIT_E2E_PC_STOCK:-0}"; then
	t=$(now)
	"$here/pc-disk.sh" "$pc/rootfs.d" "$stock_release" "$pc/stock/disk.img"
	step stock_disk $(($(now) - t))
	t=$(now)
	"$here/pc-boot.sh" "debian-stock" "$pc/stock/disk.img" "$pc/stock/boot" ||
		echo "pc-run.sh: note: Debian's stock kernel did not pass every check (reported, not kfit's)"
	step stock_boot $(($(now) - t))
	stock_booted "$pc/stock" "$sum" "$snap"
fi

# 2. kfit generate --detect on the snapshot, kfit build, install.
tree=$("$root/scripts/kernel-tree.sh" "$ver")
echo "pc-run.sh: kernel tree $tree"
kfit_generate "$kfit" "$snap" "$tree" x86_64 "$k"

deb=
if [ -f "$k/config.built" ] && cmp -s "$k/config.new" "$k/config.built" && [ -f "$k/image.deb" ]; then
	echo "pc-run.sh: kernel package up to date ($k/image.deb)"
	deb=$k/image.deb
else
	# the build directory is kept: a changed config rebuilds only what
	# it changes
	rm -rf "$k/image.deb" "$k/config.built" "$k"/debs/*.deb
	mkdir -p "$k/debs"
	t=$(now)
	if ! nice -n 10 /usr/bin/time -f '%U %S' -o "$k/build.time" \
		"$kfit" build -k "$tree" -a x86_64 -c "$k/config.new" -O "$k/debs/obj" \
		--format deb -j "${KFIT_E2E_JOBS:-2}" >"$k/packages.txt" 2>"$k/build.log"; then
		tail -n 40 "$k/build.log" >&2
		echo "pc-run.sh: FAIL: kfit build (log: $k/build.log)" >&2
		exit 1
	fi
	bs=$(($(now) - t))
	step build "$bs"
	img=$(grep '/linux-image-[^/]*\.deb$' "$k/packages.txt" | grep -v -- '-dbg_' | head -n 1)
	[ -n "$img" ] && [ -f "$img" ] || {
		cat "$k/packages.txt" >&2
		echo "pc-run.sh: FAIL: kfit build named no linux-image package" >&2
		exit 1
	}
	cp "$img" "$k/image.deb"
	obj=$k/debs/obj
	{
		echo "version=$(dpkg-deb -f "$k/image.deb" Package | sed 's/^linux-image-//')"
		build_figures "$k" "$bs"
		echo "bzimage_bytes=$(stat -c %s "$obj/arch/x86/boot/bzImage")"
		echo "package_bytes=$(stat -c %s "$k/image.deb")"
	} >"$k/result.env"
	cp "$k/config.new" "$k/config.built"
	deb=$k/image.deb
fi

t=$(now)
rel=$("$here/pc-install.sh" "$pc/rootfs.d" "$k/rootfs.d" "$deb" | tail -n 1)
step install $(($(now) - t))
{
	echo "release=$rel"
	echo "modules_bytes=$(du -sb "$k/rootfs.d/lib/modules/$rel" | cut -f1)"
	echo "modules_count=$(find "$k/rootfs.d/lib/modules/$rel" -name '*.ko*' | wc -l)"
	echo "initrd_bytes=$(stat -c %s "$k/rootfs.d/boot/initrd.img-$rel")"
} >"$k/install.env"

# 3. Boot kfit's kernel, with the USB stick plugged in, and compare.
t=$(now)
"$here/pc-disk.sh" "$k/rootfs.d" "$rel" "$k/disk.img"
step kfit_disk $(($(now) - t))
. "$here/fs.sh"
remove_tree "$k/rootfs.d"
# (KFIT_E2E_PC_STICK=0: without it, as before the stick check was added)
make_stick "$k" "${KFIT_E2E_PC_STICK:-1}"
fail=0
t=$(now)
"$here/pc-boot.sh" "kfit" "$k/disk.img" "$k/boot" "$stick" || fail=1
step kfit_boot $(($(now) - t))
rm -f "$k/disk.img" ${stick:+"$stick"}

"$here/pc-compare.sh" "$pc/stock/boot/results/drivers.txt" "$k/boot/results/drivers.txt" "$tree" \
	>"$out/compare.txt" || fail=1
cat "$out/compare.txt"

# Timings of this run; steps skipped from the cache keep the last figure.
timings_save
if [ "$ver" = 6.1 ]; then
	"$here/pc-report.sh" "$cache" "$root/docs/e2e.md"
	echo "pc-run.sh: wrote its section of docs/e2e.md"
else
	# another tree has a section of its own (its results are in $k)
	"$here/pc-report.sh" "$cache" "$root/docs/e2e.md" "$(basename "$ver")"
	echo "pc-run.sh: wrote the $(basename "$ver") section of docs/e2e.md (results in $k)"
fi
run_result "$fail" "$t0"
exit "$fail"

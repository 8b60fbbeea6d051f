#!/bin/sh
# build-kernel.sh - make a kernel config with kfit generate and build its
# bzImage out of tree (make -C TREE O=DIR; the cached source tree is never
# written to).  Results (option counts, build time, bzImage size) go to
# DIR/result.env for the report.
#
# usage: e2e/build-kernel.sh VERSION DISTRO-PROFILE DIR [EXTRA-PROFILE...]
#
# KFIT_E2E_BASE=FILE generates on top of that .config (kfit generate
# --base FILE: the upgrade path of make e2e-all) instead of allnoconfig.
#
# The build is skipped when DIR/bzImage exists and was built from the same
# .config (so repeated runs of make e2e only boot).
set -eu

ver=$1 distro=$2 dir=$3
shift 3
here=$(cd "$(dirname "$0")/.." && pwd)
kfit=$here/build/kfit
tree=$("$here/scripts/kernel-tree.sh" "$ver")
mkdir -p "$dir"

profiles="-p $distro -p kvm-guest"
for p in "$@"; do profiles="$profiles -p $p"; done

# shellcheck disable=SC2086  # profile list is split on purpose
"$kfit" generate -k "$tree" -a x86_64 $profiles --base "${KFIT_E2E_BASE:-allnoconfig}" \
	--initramfs no -o "$dir/config.new" --explain >"$dir/explain.txt" 2>&1 || {
	cat "$dir/explain.txt" >&2
	echo "build-kernel.sh: kfit generate failed for $ver ($distro)" >&2
	exit 1
}

if [ -f "$dir/bzImage" ] && [ -f "$dir/config.built" ] &&
	cmp -s "$dir/config.new" "$dir/config.built"; then
	echo "build-kernel.sh: $ver: bzImage up to date ($dir/bzImage)"
	exit 0
fi

obj=$dir/obj
mkdir -p "$obj"
cp "$dir/config.new" "$obj/.config"
jobs=${KFIT_E2E_JOBS:-$(nproc)}
echo "build-kernel.sh: $ver: building bzImage with -j$jobs in $obj (log: $dir/build.log)"
# Wall time depends on what else runs on the machine; GNU time's CPU
# seconds (user + sys of make and its children) do not, so both are kept,
# with the load average at the end.
start=$(date +%s)
if ! /usr/bin/time -f '%U %S' -o "$dir/build.time" \
	make -C "$tree" O="$obj" ARCH=x86_64 -j"$jobs" bzImage >"$dir/build.log" 2>&1; then
	tail -n 40 "$dir/build.log" >&2
	echo "build-kernel.sh: $ver: kernel build failed (log: $dir/build.log)" >&2
	exit 1
fi
end=$(date +%s)
# The kernel's own syncconfig must not have changed the generated config.
if ! cmp -s "$dir/config.new" "$obj/.config"; then
	echo "build-kernel.sh: $ver: warning: the kernel's make changed the generated .config:" >&2
	diff "$dir/config.new" "$obj/.config" | head -n 20 >&2 || true
fi
cp "$obj/arch/x86/boot/bzImage" "$dir/bzImage"
cp "$dir/config.new" "$dir/config.built"
{
	echo "version=$(make -s -C "$tree" O="$obj" kernelrelease 2>/dev/null)"
	echo "opts_y=$(grep -c '=y$' "$dir/config.built" || true)"
	echo "opts_m=$(grep -c '=m$' "$dir/config.built" || true)"
	echo "build_seconds=$((end - start))"
	echo "build_jobs=$jobs"
	echo "build_cpu_seconds=$(awk '{printf "%d", $1 + $2}' "$dir/build.time")"
	echo "build_loadavg=$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "bzimage_bytes=$(stat -c %s "$dir/bzImage")"
} >"$dir/result.env"
cat "$dir/result.env"

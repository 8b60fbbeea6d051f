#!/bin/sh
# kfit-build.sh - `kfit build` end to end: a small configuration
# (tinyconfig plus debian-12 and kvm-guest on Debian's 6.1 tree) built and
# packaged the way Debian installs kernels (make bindeb-pkg, chosen from the
# debian-12 profile the configuration was generated with), then checked:
# kfit build exits 0, names the packages it made, the linux-image package
# holds the kernel image, and the kernel's own build did not change the
# configuration.  Results go to DIR/result.env for the report.
#
# usage: e2e/kfit-build.sh DIR
set -eu

dir=$1
here=$(cd "$(dirname "$0")/.." && pwd)
kfit=$here/build/kfit
tree=$("$here/scripts/kernel-tree.sh" 6.1)
mkdir -p "$dir"
rm -rf "$dir/obj" "$dir"/*.deb "$dir"/*.buildinfo "$dir"/*.changes

"$kfit" generate -k "$tree" -a x86_64 -p debian-12 -p kvm-guest --base tinyconfig \
	--initramfs no -o "$dir/config" >"$dir/generate.log" 2>&1 || {
	cat "$dir/generate.log" >&2
	echo "kfit-build.sh: FAIL: kfit generate" >&2
	exit 1
}
grep '^kfit: next:' "$dir/generate.log"

start=$(date +%s)
loadavg=$(cut -d' ' -f1 /proc/loadavg)
if ! "$kfit" build -k "$tree" -a x86_64 -c "$dir/config" -O "$dir/obj" >"$dir/packages.txt" 2>"$dir/build.log"; then
	tail -n 40 "$dir/build.log" >&2
	echo "kfit-build.sh: FAIL: kfit build (log: $dir/build.log)" >&2
	exit 1
fi
end=$(date +%s)
grep '^kfit:' "$dir/build.log" | grep -v 'building \[' || true
image=$(grep '/linux-image-[^/]*\.deb$' "$dir/packages.txt" | grep -v -- '-dbg_' | head -n 1)
[ -n "$image" ] && [ -f "$image" ] || {
	cat "$dir/packages.txt" >&2
	echo "kfit-build.sh: FAIL: kfit build named no linux-image package" >&2
	exit 1
}
dpkg-deb -c "$image" | grep '/boot/vmlinuz-' >/dev/null || {
	echo "kfit-build.sh: FAIL: $image has no /boot/vmlinuz-*" >&2
	exit 1
}
if ! cmp -s "$dir/config" "$dir/obj/.config"; then
	echo "kfit-build.sh: FAIL: the kernel's make changed the configuration kfit made:" >&2
	diff "$dir/config" "$dir/obj/.config" | head -n 20 >&2 || true
	exit 1
fi
estimate=$(sed -n 's/.*about \([0-9]*\) objects).*/\1/p' "$dir/build.log" | head -n 1)
built=$(sed -n 's/^kfit: built in .* (\([0-9]*\) objects)$/\1/p' "$dir/build.log")
{
	echo "package=$(basename "$image")"
	echo "package_bytes=$(stat -c %s "$image")"
	echo "build_seconds=$((end - start))"
	echo "build_loadavg=$loadavg"
	echo "objects_estimated=$estimate"
	echo "objects_built=$built"
	echo "opts_y=$(grep -c '=y$' "$dir/config" || true)"
} >"$dir/result.env"
cat "$dir/result.env"
echo "kfit-build.sh: PASS"

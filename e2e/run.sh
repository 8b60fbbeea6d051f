#!/bin/sh
# run.sh - `make e2e`: proof by boot.  Builds the Debian root filesystem
# (e2e/make-rootfs.sh), two kernels from kfit's configs (debian-12 +
# kvm-guest on Debian's 6.1 tree, debian-13 + kvm-guest on 6.12;
# e2e/build-kernel.sh), boots each and Debian's stock 6.1 kernel with its
# initramfs on it (e2e/boot.sh), checks the config extended with docker,
# podman and lxc with the tools' own checkers (e2e/container-check.sh),
# builds and packages a small config with `kfit build` (e2e/kfit-build.sh)
# and regenerates docs/e2e.md (e2e/report.sh, e2e/kfit-build-report.sh).  Everything is cached in
# ${KFIT_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kfit/e2e}, so a second
# run only boots and checks.  Exit 0 when everything passed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cache=${KFIT_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kfit/e2e}
mkdir -p "$cache"
t0=$(date +%s)

# Debian 13 only if the machine's apt sources offer trixie.
if grep -Eqs '^[^#]*\btrixie\b' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
	/etc/apt/sources.list.d/*.sources; then
	suite13=trixie
else
	suite13=bookworm
	echo "run.sh: the apt sources offer no trixie: Debian 12 (bookworm) is the root filesystem for both kernels"
fi
echo "suite61=bookworm" >"$cache/suites.env"
echo "suite612=$suite13" >>"$cache/suites.env"

# The root filesystem(s) in the background while the kernels build.
(
	"$here/make-rootfs.sh" bookworm "$cache" &&
		if [ "$suite13" != bookworm ]; then "$here/make-rootfs.sh" "$suite13" "$cache"; fi
) >"$cache/rootfs.log" 2>&1 &
rootfs_pid=$!

fail=0
"$here/build-kernel.sh" 6.1 debian-12 "$cache/k61" || fail=1
"$here/build-kernel.sh" 6.12 debian-13 "$cache/k612" || fail=1

"$here/container-check.sh" 6.1 debian-12 "$cache/ct61" || fail=1
"$here/container-check.sh" 6.12 debian-13 "$cache/ct612" || fail=1
# kfit build itself: tinyconfig + debian-12 + kvm-guest, make bindeb-pkg
"$here/kfit-build.sh" "$cache/kbuild" || fail=1

if ! wait "$rootfs_pid"; then
	tail -n 30 "$cache/rootfs.log" >&2
	echo "run.sh: FAIL: the root filesystem could not be built (log: $cache/rootfs.log)" >&2
	exit 1
fi
cat "$cache/rootfs.log" | grep '^make-rootfs.sh' || true

if [ -f "$cache/k61/bzImage" ]; then
	"$here/boot.sh" kfit-6.1 "$cache/k61/bzImage" "$cache/rootfs-bookworm.ext4" "$cache/k61/boot" || fail=1
fi
if [ -f "$cache/k612/bzImage" ]; then
	"$here/boot.sh" kfit-6.12 "$cache/k612/bzImage" "$cache/rootfs-$suite13.ext4" "$cache/k612/boot" || fail=1
fi
# Debian's stock kernel: for comparison in the report; its failures are
# reported but are not kfit's.
if [ -f "$cache/stock/vmlinuz" ]; then
	"$here/boot.sh" debian-stock-6.1 "$cache/stock/vmlinuz" "$cache/rootfs-bookworm.ext4" \
		"$cache/stock/boot" "$cache/stock/initrd.img" || echo "run.sh: note: Debian's stock kernel did not pass every check"
fi
"$here/localmodconfig.sh" "$cache" || echo "run.sh: note: localmodconfig comparison not made"

"$here/report.sh" "$cache" >"$root/docs/e2e.md"
"$here/kfit-build-report.sh" "$cache" "$root/docs/e2e.md"
echo "run.sh: wrote docs/e2e.md"
me="run.sh"
# shellcheck source=e2e/lib.sh
. "$here/lib.sh"
run_result "$fail" "$t0"
exit "$fail"

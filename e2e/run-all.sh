#!/bin/sh
# run-all.sh - `make e2e-all`: proof by boot, one Debian release per kernel
# generation, each on its own userspace and its own kernel series:
#
#   release            tree   profile     root filesystem   kernel dir
#   Debian 11          5.10   debian-11   bullseye          k510
#   Debian 12          6.1    debian-12   bookworm          k61
#   Debian 13          6.12   debian-13   trixie            k612
#   Debian 14 (forky)  7.3    debian-14   forky             k73
#
# Each kernel is `kfit generate -p debian-N -p kvm-guest --base allnoconfig
# --initramfs no` on its tree (e2e/build-kernel.sh, the same build `make
# e2e` makes: k61 and k612 are shared with it), each root filesystem is made
# by mmdebstrap from Debian's archive by suite name (e2e/make-rootfs.sh),
# and each boot makes every check `make e2e` makes (e2e/boot.sh, e2e/guest/).
#
# Then the upgrade path: Debian 12's config from 6.1 carried to 7.3 by the
# kernel's own `make olddefconfig`, checked with `kfit check -p debian-13 -p
# kvm-guest` (what the newer userspace needs that the old config lacks),
# completed by `kfit generate --base THAT_CONFIG` (the fewest changes) and
# booted on Debian 13 (kernel dir k73-up).
#
# Results stay in the cache (${KFIT_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kfit/e2e});
# e2e/report-all.sh writes them into docs/e2e.md (the "Every Debian
# release" section, between its markers; the rest of the file is `make
# e2e`'s).  KFIT_E2E_ONLY="deb11 up" runs a subset (deb11 deb12 deb13
# deb14 up).  Kernel builds run under nice -n 10 (KFIT_E2E_NICE), one at
# a time.  Exit 0 when every boot passed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cache=${KFIT_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kfit/e2e}
only=${KFIT_E2E_ONLY:-deb11 deb12 deb13 deb14 up}
nice=${KFIT_E2E_NICE:-10}
kfit=$root/build/kfit
mkdir -p "$cache"
t0=$(date +%s)

releases="deb11:5.10:debian-11:bullseye:k510
deb12:6.1:debian-12:bookworm:k61
deb13:6.12:debian-13:trixie:k612
deb14:7.3:debian-14:forky:k73"
want() { case " $only " in *" $1 "*) return 0 ;; esac; return 1; }

# The root filesystems in the background while the kernels build.
suites=
for r in $releases; do
	IFS=: read -r name ver prof suite dir <<EOF
$r
EOF
	if want "$name" || { [ "$name" = deb13 ] && want up; }; then
		case " $suites " in *" $suite "*) ;; *) suites="$suites $suite" ;; esac
	fi
done
(
	for s in $suites; do
		"$here/make-rootfs.sh" "$s" "$cache" || exit 1
	done
) >"$cache/rootfs-all.log" 2>&1 &
rootfs_pid=$!

fail=0
for r in $releases; do
	IFS=: read -r name ver prof suite dir <<EOF
$r
EOF
	want "$name" || { [ "$name" = deb12 ] && want up; } || continue
	nice -n "$nice" "$here/build-kernel.sh" "$ver" "$prof" "$cache/$dir" || fail=1
done

# The upgrade path: 6.1's config carried to 7.3, checked, completed.
if want up; then
	up=$cache/k73-up
	tree73=$("$root/scripts/kernel-tree.sh" 7.3)
	mkdir -p "$up/olddef"
	if [ -f "$cache/k61/config.new" ]; then
		cp "$cache/k61/config.new" "$up/config.61"
		cp "$up/config.61" "$up/olddef/.config"
		make -s -C "$tree73" O="$up/olddef" ARCH=x86_64 olddefconfig \
			</dev/null >"$up/olddefconfig.log" 2>&1 || {
			tail "$up/olddefconfig.log" >&2
			fail=1
		}
		cp "$up/olddef/.config" "$up/config.carried"
		# what Debian 13's userspace needs that the carried config lacks
		set +e
		"$kfit" check -p debian-13 -p kvm-guest --initramfs no "$up/config.carried" \
			>"$up/check.txt" 2>&1
		echo "check_exit=$?" >"$up/check.env"
		set -e
		sed 's/^/    /' "$up/check.txt" | head -n 40
		KFIT_E2E_BASE=$up/config.carried nice -n "$nice" \
			"$here/build-kernel.sh" 7.3 debian-13 "$up" || fail=1
		# the fewest changes: the generated config against the carried one
		"$kfit" diff "$up/config.carried" "$up/config.new" >"$up/diff.txt" 2>&1 || true
		{
			echo "changed_lines=$(diff "$up/config.carried" "$up/config.new" | grep -c '^[<>] CONFIG_' || true)"
			echo "unmet=$(grep -c '^  *\(require\|recommend\)' "$up/check.txt" || true)"
		} >>"$up/check.env"
		# the generated config meets the profiles
		if "$kfit" check -p debian-13 -p kvm-guest --initramfs no "$up/config.new" >"$up/check-after.txt" 2>&1; then
			echo "check_after_exit=0" >>"$up/check.env"
		else
			echo "check_after_exit=$?" >>"$up/check.env"
			cat "$up/check-after.txt" >&2
			fail=1
		fi
	else
		echo "run-all.sh: FAIL: no Debian 12 config ($cache/k61/config.new) to carry to 7.3" >&2
		fail=1
	fi
fi

if ! wait "$rootfs_pid"; then
	tail -n 30 "$cache/rootfs-all.log" >&2
	echo "run-all.sh: FAIL: a root filesystem could not be built (log: $cache/rootfs-all.log)" >&2
	exit 1
fi
grep '^make-rootfs.sh' "$cache/rootfs-all.log" || true

boot() { # NAME KERNEL-DIR SUITE
	if [ -f "$2/bzImage" ]; then
		"$here/boot.sh" "$1" "$2/bzImage" "$cache/rootfs-$3.ext4" "$2/boot-$3" || fail=1
	else
		echo "run-all.sh: $1: no bzImage in $2" >&2
		fail=1
	fi
}
for r in $releases; do
	IFS=: read -r name ver prof suite dir <<EOF
$r
EOF
	want "$name" || continue
	boot "$prof-$ver" "$cache/$dir" "$suite"
done
want up && boot "debian-13-upgrade-7.3" "$cache/k73-up" trixie

"$here/report-all.sh" "$cache" "$root/docs/e2e.md"
echo "run-all.sh: updated docs/e2e.md"
me="run-all.sh"
# shellcheck source=e2e/lib.sh
. "$here/lib.sh"
run_result "$fail" "$t0"
exit "$fail"

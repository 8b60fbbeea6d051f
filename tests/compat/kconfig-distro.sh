#!/bin/bash
# kconfig-distro.sh - olddefconfig of real distribution configs into the
# 5.10, 6.1, 6.12 and 7.3 trees for x86_64, byte for byte against the
# kernel's `make olddefconfig`: every config in tests/data/distro-configs
# (kernels 4.19 to 6.18, so old configs into new trees and new into old)
# and Debian's own linux-config-5.10, -6.1, -6.12 and -7.3 amd64 configs,
# plus unknown-symbol warnings (KCONFIG_WARN_UNKNOWN_SYMBOLS, which 5.10's
# conf ignores).  make check takes a sample (see sample() below).
# KFIT_TEST_FULL=1 runs every config into every tree, ARCH=x86 (how Debian builds),
# listnewconfig and savedefconfig of each, and Debian's cloud and rt
# flavours.  See lib.sh for what is compared.
. "$(dirname "$0")/lib.sh"

# a copy lives in the repo so a fresh clone (CI) has them
DISTRO=${KFIT_DISTRO_CONFIGS:-$ROOT/tests/data/distro-configs}

configs=()
for f in "$DISTRO"/*.config.xz "$DISTRO"/*.config; do
	[ -f "$f" ] && configs+=("$f")
done
[ ${#configs[@]} -gt 0 ] || echo "skip distro-configs no configs in $DISTRO"
# 7.3 (fetched into the cache by `make deps`): its Debian config into
# every tree and every config into 7.3
vers="5.10 6.1 6.12 7.3"
for v in $vers; do
	configs+=("$(debian_config "$v")")
	if [ -n "$FULL" ]; then
		for f in "$(config_dir "$v")"/config.amd64_*.xz; do
			[ "$f" = "$(debian_config "$v")" ] || configs+=("$f")
		done
	fi
done

label() { # config path -> short name
	case $1 in
	*/linux-config-*/config.*)
		local v=${1##*/linux-config-}
		v=${v%%/*}
		local fl=${1##*/config.}
		echo "debian-pkg-$v-${fl%.xz}"
		;;
	*)
		local b=${1##*/}
		echo "${b%.config*}"
		;;
	esac
}

# make check: every distribution family once or twice (11 of the 21
# configs, into 6.1 or 6.12), each Debian package config into its own
# tree (and into a neighbour on 6.1 and 6.12), and a few old-into-new and
# new-into-old ones on 5.10 and 7.3;
# KFIT_TEST_FULL=1: every config into every tree.
sample() { # ver name index -> 0 when the case is in make check's sample
	local ver=$1 n=$2 i=$3
	case $ver-$n in
	5.10-debian-pkg-5.10-* | 5.10-alpine-3.13-*) return 0 ;;
	7.3-debian-pkg-7.3-* | 7.3-arch-2026-* | 7.3-debian-10-*) return 0 ;;
	6.1-debian-pkg-6.1-* | 6.12-debian-pkg-6.12-*) return 0 ;;
	5.10-* | 7.3-* | *-debian-pkg-*) return 1 ;;
	# old configs into new trees and new into old, across both
	# generations of conf's code (<= 6.10, >= 6.11); every family and
	# every config into every tree in check-full
	6.1-debian-12-* | 6.1-arch-2024-* | 6.1-nixos-latest-*) return 0 ;;
	6.12-alpine-3.13-* | 6.12-fedora-40-* | 6.12-opensuse-tumbleweed-*) return 0 ;;
	*) return 1 ;;
	esac
}
for ver in $vers; do
	i=0
	for cfg in "${configs[@]}"; do
		n=$(label "$cfg")
		i=$((i + 1))
		[ -n "$FULL" ] || sample "$ver" "$n" "$i" || continue
		add_case "$ver-x86_64-olddefconfig-$n" "$ver" x86_64 olddefconfig "$cfg"
		if [ -n "$FULL" ]; then
			add_case "$ver-x86-olddefconfig-$n" "$ver" x86 olddefconfig "$cfg"
			add_case "$ver-x86_64-listnewconfig-$n" "$ver" x86_64 listnewconfig "$cfg"
			add_case "$ver-x86_64-savedefconfig-$n" "$ver" x86_64 savedefconfig "$cfg"
		fi
	done
	# warnings for symbols the tree does not know (6.12 honours it, 6.1
	# ignores it: both must agree with their kernel)
	case $ver in 6.1 | 6.12) ;; *) [ -n "$FULL" ] || continue ;; esac
	add_case "$ver-x86_64-olddefconfig-warn-unknown-debian-10" "$ver" x86_64 olddefconfig \
		"$DISTRO/debian-10-4.19.249.config.xz" KCONFIG_WARN_UNKNOWN_SYMBOLS=1
done

run_cases

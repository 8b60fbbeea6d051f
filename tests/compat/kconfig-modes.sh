#!/bin/bash
# kconfig-modes.sh - every `kfit kconfig` mode against the kernel's own
# `make MODE`, byte for byte, on the 5.10, 6.1, 6.12 and 7.3 trees for
# x86_64, arm64, x86 (the kconfig default) and riscv: olddefconfig from an
# empty and from a missing .config, alldefconfig, allnoconfig,
# allyesconfig, allmodconfig, defconfig (the arch's default and a named
# one), tinyconfig, listnewconfig, savedefconfig of real configs,
# KCONFIG_ALLCONFIG, and .config files with broken lines
# (KCONFIG_WARN_UNKNOWN_SYMBOLS, _WERROR, which 5.10's conf ignores).
# By default (make check) a sample that still visits every mode and every
# special input once: allnoconfig on x86_64 of 5.10 and 7.3, defconfig on
# x86_64 of 5.10, on arm64 of 5.10 (with CROSS_COMPILE), 6.12 and 7.3, the
# named x86_64_defconfig of 6.12, i386_defconfig on x86 of 6.1, defconfig
# on riscv of 6.12, olddefconfig of an empty .config on 6.1 (CC=clang) and
# 6.12 (LLVM=1) (real configs are kconfig-distro.sh's), every other mode
# and input on one of the three trees (rotated, so each generation of
# conf's code, <= 6.10 and >= 6.11, sees the hardest modes), and a sample
# on 7.3 (fetched into the cache by `make deps`; see the end);
# KFIT_TEST_FULL=1 (make check-full): every case on every tree and arch.
# See lib.sh for what is compared.
. "$(dirname "$0")/lib.sh"

if [ -n "$FULL" ]; then
	vers="5.10 6.1 6.12 7.3"
else
	vers="5.10 6.1 6.12"
fi

# on: the tree a special case runs on in make check (every tree in
# check-full); $1 is the current tree, the rest the trees it runs on
on() {
	local ver=$1
	shift
	[ -n "$FULL" ] && return 0
	case " $* " in *" $ver "*) return 0 ;; esac
	return 1
}
# the (VER, ARCH) pairs make check visits at all (each needs the tree's
# conf built for that ARCH): x86_64 and arm64 everywhere, x86 on 6.1,
# riscv on 6.12
arch_by_default() { # ver arch
	case $1-$2 in
	*-x86_64 | *-arm64 | 6.1-x86 | 6.12-riscv) return 0 ;;
	*) return 1 ;;
	esac
}

for ver in $vers; do
	for arch in x86_64 arm64 x86 riscv; do
		[ -n "$FULL" ] || arch_by_default "$ver" "$arch" || continue
		if [ -n "$FULL" ]; then
			modes="olddefconfig alldefconfig allnoconfig allyesconfig allmodconfig defconfig tinyconfig listnewconfig"
		else
			# olddefconfig of real configs: kconfig-distro.sh; arm64
			# defconfig of 5.10 with CROSS_COMPILE below; x86_64 of
			# 6.12 with the defconfig named below
			case $ver-$arch in
			5.10-x86_64) modes="allnoconfig defconfig" ;;
			6.1-x86_64 | 6.12-x86_64 | 5.10-arm64 | 6.1-arm64 | 6.1-x86) modes="" ;;
			*) modes="defconfig" ;;
			esac
		fi
		for mode in $modes; do
			add_case "$ver-$arch-$mode" "$ver" "$arch" "$mode" empty
		done
		if [ -n "$FULL" ]; then
			add_case "$ver-$arch-olddefconfig-missing" "$ver" "$arch" olddefconfig none
			add_case "$ver-$arch-savedefconfig-of-defconfig" "$ver" "$arch" savedefconfig out:defconfig
			add_case "$ver-$arch-savedefconfig-of-allmodconfig" "$ver" "$arch" savedefconfig out:allmodconfig
		fi
	done
	if [ -z "$FULL" ]; then
		on "$ver" 5.10 && add_case "$ver-x86_64-alldefconfig" "$ver" x86_64 alldefconfig empty
		on "$ver" 6.12 && add_case "$ver-x86_64-allmodconfig" "$ver" x86_64 allmodconfig empty
		on "$ver" 5.10 && add_case "$ver-x86_64-tinyconfig" "$ver" x86_64 tinyconfig empty
		on "$ver" 6.1 && add_case "$ver-x86_64-listnewconfig" "$ver" x86_64 listnewconfig empty
		on "$ver" 6.12 && add_case "$ver-x86_64-olddefconfig-missing" "$ver" x86_64 olddefconfig none
		on "$ver" 5.10 && add_case "$ver-x86_64-savedefconfig-of-defconfig" "$ver" x86_64 savedefconfig out:defconfig
		on "$ver" 6.1 && add_case "$ver-x86_64-savedefconfig-of-allmodconfig" "$ver" x86_64 savedefconfig out:allmodconfig
	fi
	on "$ver" 6.12 && add_case "$ver-x86_64-defconfig-x86_64_defconfig" "$ver" x86_64 defconfig:x86_64_defconfig empty
	[ -n "$FULL" ] || arch_by_default "$ver" x86 &&
		add_case "$ver-x86-defconfig-i386_defconfig" "$ver" x86 defconfig:i386_defconfig empty
	on "$ver" 5.10 && add_case "$ver-x86_64-allnoconfig-allconfig" "$ver" x86_64 allnoconfig empty \
		'KCONFIG_ALLCONFIG=@frag:CONFIG_MODULES=y\nCONFIG_NET=y\nCONFIG_INET=y\n# CONFIG_BLOCK is not set\nCONFIG_NOT_A_SYMBOL=y\n'
	on "$ver" 6.1 && add_case "$ver-x86_64-allyesconfig-allconfig" "$ver" x86_64 allyesconfig empty \
		'KCONFIG_ALLCONFIG=@frag:# CONFIG_MODULES is not set\nCONFIG_HZ_100=y\n'
	on "$ver" 6.12 && add_case "$ver-x86_64-allmodconfig-allconfig-bad" "$ver" x86_64 allmodconfig empty \
		'KCONFIG_ALLCONFIG=@frag:CONFIG_64BIT=maybe\ngarbage line\nCONFIG_LOG_BUF_SHIFT=99\n'
	# savedefconfig of Debian's own config into its own tree, listnewconfig
	# of the next tree's (make check); check-full: all, both ways
	for from in $vers; do
		if [ -n "$FULL" ] || { [ "$from" = "$ver" ] && [ "$ver" != 6.1 ]; }; then
			add_case "$ver-x86_64-savedefconfig-debian-$from" "$ver" x86_64 savedefconfig "$(debian_config "$from")"
		fi
		if [ -n "$FULL" ] || [ "$ver-$from" = 6.1-6.12 ] || [ "$ver-$from" = 6.12-5.10 ]; then
			add_case "$ver-x86_64-listnewconfig-debian-$from" "$ver" x86_64 listnewconfig "$(debian_config "$from")"
		fi
	done
	[ -n "$FULL" ] &&
		add_case "$ver-x86-savedefconfig-debian-$ver" "$ver" x86 savedefconfig "$(debian_config "$ver")"
	# the toolchain the Kconfig files probe: LLVM and CROSS_COMPILE from
	# the environment as make takes them; CC=clang as `make CC=clang`
	# (make itself would ignore CC from the environment)
	on "$ver" 6.12 && add_case "$ver-x86_64-olddefconfig-env-LLVM" "$ver" x86_64 olddefconfig empty LLVM=1
	on "$ver" 6.1 && add_case "$ver-x86_64-olddefconfig-CC-clang" "$ver" x86_64 olddefconfig empty make:CC=clang
	on "$ver" 5.10 && add_case "$ver-arm64-defconfig-env-CROSS_COMPILE" "$ver" arm64 defconfig empty \
		CROSS_COMPILE=aarch64-linux-gnu-
	# broken .config lines: the kernel's warnings, the kernel's result
	on "$ver" 5.10 && add_case "$ver-x86_64-olddefconfig-broken-lines" "$ver" x86_64 olddefconfig \
		"mangle:$(debian_config "$ver")"
	on "$ver" 6.1 && add_case "$ver-x86_64-olddefconfig-broken-lines-warn-unknown" "$ver" x86_64 olddefconfig \
		"mangle:$(debian_config "$ver")" KCONFIG_WARN_UNKNOWN_SYMBOLS=1
	on "$ver" 6.12 && add_case "$ver-x86_64-olddefconfig-broken-lines-werror" "$ver" x86_64 olddefconfig \
		"mangle:$(debian_config "$ver")" KCONFIG_WARN_UNKNOWN_SYMBOLS=1 KCONFIG_WERROR=1
	on "$ver" 6.1 && add_case "$ver-x86_64-savedefconfig-broken-lines" "$ver" x86_64 savedefconfig \
		"mangle:$(debian_config "$ver")"
	[ -n "$FULL" ] && add_case "$ver-x86_64-savedefconfig-rand1" "$ver" x86_64 savedefconfig rand:1
	on "$ver" 6.12 && add_case "$ver-arm64-savedefconfig-rand2" "$ver" arm64 savedefconfig rand:2
	if [ -n "$FULL" ]; then
		for arch in x86_64 arm64 x86 riscv; do
			for seed in 3 4 5 6; do
				add_case "$ver-$arch-savedefconfig-rand$seed" "$ver" "$arch" savedefconfig "rand:$seed:1000000"
				add_case "$ver-$arch-listnewconfig-rand$seed" "$ver" "$arch" listnewconfig "rand:$seed:3"
			done
		done
	fi
done

if [ -z "$FULL" ]; then
	# 7.3's sample: the modes whose code paths differ most, Debian's
	# 7.3 config, and 6.12's into 7.3
	for mode in allnoconfig allmodconfig; do
		add_case "7.3-x86_64-$mode" 7.3 x86_64 "$mode" empty
	done
	add_case "7.3-arm64-defconfig" 7.3 arm64 defconfig empty
	add_case "7.3-x86_64-savedefconfig-debian-7.3" 7.3 x86_64 savedefconfig "$(debian_config 7.3)"
	add_case "7.3-x86_64-listnewconfig-debian-6.12" 7.3 x86_64 listnewconfig "$(debian_config 6.12)"
fi

run_cases

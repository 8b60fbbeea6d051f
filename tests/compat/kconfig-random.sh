#!/bin/bash
# kconfig-random.sh - random configurations.
#
#  * olddefconfig of the kernel's randconfig outputs (KCONFIG_SEED=1..N)
#    with every 7th line deleted, byte for byte against the kernel;
#  * kfit's own randconfig: its result must be a fixpoint of the kernel's
#    olddefconfig (randconfig is the one mode not compared byte for byte),
#    also with KCONFIG_PROBABILITY.
#
# Default: one seed on x86_64 of 5.10 and 6.12 and arm64 of 6.1 (a
# different seed each), the olddefconfig check on x86_64 and the
# randconfig check on arm64 (both on 5.10),
# every-3rd-line deletion and KCONFIG_PROBABILITY on arm64 of 6.1, and a
# sample on 7.3; KFIT_TEST_FULL=1: seeds 1..10 on x86_64,
# arm64, x86 and riscv of 5.10, 6.1, 6.12 and 7.3.  See lib.sh for what is
# compared.
. "$(dirname "$0")/lib.sh"

if [ -n "$FULL" ]; then
	arches="x86_64 arm64 x86 riscv"
else
	arches="x86_64 arm64"
fi

vers="5.10 6.1 6.12"
[ -n "$FULL" ] && vers="$vers 7.3"
pair=0
for ver in $vers; do
	for arch in $arches; do
		pair=$((pair + 1))
		# by default x86_64 of 5.10 and 6.12, arm64 of 6.1
		case $ver-$arch in 5.10-x86_64 | 6.1-arm64 | 6.12-x86_64) ;; *) [ -n "$FULL" ] || continue ;; esac
		if [ -n "$FULL" ]; then
			seeds=$(seq 1 10)
		else
			seeds=$pair
		fi
		for seed in $seeds; do
			# by default the two checks alternate between the arches
			# of a tree (5.10 has one arch: randconfig)
			if [ -n "$FULL" ] || { [ "$ver" != 5.10 ] && [ "$arch" = x86_64 ]; }; then
				add_case "$ver-$arch-olddefconfig-rand$seed" "$ver" "$arch" olddefconfig "rand:$seed"
			fi
			if [ -n "$FULL" ] || [ "$ver" = 5.10 ] || [ "$arch" = arm64 ]; then
				add_case "$ver-$arch-randconfig-seed$seed" "$ver" "$arch" randconfig none \
					KCONFIG_SEED="$seed"
			fi
		done
		# by default on arm64 of 6.1 only (check-full: everywhere)
		if [ -n "$FULL" ] || [ "$ver-$arch" = 6.1-arm64 ]; then
			add_case "$ver-$arch-olddefconfig-rand4-every3" "$ver" "$arch" olddefconfig "rand:4:3"
			add_case "$ver-$arch-randconfig-prob20" "$ver" "$arch" randconfig none \
				KCONFIG_SEED=7 KCONFIG_PROBABILITY=20
		fi
		if [ -n "$FULL" ]; then
			add_case "$ver-$arch-randconfig-prob3" "$ver" "$arch" randconfig none \
				KCONFIG_SEED=8 KCONFIG_PROBABILITY=10:50:25
		fi
	done
done

if [ -z "$FULL" ]; then
	add_case "7.3-x86_64-olddefconfig-rand1" 7.3 x86_64 olddefconfig rand:1
	add_case "7.3-arm64-randconfig-seed1" 7.3 arm64 randconfig none KCONFIG_SEED=1
fi

run_cases

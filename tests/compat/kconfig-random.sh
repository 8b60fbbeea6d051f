#!/bin/bash
# kconfig-random.sh - random configurations.
#
#  * olddefconfig of the kernel's randconfig outputs (KCONFIG_SEED=1..N)
#    with every 7th line deleted, byte for byte against the kernel;
#  * kfit's own randconfig: its result must be a fixpoint of the kernel's
#    olddefconfig (randconfig is the one mode not compared byte for byte),
#    also with KCONFIG_PROBABILITY.
#
# Default: a few seeds on x86_64 and arm64 of both trees; KFIT_TEST_FULL=1:
# seeds 1..10 on x86_64, arm64 and x86.  See lib.sh for what is compared.
. "$(dirname "$0")/lib.sh"

if [ -n "$FULL" ]; then
	arches="x86_64 arm64 x86"
	seeds=$(seq 1 10)
else
	arches="x86_64 arm64"
	seeds="1 2 3"
fi

for ver in 6.1 6.12; do
	for arch in $arches; do
		for seed in $seeds; do
			add_case "$ver-$arch-olddefconfig-rand$seed" "$ver" "$arch" olddefconfig "rand:$seed"
			# fewer fixpoint checks by default: each needs two kernel runs
			if [ -n "$FULL" ] || [ "$seed" -le 2 ]; then
				add_case "$ver-$arch-randconfig-seed$seed" "$ver" "$arch" randconfig none \
					KCONFIG_SEED="$seed"
			fi
		done
		add_case "$ver-$arch-olddefconfig-rand4-every3" "$ver" "$arch" olddefconfig "rand:4:3"
		add_case "$ver-$arch-randconfig-prob20" "$ver" "$arch" randconfig none \
			KCONFIG_SEED=7 KCONFIG_PROBABILITY=20
		if [ -n "$FULL" ]; then
			add_case "$ver-$arch-randconfig-prob3" "$ver" "$arch" randconfig none \
				KCONFIG_SEED=8 KCONFIG_PROBABILITY=10:50:25
		fi
	done
done

run_cases

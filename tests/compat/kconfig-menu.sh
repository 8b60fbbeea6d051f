#!/bin/bash
# kconfig-menu.sh - the RFC's in-tree Distro menu, judged by the kernel's own
# conf: with `kfit kconfig-menu --all --install` in a copy of each tree,
# `make allnoconfig` with KCONFIG_ALLCONFIG set to the `--allconfig`
# fragment of a distro + platform prints no warning (no unmet direct
# dependencies, no parse warnings) and gives a config in which `kfit check`
# finds every requirement of those profiles met.
set -uo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$ROOT/build}
KFIT=${KFIT:-$BUILD/kfit}
FILTER=${KFIT_TEST_FILTER:-}
unset MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES

want() { [ -z "$FILTER" ] || [[ compat/kconfig-menu/$1 =~ $FILTER ]]; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# make check: one pair per tree (an AppArmor distribution on 6.1, an
# SELinux one on 6.12); make check-full: every pair below
pairs_6_1="debian-12+kvm-guest"
pairs_6_12="fedora-43+desktop"
[ -n "${KFIT_TEST_FULL:-}" ] && {
	pairs_6_1="$pairs_6_1 fedora-38+laptop ubuntu-22.04+server centos-stream-9+xen-guest debian-11+virtualbox-guest gentoo-openrc+server nixos+kvm-guest"
	pairs_6_12="$pairs_6_12 debian-13+laptop debian-13+kvm-guest arch+hyperv-guest alpine-3.22+vmware-guest opensuse-tumbleweed+laptop ubuntu-24.04+gcp centos-stream-10+azure gentoo-systemd+aws"
}

for v in 6.1 6.12; do
	var=pairs_${v//./_}
	any=
	for pair in ${!var}; do want "$v-$pair" && any=1; done
	[ -n "$any" ] || continue
	tree=$("$ROOT/scripts/kernel-tree.sh" "$v" 2>/dev/null) || {
		echo "skip $v linux-source-$v is not installed"
		continue
	}
	copy=$work/tree-$v
	# a hard-linked copy: kfit replaces files by rename, never in place
	cp -al "$tree" "$copy"
	if ! out=$("$KFIT" kconfig-menu -k "$copy" -a x86_64 --all --install 2>&1); then
		echo "not ok $v-menu"
		printf '%s\n' "$out" | head -5 | sed 's/^/  /'
		continue
	fi
	if cmp -s "$tree/Kconfig" "$copy/Kconfig" || [ "$(stat -c %i "$tree/Kconfig")" = "$(stat -c %i "$copy/Kconfig")" ]; then
		echo "not ok $v-install"
		echo "  the copy's top-level Kconfig was not replaced"
		continue
	fi
	# --install twice adds the hook once
	"$KFIT" kconfig-menu -k "$copy" -a x86_64 -p debian-12 -o "$work/scratch-$v" --install >/dev/null 2>&1
	n=$(grep -c '^source "distro/Kconfig"' "$copy/Kconfig")
	if [ "$n" = 1 ]; then echo "ok $v-install-once"; else echo "not ok $v-install-once"; echo "  hook present $n times"; fi
	odir=$work/o-$v
	mkdir -p "$odir"
	for pair in ${!var}; do
		want "$v-$pair" || continue
		d=${pair%%+*} p=${pair#*+}
		"$KFIT" kconfig-menu -k "$copy" -a x86_64 -p "$d" -p "$p" --allconfig >"$work/$pair.frag" 2>/dev/null
		make -s -C "$copy" O="$odir" ARCH=x86_64 KCONFIG_CONFIG="$work/$pair.config" \
			KCONFIG_ALLCONFIG="$work/$pair.frag" allnoconfig >"$work/$pair.out" 2>"$work/$pair.err"
		rc=$?
		if [ $rc -ne 0 ] || [ -s "$work/$pair.err" ]; then
			echo "not ok $v-$pair"
			echo "  make allnoconfig exited $rc; the kernel's conf printed:"
			head -8 "$work/$pair.err" | sed 's/^/  /'
			continue
		fi
		if ! out=$("$KFIT" check -p "$d" -p "$p" "$work/$pair.config" 2>&1); then
			echo "not ok $v-$pair"
			echo "  kfit check: requirements unmet"
			printf '%s\n' "$out" | grep -v '^warning' | head -6 | sed 's/^/  /'
			continue
		fi
		echo "ok $v-$pair"
	done
	rm -rf "$copy" "$odir"
done

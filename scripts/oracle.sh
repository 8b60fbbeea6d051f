#!/bin/bash
# oracle.sh - build a kernel tree's own scripts/kconfig/conf out of tree,
# once, and print the build (O=) directory.  That conf is the oracle kfit is
# compared with:
#
#   odir=$(scripts/oracle.sh TREE ARCH)
#   make -s -C TREE O="$odir" ARCH=ARCH KCONFIG_CONFIG=/abs/file MODE
#
# (with O=, a relative KCONFIG_CONFIG is relative to O; pass absolute paths.)
#
#   scripts/oracle.sh TREE ARCH [SLOT]
#
# SLOT (a small number) gives a separate O dir per parallel worker: make
# writes O/Makefile, O/defconfig (savedefconfig) and friends on each run, so
# two makes must never share one O dir at the same time.  The O dir is
# CACHE/oracle/<tree name>-<hash of tree path>/<ARCH>[.<SLOT>], built under
# an flock so concurrent callers wait for one build.
set -euo pipefail

die() { echo "oracle.sh: $*" >&2; exit 2; }

[ $# -ge 2 ] && [ $# -le 3 ] || die "usage: scripts/oracle.sh TREE ARCH [SLOT]"
tree=$(readlink -f -- "$1") || die "$1: no such directory"
arch=$2
slot=${3:-}
[ -f "$tree/Kconfig" ] && [ -f "$tree/Makefile" ] && [ -d "$tree/scripts/kconfig" ] ||
	die "$tree: not a kernel tree"

if [ -n "${KFIT_CACHE_DIR:-}" ]; then
	cache=$KFIT_CACHE_DIR
elif xdg=${XDG_CACHE_HOME:-}; [ "${xdg:0:1}" = / ]; then
	cache=$XDG_CACHE_HOME/kfit
else
	cache=${HOME:?}/.cache/kfit
fi
cache=$(readlink -m -- "$cache")

# The O dir is named after the tree path, so a re-extracted tree (new
# package version, new cache key) gets a fresh oracle.
tkey=$(printf '%s' "$tree" | cksum | cut -d' ' -f1)
odir=$cache/oracle/${tree##*/}-$tkey/$arch${slot:+.$slot}
stamp=$odir/.kfit-oracle-ready

if [ ! -f "$stamp" ]; then
	mkdir -p "$odir"
	exec 9>"$odir.lock"
	flock 9
	if [ ! -f "$stamp" ]; then
		# make's own variables from an enclosing make (make check) and
		# KCONFIG_* settings must not leak into the oracle.
		log=$odir/.kfit-oracle-build.log
		# conf and fixdep are host programs, the same for every ARCH and
		# slot of a tree: start from a finished sibling's scripts/ (make
		# below still checks them and rebuilds whatever is out of date)
		for sib in "${odir%/*}"/*/.kfit-oracle-ready; do
			[ -f "$sib" ] || continue
			sib=${sib%/.kfit-oracle-ready}
			[ -d "$odir/scripts" ] || cp -a "$sib/scripts" "$odir/" 2>/dev/null || rm -rf "$odir/scripts"
			break
		done
		if ! env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u MAKEOVERRIDES \
			-u KCONFIG_ALLCONFIG -u KCONFIG_SEED -u KCONFIG_PROBABILITY \
			-u KCONFIG_OVERWRITECONFIG \
			make -s -C "$tree" O="$odir" ARCH="$arch" \
			KCONFIG_CONFIG="$odir/.kfit-oracle-build.config" olddefconfig \
			>"$log" 2>&1; then
			cat "$log" >&2
			die "building scripts/kconfig/conf for $tree ARCH=$arch failed"
		fi
		[ -x "$odir/scripts/kconfig/conf" ] || die "$odir/scripts/kconfig/conf was not built"
		rm -f "$odir/.kfit-oracle-build.config" "$odir/.kfit-oracle-build.config.old"
		touch "$stamp"
	fi
	exec 9>&-
fi
echo "$odir"

#!/bin/bash
# kernel-tree.sh - print the absolute path of an extracted Debian
# linux-source tree, extracting it into kfit's cache first when needed.
#
#   scripts/kernel-tree.sh 6.1            # /usr/src/linux-source-6.1.tar.*
#   scripts/kernel-tree.sh 6.12
#   scripts/kernel-tree.sh 7.3            # CACHE/debs/usr/src/linux-source-7.3.tar.*
#   scripts/kernel-tree.sh /path/to/linux-source-X.tar.xz
#   scripts/kernel-tree.sh -q 6.1         # no "extracting ..." progress line
#                                         # (tests whose stderr is compared)
#
# A VERSION is looked up in /usr/src (Debian 12's packages), then in
# CACHE/debs/usr/src (where scripts/fetch-kernel-debs.sh, run by `make
# deps`, unpacks 5.10 and 7.3), as lib/tree/tree.c does.
#
# The cache layout, key and lock file are exactly those of lib/tree/tree.c
# (kf_tree_resolve), so kfit and the tests share one extraction:
#
#   CACHE/trees/NAME-KEY/            the finished extraction (renamed into place)
#   CACHE/trees/NAME-KEY.lock        flock()ed while extracting
#   CACHE/trees/NAME-KEY.tmp/        work dir; a leftover is from a killed run
#
# NAME is the tarball's file name without .tar.xz/.tar.gz/.tar.bz2/.tar and
# KEY is the 32-bit FNV-1a hash (8 hex digits) of "SIZE:MTIME:INODE" of the
# tarball, so a new package version is extracted afresh.  CACHE is
# $KFIT_CACHE_DIR, else $XDG_CACHE_HOME/kfit (when absolute), else
# $HOME/.cache/kfit.
set -euo pipefail

die() { echo "kernel-tree.sh: $*" >&2; exit 2; }

quiet=
if [ "${1:-}" = -q ]; then quiet=1; shift; fi
[ $# -eq 1 ] || die "usage: scripts/kernel-tree.sh [-q] VERSION|TARBALL"

if [ -n "${KFIT_CACHE_DIR:-}" ]; then
	cache=$KFIT_CACHE_DIR
elif xdg=${XDG_CACHE_HOME:-}; [ "${xdg:0:1}" = / ]; then
	cache=$XDG_CACHE_HOME/kfit
elif [ -n "${HOME:-}" ]; then
	cache=$HOME/.cache/kfit
else
	die "no cache directory: set HOME, XDG_CACHE_HOME or KFIT_CACHE_DIR"
fi

if [ -f "$1" ]; then
	tarball=$(readlink -f -- "$1")
else
	tarball=
	for d in /usr/src "$cache/debs/usr/src"; do
		for f in "$d"/linux-source-"$1".tar.xz "$d"/linux-source-"$1".tar.gz \
			"$d"/linux-source-"$1".tar.bz2 "$d"/linux-source-"$1".tar; do
			if [ -f "$f" ]; then tarball=$f; break 2; fi
		done
	done
	[ -n "$tarball" ] || die "no linux-source-$1.tar.* in /usr/src or $cache/debs/usr/src: run 'make deps' (or 'apt-get install linux-source-$1')"
fi

# FNV-1a, 32 bits, as kf_hash_str() in lib/util/util.c.
fnv1a() {
	local s=$1 h=2166136261 i c
	for ((i = 0; i < ${#s}; i++)); do
		printf -v c '%d' "'${s:i:1}"
		h=$(((h ^ c) * 16777619 & 0xffffffff))
	done
	printf '%08x' "$h"
}

base=${tarball##*/}
case $base in
*.tar.xz) name=${base%.tar.xz}; zflag=-J ;;
*.tar.gz) name=${base%.tar.gz}; zflag=-z ;;
*.tgz) name=${base%.tgz}; zflag=-z ;;
*.tar.bz2) name=${base%.tar.bz2}; zflag=-j ;;
*.tar) name=${base%.tar}; zflag= ;;
*) die "$tarball: not a tarball (want .tar.xz, .tar.gz, .tar.bz2 or .tar)" ;;
esac
key=$(fnv1a "$(stat -L -c '%s:%Y:%i' -- "$tarball")")
trees=$(readlink -m -- "$cache")/trees
dir=$trees/$name-$key

# The finished tree: the single top directory of the archive, or the
# extraction dir itself when the archive has several top entries.
result() {
	local entries=("$dir"/* "$dir"/.[!.]*)
	local real=()
	for e in "${entries[@]}"; do [ -e "$e" ] && real+=("$e"); done
	if [ ${#real[@]} -eq 1 ] && [ -d "${real[0]}" ]; then
		echo "${real[0]}"
	else
		echo "$dir"
	fi
}

if [ ! -d "$dir" ]; then
	mkdir -p "$trees"
	exec 9>"$dir.lock"
	flock 9
	if [ ! -d "$dir" ]; then
		rm -rf -- "$dir.tmp"
		mkdir -- "$dir.tmp"
		[ -n "$quiet" ] || echo "extracting $tarball into $dir ..." >&2
		tar -x $zflag --no-same-owner -f "$tarball" -C "$dir.tmp"
		mv -T -- "$dir.tmp" "$dir"
	fi
	exec 9>&-
fi
result

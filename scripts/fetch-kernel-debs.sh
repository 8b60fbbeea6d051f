#!/bin/bash
# fetch-kernel-debs.sh - fetch the Debian kernel sources and configs that
# Debian 12's own suites do not carry (5.10 from bullseye, 7.3 from
# trixie-backports) into kfit's cache, without touching the machine's apt
# configuration, and unpack them where kfit's tree discovery looks:
#
#   CACHE/debs/usr/src/linux-source-VER.tar.xz    (found like /usr/src's)
#   CACHE/debs/usr/src/linux-config-VER/          (Debian's configs)
#   CACHE/debs/installed                          one "PACKAGE DEB-FILE" a line
#   CACHE/debs/apt/                               private apt lists and cache
#
# CACHE is $KFIT_CACHE_DIR, else $XDG_CACHE_HOME/kfit (when absolute),
# else $HOME/.cache/kfit, as for kfit itself: run it as the user who runs
# kfit and the tests (no root needed; `make deps` does).
#
#   scripts/fetch-kernel-debs.sh            nothing (no network) when every
#                                           package is unpacked; else fetch
#   scripts/fetch-kernel-debs.sh --update   ask the archive for newer
#                                           versions; download only those
#
# apt-get runs with a private sources list (the machine's Debian mirror,
# from its apt configuration: scripts/apt-mirror.sh; none is an error),
# lists and package cache under CACHE/debs/apt; the
# machine's keyrings verify the archive's signatures.  A package is
# replaced only after its new version is completely unpacked.
set -euo pipefail

die() { echo "fetch-kernel-debs.sh: $*" >&2; exit 1; }

# PACKAGE[/SUITE] as apt-get download takes it, and the suites they need.
PACKAGES="linux-source-5.10 linux-config-5.10
	linux-source-7.3/trixie-backports linux-config-7.3/trixie-backports"
SUITES="bullseye trixie-backports"

update=
case ${1:-} in
--update) update=1 ;;
"") ;;
*) die "usage: scripts/fetch-kernel-debs.sh [--update]" ;;
esac

if [ -n "${KFIT_CACHE_DIR:-}" ]; then
	cache=$KFIT_CACHE_DIR
elif xdg=${XDG_CACHE_HOME:-}; [ "${xdg:0:1}" = / ]; then
	cache=$XDG_CACHE_HOME/kfit
elif [ -n "${HOME:-}" ]; then
	cache=$HOME/.cache/kfit
else
	die "no cache directory: set HOME, XDG_CACHE_HOME or KFIT_CACHE_DIR"
fi
mkdir -p "$cache/debs/usr/src"
debs=$(readlink -f -- "$cache")/debs
stamp=$debs/installed

# The deb file recorded for a package (without /SUITE), or nothing.
recorded() {
	[ -f "$stamp" ] && awk -v p="$1" '$1 == p { print $2 }' "$stamp"
}

# Is what the package unpacks still there?
unpacked() { # package
	case $1 in
	linux-source-*) ls "$debs/usr/src/$1".tar.* >/dev/null 2>&1 ;;
	linux-config-*) [ -d "$debs/usr/src/$1" ] ;;
	*) return 1 ;;
	esac
}

all_present=1
for p in $PACKAGES; do
	p=${p%%/*}
	if [ -z "$(recorded "$p")" ] || ! unpacked "$p"; then
		all_present=
	fi
done
if [ -n "$all_present" ] && [ -z "$update" ]; then
	echo "fetch-kernel-debs.sh: all kernel packages present in $debs"
	exit 0
fi

for t in apt-get dpkg-deb; do
	command -v "$t" >/dev/null 2>&1 || die "needs $t (a Debian system)"
done

# One lock: two runs at once must not unpack over each other.
exec 9>"$debs/.lock"
flock 9

apt=$debs/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/dl"
aptopts=(-q -o "Dir::Etc::sourcelist=$apt/sources.list"
	-o Dir::Etc::sourceparts=/dev/null
	-o "Dir::State::Lists=$apt/lists"
	-o "Dir::Cache=$apt/cache")
# root's downloads run as _apt, which cannot enter a private $HOME
[ "$(id -u)" -eq 0 ] && aptopts+=(-o APT::Sandbox::User=root)


# apt-get update with a sources list on mirror $1; 0 when it worked.
update_lists() {
	local s
	: >"$apt/sources.list"
	for s in $SUITES; do
		echo "deb ${1%/} $s main" >>"$apt/sources.list"
	done
	echo "fetch-kernel-debs.sh: apt-get update ($SUITES from ${1%/})"
	apt-get "${aptopts[@]}" update >"$apt/update.log" 2>&1 &&
		! grep -qE '^(E|W): ' "$apt/update.log"
}

# The machine's Debian mirror (not the security one), from its apt
# configuration only: nothing here names an archive host.
mirror=$("$(dirname "$0")/apt-mirror.sh") || exit 1
if ! update_lists "$mirror"; then
	sed 's/^/  | /' "$apt/update.log" >&2
	die "apt-get update of $SUITES from $mirror failed (see above; a mirror that lacks these suites, such as a snapshot of one date, cannot serve them)"
fi

unpack() { # package deb-file
	local p=$1 deb=$2 st=$debs/stage.$$
	rm -rf "$st"
	mkdir -p "$st"
	dpkg-deb -x "$apt/dl/$deb" "$st" || { rm -rf "$st"; die "cannot unpack $deb"; }
	case $p in
	linux-source-*)
		local f n=0
		for f in "$st/usr/src/$p".tar.*; do
			[ -f "$f" ] || continue
			rm -f "$debs/usr/src/$p".tar.*
			mv -f "$f" "$debs/usr/src/"
			n=$((n + 1))
		done
		[ "$n" -gt 0 ] || die "$deb holds no usr/src/$p.tar.*"
		;;
	linux-config-*)
		[ -d "$st/usr/src/$p" ] || die "$deb holds no usr/src/$p/"
		rm -rf "$debs/usr/src/$p.old"
		[ -d "$debs/usr/src/$p" ] && mv "$debs/usr/src/$p" "$debs/usr/src/$p.old"
		mv "$st/usr/src/$p" "$debs/usr/src/$p"
		rm -rf "$debs/usr/src/$p.old"
		;;
	esac
	rm -rf "$st"
	# record it (replacing the package's previous line)
	{
		[ -f "$stamp" ] && awk -v p="$p" '$1 != p' "$stamp"
		echo "$p $deb"
	} >"$stamp.tmp"
	mv -f "$stamp.tmp" "$stamp"
}

cd "$apt/dl"
for spec in $PACKAGES; do
	p=${spec%%/*}
	# 'URI' FILE SIZE HASH: FILE names the version the archive serves
	uri=$(apt-get "${aptopts[@]}" download --print-uris "$spec" 2>"$apt/dl.err") ||
		{ cat "$apt/dl.err" >&2; die "the archive has no $spec"; }
	deb=$(echo "$uri" | awk 'NR == 1 { print $2 }')
	[ -n "$deb" ] || die "the archive has no $spec"
	if [ "$(recorded "$p")" = "$deb" ] && unpacked "$p"; then
		echo "fetch-kernel-debs.sh: $deb is current"
		continue
	fi
	echo "fetch-kernel-debs.sh: downloading $deb"
	rm -f ./*.deb
	apt-get "${aptopts[@]}" download "$spec" >"$apt/dl.log" 2>&1 ||
		{ cat "$apt/dl.log" >&2; die "cannot download $spec"; }
	[ -f "$deb" ] || die "apt-get download $spec left no $deb"
	unpack "$p" "$deb"
	rm -f "$deb"
done
echo "fetch-kernel-debs.sh: kernel packages unpacked in $debs/usr/src"

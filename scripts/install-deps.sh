#!/bin/sh
# install-deps.sh - install every Debian 12 package kfit needs to build,
# test and run: the compilers (gcc, clang with its sanitizer runtimes), the
# tools the kernel's own scripts/kconfig needs as the test oracle (make,
# flex, bison, bc), the libraries kfit links (zlib, liblzma), the test and
# bench helpers (jq, valgrind, GNU time, xz, groff for the man page
# check, script(1) from util-linux for the tty tests, python3-pytest for
# the kernel's own Kconfig test suite), and Debian's kernel sources
# and configs (linux-source-6.1/6.12, linux-config-6.1/6.12), and what
# `kfit build` needs to build and package a kernel here: kbuild's tools
# (pahole, kmod, cpio, rsync, fakeroot, dpkg-dev, openssl for the module
# signing key) and every Build-Depends of
# the scripts/package/mkdebian of the trees this script provides (5.10, 6.1,
# 6.12, 7.3): bc, bison, flex, cpio, kmod, rsync, libelf-dev, libssl-dev,
# debhelper (debhelper-compat 12), libdw-dev and python3 (7.3), and
# gcc-${host_gnu} (6.12, 7.3), which Debian 12's gcc provides for its own
# architecture (gcc-x86-64-linux-gnu on amd64).  Then
# scripts/fetch-kernel-debs.sh fetches the kernels Debian 12's suites do not
# carry (5.10 from bullseye, 7.3 from trixie-backports) into kfit's cache,
# as the user running this script (only apt-get install uses sudo).
#
# Idempotent: when every package is already installed it does nothing (no
# apt-get update), so running it again is fast.  Needs root (or sudo) only
# when something is missing.
set -eu

PACKAGES="
	build-essential gcc make clang libclang-rt-14-dev
	flex bison bc xz-utils
	zlib1g-dev liblzma-dev
	jq valgrind time util-linux coreutils tar groff-base bash
	libelf-dev libssl-dev dwarves kmod cpio rsync fakeroot debhelper dpkg-dev
	libdw-dev python3 openssl
	python3-pytest
	linux-source-6.1 linux-source-6.12
	linux-config-6.1 linux-config-6.12
"

missing=
for p in $PACKAGES; do
	status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case $status in
	ii*) ;;
	*) missing="$missing $p" ;;
	esac
done

here=$(dirname "$0")
if [ -z "$missing" ]; then
	echo "install-deps.sh: all packages present"
	exec "$here/fetch-kernel-debs.sh"
fi

echo "install-deps.sh: installing:$missing"
SUDO=
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "install-deps.sh: must run as root (or have sudo) to install:$missing" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
# shellcheck disable=SC2086  # word splitting of the list is intended
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
"$here/fetch-kernel-debs.sh"

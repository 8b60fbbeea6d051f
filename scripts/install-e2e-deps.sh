#!/bin/sh
# install-e2e-deps.sh - the Debian 12 packages `make e2e` needs on top of
# install-deps.sh: mmdebstrap (the root filesystem), QEMU (the boot),
# e2fsprogs (the ext4 image), ovmf, dosfstools, mtools and fdisk (make
# e2e-pc: the UEFI firmware, the ESP, the GPT), the kernel build's own
# needs (libelf and OpenSSL headers for objtool and the certificate tools,
# cpio, kmod) and apt's keyring.  Idempotent like install-deps.sh:
# nothing happens (and no network is used) when every package is
# installed.
#
# With the argument arm64 (make e2e-arm64), also what the emulated arm64
# board needs: qemu-system-arm (qemu-system-aarch64), the cross compiler
# gcc-aarch64-linux-gnu (with its binutils), qemu-user-static and
# binfmt-support (mmdebstrap --arch=arm64 runs the arm64 maintainer scripts
# through them), and arch-test (mmdebstrap checks with it that the foreign
# architecture runs).
set -eu

PACKAGES="
	mmdebstrap qemu-system-x86 e2fsprogs
	ovmf dosfstools mtools fdisk
	debian-archive-keyring
	libelf-dev libssl-dev cpio kmod bc flex bison time xz-utils
"
if [ "${1:-}" = arm64 ]; then
	PACKAGES="$PACKAGES
	qemu-system-arm gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu
	qemu-user-static binfmt-support arch-test
"
fi

missing=
for p in $PACKAGES; do
	status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case $status in
	ii*) ;;
	*) missing="$missing $p" ;;
	esac
done
if [ -z "$missing" ]; then
	echo "install-e2e-deps.sh: all packages present"
	exit 0
fi
echo "install-e2e-deps.sh: installing:$missing"
SUDO=
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "install-e2e-deps.sh: must run as root (or have sudo) to install:$missing" >&2
		exit 1
	fi
fi
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
# shellcheck disable=SC2086  # word splitting of the list is intended
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing

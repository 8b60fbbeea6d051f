#!/bin/sh
# fake-tree.sh DIR - make DIR/fake-1.0.tar.gz: a tiny "kernel tree" (top
# Kconfig, Makefile with the version, scripts/kconfig/) for tests of tree
# resolution and extraction that must not take a real tree's time.
set -e
d=$1/fake-src/fake-1.0
mkdir -p "$d/scripts/kconfig"
printf 'mainmenu "Fake $(KERNELVERSION)"\n\nconfig FOO\n\tbool "foo"\n\tdefault y\n\nconfig BAR\n\ttristate "bar"\n\tdepends on FOO\n' >"$d/Kconfig"
printf 'VERSION = 1\nPATCHLEVEL = 0\nSUBLEVEL = 0\nEXTRAVERSION = -fake\nNAME = Fake\n' >"$d/Makefile"
tar -czf "$1/fake-1.0.tar.gz" -C "$1/fake-src" fake-1.0
rm -rf "$1/fake-src"

#!/bin/sh
# localmodconfig.sh - the kernel's own `make localmodconfig` for the
# comparison in docs/e2e.md: Debian's 6.1 config (linux-config-6.1)
# trimmed to the modules loaded in the Debian 12 guest booted on Debian's
# stock kernel (the lsmod lines of CACHE/stock/boot/serial.log).  Config
# only: its build is not made here.
#
# usage: e2e/localmodconfig.sh CACHE     writes CACHE/lmc/{.config,result.env}
set -eu

cache=$1
here=$(cd "$(dirname "$0")/.." && pwd)
log=$cache/stock/boot/serial.log
src=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
[ -f "$log" ] || { echo "localmodconfig.sh: no stock boot log ($log)" >&2; exit 1; }
[ -f "$src" ] || { echo "localmodconfig.sh: no $src" >&2; exit 1; }
tree=$("$here/scripts/kernel-tree.sh" 6.1)
dir=$cache/lmc
mkdir -p "$dir/obj"
{
	echo "Module                  Size  Used by"
	tr -d '\r' <"$log" | sed -n 's/^.*KFIT-E2E: lsmod: //p'
} >"$dir/lsmod.txt"
xz -dc "$src" >"$dir/obj/.config"
# Debian's build certificates are not here (as kfit generate resets them).
sed -i 's/^CONFIG_SYSTEM_TRUSTED_KEYS=.*/CONFIG_SYSTEM_TRUSTED_KEYS=""/;
	s/^CONFIG_SYSTEM_REVOCATION_KEYS=.*/CONFIG_SYSTEM_REVOCATION_KEYS=""/' "$dir/obj/.config"
make -s -C "$tree" O="$dir/obj" ARCH=x86_64 LSMOD="$dir/lsmod.txt" localmodconfig \
	</dev/null >"$dir/make.log" 2>&1 || { tail "$dir/make.log" >&2; exit 1; }
cp "$dir/obj/.config" "$dir/.config"
{
	echo "modules_loaded=$(($(wc -l <"$dir/lsmod.txt") - 1))"
	echo "opts_y=$(grep -c '=y$' "$dir/.config" || true)"
	echo "opts_m=$(grep -c '=m$' "$dir/.config" || true)"
} >"$dir/result.env"
echo "localmodconfig.sh: $(tr '\n' ' ' <"$dir/result.env")"

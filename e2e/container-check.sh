#!/bin/sh
# container-check.sh - the e2e kernel config extended with the docker,
# podman and lxc feature profiles, checked by the container tools' own
# checkers (tests/data/requirements: moby's contrib/check-config.sh and
# lxc's lxc-checkconfig, byte-for-byte copies) pointed at the config with
# CONFIG=path.  No boot: only the config-derived lines count.  Docker's
# "Generally Necessary" CONFIG_ lines must all say "enabled" and no LXC
# line may say "required"; their checks of the live host (cgroup mounts,
# sysctls) belong to a booted system and are left out.  What the tools
# call optional and the config lacks is listed, not failed.
#
# usage: e2e/container-check.sh VERSION DISTRO-PROFILE DIR
# Writes DIR/.config, DIR/moby.txt, DIR/lxc.txt, DIR/result.env.
set -eu

ver=$1 distro=$2 dir=$3
here=$(cd "$(dirname "$0")/.." && pwd)
data=$here/tests/data/requirements
tree=$("$here/scripts/kernel-tree.sh" "$ver")
mkdir -p "$dir"
"$here/build/kfit" generate -k "$tree" -a x86_64 -p "$distro" -p kvm-guest \
	-p docker -p podman -p lxc --base allnoconfig --initramfs no \
	-o "$dir/.config" >"$dir/generate.txt" 2>&1 || {
	cat "$dir/generate.txt" >&2
	echo "container-check.sh: $ver: kfit generate failed" >&2
	exit 1
}
nocolor() { sed 's/\x1b\[[0-9;]*m//g'; }
CONFIG=$dir/.config NO_COLOR=1 bash "$data/moby-check-config.sh" 2>&1 | nocolor >"$dir/moby.txt" || true
CONFIG=$dir/.config sh "$data/lxc-checkconfig.in" 2>&1 | nocolor >"$dir/lxc.txt" || true

fail=0
req=$(sed -n '/^Generally Necessary:/,/^Optional Features:/p' "$dir/moby.txt" |
	grep -E '^ *- CONFIG_' || true)
bad=$(echo "$req" | grep -v ': enabled' || true)
nreq=$(echo "$req" | grep -c . || true)
if [ -n "$bad" ]; then
	echo "container-check.sh: $ver: FAIL: Docker's check-config.sh, Generally Necessary:" >&2
	echo "$bad" | sed 's/^/    /' >&2
	fail=1
fi
lreq=$(grep -E ': *required' "$dir/lxc.txt" || true)
if [ -n "$lreq" ]; then
	echo "container-check.sh: $ver: FAIL: lxc-checkconfig, required:" >&2
	echo "$lreq" | sed 's/^/    /' >&2
	fail=1
fi
mopt=$(sed -n '/^Optional Features:/,$p' "$dir/moby.txt" | grep -E '^ *- CONFIG_.*: missing' |
	sed 's/^ *- CONFIG_\([A-Z0-9_]*\):.*/\1/' | tr '\n' ' ')
lopt=$(grep -E ': *missing' "$dir/lxc.txt" | sed 's/:.*//' | tr '\n' ',' | sed 's/,$//; s/,/, /g')
{
	echo "moby_required_checked=$nreq"
	echo "moby_required_missing=$(echo "$bad" | grep -c . || true)"
	echo "lxc_required_missing=$(echo "$lreq" | grep -c . || true)"
	echo "moby_optional_missing='$mopt'"
	echo "lxc_optional_missing='$lopt'"
	echo "opts_y=$(grep -c '=y$' "$dir/.config" || true)"
	echo "opts_m=$(grep -c '=m$' "$dir/.config" || true)"
} >"$dir/result.env"
if [ "$fail" = 0 ]; then
	echo "container-check.sh: $ver: PASS: Docker check-config.sh: $nreq Generally Necessary options enabled; lxc-checkconfig: nothing required missing"
fi
exit "$fail"

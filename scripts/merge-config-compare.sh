#!/bin/bash
# merge-config-compare.sh - how many values of the kernel's own config
# fragments survive, applied to allnoconfig:
#   kernel: scripts/kconfig/merge_config.sh -m (allnoconfig + fragment),
#           then make olddefconfig, exactly as `make allnoconfig FRAG.config`
#   kfit:   the fragment as a local profile (every line a `require`), then
#           kfit generate --base allnoconfig
# A value is "dropped" when the result does not hold it.  Prints a markdown
# table (docs/merge-config.md is written from it) and, for kfit, the reason
# it reports for each value it could not keep.
#
# usage: scripts/merge-config-compare.sh [6.1|6.12] > table.md
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KFIT=${KFIT:-$ROOT/build/kfit}
ver=${1:-6.1}
tree=$("$ROOT/scripts/kernel-tree.sh" "$ver") || exit 2
odir=$("$ROOT/scripts/oracle.sh" "$tree" x86_64 mc | tail -1)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
unset MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES KCONFIG_ALLCONFIG

# what a fragment asks for: "SYM VALUE" lines (n for "is not set")
wants() {
	sed -n -e 's/^CONFIG_\([A-Za-z0-9_]*\)=\(.*\)$/\1 \2/p' \
		-e 's/^# CONFIG_\([A-Za-z0-9_]*\) is not set$/\1 n/p' "$1"
}

# does config $3 hold "SYM VALUE"?
holds() {
	local sym=$1 val=$2 cfg=$3 got
	got=$(sed -n "s/^CONFIG_$sym=//p" "$cfg")
	if [ "$val" = n ]; then
		[ -z "$got" ] || [ "$got" = n ]
	elif [ "$val" = m ]; then
		# a module wanted: built in also provides it (no MODULES in allnoconfig)
		[ "$got" = m ] || [ "$got" = y ]
	else
		[ "$got" = "$val" ]
	fi
}

printf '| fragment | values | dropped by merge_config + olddefconfig | dropped by kfit | kfit reasons |\n'
printf '|---|---:|---:|---:|---|\n'
frags=$(ls "$tree"/kernel/configs/*.config "$tree"/arch/x86/configs/*.config 2>/dev/null)
for f in $frags; do
	rel=${f#"$tree"/}
	# fragments for other architectures or needing a toolchain we lack
	case $rel in
	*/tiny-base.config) continue ;;
	esac
	wants "$f" >"$w/wants"
	total=$(wc -l <"$w/wants")
	[ "$total" -gt 0 ] || continue

	# the kernel's way
	make -s -C "$tree" O="$odir" ARCH=x86_64 KCONFIG_CONFIG="$w/k.config" allnoconfig >/dev/null 2>&1
	(cd "$w" && KCONFIG_CONFIG="$w/k.config" "$tree/scripts/kconfig/merge_config.sh" -m "$w/k.config" "$f" >/dev/null 2>&1)
	make -s -C "$tree" O="$odir" ARCH=x86_64 KCONFIG_CONFIG="$w/k.config" olddefconfig >/dev/null 2>&1
	kdrop=0
	while read -r sym val; do
		holds "$sym" "$val" "$w/k.config" || kdrop=$((kdrop + 1))
	done <"$w/wants"

	# kfit's way: the fragment as a profile
	{
		echo "profile fragment"
		echo "title   $rel as requirements"
		echo "kind    feature"
		n=0
		while read -r sym val; do
			n=$((n + 1))
			case $val in
			y) echo "require $sym=y" ;;
			m) echo "require $sym" ;;
			n) echo "require $sym=n" ;;
			\"*) echo "require $sym=$val" ;;
			0x* | -[0-9]* | [0-9]*) echo "require $sym=$val" ;;
			# an unquoted string (conf ignores such a line)
			*) echo "require $sym=\"$val\"" ;;
			esac
			echo "    reason line $n of $rel asks for it"
			echo "    source $rel"
		done <"$w/wants"
	} >"$w/frag.kfit"
	"$KFIT" generate -k "$tree" -a x86_64 -p "$w/frag.kfit" --base allnoconfig \
		-o "$w/g.config" --force >/dev/null 2>"$w/g.err"
	gdrop=0
	while read -r sym val; do
		holds "$sym" "$val" "$w/g.config" || gdrop=$((gdrop + 1))
	done <"$w/wants"
	reasons=$(grep -o 'cannot meet [A-Z0-9_]* ([^)]*): .*' "$w/g.err" | sed 's/^cannot meet //; s/|/\\|/g' | head -3 | tr '\n' ';' | sed 's/;$//')
	printf '| %s | %d | %d | %d | %s |\n' "$rel" "$total" "$kdrop" "$gdrop" "${reasons:-}"
done

#!/bin/bash
# profiles-arch.sh - a requirement's `arch=` list names only architectures
# on which its options can be set (issue 35, blind sample 14: `recommend
# IRQ_REMAP arch=x86` reached i386, where IRQ_REMAP `depends on X86_64`, so
# `kfit check` asked a 32-bit kernel for an option it cannot have).  For
# each kernel tree at hand and each of i386, x86_64 and arm64, the tree's
# own allyesconfig (written by kfit as `make allyesconfig` writes it) says
# which options can be set there; a requirement with an `arch=` list
# (`x86` is i386 and x86_64) must, for every architecture the list names,
# have one group of alternatives whose every wanted-on option (y or m) is
# set in it, in at least one tree whose version the line's range covers.
# A requirement whose `if` option cannot be set there does not apply.
# Lines without `arch=` are not judged: a platform whose driver a kernel
# lacks on an architecture (Hyper-V on arm64 before it was ported) is
# truthfully reported unmet there.  allyesconfig is not a complete oracle
# (negative dependencies, the host compiler's $(cc-option) checks for
# arm64), which is why one tree in which the option can be set suffices.
# Trees from lib.sh (for_each_tree): a missing 7.3 tree is a failure,
# others skip.
set -uo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$ROOT/tests/compat/lib.sh"
cd "$ROOT" || exit 2
TMP=$W

# allyesconfig takes each choice's first answer; these fragments
# (KCONFIG_ALLCONFIG, as `make allyesconfig` reads it) take the answer that
# leaves the most settable: arm64 little-endian (allyesconfig's big-endian
# kernel excludes Hyper-V, MANA and more), i386 with PAE (HIGHMEM64G: Xen
# guests need X86_PAE)
printf 'CONFIG_CPU_LITTLE_ENDIAN=y\n' >"$TMP/arm64.all"
printf 'CONFIG_HIGHMEM64G=y\n' >"$TMP/i386.all"
: >"$TMP/x86_64.all"
# option:arch (or option:*) settable only on a condition that is not the
# architecture's: DEBUG_INFO_BTF needs pahole on the build machine
# (PAHOLE_VERSION, from $(shell) in lib/Kconfig.debug), and linux-base's
# 64BIT is the profile database's own rule that kfit builds 64-bit kernels
GATED="DEBUG_INFO_BTF:* 64BIT:i386"

profiles=$("$KFIT" profiles --json | jq -r '.profiles[] | select(.template != true) | .name') || {
	echo "not ok profiles-list"
	exit 0
}

: >"$TMP/verdicts"
# append each arch-listed requirement's verdict on each architecture
# for one tree to $TMP/verdicts: FILE:LINE ARCH ok|bad GROUPS VER
arch_tree() { # version tree
	local v=$1 t=$2 p arch fam
	# every requirement with an arch list once, with this tree's names;
	# show -k leaves out the lines whose kernel range misses the tree
	for p in $profiles; do
		"$KFIT" profiles show "$p" -k "$t" --json | jq -c '.requirements[] | select(.when.arch != []) | {file, line, when,
			groups: (.alternatives | group_by(.group) | map(map(if .want == "enabled" or .want == "builtin" then .name_in_kernel else null end)))}'
	done | jq -s -c 'unique_by([.file, .line]) | .[]' >"$TMP/reqs-$v.json"
	for arch in i386 x86_64 arm64; do
		if ! KCONFIG_ALLCONFIG=$TMP/$arch.all "$KFIT" kconfig -k "$t" -a $arch -c "$TMP/$arch-$v.config" allyesconfig >/dev/null 2>&1; then
			echo "not ok arch-$v-$arch"
			echo "  kfit kconfig -a $arch allyesconfig failed on $t"
			continue
		fi
		sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=[ym]$/\1/p' "$TMP/$arch-$v.config" |
			jq -R . | jq -s 'map({(.): true}) | add' >"$TMP/set.json"
		fam=$arch
		[ $arch = arm64 ] || fam=x86
		jq -r --slurpfile set "$TMP/set.json" --arg arch $arch --arg fam $fam --arg gated "$GATED" --arg v $v '
			($gated | split(" ") | map(select(length > 0))) as $g |
			def settable: . as $o | $o == null or ($set[0][$o] // false) or any($g[]; . == "\($o):\($arch)" or . == "\($o):*");
			select(any(.when.arch[]; . == $arch or . == $fam)) |
			select(.when.if == null or (.when.if | settable)) |
			"\(.file):\(.line)\t\($arch)\t\(if (.groups | any(all(settable))) then "ok" else "bad" end)\t\(.groups | map(map(. // "(off)") | join(" && ")) | join(" || "))\t\($v)"' \
			"$TMP/reqs-$v.json" >>"$TMP/verdicts"
	done
}
for_each_tree arch arch_tree
# a line and architecture is wrong when no tree at hand can meet it
bad=$(awk -F'\t' '{k = $1 "\t" $2; if ($3 == "ok") ok[k] = 1; else { bad[k] = $4; seen[k] = seen[k] " " $5 } }
	END { for (k in bad) if (!(k in ok)) { split(k, a, "\t"); print a[1] ": " bad[k] " cannot be set on " a[2] " (trees" seen[k] ")" } }' "$TMP/verdicts" | sort)
n=$(cut -f1,2 "$TMP/verdicts" | sort -u | wc -l)
if [ "$n" -eq 0 ]; then
	echo "not ok arch-lists"
	echo "  no requirement with an arch= list was checked"
elif [ -z "$bad" ]; then
	echo "ok arch-lists ($n lines and architectures)"
else
	echo "not ok arch-lists"
	sed 's/^/  /' <<<"$bad"
fi

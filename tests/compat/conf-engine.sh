#!/bin/bash
# conf-engine.sh - `kfit conf` against each tree's own conf
# (scripts/oracle.sh) on small synthetic Kconfig trees, for the corners of
# the engine issue 33 found: a 40,000-long select and imply chain (deeper
# than kfit's stack held), include/config/SYMBOL touched by --syncconfig
# for a symbol auto.conf has and the Kconfig lost, KCONFIG_OVERWRITECONFIG
# through a symlinked .config, "depends on A || y" in A itself (a loop
# before 6.12, simplified away from 6.12 on), an --oldaskconfig answer
# without a final newline (6.12 on: an error), and --randconfig of a
# broken Kconfig (conf prints KCONFIG_SEED before it parses).
#
# Each case gets the same fresh directory for both sides (a mini tree:
# the version's Makefile and scripts/kconfig sources, Kconfig, the files
# the case sets up), runs one
# conf command in it with the same stdin and environment, and compares
# stdout, stderr, the exit status and every file and symlink left in the
# directory (content and link target; not times; not include/ on 5.10,
# which kfit conf does not write before 6.1).  A case is
#
#   NAME|VERSIONS|MODE|STDIN (printf text)|VAR=VALUE ... (environment)
#
# with a setup_NAME function writing the files.  The chains run on 6.12
# in make check and on every tree in make check-full.
set -uo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$ROOT/build}
KFIT=${KFIT:-$BUILD/kfit}
FILTER=${KFIT_TEST_FILTER:-}
FULL=${KFIT_TEST_FULL:-}
unset MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES KCONFIG_CONFIG KCONFIG_ALLCONFIG \
	KCONFIG_SEED KCONFIG_PROBABILITY KCONFIG_WERROR KCONFIG_WARN_UNKNOWN_SYMBOLS \
	KCONFIG_OVERWRITECONFIG KCONFIG_DEFCONFIG_LIST KCONFIG_WARN_CHANGED_INPUT \
	KCONFIG_AUTOCONFIG KCONFIG_AUTOHEADER KCONFIG_RUSTCCFG srctree

want() { [ -z "$FILTER" ] || [[ compat/conf-engine/$1 =~ $FILTER ]]; }
work=$(mktemp -d)
[ -n "${KFIT_COMPAT_KEEP:-}" ] && echo "# work dir: $work" >&2 || trap 'rm -rf "$work"' EXIT

chain() { # KIND N: S0 (y) selects (or implies) S1, which selects S2, ...
	awk -v k="$1" -v n="$2" 'BEGIN {
		for (i = 0; i < n; i++) {
			printf "config S%d\n\tbool \"s\"\n", i
			if (i == 0) printf "\tdefault y\n"
			if (i + 1 < n) printf "\t%s S%d\n", k, i + 1
		}
	}'
}

# (an auto.conf there already: olddefconfig writes none, nor 40,000
# include/config/S* files)
setup_select_chain() {
	chain select 40000 >Kconfig
	: >.config
	mkdir -p include/config
	: >include/config/auto.conf
}
setup_imply_chain() {
	chain imply 40000 >Kconfig
	: >.config
	mkdir -p include/config
	: >include/config/auto.conf
}
setup_sync_vanished() {
	printf 'config MODULES\n\tbool "m"\n\tmodules\n\tdefault y\nconfig A\n\tbool "a"\n\tdefault y\nconfig B\n\ttristate "b"\n\tdefault m\n' >Kconfig
	printf 'CONFIG_MODULES=y\nCONFIG_A=y\nCONFIG_B=m\n' >.config
	mkdir -p include/config
	printf '#\nCONFIG_MODULES=y\nCONFIG_A=y\nCONFIG_GONE=y\nCONFIG_GONE_STR="x"\n# CONFIG_GONE_UNSET is not set\n' >include/config/auto.conf
}
setup_overwrite_link() {
	printf 'config A\n\tbool "a"\n\tdefault y\nconfig N\n\tint "n"\n\tdefault 4\n' >Kconfig
	mkdir real
	printf 'CONFIG_N=7\n' >real/config
	ln -s real/config .config
}
setup_depends_or_y() {
	printf 'config A\n\tbool "a"\n\tdepends on A || y\n\tdefault y\nconfig B\n\tbool "b"\n\tdepends on y || B\n\tdefault y\nconfig C\n\ttristate "c"\n\tdepends on (C || y) && A\n\tdefault m\n' >Kconfig
}
setup_depends_or_y_loop() { # still a loop on every tree
	printf 'config A\n\tbool "a"\n\tdepends on A || B\n\tdefault y\nconfig B\n\tbool "b"\n' >Kconfig
}
setup_ask_noeol() {
	printf 'config A\n\tbool "a"\nconfig N\n\tint "n"\n\tdefault 3\nconfig S\n\tstring "s"\n' >Kconfig
}
setup_ask_noeol_string() { setup_ask_noeol; }
setup_rand_broken() {
	printf 'config A\n\tbool "a"\n\tdepends on\nconfig B\n\tbool "b"\n' >Kconfig
}
setup_rand_broken_unseeded() { setup_rand_broken; }

cases=(
	'select_chain|6.12|--olddefconfig||'
	'imply_chain|6.12|--olddefconfig||'
	'sync_vanished|6.1 6.12 7.3|--syncconfig||'
	'overwrite_link|5.10 6.1 6.12 7.3|--olddefconfig||KCONFIG_OVERWRITECONFIG=1'
	'depends_or_y|5.10 6.1 6.12 7.3|--olddefconfig||'
	'depends_or_y_loop|5.10 6.1 6.12 7.3|--olddefconfig||'
	'ask_noeol|5.10 6.1 6.12 7.3|--oldaskconfig|y\n5|'
	'ask_noeol_string|5.10 6.1 6.12 7.3|--oldaskconfig|n\n\nabc|'
	'rand_broken|5.10 6.1 6.12 7.3|--randconfig||KCONFIG_SEED=0x1234'
)
if [ -n "$FULL" ]; then
	cases[0]='select_chain|5.10 6.1 6.12 7.3|--olddefconfig||'
	cases[1]='imply_chain|5.10 6.1 6.12 7.3|--olddefconfig||'
fi

# What a side left: its exit status, stdout, stderr, then each file (a
# hash of its content) and symlink (its target), sorted.
run_side() { # DIR STDIN MODE ENV... -- COMMAND...
	local dir=$1 in=$2 mode=$3 envs=()
	shift 3
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	(cd "$dir" && printf "$in" | env "${envs[@]}" "$@" "$mode" Kconfig >../out 2>../err
		echo "exit $?" >../state)
	sed -i "s|$dir|@D@|g" "$dir/../out" "$dir/../err"
	(cd "$dir" && {
		find . -path ./scripts -prune -o -type f -exec md5sum {} + | awk '{ print $2, $1 }'
		find . -path ./scripts -prune -o -type l -printf '%p -> %l\n'
	} | LC_ALL=C sort | grep -v "${skip_files:-^$}") >>"$dir/../state"
}

for v in 5.10 6.1 6.12 7.3; do
	tree=$("$ROOT/scripts/kernel-tree.sh" -q "$v" 2>/dev/null) || {
		for c in "${cases[@]}"; do
			n=$v-${c%%|*}
			want "$n" && echo "skip $n linux-source-$v is not installed (make deps fetches it)"
		done
		continue
	}
	odir=
	# kfit conf writes include/config/auto.conf and friends from 6.1 on
	skip_files=
	[ "$v" = 5.10 ] && skip_files='^\./include/'
	for c in "${cases[@]}"; do
		IFS='|' read -r name vers mode in envs <<<"$c"
		n=$v-$name
		[[ " $vers " == *" $v "* ]] && want "$n" || continue
		if [ -z "$odir" ]; then
			odir=$("$ROOT/scripts/oracle.sh" "$tree" x86_64 2>"$work/oracle.log") || {
				echo "not ok $n"
				echo "  building the tree's conf failed:"
				sed 's/^/  /' "$work/oracle.log" | tail -5
				odir=
				continue
			}
		fi
		read -r -a envs <<<"$envs"
		for side in conf kfit; do
			d=$work/$n/$side/tree
			rm -rf "$work/$n/$side"
			mkdir -p "$d/scripts/kconfig"
			# the sources kfit reads the tree's conf generation from
			cp "$tree"/scripts/kconfig/*.[chyl] "$d/scripts/kconfig/"
			printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 0\nEXTRAVERSION =\n' \
				"${v%%.*}" "${v#*.}" >"$d/Makefile"
			(cd "$d" && "setup_$name")
		done
		run_side "$work/$n/conf/tree" "$in" "$mode" "${envs[@]}" -- \
			"$odir/scripts/kconfig/conf"
		run_side "$work/$n/kfit/tree" "$in" "$mode" "${envs[@]}" -- "$KFIT" conf
		bad=
		for f in state out err; do
			cmp -s "$work/$n/conf/$f" "$work/$n/kfit/$f" || bad="$bad $f"
		done
		if [ -z "$bad" ]; then
			echo "ok $n"
			continue
		fi
		echo "not ok $n"
		for f in $bad; do
			echo "  $f differs (conf, kfit):"
			diff "$work/$n/conf/$f" "$work/$n/kfit/$f" | head -n 12 | sed 's/^/  /'
		done
	done
done

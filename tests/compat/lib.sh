# lib.sh - sourced by tests/compat/*.sh: compare `kfit kconfig` with the
# kernel's own scripts/kconfig/conf (run through the tree's make, exactly as
# a user would) on the Debian linux-source trees, byte for byte.
#
# A compat script declares cases with add_case and then calls run_cases:
#
#   add_case NAME VER ARCH MODE INPUT [VAR=VALUE...]
#
#   VER    5.10, 6.1 or 6.12 (tree from scripts/kernel-tree.sh, or the
#          directory in $KFIT_COMPAT_TREE_5_10 / _6_1 / _6_12)
#   ARCH   ARCH as make takes it (x86_64, x86, arm64, ...)
#   MODE   olddefconfig alldefconfig allnoconfig allyesconfig allmodconfig
#          defconfig tinyconfig listnewconfig savedefconfig, or
#          defconfig:NAME   (make NAME  vs  kfit defconfig ARCHDIR/configs/NAME)
#          (tinyconfig runs with the config in the O dir's .config, as
#          6.1's tiny.config rule ignores KCONFIG_CONFIG; see oracle())
#          randconfig       (not byte for byte: kfit's result must be a
#                           fixpoint of the kernel's olddefconfig, and print
#                           the same KCONFIG_SEED line)
#   INPUT  the starting .config: a file (xz/gz are decompressed), "empty"
#          (an empty file), "none" (no file: conf's search for a starting
#          config), "rand:SEED[:N]" (the kernel's randconfig output for
#          KCONFIG_SEED=SEED with every Nth line deleted, N default 7), or
#          "out:MODE" (the kernel's output of MODE from an empty .config),
#          or "mangle:INPUT" (INPUT with broken lines added, see make_input)
#   VAR=VALUE  environment for both sides (KCONFIG_ALLCONFIG=@frag:TEXT
#          writes TEXT, with \n escapes, to a file and points at it);
#          make:VAR=VALUE is a variable on make's command line and in
#          kfit's environment (`make CC=clang` vs `CC=clang kfit`: make
#          itself ignores CC from the environment)
#
# What is compared: the exit status (both succeed or both fail), the
# written file (.config, or FILE for savedefconfig) with cmp, stdout
# exactly (make -s prints nothing of its own, so conf's stdout is all of
# it: listnewconfig's list; not for tinyconfig, whose stdout is the chatter
# of scripts/kconfig/merge_config.sh), and stderr as a multiset of lines after the
# case's directory is replaced by @D@ (the kernel's warnings: every one
# must appear in kfit's, and kfit must print no others, except conf's own
# informational "# configuration written to ..." block, which conf prints
# unless silenced as make -s silences it).  When both fail, kfit may word
# the error its own way (the issue allows "the kernel's message or a
# better one") but must still print each of the kernel's warnings.
#
# Oracle results are cached under CACHE/compat-oracle/KEY, KEY hashing the
# tree, ARCH, mode, input bytes, environment, toolchain and the host files
# conf may read; the kernel's answer for those never changes.  Only trees
# in the cache (immutable extractions) are cached.
#
# Environment: KFIT (binary), KFIT_TEST_FILTER, KFIT_TEST_FULL,
# KFIT_TEST_JOBS (default 2), KFIT_COMPAT_SELFTEST=1 (check the harness by
# putting the kernel's own make in kfit's place: every case must pass),
# KFIT_COMPAT_KEEP=1 (keep the work dir and print its path),
# KFIT_COMPAT_COLD=1 (kfit runs with --no-cache: every $(shell,...) runs,
# as on a cold cache; with KFIT_SHELL_JOBS=1 one at a time, otherwise run
# ahead in parallel: results must not change).

set -uo pipefail

ROOT=${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BUILD=${BUILD:-$ROOT/build}
KFIT=${KFIT:-$BUILD/kfit}
JOBS=${KFIT_TEST_JOBS:-2}
FULL=${KFIT_TEST_FULL:-}
GROUP=${KFIT_TEST_GROUP:-compat/$(basename "$0" .sh)}
FILTER=${KFIT_TEST_FILTER:-}
unset MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES

if [ -n "${KFIT_COMPAT_SELFTEST:-}" ]; then
	KFIT=$ROOT/tests/compat/bin/oracle-as-kfit.sh
fi

if [ -n "${KFIT_CACHE_DIR:-}" ]; then
	CACHE=$KFIT_CACHE_DIR
elif xdg=${XDG_CACHE_HOME:-}; [ "${xdg:0:1}" = / ]; then
	CACHE=$XDG_CACHE_HOME/kfit
else
	CACHE=$HOME/.cache/kfit
fi
mkdir -p "$CACHE"
CACHE=$(readlink -f -- "$CACHE")

W=$(mktemp -d "${TMPDIR:-/tmp}/kfit-compat.XXXXXX")
if [ -n "${KFIT_COMPAT_KEEP:-}" ]; then
	echo "# work dir: $W" >&2
else
	trap 'chmod -R u+rwx "$W" 2>/dev/null; rm -rf "$W"' EXIT
fi
: >"$W/cases"

# Everything the kernel's answer may depend on besides tree, mode and input.
HOST_ID=$(
	{
		echo "compat-oracle v1"
		gcc --version 2>&1 | head -n 1
		ld --version 2>&1 | head -n 1
		# tools the Kconfig files probe with $(shell,...): installing
		# dwarves changes PAHOLE_VERSION and the PAHOLE_HAS_* symbols
		for tool in pahole clang rustc bindgen; do
			command -v "$tool" >/dev/null 2>&1 &&
				"$tool" --version 2>&1 | head -n 1
		done
		uname -r
		# conf's KCONFIG_DEFCONFIG_LIST looks at these
		for f in /lib/modules/"$(uname -r)"/.config /etc/kernel-config \
			/boot/config-"$(uname -r)"; do
			[ -f "$f" ] && { echo "$f"; sha256sum <"$f"; }
		done
	} | sha256sum | cut -c1-16
)

want() { # case name
	[ -z "$FILTER" ] || [[ $GROUP/$1 =~ $FILTER ]]
}

add_case() {
	local IFS=$'\t'
	want "$1" || return 0
	echo "$*" >>"$W/cases"
}

# The tree for a version: $KFIT_COMPAT_TREE_<ver> or the Debian package's.
tree_of() {
	local var=KFIT_COMPAT_TREE_${1//./_}
	if [ -n "${!var:-}" ]; then
		echo "${!var}"
	else
		"$ROOT/scripts/kernel-tree.sh" "$1"
	fi
}

# Run FUNC VER TREE for each kernel version the project supports whose
# tree is at hand; a missing tree is "skip PREFIX-VER", a missing 7.3
# (which `make deps` fetches) "not ok PREFIX-VER".
for_each_tree() { # prefix func
	local v t
	for v in 5.10 6.1 6.12 7.3; do
		t=$(tree_of $v 2>/dev/null)
		if [ -z "$t" ] || [ ! -d "$t" ]; then
			if [ $v = 7.3 ]; then
				echo "not ok $1-$v"
				echo "  no linux-source-$v tree (scripts/kernel-tree.sh $v): run 'make deps'"
			else
				echo "skip $1-$v no linux-source-$v tree (scripts/kernel-tree.sh $v)"
			fi
			continue
		fi
		"$2" $v "$t"
	done
}

srcarch_of() {
	case $1 in
	x86_64 | i386 | x86) echo x86 ;;
	sparc32 | sparc64) echo sparc ;;
	parisc64) echo parisc ;;
	sh64) echo sh ;;
	*) echo "$1" ;;
	esac
}

# Take a free oracle slot (one O dir per parallel job); sets SLOT.  The
# lock is released when the case's subshell exits.
acquire_slot() {
	local s
	while :; do
		for ((s = 0; s < JOBS; s++)); do
			exec {SLOT_FD}>"$W/slot.$s"
			if flock -n "$SLOT_FD"; then
				SLOT=$s
				return
			fi
			exec {SLOT_FD}>&-
		done
		sleep 0.2
	done
}

# Write the starting config for INPUT to $2 (or nothing for "none").
# Needs TREE, ARCH, SLOT.  Returns non-zero when it cannot.
make_input() {
	local input=$1 out=$2 seed nth
	case $input in
	none) rm -f "$out" ;;
	empty) : >"$out" ;;
	rand:*)
		seed=${input#rand:}
		nth=7
		case $seed in *:*) nth=${seed#*:}; seed=${seed%%:*} ;; esac
		local g=$W/gen.$BASHPID
		mkdir -p "$g"
		oracle "$TREE" "$ARCH" randconfig none "$g" KCONFIG_SEED="$seed" || return 1
		[ "$(cat "$g/exit")" = 0 ] || { echo "  randconfig seed $seed failed"; return 1; }
		# delete lines deterministically so olddefconfig has work to do
		awk -v n="$nth" -v s="$seed" '(NR + s) % n != 0' "$g/result" >"$out"
		rm -rf "$g"
		;;
	out:*)
		local g=$W/gen.$BASHPID
		mkdir -p "$g"
		oracle "$TREE" "$ARCH" "${input#out:}" empty "$g" || return 1
		[ "$(cat "$g/exit")" = 0 ] || { echo "  ${input#out:} failed"; return 1; }
		cp "$g/result" "$out"
		rm -rf "$g"
		;;
	mangle:*)
		# a real config with every kind of broken line conf warns about
		# or ignores: unknown symbols, invalid and out-of-range values,
		# garbage, an unterminated string, reassignments, NUL bytes and
		# CRLF line ends (every 40th line)
		make_input "${input#mangle:}" "$out.base" || return 1
		awk '{ if (NR % 40 == 0) printf "%s\r\n", $0; else print }' "$out.base" >"$out"
		printf '%b' 'CONFIG_NOT_A_SYMBOL=y\n# CONFIG_ALSO_UNKNOWN is not set\n' \
			'CONFIG_64BIT=maybe\nCONFIG_NET=m\nCONFIG_LOG_BUF_SHIFT=abc\n' \
			'CONFIG_LOG_BUF_SHIFT=99\nCONFIG_PHYSICAL_START=0xzz\n' \
			'CONFIG_LOCALVERSION="unterminated\ngarbage line here\n' \
			'CONFIG_=y\nCONFIG_ZZ\n  CONFIG_MODULES=y\nCONFIG_SMP=y\n# CONFIG_SMP is not set\n' \
			'CONFIG_HZ_100=y\r\nCONFIG_X\0Y=y\nCONFIG_PRINTK=y\0\n#CONFIG_BLOCK is not set\n' \
			'CONFIG_DEFAULT_HOSTNAME="with \\"quote\\" and \\\\ backslash"\n' >>"$out"
		rm -f "$out.base"
		;;
	*.xz) xz -dc -- "$input" >"$out" ;;
	*.gz) gzip -dc -- "$input" >"$out" ;;
	*) cp -- "$input" "$out" ;;
	esac
}

# Resolve @frag:TEXT environment values into files under dir $1; the rest
# of the arguments are VAR=VALUE; prints them one per line.
resolve_env() {
	local dir=$1 kv i=0
	shift
	for kv in "$@"; do
		case ${kv#*=} in
		@frag:*)
			i=$((i + 1))
			printf '%b' "${kv#*=@frag:}" >"$dir/frag.$i"
			echo "${kv%%=*}=$dir/frag.$i"
			;;
		*) echo "$kv" ;;
		esac
	done
}

# Drop make's own chatter and replace the case dir by @D@.
normalise_stderr() { # file dir
	sed -i -E -e '/^make(\[[0-9]+\])?: /d' -e "s|$2|@D@|g" "$1"
}

# Run the kernel's make for one mode.  oracle TREE ARCH MODE INPUT DIR [ENV..]
# leaves DIR/result (the written file), DIR/stdout, DIR/stderr, DIR/exit.
oracle() {
	local tree=$1 arch=$2 mode=$3 input=$4 dir=$5
	shift 5
	local envs=() mvars=() key= kv
	mkdir -p "$dir"
	while IFS= read -r kv; do
		case $kv in
		make:*) mvars+=("${kv#make:}") ;;
		*) envs+=("$kv") ;;
		esac
	done < <(resolve_env "$dir" "$@")
	make_input "$input" "$dir/.config" || return 1
	if [[ $tree == "$CACHE"/trees/* ]]; then
		key=$({
			# (tinyconfig@odir: how tinyconfig is run, see below)
			echo "$HOST_ID $tree $arch ${mode/#tinyconfig/tinyconfig@odir}"
			for kv in "$@"; do
				echo "$kv"
				case ${kv#*=} in @frag:*) ;; /*) [ -f "${kv#*=}" ] && sha256sum <"${kv#*=}" ;; esac
			done
			if [ -e "$dir/.config" ]; then sha256sum <"$dir/.config"; else echo none; fi
		} | sha256sum | cut -c1-32)
		local c=$CACHE/compat-oracle/${key:0:2}/$key
		if [ -f "$c/exit" ]; then
			cp "$c"/* "$dir"/ 2>/dev/null
			return 0
		fi
	fi
	local odir target=$mode
	odir=$("$ROOT/scripts/oracle.sh" "$tree" "$arch" "$SLOT") || return 1
	case $mode in defconfig:*) target=${mode#defconfig:} ;; esac
	rm -f "$odir/defconfig"
	if [ "$mode" = tinyconfig ]; then
		# 6.1's %.config rule (tiny.config) merges into the O dir's
		# `.config` whatever KCONFIG_CONFIG says (6.12 fixed that), so
		# with KCONFIG_CONFIG set the kernel's answer would depend on a
		# stale O/.config.  Run it the way that works on every tree:
		# the config in O/.config, KCONFIG_CONFIG unset.
		rm -f "$odir/.config" "$odir/.config.old"
		[ -e "$dir/.config" ] && cp "$dir/.config" "$odir/.config"
		(cd "$dir" && env "${envs[@]}" make -s -C "$tree" O="$odir" ARCH="$arch" \
			"${mvars[@]}" "$target") >"$dir/stdout" 2>"$dir/stderr" </dev/null
		echo $? >"$dir/exit"
		rm -f "$dir/.config"
		[ -f "$odir/.config" ] && mv "$odir/.config" "$dir/.config"
		rm -f "$odir/.config.old"
		sed -i -E -e "s|$odir/\.config|$dir/.config|g" -e "s|^\.config:|$dir/.config:|" "$dir/stderr"
	else
		(cd "$dir" && env "${envs[@]}" make -s -C "$tree" O="$odir" ARCH="$arch" \
			"${mvars[@]}" KCONFIG_CONFIG="$dir/.config" "$target") >"$dir/stdout" 2>"$dir/stderr" </dev/null
		echo $? >"$dir/exit"
	fi
	normalise_stderr "$dir/stderr" "$dir"
	sed -i "s|$dir|@D@|g" "$dir/stdout"
	rm -f "$dir/result"
	if [ "$mode" = savedefconfig ]; then
		[ -f "$odir/defconfig" ] && mv "$odir/defconfig" "$dir/result"
	elif [ -f "$dir/.config" ]; then
		cp "$dir/.config" "$dir/result"
	fi
	if [ -n "$key" ]; then
		local c=$CACHE/compat-oracle/${key:0:2}/$key t
		mkdir -p "${c%/*}"
		t=$(mktemp -d "$c.tmp.XXXXXX")
		cp "$dir"/stdout "$dir"/stderr "$dir"/exit "$t"/
		[ -f "$dir/result" ] && cp "$dir/result" "$t"/
		mv -T "$t" "$c" 2>/dev/null || rm -rf "$t"
	fi
	return 0
}

# Run kfit for one mode, same contract as oracle.
kfit_side() {
	local tree=$1 arch=$2 mode=$3 input=$4 dir=$5
	shift 5
	local envs args
	mkdir -p "$dir"
	# make:VAR=VALUE (a make command-line variable) is kfit's environment
	mapfile -t envs < <(resolve_env "$dir" "$@" | sed 's/^make://')
	make_input "$input" "$dir/.config" || return 1
	args=(kconfig -k "$tree" -a "$arch" -c "$dir/.config")
	[ -n "${KFIT_COMPAT_COLD:-}" ] && args+=(--no-cache)
	case $mode in
	savedefconfig) args+=(savedefconfig "$dir/defconfig") ;;
	defconfig:*) args+=(defconfig "$tree/arch/$(srcarch_of "$arch")/configs/${mode#defconfig:}") ;;
	*) args+=("$mode") ;;
	esac
	# a fixed working directory and environment, so kfit's $(shell,...)
	# cache (keyed on both) is shared by all cases and runs
	[ -n "${KFIT_COMPAT_SELFTEST:-}" ] && envs+=(KFIT_ORACLE_SLOT="$SLOT")
	(cd "$ROOT" && env "${envs[@]}" timeout 600 "$KFIT" "${args[@]}") \
		>"$dir/stdout" 2>"$dir/stderr" </dev/null
	echo $? >"$dir/exit"
	normalise_stderr "$dir/stderr" "$dir"
	sed -i "s|$dir|@D@|g" "$dir/stdout"
	rm -f "$dir/result"
	if [ "$mode" = savedefconfig ]; then
		[ -f "$dir/defconfig" ] && cp "$dir/defconfig" "$dir/result"
	elif [ -f "$dir/.config" ]; then
		cp "$dir/.config" "$dir/result"
	fi
	return 0
}

# Append a failure detail (indented) to $C/why.
why() { printf '  %s\n' "$@" >>"$C/why"; }

why_diff() { # label a b
	why "$1:"
	diff -u --label kernel --label kfit "$2" "$3" | head -n 30 | sed 's/^/  /' >>"$C/why"
}

# conf's informational messages (printed when not silenced with -s, as
# `make -s` does): a note of what was written is not a difference.
info_filter() {
	grep -v -E '^#$|^# (configuration written to|No change to|using defaults found in|merged configuration written to) '
}

compare_results() { # oracle dir, kfit dir, mode
	local o=$1 k=$2 mode=$3 oe ke
	oe=$(cat "$o/exit")
	ke=$(cat "$k/exit")
	if [ "$oe" = 0 ] && [ "$ke" != 0 ]; then
		why "kfit failed (exit $ke), the kernel succeeded"
		[ "$ke" = 124 ] && why "(timed out)"
		sed 's/^/  | /' "$k/stderr" | head -n 15 >>"$C/why"
		return
	fi
	if [ "$oe" != 0 ] && [ "$ke" = 0 ]; then
		why "kfit succeeded, the kernel failed (exit $oe):"
		sed 's/^/  | /' "$o/stderr" | head -n 15 >>"$C/why"
	fi
	if [ "$mode" != listnewconfig ] && [ "$oe" = 0 ]; then
		if [ ! -f "$k/result" ]; then
			why "kfit wrote no ${mode/savedefconfig/defconfig file}"
		elif ! cmp -s "$o/result" "$k/result"; then
			why_diff "written file differs" "$o/result" "$k/result"
		fi
	fi
	# tinyconfig's stdout is merge_config.sh's chatter, not conf's
	if [ "$mode" != tinyconfig ]; then
		cmp -s "$o/stdout" "$k/stdout" || why_diff "stdout differs" "$o/stdout" "$k/stdout"
	fi
	local om km
	om=$(info_filter <"$o/stderr" | sort)
	km=$(info_filter <"$k/stderr" | sort)
	if [ "$oe" != 0 ] && [ "$ke" != 0 ]; then
		# both fail: kfit may word the error better (file:line, an
		# "error:" tag), but must print every warning the kernel did
		local missing
		missing=$(comm -23 <(echo "$om" | grep -i warning) <(echo "$km") | head -n 10)
		if [ -n "$missing" ]; then
			why "both failed, but kfit did not print the kernel's warnings:"
			echo "$missing" | sed 's/^/  - /' >>"$C/why"
		fi
	elif [ "$om" != "$km" ]; then
		local missing extra
		missing=$(comm -23 <(echo "$om") <(echo "$km") | head -n 10)
		extra=$(comm -13 <(echo "$om") <(echo "$km") | head -n 10)
		why "stderr lines differ (as a multiset)"
		[ -n "$missing" ] && why "kernel printed, kfit did not:" && echo "$missing" | sed 's/^/  - /' >>"$C/why"
		[ -n "$extra" ] && why "kfit printed, kernel did not:" && echo "$extra" | sed 's/^/  + /' >>"$C/why"
	fi
}

# One case: runs in its own subshell, prints its ok/not ok block.
run_one() {
	local name=$1 ver=$2 arch=$3 mode=$4 input=$5
	shift 5
	C=$W/c/$name
	mkdir -p "$C"
	: >"$C/why"
	acquire_slot
	ARCH=$arch
	TREE=$(tree_of "$ver" 2>"$C/tree.err") || {
		why "no $ver tree:" "$(cat "$C/tree.err")"
		TREE=
	}
	if [ -n "$TREE" ]; then
		if [ "$mode" = randconfig ]; then
			check_randconfig "$@"
		else
			if oracle "$TREE" "$arch" "$mode" "$input" "$C/o" "$@" &&
				kfit_side "$TREE" "$arch" "$mode" "$input" "$C/k" "$@"; then
				compare_results "$C/o" "$C/k" "$mode"
			else
				why "could not run the case (see above)"
			fi
		fi
	fi
	if [ -s "$C/why" ]; then
		echo "not ok $name"
		cat "$C/why"
		[ -n "${KFIT_COMPAT_KEEP:-}" ] && echo "  (files in $C)"
	else
		echo "ok $name"
	fi
	[ -n "${KFIT_COMPAT_KEEP:-}" ] || rm -rf "$C"
}

# randconfig: kfit's result must be a fixpoint of the kernel's
# olddefconfig, and kfit prints conf's KCONFIG_SEED line.
check_randconfig() {
	local k=$C/k o=$C/o f=$C/f
	oracle "$TREE" "$ARCH" randconfig none "$o" "$@" || { why "oracle randconfig failed"; return; }
	kfit_side "$TREE" "$ARCH" randconfig none "$k" "$@"
	if [ "$(cat "$k/exit")" != 0 ]; then
		why "kfit randconfig failed (exit $(cat "$k/exit"))"
		sed 's/^/  | /' "$k/stderr" | head -n 15 >>"$C/why"
		return
	fi
	[ -f "$k/result" ] || { why "kfit wrote no .config"; return; }
	oracle "$TREE" "$ARCH" olddefconfig "$k/result" "$f" || { why "oracle olddefconfig failed"; return; }
	if ! cmp -s "$k/result" "$f/result"; then
		why_diff "kfit's randconfig is not a fixpoint of the kernel's olddefconfig" "$f/result" "$k/result"
	fi
	# the same line on the same stream (stdout from 6.1's generation on,
	# stderr in 5.10's)
	local os ks f
	for f in stdout stderr; do
		os=$(grep '^KCONFIG_SEED=' "$o/$f")
		ks=$(grep '^KCONFIG_SEED=' "$k/$f")
		[ "$os" = "$ks" ] || why "seed line on $f: kernel '$os', kfit '$ks'"
	done
}

# Run every declared case, JOBS at a time; results print as they finish.
run_cases() {
	local line running=0 i=0
	local fields
	if [ -z "${KFIT_COMPAT_SELFTEST:-}" ] && [ ! -x "$KFIT" ]; then
		echo "# note: $KFIT does not exist; every case will fail" >&2
	fi
	while IFS= read -r line; do
		IFS=$'\t' read -r -a fields <<<"$line"
		i=$((i + 1))
		(
			run_one "${fields[@]}" >"$W/out.$i" 2>&1
			flock "$W/out.lock" cat "$W/out.$i"
			rm -f "$W/out.$i"
		) &
		running=$((running + 1))
		if [ "$running" -ge "$JOBS" ]; then
			wait -n
			running=$((running - 1))
		fi
	done <"$W/cases"
	wait
}

# Debian's linux-config-VER directory: /usr/src's (Debian 12's packages),
# else CACHE/debs/usr/src's (scripts/fetch-kernel-debs.sh: 5.10, 7.3).  A
# missing one is named as such, so the case fails saying why.
config_dir() { # version
	if [ -d "/usr/src/linux-config-$1" ]; then
		echo "/usr/src/linux-config-$1"
	else
		echo "$CACHE/debs/usr/src/linux-config-$1"
	fi
}

# The Debian amd64 config shipped by linux-config-VER.
debian_config() { # version
	echo "$(config_dir "$1")/config.amd64_none_amd64.xz"
}

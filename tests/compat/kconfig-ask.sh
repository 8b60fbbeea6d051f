#!/bin/bash
# kconfig-ask.sh - the interactive modes against the kernel's own conf,
# byte for byte: `kfit kconfig MODE` and `make -s MODE` with the same answers
# on stdin must print the same text (prompts, "(NEW)", help after "?",
# choice menus, "Restart config...", the echoed answers) and write the same
# .config, with the same exit status.
#
#   VER-oldconfig-newlines   Debian's amd64 config with every 40th line
#                            deleted, every answer empty (the defaults)
#   VER-oldconfig-random     the same config, seeded random answers: y, n,
#                            m, yes, no, ?, numbers, words, empty lines
#   VER-config-newlines      `make config` (oldaskconfig) of the full Debian
#                            config: every visible option asked
#   VER-helpnewconfig        the help text of every option the config lacks
#
# make check: oldconfig-random on 6.1 and 7.3 (one tree of each generation
# of conf's code, <= 6.10 and >= 6.11), the other three on 7.3;
# KFIT_TEST_FULL=1: all four on 5.10, 6.1, 6.12 and 7.3, and a second seed.
# The kernel's answers are cached under CACHE/compat-oracle like lib.sh's.
source "$(dirname "$0")/lib.sh"

# stdin for an answer style: "newlines" or "random:SEED"
answers() { # style out
	case $1 in
	newlines) yes '' | head -n 40000 >"$2" ;;
	random:*)
		awk -v seed="${1#random:}" 'BEGIN {
			srand(seed)
			n = split("|y|n|m|yes|no|?|1|2|3|0x10|64|abc| y |N|M|Y|9999|-1|1?", w, "|")
			for (i = 0; i < 40000; i++)
				print w[int(rand() * n) + 1]
		}' >"$2"
		;;
	esac
}

# Run one side: ask_side kernel|kfit TREE MODE INPUT STYLE DIR
ask_side() {
	local side=$1 tree=$2 mode=$3 input=$4 style=$5 dir=$6 key=
	mkdir -p "$dir"
	make_input "$input" "$dir/.config" || return 1
	answers "$style" "$dir/stdin"
	if [ "$side" = kernel ] && [[ $tree == "$CACHE"/trees/* ]]; then
		key=$({
			echo "ask v1 $HOST_ID $tree $mode"
			sha256sum <"$dir/stdin"
			sha256sum <"$dir/.config"
		} | sha256sum | cut -c1-32)
		local c=$CACHE/compat-oracle/${key:0:2}/$key
		if [ -f "$c/exit" ]; then
			cp "$c"/* "$dir"/ 2>/dev/null
			return 0
		fi
	fi
	if [ "$side" = kernel ]; then
		local odir
		odir=$("$ROOT/scripts/oracle.sh" "$tree" x86_64 "$SLOT") || return 1
		(cd "$dir" && make -s -C "$tree" O="$odir" ARCH=x86_64 \
			KCONFIG_CONFIG="$dir/.config" "$mode") \
			<"$dir/stdin" >"$dir/stdout" 2>"$dir/stderr"
		echo $? >"$dir/exit"
	else
		local kmode=$mode
		[ "$mode" = config ] && kmode=oldaskconfig
		(cd "$ROOT" && timeout 600 "$KFIT" kconfig -k "$tree" -a x86_64 \
			-c "$dir/.config" "$kmode") \
			<"$dir/stdin" >"$dir/stdout" 2>"$dir/stderr"
		echo $? >"$dir/exit"
	fi
	sed -i "s|$dir|@D@|g" "$dir/stdout"
	rm -f "$dir/result"
	[ -f "$dir/.config" ] && cp "$dir/.config" "$dir/result"
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

run_ask() { # name ver mode input style
	local name=$1 ver=$2 mode=$3 input=$4 style=$5
	C=$W/c/$name
	mkdir -p "$C"
	: >"$C/why"
	acquire_slot
	local tree
	if ! tree=$(tree_of "$ver" 2>/dev/null); then
		echo "skip $name linux-source-$ver is not installed (make deps fetches it)"
		return
	fi
	if [ ! -f "$input" ]; then
		echo "skip $name $input is missing (make deps installs linux-config-$ver)"
		return
	fi
	if ask_side kernel "$tree" "$mode" "$input" "$style" "$C/o" &&
		ask_side kfit "$tree" "$mode" "$input" "$style" "$C/k"; then
		local oe ke
		oe=$(cat "$C/o/exit") ke=$(cat "$C/k/exit")
		[ "$oe" = "$ke" ] || why "exit status: kernel $oe, kfit $ke" \
			"$(head -n 5 "$C/k/stderr")"
		cmp -s "$C/o/stdout" "$C/k/stdout" || why_diff "stdout differs" "$C/o/stdout" "$C/k/stdout"
		if [ "$mode" != helpnewconfig ] && [ "$oe" = 0 ]; then
			cmp -s "$C/o/result" "$C/k/result" ||
				why_diff ".config differs" "$C/o/result" "$C/k/result"
		fi
	else
		why "could not run the case"
	fi
	if [ -s "$C/why" ]; then
		echo "not ok $name"
		cat "$C/why"
	else
		echo "ok $name"
	fi
	rm -rf "$C"
}

for v in 5.10 6.1 6.12 7.3; do
	cfg=$(debian_config "$v")
	# every 40th line deleted: a few hundred options are new
	del=$W/del-$v.config
	[ -f "$cfg" ] && xz -dc "$cfg" | awk 'NR % 40 != 7' >"$del"
	# make check: the seeded random answers on every tree, every mode
	# on the newest (an oldaskconfig asks every visible option, some
	# minutes of the kernel's conf); make check-full: every mode everywhere
	# make check: one tree of each generation of conf's code
	if [ -n "$FULL" ] || [ "$v" = 6.1 ] || [ "$v" = 7.3 ]; then
		add_case "$v-oldconfig-random" "$v" oldconfig "$del" random:1
	fi
	if [ -n "$FULL" ] || [ "$v" = 7.3 ]; then
		add_case "$v-oldconfig-newlines" "$v" oldconfig "$del" newlines
		add_case "$v-helpnewconfig" "$v" helpnewconfig "$del" newlines
		add_case "$v-config-newlines" "$v" config "$cfg" newlines
	fi
	[ -n "$FULL" ] && add_case "$v-oldconfig-random2" "$v" oldconfig "$del" random:2
done

running=0
i=0
while IFS=$'\t' read -r -a f; do
	i=$((i + 1))
	(
		run_ask "${f[@]}" >"$W/out.$i" 2>&1
		flock "$W/out.lock" cat "$W/out.$i"
	) &
	running=$((running + 1))
	if [ "$running" -ge "$JOBS" ]; then
		wait -n
		running=$((running - 1))
	fi
done <"$W/cases"
wait

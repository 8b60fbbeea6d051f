# bash completion for kfit(1).  Installed by `make install` as
# PREFIX/share/bash-completion/completions/kfit; or: source completion/kfit.bash
#
# Nothing here lists kfit's commands or options: they come from kfit itself
# (`kfit help --commands`, `kfit help --flags CMD`, `kfit help --words CMD`,
# all from the option tables the usage texts are made of, src/options.h),
# and profile names from `kfit profiles`.
# An option's argument is completed by its name in the tables: TREE
# (a tree or a tarball), DIR, FILE, CONFIG, BASE, NAME/PROFILE (profiles),
# ARCH, WHEN, and a|b|c alternatives.

_kfit_arches="x86_64 x86 i386 arm64 arm riscv powerpc s390 mips loongarch sparc parisc alpha arc csky hexagon m68k microblaze nios2 openrisc sh um xtensa"

# _kfit_profiles KFIT [--profiles DIR]: profile names, a template such as
# systemd-N offered as its prefix systemd-
_kfit_profiles()
{
	"$@" profiles 2>/dev/null | awk 'NR > 1 { n = $1; sub(/-N$/, "-", n); print n }'
}

_kfit()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev= kfit=${COMP_WORDS[0]}
	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	# "--color=al" arrives as "--color" "=" "al" (= is a word break)
	if [ "$cur" = "=" ]; then
		prev=${COMP_WORDS[COMP_CWORD - 1]}
		cur=
	elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -gt 1 ]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	case $kfit in "~"/*) kfit=$HOME/${kfit#"~/"} ;; esac

	# the command: the first word that is not an option or its argument;
	# positional words after it (pos: their count before the current one)
	local i w cmd= pos=0 after=0 profdir=() flags
	local -A argof=()
	while IFS=' ' read -r w a; do
		[ -n "$w" ] && argof[$w]=$a
	done < <("$kfit" help --flags 2>/dev/null)
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [ "$w" = "=" ]; then
			((i++))
			continue
		fi
		if [ -z "$cmd" ] && [[ $w != -* ]]; then
			cmd=$w
			while IFS=' ' read -r w a; do
				[ -n "$w" ] && argof[$w]=$a
			done < <("$kfit" help --flags "$cmd" 2>/dev/null)
			continue
		fi
		case $w in
		--) after=1 ;;
		-*)
			[ "$w" = --profiles ] && profdir=(--profiles "${COMP_WORDS[i + 1]}")
			# an option with an argument takes the next word (unless "=")
			if [ -n "${argof[$w]-}" ] && [ "${COMP_WORDS[i + 1]}" != "=" ]; then
				((i++))
			fi
			;;
		*) [ -n "$cmd" ] && ((pos++)) ;;
		esac
	done

	# the argument of an option
	if [[ $prev == -* ]] && [ -n "${argof[$prev]-}" ] && [ $after = 0 ]; then
		local arg=${argof[$prev]}
		case $prev in
		-k | --tree | --kernel) arg=TREE ;;
		esac
		case $arg in
		*"|"*) COMPREPLY=($(compgen -W "${arg//|/ }" -- "$cur")) ;;
		WHEN) COMPREPLY=($(compgen -W "auto always never" -- "$cur")) ;;
		ARCH) COMPREPLY=($(compgen -W "$_kfit_arches" -- "$cur")) ;;
		NAME | PROFILE)
			COMPREPLY=($(compgen -W "$(_kfit_profiles "$kfit" "${profdir[@]}")" -- "$cur"))
			[[ ${COMPREPLY[0]-} == *- ]] && compopt -o nospace 2>/dev/null
			;;
		DIR)
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -d -- "$cur"))
			;;
		BASE)
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -W "allnoconfig tinyconfig defconfig" -- "$cur") $(compgen -f -- "$cur"))
			;;
		TREE | FILE | CONFIG)
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -f -- "$cur"))
			;;
		esac
		return 0
	fi

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "${!argof[*]} --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$("$kfit" help --commands 2>/dev/null | cut -f1) help" -- "$cur"))
		fi
		return 0
	fi
	if [[ $cur == -* ]] && [ $after = 0 ]; then
		COMPREPLY=($(compgen -W "${!argof[*]}" -- "$cur"))
		return 0
	fi
	# positional words
	local words
	words=$("$kfit" help --words "$cmd" 2>/dev/null)
	case $cmd in
	help)
		[ $pos = 0 ] && COMPREPLY=($(compgen -W "$("$kfit" help --commands 2>/dev/null | cut -f1)" -- "$cur"))
		;;
	profiles)
		if [ $pos = 0 ]; then
			COMPREPLY=($(compgen -W "$words" -- "$cur"))
		elif [[ " ${COMP_WORDS[*]:1:COMP_CWORD-1} " == *" show "* ]]; then
			COMPREPLY=($(compgen -W "$(_kfit_profiles "$kfit" "${profdir[@]}")" -- "$cur"))
			[[ ${COMPREPLY[0]-} == *- ]] && compopt -o nospace 2>/dev/null
		fi
		;;
	kconfig)
		if [ $pos = 0 ]; then
			COMPREPLY=($(compgen -W "$words" -- "$cur"))
		else
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -f -- "$cur"))
		fi
		;;
	why) ;; # a Kconfig symbol
	*)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	esac
	return 0
}
complete -F _kfit kfit

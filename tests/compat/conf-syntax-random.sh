#!/bin/bash
# conf-syntax-random.sh - `kfit conf --olddefconfig` against each tree's own
# conf (scripts/oracle.sh) on randomly broken Kconfig files: three valid
# base files (entries of every kind, 5.10's option lines, V1 choices,
# preprocessor functions, help text, continuations) with tokens, lines
# and characters deleted, inserted or repeated and files cut, a fixed
# seed per input.  stdout, the exit status and stderr must be the same.
# An input on which the tree's conf crashes (5.10's and 6.1's conf
# segfault on some files whose last line has no newline) is skipped.
# make check-full only (KFIT_TEST_FULL=1; KFIT_RANDOM_KCONFIGS inputs,
# default 300, on each of 5.10, 6.1, 6.12 and 7.3); the hand-picked
# inputs are the golden case conf-syntax-errors.
set -uo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$ROOT/build}
KFIT=${KFIT:-$BUILD/kfit}
FILTER=${KFIT_TEST_FILTER:-}
N=${KFIT_RANDOM_KCONFIGS:-300}
unset MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES KCONFIG_CONFIG KCONFIG_ALLCONFIG \
	KCONFIG_SEED KCONFIG_PROBABILITY KCONFIG_WERROR KCONFIG_WARN_UNKNOWN_SYMBOLS \
	KCONFIG_OVERWRITECONFIG KCONFIG_DEFCONFIG_LIST KCONFIG_WARN_CHANGED_INPUT

want() { [ -z "$FILTER" ] || [[ compat/conf-syntax-random/$1 =~ $FILTER ]]; }
if [ -z "${KFIT_TEST_FULL:-}" ]; then
	want all && echo "skip all make check-full only"
	exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the inputs: $work/in/NAME/{Kconfig,sub.kconfig}
/usr/bin/python3 - "$work/in" "$N" <<'PY'
import os, random, sys
out, n = sys.argv[1], int(sys.argv[2])
bases = [
'''mainmenu "Test"
X := 1
config MODULES
	bool "modules"
	default y
menu "Menu one"
	depends on A
	visible if B
config A
	bool "a"
	default y if B && !C
	select B
	imply C
	help
	  Some help text here.
menuconfig B
	bool "b"
	depends on A || C
if B
config C
	tristate "c"
	default m
config N
	int "n"
	range 1 10
	default 5
endif
choice
	prompt "pick"
	default P1
config P1
	bool "p1"
config P2
	bool "p2"
	depends on A
endchoice
comment "a comment"
	depends on A
endmenu
config S
	string "s"
	default "x"
source "sub.kconfig"
config LAST
	def_bool y
''',
'''config MODULES
	bool "modules"
	option modules
	modules
config DEFL
	string
	option defconfig_list
	default "x"
config EMB
	bool "emb"
	option allnoconfig_y
choice NAMED
	bool "named choice"
	optional
	default Q2
config Q1
	bool "q1"
config Q2
	tristate "q2"
	transitional
if Q1
comment "in if"
endif
endchoice
menu "M2"
	visible if Q1
menu "inner"
config T
	def_tristate m if Q1
	depends on Q2 if Q1
	help
	  text
	  more text

	  after blank
endmenu
source "sub.kconfig"
endmenu
V = $(shell,echo y)
config W
	bool "w $(V)"
	default $(V)
''',
'''# comment line
A := $(info,hello)
$(warning-if,y,warn here)
B = $(1)-x
C := $(B,z)
config FOO
	bool "foo \\
continued"
	default y if \\
		BAR
	help
	  Help line one.
	    indented more
	  back

	  after blank
config BAR
	tristate 'bar "quoted"'
	depends on FOO && \\
	   !BAZ
	---help---
	  old help
config BAZ
	string "baz $(C)"
	default "a\\"b"
menu "m"
comment "c $(A)"
endmenu
''']
subs = ['config SUB\n\tbool "sub"\n', 'config SUB\n\tbool "sub" if\n', 'endmenu\n',
        'if A\nconfig SUB\n\tbool\n', 'config SUB\n\tdepends on', 'menu "x"\n']
kw = ['config', 'menu', 'endmenu', 'if', 'endif', 'choice', 'endchoice', 'bool',
      'tristate', 'default', 'depends', 'on', 'select', 'help', 'prompt', 'comment',
      'source', '"q"', '&&', '||', '(', ')', '!', '=', 'y', 'FOO', 'imply', 'range',
      'int', 'visible', 'menuconfig', 'mainmenu', 'option', 'modules']
chars = ['"', "'", '\\', '\n', '\t', ' ', '#', '(', ')', '!', '&', '|', '=', '<', '>',
         '$', 'a', '-', '_', 'x']
for i in range(n):
    r = random.Random(i)
    text = bases[i % 3]
    if i % 2 == 0:  # line and token edits
        lines = text.split('\n')
        for _ in range(r.randint(1, 3)):
            if not lines:
                lines = ['']
            j = r.randrange(len(lines))
            toks = lines[j].split(' ')
            op = r.randint(0, 5)
            if op == 0:
                del lines[j]
            elif op == 1:
                del toks[r.randrange(len(toks))]
                lines[j] = ' '.join(toks)
            elif op == 2:
                toks.insert(r.randrange(len(toks) + 1), r.choice(kw))
                lines[j] = ' '.join(toks)
            elif op == 3:
                lines.insert(j, lines[r.randrange(len(lines))])
            elif op == 4:
                lines = lines[:j]
            else:
                lines.insert(j, r.choice(['\t', '']) + r.choice(kw) + ' ' + r.choice(kw))
        text = '\n'.join(lines)
        if r.random() < 0.2:
            text = text.rstrip('\n')
    else:  # character edits
        for _ in range(r.randint(1, 3)):
            j = r.randrange(len(text) + 1)
            op = r.randint(0, 2)
            if op == 0:
                text = text[:j] + text[j + 1:]
            elif op == 1:
                text = text[:j] + r.choice(chars) + text[j:]
            else:
                text = text[:j] + text[j:][r.randint(0, 5):]
    d = os.path.join(out, 'r%d' % i)
    os.makedirs(d)
    open(os.path.join(d, 'Kconfig'), 'w').write(text)
    open(os.path.join(d, 'sub.kconfig'), 'w').write(
        subs[0] if r.random() < 0.7 else r.choice(subs[1:]))
PY

for v in 5.10 6.1 6.12 7.3; do
	want "$v-" || continue
	tree=$("$ROOT/scripts/kernel-tree.sh" -q "$v" 2>/dev/null) || {
		echo "skip $v-all linux-source-$v is not installed (make deps fetches it)"
		continue
	}
	odir=$("$ROOT/scripts/oracle.sh" "$tree" x86_64 2>/dev/null) || {
		echo "not ok $v-all"
		echo "  building the tree's conf failed"
		continue
	}
	conf=$odir/scripts/kconfig/conf
	for side in conf kfit; do
		mkdir -p "$work/$v/$side/scripts/kconfig"
		cp "$tree/scripts/kconfig/parser.y" "$tree/scripts/kconfig/lexer.l" \
			"$work/$v/$side/scripts/kconfig/"
		printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 0\nEXTRAVERSION =\n' \
			"${v%%.*}" "${v#*.}" >"$work/$v/$side/Makefile"
	done
	for ((i = 0; i < N; i++)); do
		name=$v-r$i
		want "$name" || continue
		for side in conf kfit; do
			cp "$work/in/r$i/Kconfig" "$work/in/r$i/sub.kconfig" "$work/$v/$side/"
			rm -f "$work/$v/$side/.config"
		done
		# stdout then stderr, each as it is (their order in one stream
		# depends on stdio buffering); the shell's "Segmentation
		# fault" line dropped
		(cd "$work/$v/conf" && "$conf" --olddefconfig Kconfig >"$work/c.out" 2>"$work/c.err"
			echo "exit $?" >>"$work/c.out"; cat "$work/c.err" >>"$work/c.out") 2>/dev/null
		(cd "$work/$v/kfit" && "$KFIT" conf --olddefconfig Kconfig >"$work/k.out" 2>"$work/k.err"
			echo "exit $?" >>"$work/k.out"; cat "$work/k.err" >>"$work/k.out")
		if grep -qx "exit 139" "$work/c.out"; then
			echo "skip $name the tree's conf crashes on it"
		elif cmp -s "$work/c.out" "$work/k.out"; then
			echo "ok $name"
		else
			echo "not ok $name"
			diff "$work/c.out" "$work/k.out" | head -8 | sed 's/^/  /'
			echo "  input: $(head -c 300 "$work/in/r$i/Kconfig" | od -An -c | tr -s ' ' | head -3)"
		fi
	done
done

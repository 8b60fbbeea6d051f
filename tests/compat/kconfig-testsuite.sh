#!/bin/bash
# kconfig-testsuite.sh - the kernel's own Kconfig test suite
# (scripts/kconfig/tests, pytest) of every supported tree, run with kfit in
# conf's place: a copy of the suite in a scratch objtree whose
# scripts/kconfig/conf is a link to kfit named conf, run from there with
# /usr/bin/python3 -m pytest as `make testconfig` runs it (the same
# environment: VERSION, PATCHLEVEL, SUBLEVEL and KERNELVERSION exported).
# Every test of the suite is one case: compat/kconfig-testsuite/VER-DIR/TEST.
#
# KFIT_COMPAT_SELFTEST=1 runs the tree's own conf instead (scripts/oracle.sh):
# every test must pass, which checks this harness.
set -uo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$ROOT/build}
KFIT=${KFIT:-$BUILD/kfit}
FILTER=${KFIT_TEST_FILTER:-}
PYTHON=/usr/bin/python3 # a python3 earlier in PATH may have no pytest
unset MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES KCONFIG_CONFIG KCONFIG_ALLCONFIG \
	KCONFIG_SEED KCONFIG_PROBABILITY KCONFIG_WERROR KCONFIG_WARN_UNKNOWN_SYMBOLS \
	KCONFIG_OVERWRITECONFIG KCONFIG_DEFCONFIG_LIST KCONFIG_WARN_CHANGED_INPUT

want() { [ -z "$FILTER" ] || [[ compat/kconfig-testsuite/$1 =~ $FILTER ]]; }

# Tests that fail for a reason outside this front, each with the reason.
# A listed test that passes is reported as ok, with a note to drop it here.
declare -A KNOWN=(
	# [VER-DIR/TEST]="why it fails"  (none at the moment)
)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

versions="5.10 6.1 6.12 7.3"
any=
for v in $versions; do want "$v-" && any=1; done
[ -n "$any" ] || exit 0
if ! "$PYTHON" -c 'import pytest' 2>/dev/null; then
	for v in $versions; do
		want "$v-" && echo "skip $v-suite python3-pytest is not installed (make deps installs it)"
	done
	exit 0
fi

for v in $versions; do
	want "$v-" || continue
	tree=$("$ROOT/scripts/kernel-tree.sh" -q "$v" 2>/dev/null) || {
		echo "skip $v-suite linux-source-$v is not installed (make deps fetches it)"
		continue
	}
	[ -d "$tree/scripts/kconfig/tests" ] || {
		echo "not ok $v-suite"
		echo "  $tree has no scripts/kconfig/tests"
		continue
	}
	obj=$work/$v
	mkdir -p "$obj/scripts/kconfig"
	cp -r "$tree/scripts/kconfig/tests" "$obj/scripts/kconfig/tests"
	if [ -n "${KFIT_COMPAT_SELFTEST:-}" ]; then
		odir=$("$ROOT/scripts/oracle.sh" "$tree" x86_64) || {
			echo "not ok $v-suite"
			echo "  building the tree's conf failed"
			continue
		}
		ln -s "$odir/scripts/kconfig/conf" "$obj/scripts/kconfig/conf"
	else
		ln -s "$KFIT" "$obj/scripts/kconfig/conf"
	fi
	mkv() { sed -n "s/^$1 = *//p" "$tree/Makefile" | head -1; }
	VERSION=$(mkv VERSION) PATCHLEVEL=$(mkv PATCHLEVEL) SUBLEVEL=$(mkv SUBLEVEL)
	log=$work/$v.log
	suite() { # LOG PYTEST-ARGS...
		local out=$1
		shift
		(cd "$obj" && env VERSION="$VERSION" PATCHLEVEL="$PATCHLEVEL" SUBLEVEL="$SUBLEVEL" \
			KERNELVERSION="$VERSION.$PATCHLEVEL.$SUBLEVEL" \
			"$PYTHON" -B -m pytest "$@" -p no:cacheprovider -v >"$out" 2>&1)
	}
	suite "$log" scripts/kconfig/tests
	# A failed test's section of pytest's report (LOG DIR TEST): the
	# sections are headed by the test's name only ("test" in many
	# directories); the one that names the directory's __init__.py.
	section() {
		awk -v t="$3" -v f="tests/$2/__init__.py:" '
			function flush() { if (on && index(buf, f)) printf "%s", buf; buf = "" }
			/^(_____+|=====+) / { flush(); on = /^_____+ / && index($0, " " t " ") }
			on { buf = buf $0 "\n" }
			END { flush() }' "$1"
	}
	# Run one test again, up to twice (ID DIR); 0 when it passed.  (Its
	# directory's tests: pytest does not select a test of an __init__.py
	# by its id.)
	retry() {
		local k
		for k in 1 2; do
			suite "$work/retry.log" "scripts/kconfig/tests/$2"
			grep -q "^$1 PASSED" "$work/retry.log" && return 0
		done
		return 1
	}
	n=0
	# "scripts/kconfig/tests/choice/__init__.py::test_allyes PASSED [ 20%]"
	while read -r id result; do
		dir=${id#scripts/kconfig/tests/}
		dir=${dir%/__init__.py::*}
		name=$v-$dir/${id##*::}
		n=$((n + 1))
		want "$name" || continue
		if [ "$result" = PASSED ]; then
			if [ -n "${KNOWN[$name]-}" ]; then
				echo "ok $name (listed as failing: drop it from KNOWN in $(basename "$0"))"
			else
				echo "ok $name"
			fi
		elif [ "$result" = FAILED ] && section "$log" "$dir" "${id##*::}" |
			grep -q 'BrokenPipeError' && retry "$id" "$dir" </dev/null; then
			# The harness writes "\n" to an interactive conf's stdin
			# while poll() says it runs; a conf that exits between the
			# two (it only printed an error) breaks the pipe in the
			# harness, not in conf: a race of conftest.py under load,
			# the tree's own conf meets it too.
			echo "ok $name (the suite's harness raced conf's exit: BrokenPipeError in conftest.py; passed when run again)"
		elif [ -n "${KNOWN[$name]-}" ] && [ -z "${KFIT_COMPAT_SELFTEST:-}" ]; then
			echo "skip $name fails as expected: ${KNOWN[$name]}"
		else
			echo "not ok $name"
			echo "  pytest: $result"
			# the test's section of pytest's report: its assertion and
			# what conf printed
			section "$log" "$dir" "${id##*::}" |
				grep -E '^(E |>|\[retcode\]|\[stderr\]|[^ ].*:[0-9]+: )' |
				head -n 13 | sed 's/^/  /'
		fi
	done < <(grep -E '^scripts/kconfig/tests/.*::[A-Za-z0-9_]+ (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)' "$log" |
		sed -E 's/ +\[ *[0-9]+%\]$//')
	if [ "$n" = 0 ]; then
		echo "not ok $v-suite"
		echo "  pytest ran no test:"
		tail -5 "$log" | sed 's/^/  /'
	fi
done

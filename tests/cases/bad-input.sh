# bad-input.sh - shared set-up for the tests/cases/bad-input-* golden
# cases (sourced by their cmd files; not a case itself).  Each case feeds
# kfit one kind of hostile or broken input and checks the exact message,
# the exit status, and that nothing it must not touch was touched.
#
#   mini_tree DIR [X.Y]   a minimal kernel tree (Makefile for version X.Y,
#                         default 6.1, empty scripts/kconfig/) whose Kconfig
#                         is the case's ./Kconfig, else the small one below
#   kf ARGS...            kfit with a private cache dir ($T/cache)

mini_tree() {
	local dir=$1 ver=${2:-6.1}
	mkdir -p "$dir/scripts/kconfig"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 0\nEXTRAVERSION =\n' \
		"${ver%%.*}" "${ver#*.}" >"$dir/Makefile"
	if [ -f Kconfig ]; then
		cp Kconfig "$dir/Kconfig"
	else
		cat >"$dir/Kconfig" <<'KCONFIG'
config MODULES
	bool "modules"
	modules
	default y
config A
	bool "a"
config T
	tristate "t"
config N
	int "n"
	range 1 100
	default 10
config H
	hex "h"
	range 0x10 0xff
	default 0x20
config S
	string "s"
	default "x"
KCONFIG
	fi
}

kf() {
	KFIT_CACHE_DIR=$T/cache "$KFIT" "$@"
}

#!/bin/sh
# gen-man.sh [KFIT] - print the man page kfit(1): docs/kfit.1.in with
# @SYNOPSIS@ and @COMMANDS@ replaced by the usage texts kfit itself prints
# (`kfit help --commands`, `kfit COMMAND --help`), so the page and
# `--help` have one source of truth.  docs/kfit.1 is its committed output:
#
#     scripts/gen-man.sh build/kfit >docs/kfit.1
#
# tests/cases/man-page-current fails when docs/kfit.1 is stale.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KFIT=${1:-$ROOT/build/kfit}
TEMPLATE=${2:-$ROOT/docs/kfit.1.in}

# Text to roff: a backslash, minus signs (options must copy-paste as ASCII
# hyphens), quotes and a leading dot or quote that would read as a request.
esc() {
	sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/'/\\\\(aq/g" -e 's/`/\\(ga/g' \
		-e 's/^\./\\\&./' -e 's/^ *$//'
}

synopsis() {
	echo ".nf"
	printf '%s\n' '\fBkfit\fR [\fB\-\-color\fR \fIWHEN\fR] \fICOMMAND\fR [\fIARGS\fR...]'
	"$KFIT" help --commands | cut -f1 | while read -r c; do
		# the usage lines: up to the first blank line, without "usage: "
		"$KFIT" "$c" --help | sed -e '/^$/,$d' -e 's/^usage: //' -e 's/^       //' | esc
	done
	echo ".fi"
}

commands() {
	"$KFIT" help --commands | while IFS="$(printf '\t')" read -r c summary; do
		echo ".SS \"kfit $c\""
		printf '%s\n' "$summary" | sed 's/^./\u&/; s/$/./' | esc
		echo ".PP"
		echo ".nf"
		"$KFIT" "$c" --help | esc
		echo ".fi"
	done
}

version=$("$KFIT" --version | sed 's/^kfit //')
while IFS= read -r line; do
	case $line in
	@SYNOPSIS@) synopsis ;;
	@COMMANDS@) commands ;;
	@GLOBAL@)
		echo ".nf"
		"$KFIT" --help | sed -n '/^options for every command:$/,/^$/p' | sed -e '1d' -e '/^$/d' | esc
		echo ".fi"
		;;
	*) printf '%s\n' "$line" | sed "s/@VERSION@/$version/g" ;;
	esac
done <"$TEMPLATE"

#!/bin/sh
# kfit-build-report.sh - the "kfit build" section of docs/e2e.md from
# CACHE/kbuild (e2e/kfit-build.sh's result.env, packages.txt, build.log).
#
# usage: e2e/kfit-build-report.sh CACHE [FILE]
#
# Without FILE the section goes to stdout; with FILE it replaces the part
# of FILE between the kfit-build markers (appended when FILE has none), as
# pc-report.sh does for its own section.  e2e/kfit-build-notes.md (what a
# run found that the figures do not say) is added below the figures.
set -eu

cache=$1
file=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/section.sh"
dir=$cache/kbuild
begin='<!-- kfit-build: e2e/kfit-build-report.sh -->'
end='<!-- /kfit-build -->'

get() { # FILE KEY
	v=
	[ -f "$1" ] && v=$(sed -n "s/^$2=//p" "$1" | tail -n 1)
	echo "${v:--}"
}

section() {
	r=$dir/result.env
	echo "$begin"
	echo "## kfit build: tinyconfig + debian-12 + kvm-guest"
	echo
	echo "\`e2e/kfit-build.sh\` (a step of \`make e2e\`): \`kfit generate -p debian-12"
	echo "-p kvm-guest --base tinyconfig --initramfs no\` on Debian's 6.1 tree, then"
	echo "\`kfit build -c CONFIG -O DIR\`, which picks \`make bindeb-pkg\` from the"
	echo "debian-12 profile.  Checked: kfit build exits 0 and names the packages,"
	echo "the linux-image package holds /boot/vmlinuz-*, and the kernel's make"
	echo "left the configuration as kfit wrote it."
	echo
	if [ -f "$r" ]; then
		echo "| =y | objects (estimated / built) | build time | linux-image package | size |"
		echo "|---|---|---|---|---|"
		echo "| $(get "$r" opts_y) | $(get "$r" objects_estimated) / $(get "$r" objects_built) | $(get "$r" build_seconds) s | $(get "$r" package) | $(get "$r" package_bytes) bytes |"
		echo
		echo "Packages and files kfit build listed:"
		echo
		echo '```'
		sed "s|$cache|E2E_CACHE|" "$dir/packages.txt"
		echo '```'
		echo
	else
		echo "No completed run is recorded in this cache."
		echo
	fi
	[ ! -f "$here/kfit-build-notes.md" ] || cat "$here/kfit-build-notes.md"
	echo "$end"
}

if [ -z "$file" ]; then
	section
	exit 0
fi
write_section "$file"

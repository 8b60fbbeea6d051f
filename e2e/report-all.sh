#!/bin/sh
# report-all.sh - the "Every Debian release" section of docs/e2e.md from
# the results `make e2e-all` (e2e/run-all.sh) left in the cache.
#
# usage: e2e/report-all.sh CACHE [FILE]
# Without FILE the section is printed; with FILE it replaces the part of
# FILE between the e2e-all markers (appended when FILE has none), so the
# rest of docs/e2e.md (`make e2e`'s report) is left as it is.
set -eu

cache=$1 file=${2:-}
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/e2e/section.sh"
begin='<!-- e2e-all: begin (written by e2e/report-all.sh) -->'
end='<!-- e2e-all: end -->'

# shellcheck source=e2e/lib.sh
. "$here/e2e/lib.sh"
guest() { # BOOT-DIR KEY: an "info KEY: value" line of the guest's report
	[ -f "$1/serial.log" ] || { echo -; return; }
	v=$(tr -d '\r' <"$1/serial.log" | sed -n "s/^.*KFIT-E2E: info $2: //p" | head -n 1)
	echo "${v:--}"
}

rows="Debian 11 (bullseye):5.10:debian-11:bullseye:k510
Debian 12 (bookworm):6.1:debian-12:bookworm:k61
Debian 13 (trixie):6.12:debian-13:trixie:k612
Debian 14 (forky):7.3:debian-14:forky:k73
Debian 13 (trixie), upgrade path:7.3:debian-12 on 6.1, olddefconfig to 7.3, + debian-13:trixie:k73-up"

section() {
	echo "$begin"
	echo
	echo "## Every Debian release on its own kernel (make e2e-all)"
	echo
	cat <<'EOF'
`make e2e-all` (e2e/run-all.sh) boots one Debian release per kernel
generation on its own userspace: each root filesystem made by mmdebstrap
from Debian's archive by suite name, each kernel made by `kfit generate -p
debian-N -p kvm-guest --base allnoconfig --initramfs no` on Debian's tree
of that series, built with `make -j2 bzImage` under `nice -n 10` and
booted under QEMU TCG with every check of `make e2e` (the same guest test
unit and journal allow-list). The last row is the upgrade path: the
Debian 12 config from 6.1, carried to 7.3 by the kernel's own `make
olddefconfig`, checked with `kfit check -p debian-13 -p kvm-guest`,
completed by `kfit generate --base` that config and booted on Debian 13.
Build and boot times are on the shared 2-core machine (load average
given); the CPU time of a build is the steadier figure.
EOF
	echo
	echo "| userspace | systemd | kernel | config | =y | =m | build time | bzImage | boot to multi-user | boot wall | failed units | checks |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
	echo "$rows" | while IFS=: read -r rel ver prof suite dir; do
		r=$cache/$dir/result.env b=$cache/$dir/boot-$suite
		pass=$(get "$b/boot.env" boot_pass)
		case $pass in 1) st=pass ;; 0) st="**fail**" ;; *) st="not booted" ;; esac
		case $prof in debian-[0-9]*) cfg="$prof + kvm-guest" ;; *) cfg=$prof ;; esac
		echo "| $rel | $(guest "$b" systemd) | $(get "$r" version) | $cfg | $(get "$r" opts_y) | $(get "$r" opts_m) | $(mmss "$(get "$r" build_seconds)") wall, load $(get "$r" build_loadavg | cut -d' ' -f1); $(mmss "$(get "$r" build_cpu_seconds)") CPU | $(mib "$(get "$r" bzimage_bytes)") | $(secs "$(get "$b/boot.env" boot_multi_user_seconds)") | $(secs "$(get "$b/boot.env" boot_wall_seconds)") (load $(get "$b/boot.env" boot_loadavg | cut -d' ' -f1)) | $(get "$b/boot.env" failed_units) | $st |"
	done
	echo
	up=$cache/k73-up
	if [ -f "$up/check.txt" ]; then
		echo "### The upgrade path: Debian 12's 6.1 config on 7.3 for Debian 13"
		echo
		echo "The config \`make e2e-all\` generated for Debian 12 on 6.1 ($(grep -c '=[ym]$' "$up/config.61" 2>/dev/null || echo -) options on),"
		echo "carried to 7.3 by the kernel's \`make olddefconfig\` ($(grep -c '=[ym]$' "$up/config.carried" 2>/dev/null || echo -) on),"
		echo "checked with \`kfit check -p debian-13 -p kvm-guest --initramfs no\` (exit $(get "$up/check.env" check_exit)):"
		echo
		echo '```'
		cat "$up/check.txt"
		echo '```'
		echo
		echo "\`kfit generate --base\` that config with the same profiles changed $(get "$up/check.env" changed_lines) CONFIG_ lines of it"
		echo "(\`kfit check\` of the result: exit $(get "$up/check.env" check_after_exit)); \`kfit diff\` of the two:"
		echo
		echo '```'
		cat "$up/diff.txt" 2>/dev/null || true
		echo '```'
		echo
	fi
	echo "$rows" | while IFS=: read -r rel ver prof suite dir; do
		b=$cache/$dir/boot-$suite
		[ -f "$b/boot.env" ] || continue
		echo "### $rel on $ver: boot"
		echo
		serial_checks "$b"
	done
	[ ! -f "$here/e2e/findings-all.md" ] || cat "$here/e2e/findings-all.md"
	echo
	echo "$end"
}

if [ -n "$file" ] && ! ls "$cache"/*/boot-*/boot.env >/dev/null 2>&1; then
	echo "report-all.sh: no make e2e-all boot in $cache: $file left as it is" >&2
	exit 0
fi
if [ -z "$file" ]; then
	section
	exit 0
fi
write_section "$file"

# lib.sh - sourced by the e2e scripts (`. "$here/lib.sh"`): the pieces the
# emulated PC (pc-*.sh) and arm64 board (arm64-*.sh) harnesses and the
# report scripts share.  POSIX sh; nothing runs when it is sourced.
#
# Reports:
#   get FILE KEY      a value from a KEY=VALUE file (quotes stripped), "-"
#                     when absent
#   mib BYTES, mmss SECONDS, secs SECONDS   figures for the tables ("-"
#                     stays "-")
#   st BOOT-ENV       pass, **fail** or not booted
#   results_checks DIR TITLE [ALLOW]   "### TITLE: checks", the guest's
#                     ok/not ok/info lines from DIR/results.txt and the
#                     journal line of DIR/boot.env (with ALLOW not empty,
#                     the lines not in the allow-list too), as pc-report.sh
#                     and arm64-report.sh print them; nothing without
#                     DIR/results.txt
#   stock_timings T STOCK-ENV ROOTFS BUILD INSTALL   the timings paragraph
#                     of pc-report.sh and arm64-report.sh from the timings
#                     file T, with the words for how the root filesystem,
#                     the build and the install were made
#   serial_checks DIR the guest's ok/not ok/info lines from DIR/serial.log
#                     and the journal line of DIR/boot.env, as report.sh
#                     and report-all.sh print them
#
# Disks (pc-disk.sh, arm64-disk.sh):
#   guest_files E2E ROOTDIR MACHINE   the guest's test files into ROOTDIR:
#                         E2E/guest/kfit-e2e-MACHINE-check and its unit
#                         (enabled), networkd's DHCP file (networkd
#                         enabled), scripts/snapshot-machine.sh
#
# Boots (pc-boot.sh, arm64-boot.sh), with DIR the boot's directory and LOG
# its serial log:
#   boot_unpack DIR LOG   the results disk unpacked into DIR/results and
#                         the guest's KFIT-E2E lines in DIR/results.txt
#                         (from the serial log when the disk has none)
#   boot_finish PREFIX DIR LOG [ALLOW]   judges DIR/results.txt (the test
#                         unit finished, no "not ok"; sets fail=1 with
#                         "PREFIX: FAIL: ..." on stderr otherwise), writes
#                         DIR/journal.txt (and with ALLOW, a journal
#                         allow-list, DIR/journal-unexpected.txt) and
#                         DIR/boot.env from $wall and $fail, prints the
#                         checks and PREFIX: PASS/FAIL
#
# Runs (pc-run.sh, arm64-run.sh), with $me the script's name and $tm its
# timings file:
#   now; step NAME SECONDS   a step's timing into $tm.new, and printed
#   stock_cached DIR SUM SNAP FORCE   0 when DIR's stock boot is up to
#                         date (DIR/boot.stamp is SUM, SNAP exists, FORCE
#                         is 0), with a message
#   stock_booted DIR SUM SNAP   after the stock boot: DIR/disk.img removed,
#                         exit 1 without SNAP, else DIR/boot.stamp written
#   kfit_generate KFIT SNAP TREE ARCH K [WHAT]   kfit generate --detect into
#                         K/config.new (log K/generate.log), its summary
#                         printed; exit 1 on failure ("FAIL: kfit generate
#                         --detect --root SNAP[ WHAT]")
#   build_figures K SECONDS   the config and build lines of K/result.env
#   make_stick K ON       with ON not 0, a FAT USB stick image K/stick.img
#                         holding KFIT.TXT, in $stick (else stick is empty)
#   timings_save          $tm.new, with the last figure of each step the
#                         cache skipped, renamed to $tm
#   run_result FAIL T0    PASS or FAIL with the run's seconds
# shellcheck shell=sh disable=SC2154  # wall, fail, tm, me: the caller's

get() {
	v=
	if [ -f "$1" ]; then
		v=$(sed -n "s/^$2=//p" "$1" | tail -n 1 | sed "s/^'//; s/'\$//")
	fi
	echo "${v:--}"
}
mib() { [ "$1" = - ] && echo - || awk -v b="$1" 'BEGIN{printf "%.1f MiB", b/1048576}'; }
mmss() { [ "$1" = - ] && echo - || awk -v s="$1" 'BEGIN{printf "%d min %02d s", s/60, s%60}'; }
secs() { [ "$1" = - ] && echo - || echo "$1 s"; }
st() { case $(get "$1" boot_pass) in 1) echo pass ;; 0) echo "**fail**" ;; *) echo "not booted" ;; esac; }

serial_checks() {
	echo '```'
	tr -d '\r' <"$1/serial.log" | sed -n 's/^.*KFIT-E2E: //p' |
		grep -E '^(ok|not ok|info )' || true
	echo '```'
	echo
	_unexpected "$1" ""
}
_unexpected() { # DIR TAIL: the journal line and the lines not allowed
	echo "journalctl -b -p warning: $(get "$1/boot.env" journal_warnings) lines, $(get "$1/boot.env" journal_unexpected) not in e2e/journal-allow.txt$2."
	if [ -s "$1/journal-unexpected.txt" ]; then
		echo
		echo '```'
		cat "$1/journal-unexpected.txt"
		echo '```'
	fi
	echo
}

results_checks() {
	[ -f "$1/results.txt" ] || return 0
	echo "### $2: checks"
	echo
	echo '```'
	grep -E '^(ok|not ok|info )' "$1/results.txt" || true
	echo '```'
	echo
	if [ -z "${3:-}" ]; then
		echo "journalctl -b -p warning: $(get "$1/boot.env" journal_warnings) lines (reported, not failed)."
		echo
		return 0
	fi
	_unexpected "$1" " (reported, not failed)"
}

guest_files() {
	install -D -m 755 "$1/guest/kfit-e2e-$3-check" "$2/usr/local/sbin/kfit-e2e-$3-check"
	install -D -m 755 "$1/../scripts/snapshot-machine.sh" "$2/usr/local/sbin/snapshot-machine.sh"
	install -D -m 644 "$1/guest/kfit-e2e-$3.service" "$2/etc/systemd/system/kfit-e2e-$3.service"
	install -D -m 644 "$1/guest/20-wired.network" "$2/etc/systemd/network/20-wired.network"
	mkdir -p "$2/etc/systemd/system/multi-user.target.wants"
	ln -sfn "/etc/systemd/system/kfit-e2e-$3.service" "$2/etc/systemd/system/multi-user.target.wants/"
	ln -sfn /lib/systemd/system/systemd-networkd.service "$2/etc/systemd/system/multi-user.target.wants/"
}

stock_timings() {
	echo "Timings of the steps (seconds; a step the cache skipped keeps its last"
	echo "figure): root filesystem ($3) $(get "$1" rootfs_seconds) ($(get "$2" rootfs_seconds) when made),"
	echo "stock disk image $(get "$1" stock_disk_seconds), stock boot $(get "$1" stock_boot_seconds), generate $(get "$1" generate_seconds),"
	echo "$4 $(get "$1" build_seconds), install ($5) $(get "$1" install_seconds),"
	echo "kfit disk image $(get "$1" kfit_disk_seconds), kfit boot $(get "$1" kfit_boot_seconds)."
	echo
}

boot_unpack() {
	mkdir -p "$1/results"
	tar -C "$1/results" -xf "$1/results.img" 2>/dev/null || true
	if [ -f "$1/results/results.txt" ]; then
		sed -n 's/^KFIT-E2E: //p' "$1/results/results.txt" >"$1/results.txt"
	else
		tr -d '\r' <"$2" | sed -n 's/^.*KFIT-E2E: //p' >"$1/results.txt"
	fi
}

boot_finish() {
	_p=$1 _d=$2 _log=$3 _allow=${4:-}
	if ! grep -qx 'done' "$_d/results.txt"; then
		echo "$_p: FAIL: the guest test unit did not finish; last console lines:" >&2
		tr -d '\r' <"$_log" | tail -n 25 | sed 's/^/    /' >&2
		fail=1
	fi
	if grep -q '^not ok' "$_d/results.txt"; then
		grep '^not ok' "$_d/results.txt" | sed 's/^/    /' >&2
		echo "$_p: FAIL: checks above failed" >&2
		fail=1
	fi
	if [ -n "$_allow" ]; then
		grep -v '^#' "$_allow" | grep -v '^[[:space:]]*$' >"$_d/allow.pat" || true
	fi
	sed -n 's/^journal: //p' "$_d/results.txt" >"$_d/journal.txt"
	if [ -n "$_allow" ]; then
		grep -Evf "$_d/allow.pat" "$_d/journal.txt" >"$_d/journal-unexpected.txt" || true
	fi
	_failed=$(_info "$_d" failed-units)
	_nfail=0
	[ "$_failed" = none ] || [ -z "$_failed" ] || _nfail=$(echo "$_failed" | wc -w)
	{
		echo "boot_pass=$((1 - fail))"
		echo "boot_wall_seconds=$wall"
		echo "boot_loadavg=$(cut -d' ' -f1-3 /proc/loadavg)"
		echo "boot_multi_user_seconds=$(_info "$_d" multi-user-seconds)"
		echo "boot_startup='$(_info "$_d" systemd-analyze | sed -n 's/^Startup finished in //p')'"
		echo "failed_units=$_nfail"
		echo "bound_devices=$(_info "$_d" bound-devices)"
		echo "modules_loaded=$(_info "$_d" modules-loaded)"
		echo "journal_warnings=$(wc -l <"$_d/journal.txt")"
		[ -z "$_allow" ] || echo "journal_unexpected=$(wc -l <"$_d/journal-unexpected.txt")"
	} >"$_d/boot.env"
	grep -E '^(ok|not ok|info)' "$_d/results.txt" | sed 's/^/    /'
	if [ "$fail" = 0 ]; then
		echo "$_p: PASS (${wall}s wall)"
	else
		echo "$_p: FAIL (${wall}s wall; serial log $_log)"
	fi
}
_info() { sed -n "s/^info $2: //p" "$1/results.txt" | head -n 1; }

now() { date +%s; }
step() {
	echo "$1_seconds=$2" >>"$tm.new"
	echo "$me: $1: $2 s"
}

stock_cached() {
	if [ "$4" = 0 ] && [ -f "$1/boot.stamp" ] &&
		[ "$(cat "$1/boot.stamp")" = "$2" ] && [ -d "$3" ]; then
		echo "$me: stock boot up to date ($1/boot)"
		return 0
	fi
	return 1
}

stock_booted() {
	rm -f "$1/disk.img"
	if [ ! -d "$3" ]; then
		echo "$me: FAIL: the stock boot left no snapshot" >&2
		exit 1
	fi
	echo "$2" >"$1/boot.stamp"
}

kfit_generate() {
	_t=$(now)
	if ! "$1" generate --detect --root "$2" -k "$3" -a "$4" -o "$5/config.new" \
		--explain >"$5/generate.log" 2>&1; then
		cat "$5/generate.log" >&2
		echo "$me: FAIL: kfit generate --detect --root $2${6:+ $6}" >&2
		exit 1
	fi
	step generate $(($(now) - _t))
	grep -E '^kfit: ' "$5/generate.log" | grep -v '^kfit: next' | head -n 20 || true
}

build_figures() {
	echo "opts_y=$(grep -c '=y$' "$1/config.new" || true)"
	echo "opts_m=$(grep -c '=m$' "$1/config.new" || true)"
	echo "build_seconds=$2"
	echo "build_jobs=${KFIT_E2E_JOBS:-2}"
	echo "build_cpu_seconds=$(awk '{printf "%d", $1 + $2}' "$1/build.time")"
	echo "build_loadavg=$(cut -d' ' -f1-3 /proc/loadavg)"
}

make_stick() {
	stick=
	if [ "$2" != 0 ]; then
		stick=$1/stick.img
		rm -f "$stick"
		mkfs.vfat -C -n KFITSTICK "$stick" 16384 >/dev/null
		printf 'kfit e2e usb stick\n' >"$1/KFIT.TXT"
		mcopy -i "$stick" "$1/KFIT.TXT" ::KFIT.TXT
	fi
}

timings_save() {
	if [ -f "$tm" ]; then
		while IFS="=" read -r key val; do
			grep -q "^$key=" "$tm.new" || echo "$key=$val" >>"$tm.new"
		done <"$tm"
	fi
	mv "$tm.new" "$tm"
}

run_result() {
	if [ "$1" = 0 ]; then
		echo "$me: PASS ($(($(now) - $2)) s)"
	else
		echo "$me: FAIL ($(($(now) - $2)) s)" >&2
	fi
}

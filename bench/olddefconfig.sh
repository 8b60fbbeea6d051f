#!/bin/bash
# olddefconfig.sh - time `kfit kconfig olddefconfig` against the kernel's
# `make olddefconfig` on Debian's 6.1 amd64 config, runs alternated in one
# go so both see the same machine state.  Prints the median wall time and
# peak RSS of each, and the ratios:
#
#   kfit (warm cache)   kfit with its $(shell,...) cache filled
#   kfit (cold cache)   kfit with an empty cache dir (KFIT_CACHE_DIR): the
#                       $(shell,...) commands run ahead in parallel
#   kfit (cold, serial) the same with KFIT_SHELL_JOBS=1: one at a time, as
#                       conf runs them
#   make olddefconfig   what a user runs: make + its Makefile + conf
#   conf alone          scripts/kconfig/conf run directly with exactly the
#                       environment and arguments make gives it (captured
#                       once by a wrapper), so make's own overhead is out
#   commands alone      the floor of a cold run: the $(shell,...) commands
#                       a cold kfit run ran (KFIT_SHELL_LOG), each under
#                       sh -c with conf's environment, as many at a time
#                       as there are CPUs (xargs -P), nothing else
#
# usage: bench/olddefconfig.sh [-n N] [-k TREE] [-a ARCH] [CONFIG]
#   N       runs of each (default 5)
#   TREE    kernel tree (default: scripts/kernel-tree.sh 6.1)
#   ARCH    default x86_64
#   CONFIG  starting .config (default Debian's linux-config-6.1 amd64)
# Environment: KFIT (default build/kfit).  Targets: ratio of kfit (warm)
# to make <= 0.33 and kfit's peak RSS <= conf's (issue 3); cold <= 0.5
# (issue 18).
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
KFIT=${KFIT:-$ROOT/build/kfit}
N=5 tree= arch=x86_64
cfg=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
while getopts n:k:a: o; do
	case $o in
	n) N=$OPTARG ;;
	k) tree=$OPTARG ;;
	a) arch=$OPTARG ;;
	*) echo "usage: bench/olddefconfig.sh [-n N] [-k TREE] [-a ARCH] [CONFIG]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] && cfg=$1
unset MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES KCONFIG_ALLCONFIG KCONFIG_CONFIG
[ -n "$tree" ] || tree=$("$ROOT/scripts/kernel-tree.sh" 6.1) || exit 2
tree=$(readlink -f "$tree")
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

W=$(mktemp -d "${TMPDIR:-/tmp}/kfit-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
case $cfg in
*.xz) xz -dc "$cfg" >"$W/input" ;;
*.gz) gzip -dc "$cfg" >"$W/input" ;;
*) cp "$cfg" "$W/input" ;;
esac

odir=$("$ROOT/scripts/oracle.sh" "$tree" "$arch" bench) || exit 2

# Capture the environment and arguments make hands to conf: a separate O
# dir whose conf is a wrapper that records them and runs the real one.
edir=$("$ROOT/scripts/oracle.sh" "$tree" "$arch" bench-env) || exit 2
conf=$edir/scripts/kconfig/conf
if [ ! -f "$conf.real" ]; then
	mv "$conf" "$conf.real"
	cat >"$conf" <<-EOF
	#!/bin/sh
	env -0 >"\$KFIT_BENCH_CAPTURE.env"
	printf '%s\0' "\$@" >"\$KFIT_BENCH_CAPTURE.args"
	pwd >"\$KFIT_BENCH_CAPTURE.cwd"
	exec "$conf.real" "\$@"
	EOF
	chmod +x "$conf"
	touch -r "$conf.real" "$conf"
fi
cp "$W/input" "$W/capture.config"
KFIT_BENCH_CAPTURE=$W/cap make -s -C "$tree" O="$edir" ARCH="$arch" \
	KCONFIG_CONFIG="$W/capture.config" olddefconfig >/dev/null 2>&1
if [ ! -f "$W/cap.env" ]; then
	echo "bench: could not capture conf's environment (make did not run the wrapper)" >&2
	exit 2
fi
mapfile -d '' conf_env < <(grep -zv '^KFIT_BENCH_CAPTURE=' "$W/cap.env")
mapfile -d '' conf_args <"$W/cap.args"
conf_cwd=$(cat "$W/cap.cwd")
# the captured paths name the capture dir; run in the bench O dir instead
conf_cwd=${conf_cwd/#$edir/$odir}

now() { date +%s%N; }

# run NAME OUTFILE CMD...: one timed run on a fresh copy of the input;
# appends "seconds rss_kb" to $W/NAME.times.
run() {
	local name=$1 out=$2 t0 t1
	shift 2
	cp "$W/input" "$out"
	rm -f "$out.old"
	t0=$(now)
	/usr/bin/time -f %M -o "$W/rss" "$@" >"$W/$name.stdout" 2>"$W/$name.stderr"
	local rc=$?
	t1=$(now)
	if [ $rc -ne 0 ]; then
		echo "$name failed (exit $rc):" >&2
		head -n 5 "$W/$name.stderr" >&2
		echo "fail fail" >>"$W/$name.times"
		return 1
	fi
	echo "$(((t1 - t0) / 1000000)) $(tail -n 1 "$W/rss")" >>"$W/$name.times"
}

run_make() {
	run make "$W/make.config" make -s -C "$tree" O="$odir" ARCH="$arch" \
		KCONFIG_CONFIG="$W/make.config" olddefconfig
}
run_conf() {
	# conf reads KCONFIG_CONFIG from its environment
	local envs=("${conf_env[@]}")
	local i
	for i in "${!envs[@]}"; do
		case ${envs[$i]} in KCONFIG_CONFIG=*) envs[$i]=KCONFIG_CONFIG=$W/conf.config ;; esac
	done
	(cd "$conf_cwd" && run conf "$W/conf.config" env -i "${envs[@]}" \
		"$odir/scripts/kconfig/conf" "${conf_args[@]}")
}
have_kfit=1
[ -x "$KFIT" ] || { echo "bench: $KFIT not built; timing the kernel only" >&2; have_kfit=; }
run_kfit() {
	run kfit "$W/kfit.config" "$KFIT" kconfig -k "$tree" -a "$arch" \
		-c "$W/kfit.config" olddefconfig
}
run_kfit_cold() {
	rm -rf "$W/coldcache"
	mkdir "$W/coldcache"
	KFIT_CACHE_DIR=$W/coldcache run kfit-cold "$W/kfit-cold.config" "$KFIT" kconfig \
		-k "$tree" -a "$arch" -c "$W/kfit-cold.config" olddefconfig
}
run_kfit_serial() {
	rm -rf "$W/coldcache"
	mkdir "$W/coldcache"
	KFIT_SHELL_JOBS=1 KFIT_CACHE_DIR=$W/coldcache run kfit-serial "$W/kfit-serial.config" \
		"$KFIT" kconfig -k "$tree" -a "$arch" -c "$W/kfit-serial.config" olddefconfig
}

run_floor() {
	mkdir -p "$W/floor"
	# xargs exits 123 when a command failed (some are meant to)
	(cd "$W/floor" && run floor "$W/floor.config" env -i "${conf_env[@]}" \
		/bin/sh -c 'xargs -a "$1" -d "\n" -n 1 -P "$2" sh -c; r=$?
			[ $r = 0 ] || [ $r = 123 ]' sh "$W/commands" "$(nproc)")
}

# warm up: page cache, kfit's cache, make's timestamps; the commands a
# cold run runs
run_make >/dev/null 2>&1
[ -n "$have_kfit" ] && { run_kfit || have_kfit=; }
if [ -n "$have_kfit" ]; then
	rm -f "$W/shell.log"
	KFIT_SHELL_LOG=$W/shell.log run_kfit_cold
	cut -f2- "$W/shell.log" >"$W/commands"
fi
rm -f "$W"/*.times

for ((i = 0; i < N; i++)); do
	[ -n "$have_kfit" ] && run_kfit
	run_make
	run_conf
	[ -n "$have_kfit" ] && run_kfit_cold
	[ -n "$have_kfit" ] && run_kfit_serial
	[ -n "$have_kfit" ] && run_floor
done

median() { # column of NAME.times -> median (prints "n/a" on failure)
	[ -f "$W/$1.times" ] || { echo n/a; return; }
	cut -d' ' -f"$2" "$W/$1.times" | grep -v fail | sort -n |
		awk '{ v[NR] = $1 } END { if (NR == 0) { print "n/a"; exit }
			if (NR % 2) print v[(NR + 1) / 2]; else print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

printf 'tree %s, ARCH=%s, input %s, %d runs each (medians)\n' "$tree" "$arch" "${cfg##*/}" "$N"
printf 'load average before: %s; %s CPUs\n' "$(cut -d' ' -f1-3 /proc/loadavg)" "$(nproc)"
printf '%-20s %10s %14s\n' "" "time (ms)" "peak RSS (KB)"
for n in kfit kfit-cold kfit-serial make conf floor; do
	case $n in
	kfit) label="kfit (warm cache)" ;;
	kfit-cold) label="kfit (cold cache)" ;;
	kfit-serial) label="kfit (cold, serial)" ;;
	make) label="make olddefconfig" ;;
	conf) label="conf alone" ;;
	floor) label="commands alone" ;;
	esac
	[ -f "$W/$n.times" ] || continue
	printf '%-20s %10s %14s\n' "$label" "$(median "$n" 1)" "$(median "$n" 2)"
done
ratio() { # a b
	local a b
	a=$(median "$1" 1) b=$(median "$2" 1)
	if [ "$a" = n/a ] || [ "$b" = n/a ] || [ "$b" = 0 ]; then
		echo n/a
	else
		echo "scale=3; $a / $b" | bc | sed 's/^\./0./'
	fi
}
same_text() { # stdout|stderr: cold and serial printed the same (their file names aside)
	cmp -s <(sed 's/kfit-cold/kfit-X/g' "$W/kfit-cold.$1") <(sed 's/kfit-serial/kfit-X/g' "$W/kfit-serial.$1")
}
if [ -n "$have_kfit" ]; then
	echo "ratio kfit/make (warm cache): $(ratio kfit make)   (target <= 0.33)"
	echo "ratio kfit/make (cold cache): $(ratio kfit-cold make)   (target <= 0.5)"
	echo "ratio kfit/make (cold, one at a time): $(ratio kfit-serial make)"
	echo "ratio commands alone/make: $(ratio floor make)   ($(wc -l <"$W/commands") commands, $(nproc) at a time: the floor of the cold ratio)"
	echo "ratio kfit/conf (warm cache): $(ratio kfit conf)"
	echo "ratio kfit/conf (cold cache): $(ratio kfit-cold conf)"
	if cmp -s "$W/kfit.config" "$W/make.config" &&
		cmp -s "$W/kfit-cold.config" "$W/make.config" &&
		cmp -s "$W/kfit-serial.config" "$W/make.config" &&
		same_text stdout && same_text stderr; then
		echo "outputs: identical (warm, cold and serial .config = make's; cold and serial stdout and stderr identical)"
	else
		echo "outputs: DIFFER (a .config is not make's, or cold and serial printed differently)"
	fi
fi
cmp -s "$W/conf.config" "$W/make.config" || echo "note: conf alone wrote a different .config than make (environment capture is off)"

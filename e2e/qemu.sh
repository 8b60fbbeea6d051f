# qemu.sh - sourced by e2e/boot.sh, pc-boot.sh and arm64-boot.sh: the QEMU
# run the boot scripts make.
#
#   run_qemu PREFIX WHAT TIMEOUT DIR LOG ARG...
#       prints "PREFIX: booting WHAT (timeout TIMEOUTs, serial log LOG)",
#       runs $qemu (default qemu-system-x86_64) ARG... under timeout(1)
#       with stdin from /dev/null and its output in DIR/qemu.out, and sets
#       wall (the run's seconds) and fail: 0, or 1 with "PREFIX: FAIL: ..."
#       on stderr when QEMU did not power off in time or exited with another
#       status
run_qemu() {
	local prefix="$1" what="$2" limit="$3" qdir="$4" qlog="$5" start rc=0
	shift 5
	echo "$prefix: booting $what (timeout ${limit}s, serial log $qlog)"
	start=$(date +%s)
	timeout "$limit" "${qemu:-qemu-system-x86_64}" "$@" </dev/null >"$qdir/qemu.out" 2>&1 || rc=$?
	wall=$(($(date +%s) - start))
	fail=0
	if [ "$rc" = 124 ]; then
		echo "$prefix: FAIL: QEMU did not power off within ${limit}s" >&2
		fail=1
	elif [ "$rc" != 0 ]; then
		echo "$prefix: FAIL: QEMU exited with $rc: $(tail -n 3 "$qdir/qemu.out")" >&2
		fail=1
	fi
}

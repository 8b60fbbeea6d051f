#!/bin/sh
# boot.sh - boot a kernel on the e2e root filesystem under QEMU (TCG: on
# this machine class a nested KVM guest hangs before the kernel starts and
# -cpu host aborts), 2 vCPUs, 1 GiB, serial console, virtio disk and
# virtio-net with user networking, no graphics, no reboot.  The image is
# opened with snapshot=on, so every boot starts from the same state.  The
# guest's test unit (e2e/guest/kfit-e2e-check) prints its results on the
# serial console; this script reads them, judges the journal warnings
# against e2e/journal-allow.txt and writes DIR/boot.env.
#
# usage: e2e/boot.sh NAME BZIMAGE IMAGE DIR [INITRD]
# Exit 0 when every check passed, 1 otherwise (with a report on stderr).
set -eu

name=$1 kernel=$2 image=$3 dir=$4 initrd=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/qemu.sh"
smp=2
timeout=${KFIT_E2E_BOOT_TIMEOUT:-600}
log=$dir/serial.log
mkdir -p "$dir"
rm -f "$log"

# no_timer_check: the kernel's IO-APIC check that the timer ticks during
# a busy-wait fails when TCG gets too little CPU on a loaded host ("IO-APIC
# + timer doesn't work!", a panic before userspace, seen once at a load
# average of 15); KVM guests skip it by themselves (arch/x86/kernel/kvm.c
# sets no_timer_check), and an emulated guest needs it skipped just so.
set -- -accel tcg -smp "$smp" -m 1024 -display none -monitor none \
	-serial "file:$log" -no-reboot \
	-kernel "$kernel" \
	-append "console=ttyS0 root=/dev/vda ro panic=-1 no_timer_check kfit.e2e=1 kfit.smp=$smp" \
	-drive "file=$image,if=virtio,format=raw,snapshot=on" \
	-netdev user,id=net0 -device virtio-net-pci,netdev=net0
[ -z "$initrd" ] || set -- "$@" -initrd "$initrd"

run_qemu "boot.sh: $name" "$kernel${initrd:+ with $initrd}" "$timeout" "$dir" "$log" "$@"
report() { echo "boot.sh: $name: $*" >&2; }
res=$(tr -d '\r' <"$log" | sed -n 's/^.*KFIT-E2E: //p')
if ! echo "$res" | grep -qx done; then
	report "FAIL: the guest test unit did not finish; last console lines:"
	tr -d '\r' <"$log" | tail -n 25 | sed 's/^/    /' >&2
	fail=1
fi
if echo "$res" | grep -q '^not ok'; then
	echo "$res" | grep '^not ok' | sed 's/^/    /' >&2
	report "FAIL: checks above failed"
	fail=1
fi

# Journal warnings not covered by the allow-list.
pats=$dir/allow.pat
grep -v '^#' "$here/journal-allow.txt" | grep -v '^[[:space:]]*$' >"$pats" || true
echo "$res" | sed -n 's/^journal: //p' >"$dir/journal.txt"
if [ -s "$pats" ]; then
	grep -Evf "$pats" "$dir/journal.txt" >"$dir/journal-unexpected.txt" || true
else
	cp "$dir/journal.txt" "$dir/journal-unexpected.txt"
fi
if [ -s "$dir/journal-unexpected.txt" ]; then
	report "FAIL: journalctl -b -p warning has lines not in e2e/journal-allow.txt:"
	sed 's/^/    /' "$dir/journal-unexpected.txt" >&2
	fail=1
else
	echo "$res" | grep -q '^done' && echo "ok journal" >/dev/null
fi

# Boot time: the guest reports multi-user.target's activation time on
# the monotonic clock; systemd-analyze's kernel (+ initrd) part is kept too.
sa=$(echo "$res" | sed -n 's/^info systemd-analyze: //p')
echo "$sa" | sed 's/^/    /'
startup=$(echo "$sa" | sed -n 's/^Startup finished in //p' | head -n 1)
tosec() { # "1min 2.345s" / "812ms" / "3.1s" -> seconds
	echo "$1" | awk '{t=0; for(i=1;i<=NF;i++){v=$i; if(v~/min$/){sub(/min/,"",v);t+=v*60}
		else if(v~/ms$/){sub(/ms/,"",v);t+=v/1000} else if(v~/s$/){sub(/s/,"",v);t+=v}} printf "%.2f", t}'
}
ksec=0
for part in $(echo "$startup" | sed 's/ = .*//; s/ + /\n/g' | grep -E '\((kernel|initrd)\)' | sed 's/ *(.*//; s/ /_/g'); do
	ksec=$(awk -v a="$ksec" -v b="$(tosec "$(echo "$part" | tr '_' ' ')")" 'BEGIN{printf "%.2f", a+b}')
done
boot=$(echo "$res" | sed -n 's/^info multi-user-seconds: //p')
[ -n "$boot" ] || boot=-
failed=$(echo "$res" | sed -n 's/^info failed-units: //p')
nfail=0
[ "$failed" = none ] || [ -z "$failed" ] || nfail=$(echo "$failed" | wc -w)
{
	echo "boot_pass=$((1 - fail))"
	echo "boot_wall_seconds=$wall"
	echo "boot_loadavg=$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "boot_kernel_seconds=$ksec"
	echo "boot_multi_user_seconds=$boot"
	echo "failed_units=$nfail"
	echo "failed_unit_names='$failed'"
	echo "journal_warnings=$(wc -l <"$dir/journal.txt")"
	echo "journal_unexpected=$(wc -l <"$dir/journal-unexpected.txt")"
} >"$dir/boot.env"
echo "$res" | grep -E '^(ok|not ok|info (failed|network|cgroup))' | sed 's/^/    /'
if [ "$fail" = 0 ]; then
	echo "boot.sh: $name: PASS: multi-user after ${boot}s (kernel ${ksec}s), ${wall}s wall, 0 failed units"
else
	echo "boot.sh: $name: FAIL (${wall}s wall; serial log $log)"
fi
exit "$fail"

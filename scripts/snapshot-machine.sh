#!/bin/bash
# snapshot-machine.sh DIR - save what `kfit detect --root DIR` reads from a
# running machine, and nothing else: os-release, a few /proc files, the
# running config, the relevant /sys attributes (every device's modalias,
# uevent and driver/subsystem links, the uevent of a device whose
# MODALIAS is only there (AMBA), DMI ids, block devices and their
# dm/md/slaves, the LSM list, CPU counts, the ACPI table headers, the
# device tree's compatibles, chosen/ and aliases/), the first lines of
# the HDA codecs' proc/asound files, which of
# the programs detect looks for are installed (as empty files), the
# systemd version marker and /lib/modules/REL/modules.{alias,builtin*}.
# Symlinks are kept as symlinks (their targets as they are in /sys), so a
# snapshot can be committed to git.  Run as root for the ACPI headers.
set -euo pipefail
[ $# = 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
out=$1
src=${SNAPSHOT_SRC:-}   # testing: read from another root
mkdir -p "$out"

copy() { # copy one file (content) if readable
	local f=$1
	[ -r "$src$f" ] && [ -f "$src$f" ] || return 0
	mkdir -p "$out$(dirname "$f")"
	cat "$src$f" > "$out$f" 2>/dev/null || rm -f "$out$f"
}
link() { # keep a symlink as a symlink
	local f=$1
	[ -L "$src$f" ] || return 0
	mkdir -p "$out$(dirname "$f")"
	ln -sfn "$(readlink "$src$f")" "$out$f"
}

for f in /etc/os-release /usr/lib/os-release /etc/debian_version /proc/cmdline \
	/proc/cpuinfo /proc/version /proc/mounts /proc/1/comm /proc/modules \
	/proc/sys/kernel/osrelease /proc/config.gz /proc/mdstat \
	/sys/kernel/security/lsm /sys/hypervisor/type \
	/sys/devices/system/cpu/possible /sys/devices/system/cpu/online; do
	copy "$f"
done
rel=$(cat "$src/proc/sys/kernel/osrelease" 2>/dev/null || uname -r)
copy "/boot/config-$rel"
for f in "/boot/initrd.img-$rel" "/boot/initramfs-$rel.img" /boot/initramfs-linux.img; do
	if [ -e "$src$f" ]; then mkdir -p "$out/boot"; : > "$out$f"; fi
done
for f in modules.alias modules.builtin modules.builtin.modinfo modules.order; do
	copy "/lib/modules/$rel/$f"
done

# devices: modalias, uevent, driver and subsystem links
find "$src/sys/devices" -name modalias -type f 2>/dev/null | while read -r m; do
	d=${m%/modalias}
	r=${d#"$src"}
	copy "$r/modalias"
	copy "$r/uevent"
	# a USB interface's device: its names (generate's list of devices
	# not mapped names them)
	case $(cat "$m" 2>/dev/null) in usb:*)
		copy "$(dirname "$r")/manufacturer"
		copy "$(dirname "$r")/product" ;;
	esac
	link "$r/driver"
	link "$r/subsystem"
done
# devices with no modalias file whose uevent has MODALIAS= (AMBA primecells:
# the PL011, PL031 and PL061 of arm boards have only "id" and uevent)
find "$src/sys/devices" -name uevent -type f 2>/dev/null | while read -r u; do
	d=${u%/uevent}
	[ -e "$d/modalias" ] && continue
	grep -q '^MODALIAS=' "$u" 2>/dev/null || continue
	r=${d#"$src"}
	copy "$r/uevent"
	link "$r/driver"
	link "$r/subsystem"
done
# HDA codecs: the head of proc/asound/card*/codec#* (name, vendor and
# revision IDs), for a machine whose codecs are no sysfs devices
for f in "$src"/proc/asound/card*/codec#*; do
	[ -f "$f" ] || continue
	r=${f#"$src"}
	mkdir -p "$out$(dirname "$r")"
	head -n 8 "$f" >"$out$r" 2>/dev/null || rm -f "$out$r"
done
# DMI
for f in "$src"/sys/class/dmi/id/*; do
	[ -f "$f" ] && copy "${f#"$src"}"
done
# block devices: the class links, and under each device dm/, md/level, slaves
for b in "$src"/sys/class/block/*; do
	[ -e "$b" ] || continue
	r=${b#"$src"}
	link "$r"
	real=$(cd "$b" && pwd -P)
	rr=${real#"$src"}
	for f in dev dm/name dm/uuid md/level size removable; do copy "$rr/$f"; done
	if [ -d "$real/slaves" ]; then
		mkdir -p "$out$rr/slaves"
		for s in "$real"/slaves/*; do [ -L "$s" ] && link "${s#"$src"}"; done
	fi
done
# booted through UEFI: the directory only (detect reads its existence)
if [ -d "$src/sys/firmware/efi" ]; then
	mkdir -p "$out/sys/firmware/efi"
	copy /sys/firmware/efi/fw_platform_size
fi
# device tree: the root's compatible and model, chosen/ and aliases/, and
# each node's compatible and primecell id (the console's driver and its
# screen come from stdout-path and chosen/framebuffer*)
dt=/sys/firmware/devicetree/base
if [ -d "$src$dt" ]; then
	for f in compatible model; do copy "$dt/$f"; done
	for d in chosen aliases; do
		for f in "$src$dt/$d"/*; do [ -f "$f" ] && copy "${f#"$src"}"; done
	done
	find "$src$dt" \( -name compatible -o -name arm,primecell-periphid \) -type f 2>/dev/null |
		while read -r f; do copy "${f#"$src"}"; done
fi
# ACPI table headers (36 bytes: signature, OEM ID, OEM table ID)
for t in DSDT FACP APIC MCFG; do
	f=/sys/firmware/acpi/tables/$t
	if [ -r "$src$f" ]; then
		mkdir -p "$out/sys/firmware/acpi/tables"
		head -c 36 "$src$f" > "$out$f"
	fi
done
# init and alternatives
for l in /sbin/init /usr/sbin/init /etc/alternatives/iptables /usr/sbin/iptables /usr/bin/iptables \
	/sbin/iptables; do link "$l"; done
for d in /usr/lib/systemd /lib/systemd /usr/lib64/systemd /usr/lib/x86_64-linux-gnu/systemd \
	/usr/lib/aarch64-linux-gnu/systemd /run/current-system/sw/lib/systemd; do
	for f in "$src$d"/libsystemd-shared-*.so; do
		[ -e "$f" ] || continue
		mkdir -p "$out$d"
		: > "$out$d/$(basename "$f")"
	done
done
# programs detect looks for (presence only)
for p in dockerd podman lxc-start lxd incus flatpak snapd snap wg wg-quick mount.nfs \
	mount.cifs bpftrace mdadm cryptsetup zramctl libvirtd btrfs nft firewalld \
	iptables-legacy openrc openrc-run; do
	for d in /usr/bin /usr/sbin /bin /sbin /usr/local/bin; do
		if [ -e "$src$d/$p" ] && [ ! -e "$out/usr/bin/$p" ]; then
			mkdir -p "$out/usr/bin"
			: > "$out/usr/bin/$p"
		fi
	done
done
echo "snapshot of ${src:-$(hostname)} ($rel) in $out" >&2

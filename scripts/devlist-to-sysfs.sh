#!/bin/bash
# devlist-to-sysfs.sh ROOT < DEVICES.tsv - write the device directories
# below ROOT/sys that `kfit detect` reads, from a list of devices as a
# hardware probe records them (hw-probe's `hwinfo` log: "SysFS ID",
# "Module Alias" and "Driver" of each PCI and USB device).  One device a
# line, tab-separated:
#
#     /devices/pci0000:00/0000:00:1f.6  pci:v00008086d000015FC...  e1000e
#
# the third field is the bound driver, or - when none was bound.  Each
# device gets modalias, uevent (MODALIAS=, DRIVER=), a subsystem link
# (pci, usb, platform, ... from the modalias; a device-tree node's of:
# modalias is a platform device's) and, when bound, a driver link, as the
# kernel shows them.  For building snapshot fixtures from
# published probes (tests/data/snapshots/).
set -euo pipefail
[ $# = 1 ] || { echo "usage: $0 ROOT < devices.tsv" >&2; exit 2; }
root=$1
while IFS=$'\t' read -r path alias drv; do
	case $path in ''|'#'*) continue ;; /devices/*) ;; *)
		echo "$0: not a /devices path: $path" >&2; exit 2 ;;
	esac
	d=$root/sys$path
	mkdir -p "$d"
	bus=${alias%%:*}
	[ "$bus" = of ] && bus=platform
	# ../ from sys/devices/... back to sys/, then bus/BUS
	up=$(echo "${path#/}" | sed 's|[^/]*|..|g')
	printf '%s\n' "$alias" >"$d/modalias"
	{
		[ "$drv" = - ] || printf 'DRIVER=%s\n' "$drv"
		printf 'MODALIAS=%s\n' "$alias"
	} >"$d/uevent"
	ln -sfn "$up/bus/$bus" "$d/subsystem"
	[ "$drv" = - ] || ln -sfn "$up/bus/$bus/drivers/$drv" "$d/driver"
done

#!/bin/bash
# dmidecode-to-sysfs.sh ROOT < DMIDECODE_OUTPUT - write the files of
# ROOT/sys/class/dmi/id that `kfit detect` reads (sys_vendor,
# product_name, product_version, bios_vendor, bios_version, board_vendor,
# board_name, chassis_vendor, chassis_type, chassis_asset_tag) from the text
# `dmidecode` prints, as the kernel would show them.  For building snapshot
# fixtures from published dmidecode captures (tests/data/snapshots/).
set -euo pipefail
[ $# = 1 ] || { echo "usage: $0 ROOT < dmidecode.txt" >&2; exit 2; }
out=$1/sys/class/dmi/id
mkdir -p "$out"
awk -v out="$out" '
function put(name, v) {
	sub(/^[ \t]+/, "", v); sub(/[ \t]+$/, "", v)
	if (v == "" || (name in done)) return
	done[name] = 1
	print v > (out "/" name)
}
function ctype(s,   t) {
	split("Other|Unknown|Desktop|Low Profile Desktop|Pizza Box|Mini Tower|Tower|Portable|Laptop|Notebook|Hand Held|Docking Station|All In One|Sub Notebook|Space-saving|Lunch Box|Main Server Chassis|Expansion Chassis|Sub Chassis|Bus Expansion Chassis|Peripheral Chassis|RAID Chassis|Rack Mount Chassis|Sealed-case PC|Multi-system|CompactPCI|AdvancedTCA|Blade|Blade Enclosing|Tablet|Convertible|Detachable|IoT Gateway|Embedded PC|Mini PC|Stick PC", t, "|")
	for (i = 1; i <= 36; i++) if (t[i] == s) return i
	return 2
}
/^[A-Za-z]/ { sec = $0 }
/^\t[A-Za-z]/ {
	line = $0; sub(/^\t/, "", line)
	k = line; sub(/:.*/, "", k)
	v = line; if (index(v, ":")) v = substr(v, index(v, ":") + 1); else v = ""
	if (sec == "BIOS Information") {
		if (k == "Vendor") put("bios_vendor", v)
		if (k == "Version") put("bios_version", v)
	} else if (sec == "System Information") {
		if (k == "Manufacturer") put("sys_vendor", v)
		if (k == "Product Name") put("product_name", v)
		if (k == "Version") put("product_version", v)
	} else if (sec == "Base Board Information") {
		if (k == "Manufacturer") put("board_vendor", v)
		if (k == "Product Name") put("board_name", v)
	} else if (sec == "Chassis Information") {
		if (k == "Manufacturer") put("chassis_vendor", v)
		if (k == "Asset Tag") put("chassis_asset_tag", v)
		if (k == "Type") { sub(/^[ \t]+/, "", v); put("chassis_type", ctype(v)) }
	}
}'

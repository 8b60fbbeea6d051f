#!/bin/sh
# pc-compare.sh - the bound drivers of two boots of the emulated PC side by
# side (lists of "BUS DEVICE DRIVER [MODULE]" from
# e2e/guest/kfit-e2e-pc-check): every device the first (Debian's stock
# kernel) had bound must be bound again in the second (kfit's) by the same
# driver: the same driver name, or one of the same module (7.3's ACPI
# button driver is "acpi-button" of module button, 6.1's "button").
#
# A newer kernel may put the same device on another bus: 7.3 binds the
# ACPI button as a platform driver (acpi LNXPWRBN:00 -> platform
# LNXPWRBN:00, a platform device made for the ACPI one and named after
# it) and makes the regulator dummy a faux device (platform reg-dummy ->
# faux reg-dummy, driver faux_driver).  A stock device not found on its
# bus is "moved" when the kfit boot has a bound device of the same name on
# another bus (shown with both drivers: built-in drivers of most buses
# have no module link, so the module cannot tell), or else when the same
# driver is bound to a device of another bus that no stock device has
# (7.3's rtc_cmos on platform PNP0B00:00, 6.1's on pnp 00:04).  A driver name may hold
# a space (6.1's PNP "i8042 kbd"): the module is the last column of a
# four-column list.
#
# PNP devices are named 00:NN in the order they were enumerated, which
# differs when one kernel enumerates devices the other does not: with a
# pnp-ids.txt beside a list ("00:03 PNP0303", written by the guest) they
# are compared by their first PNP ID instead (the k-th PNP0C02 of one boot
# against the k-th of the other).  A stock PNP device that the kfit boot
# has on no bus is "not PNP in the kfit tree" when none of its IDs is in
# that tree's drivers/acpi/acpi_pnp.c table (acpi_pnp_device_ids: the IDs
# for which pnpacpi makes a PNP device at all): the kernel, not the
# config, has no such device.  7.3 dropped PNP0C01/PNP0C02 (the ACPI core
# reserves motherboard resources itself: drivers/acpi/scan.c,
# acpi_reserve_motherboard_resources) and PNP0B00-02 (rtc_cmos binds the
# platform device, found above as "moved"), so the PNP "system" driver,
# built in with PNP (drivers/pnp/Makefile: pnp-y += system.o) and bound to
# PNP0C02 by 6.1, has nothing to bind there.  Without the tree (or the ID
# files) such a device is lost.
#
# usage: e2e/pc-compare.sh STOCK-DRIVERS KFIT-DRIVERS [KFIT-TREE]
# Exit 0 when every device is bound again by the same driver, 1 otherwise.
set -eu
a=$1 b=$2 tree=${3:-}
[ -f "$b" ] || { echo "pc-compare.sh: $b missing (the kfit boot wrote no results)"; exit 1; }
apnp=$(dirname "$a")/pnp-ids.txt bpnp=$(dirname "$b")/pnp-ids.txt
[ -f "$apnp" ] && [ -f "$bpnp" ] || apnp= bpnp=
# the IDs the kfit tree's pnpacpi makes PNP devices for, upper case
treeids=
if [ -n "$tree" ] && [ -f "$tree/drivers/acpi/acpi_pnp.c" ]; then
	treeids=$(awk '/acpi_pnp_device_ids\[\] *= *\{/ { on = 1; next }
		on && /^};/ { exit }
		on { while (match($0, /"[A-Za-z0-9]+"/)) { print toupper(substr($0, RSTART + 1, RLENGTH - 2)); $0 = substr($0, RSTART + RLENGTH) } }' \
		"$tree/drivers/acpi/acpi_pnp.c" | tr '\n' ' ')
fi
# A platform device registered with PLATFORM_DEVID_AUTO is named NAME.N.auto,
# N counted in registration order, which differs between two kernels: such
# names are compared without N (the k-th NAME.auto of one boot against the
# k-th of the other).
awk -v apnp="$apnp" -v bpnp="$bpnp" -v treeids=" $treeids" -v tree="$tree" '
	BEGIN {
		# PNP device -> its IDs, per boot
		if (apnp != "") {
			while ((getline l < apnp) > 0) { sub(/ +$/, "", l); split(l, f, " "); sids[f[1]] = toupper(substr(l, length(f[1]) + 2)) }
			while ((getline l < bpnp) > 0) { sub(/ +$/, "", l); split(l, f, " "); kids[f[1]] = toupper(substr(l, length(f[1]) + 2)) }
		}
	}
	function pnpname(dev, ids,   f) {
		if (!(dev in ids)) return dev
		split(ids[dev], f, " ")
		return f[1]
	}
	function key(bus, dev, seen) {
		sub(/\.[0-9]+\.auto$/, ".auto", dev)
		seen[bus" "dev]++
		return bus" "dev (seen[bus" "dev] > 1 ? "#" seen[bus" "dev] : "")
	}
	function drv(   i, d) {
		d = $3
		for (i = 4; i < NF; i++) d = d " " $i
		return d
	}
	function notpnp(ids,   f, n, i) {
		if (treeids == " " || ids == "") return 0
		n = split(ids, f, " ")
		for (i = 1; i <= n; i++) if (index(treeids " ", " " f[i] " ")) return 0
		return 1
	}
	function same(d1, m1, d2, m2) {
		return d1 == d2 || (m1 != "-" && m1 == m2) || (m2 != "-" && d1 == m2)
	}
	NR==FNR {
		if ($1 == "pnp") $2 = pnpname($2, kids)
		kk = key($1, $2, kseen)
		k[kk] = drv(); km[kk] = (NF >= 4 ? $NF : "-")
		nm = kk; sub(/^[^ ]* /, "", nm); byname[nm] = byname[nm] "|" kk
		next
	}
	{
		sdev = $2
		if ($1 == "pnp") $2 = pnpname($2, sids)
		sk = key($1, $2, sseen); s[sk] = drv(); sm[sk] = (NF >= 4 ? $NF : "-")
		if ($1 == "pnp") sraw[sk] = sdev
	}
	END {
		lost=0; same_n=0; other=0; moved=0; notp=0
		for (d in s) {
			if (d in k) {
				if (same(s[d], sm[d], k[d], km[d])) same_n++
				else { printf "other driver: %s (stock: %s, kfit: %s)\n", d, s[d], k[d]; other++ }
				continue
			}
			nm = d; sub(/^[^ ]* /, "", nm)
			n = (nm in byname) ? split(byname[nm], cand, "|") : 0
			hit = ""
			for (i = 1; i <= n; i++) {
				c = cand[i]
				if (c == "" || c in s || c in used) continue
				hit = c
				break
			}
			if (hit == "") {
				bus = d; sub(/ .*/, "", bus)
				for (c in k)
					if (!(c in s) && !(c in used) && index(c, bus " ") != 1 &&
					    same(s[d], sm[d], k[c], km[c])) { hit = c; break }
			}
			if (hit != "") {
				printf "moved: %s (stock: %s) -> %s (kfit: %s, module %s)\n", d, s[d], hit, k[hit], km[hit]
				used[hit] = 1; moved++
			} else if ((d in sraw) && notpnp(sids[sraw[d]])) {
				printf "not PNP in the kfit tree: %s %s (stock: %s): none of its IDs (%s) is in %s/drivers/acpi/acpi_pnp.c\n", d, sraw[d], s[d], sids[sraw[d]], tree; notp++
			} else {
				printf "lost: %s (stock: %s)\n", d, s[d]; lost++
			}
		}
		for (d in k) if (!(d in s) && !(d in used)) printf "new: %s (kfit: %s)\n", d, k[d]
		printf "~ bound devices: stock %d, kfit %d; rebound by the same driver %d, on another bus %d, by another driver %d, not PNP devices in the kfit tree %d, lost %d\n", length(s), length(k), same_n, moved, other, notp, lost
	}' "$b" "$a" | sort | sed 's/^~ //' >"$b.compare"
cat "$b.compare"
! grep -q '^\(lost\|other driver\): ' "$b.compare"

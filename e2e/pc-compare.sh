#!/bin/sh
# pc-compare.sh - the bound drivers of two boots of the emulated PC side by
# side (lists of "BUS DEVICE DRIVER" from e2e/guest/kfit-e2e-pc-check):
# every device the first (Debian's stock kernel) had bound must be bound
# again in the second (kfit's), to any driver; a different driver is shown.
#
# usage: e2e/pc-compare.sh STOCK-DRIVERS KFIT-DRIVERS
# Exit 0 when nothing is lost, 1 otherwise.
set -eu
a=$1 b=$2
[ -f "$b" ] || { echo "pc-compare.sh: $b missing (the kfit boot wrote no results)"; exit 1; }
# A platform device registered with PLATFORM_DEVID_AUTO is named NAME.N.auto,
# N counted in registration order, which differs between two kernels: such
# names are compared without N (the k-th NAME.auto of one boot against the
# k-th of the other).
awk 'function key(bus, dev, seen) {
		sub(/\.[0-9]+\.auto$/, ".auto", dev)
		seen[bus" "dev]++
		return bus" "dev (seen[bus" "dev] > 1 ? "#" seen[bus" "dev] : "")
	}
	NR==FNR {k[key($1, $2, kseen)]=$3; next}
	{s[key($1, $2, sseen)]=$3}
	END {
		lost=0; same=0; other=0
		for (d in s) {
			if (!(d in k)) { printf "lost: %s (stock: %s)\n", d, s[d]; lost++ }
			else if (k[d] != s[d]) { printf "other driver: %s (stock: %s, kfit: %s)\n", d, s[d], k[d]; other++ }
			else same++
		}
		for (d in k) if (!(d in s)) printf "new: %s (kfit: %s)\n", d, k[d]
		printf "~ bound devices: stock %d, kfit %d; rebound by the same driver %d, by another %d, lost %d\n", length(s), length(k), same, other, lost
	}' "$b" "$a" | sort | sed 's/^~ //' >"$b.compare"
cat "$b.compare"
! grep -q '^lost: ' "$b.compare"

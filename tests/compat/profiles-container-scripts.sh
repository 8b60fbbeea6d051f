#!/bin/bash
# profiles-container-scripts.sh - the docker and lxc profiles agree with
# the projects' own checkers in tests/data/requirements.
#
# Docker (moby contrib/check-config.sh): every flag passed to check_flags
# between "Generally Necessary:" and "required_features_result=" is
# required, with the kernel range of the `if` around it turned into
# kernel>=/kernel< bounds (-lt A ... -eq A ... -lt B  ->  kernel<A.B.0;
# -le B -> kernel<A.(B+1).0; -ge A ... -eq C ... -ge B -> kernel>=C.B.0;
# any other test fails loudly; a range past the release that removed the
# symbol, by profiles/symbols.kfit's gone=, ends there).  These must be
# exactly the profile's
# `require`s' first groups, except the IPv6 ip6tables set (IP6_ONLY below),
# which must be `recommend`s: dockerd starts without it in every release
# (moby PR 47918; only IPv6 networks fail), docs/profiles.md.  The first groups: the legacy xtables set (IP_NF_FILTER ...
# IP_NF_NAT) may name the iptables-nft way as a further group, made only
# of nf_tables and xtables options (docker/nft-ways), since the kernel
# says the legacy tables are "not needed if you are using iptables over
# nftables (iptables-nft)"; one flag written for two kernel ranges that
# meet counts once.  The storage drivers section fails only when no
# driver is available: the profile must have one `require A || B ...` whose
# alternatives hit every in-kernel driver group and nothing else.
#
# LXC (lxc-checkconfig): `is_enabled CONFIG_X yes` is "required"; each of
# those must be one of the lxc profile's `require`s.  The profile may
# require more where lxc itself fails without the option although the
# script only reports it (UTS_NS, NET_NS: lxc-start clones those
# namespaces for every default container; CGROUPS, VETH, BRIDGE: lxc-start
# fails without cgroups, and lxc's default.conf puts every container on a
# veth pair to the lxcbr0 bridge): such a line must check the
# script's own words (it is an `is_enabled CONFIG_X` line there) and cite
# a source that is not the checker (lxc's code, the kernel header).
set -uo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
KFIT=${KFIT:-$ROOT/build/kfit}
DATA=${KFIT_REQUIREMENTS:-$ROOT/tests/data/requirements}
cd "$ROOT" || exit 2

# "SYM KMIN KMAX" per required flag ("-" for no bound); "storage N SYM" per
# storage-driver flag (N = group); "error TEXT" for a condition not parsed.
docker_items() {
	awk '
	function kv(a, b) { return a "." b ".0" }
	function cond(line,    ops, nums, n, rest, op, num) {
		n = 0; rest = line
		while (match(rest, /-(lt|le|eq|ge|gt) +[0-9]+/)) {
			split(substr(rest, RSTART, RLENGTH), p, / +/)
			n++; ops[n] = substr(p[1], 2); nums[n] = p[2] + 0
			rest = substr(rest, RSTART + RLENGTH)
		}
		kmin = "-"; kmax = "-"
		if (n == 3 && ops[1] == "lt" && ops[2] == "eq" && ops[3] == "lt") { kmax = kv(nums[1], nums[3]); return 1 }
		if (n == 3 && ops[1] == "lt" && ops[2] == "eq" && ops[3] == "le") { kmax = kv(nums[1], nums[3] + 1); return 1 }
		if (n == 3 && ops[1] == "ge" && ops[2] == "eq" && ops[3] == "ge") { kmin = kv(nums[2], nums[3]); return 1 }
		print "error cannot read kernel condition: " line
		return 0
	}
	function flags(text,    n, w, i) {
		sub(/\|.*/, "", text); sub(/^[ \t]*check_flags/, "", text)
		n = split(text, w, /[ \t\\]+/)
		for (i = 1; i <= n; i++) if (w[i] ~ /^[A-Z0-9_]+$/) {
			if (section == "req") print w[i], (depth ? kmin : "-"), (depth ? kmax : "-")
			else if (section == "storage") print "storage", group, w[i]
		}
	}
	/^echo .Generally Necessary:/ { section = "req"; next }
	/^required_features_result=/ { section = ""; next }
	/^echo .- Storage Drivers:/ { section = "storage"; group = 1; next }
	/STORAGE.*= 1 \]/ { section = ""; next }
	section == "storage" && /STORAGE=0/ { group++; next }
	section == "" { next }
	cont { buf = buf " " $0; if ($0 !~ /\\$/) { cont = 0; flags(buf) }; next }
	/^[ \t]*if .*kernelM/ { if (section == "req") { depth = cond($0) }; next }
	/^[ \t]*fi[ \t]*$/ { depth = 0; next }
	/^[ \t]*check_flags/ { if ($0 ~ /\\$/) { cont = 1; buf = $0 } else flags($0); next }
	' "$1"
}

profile_json() { "$KFIT" profiles show "$1" --json; }

# check-config.sh flags the docker profile recommends instead of requiring
IP6_ONLY=" IP6_NF_FILTER IP6_NF_MANGLE IP6_NF_TARGET_MASQUERADE IP6_NF_RAW IP6_NF_NAT "

# ---- docker ----
items=$(docker_items "$DATA/moby-check-config.sh")
if grep -q '^error' <<<"$items"; then
	echo "not ok docker/parse"
	grep '^error' <<<"$items" | sed 's/^error /  /'
fi
json=$(profile_json docker) || { echo "not ok docker"; echo "  kfit profiles show docker failed"; exit 0; }
# a range the script extends past the release that removed the symbol
# (NF_NAT_IPV4 to 5.1, NF_NAT_NEEDED to 5.2, gone in 5.1 and 5.2) ends
# where profiles/symbols.kfit says the kernel dropped it (gone=)
want=$(grep -v '^error\|^storage' <<<"$items" | awk '
	function n(v,    p) { split(v, p, "."); return p[1] * 1000000 + p[2] * 1000 + p[3] }
	FNR == NR { if ($1 == "symbol") for (i = 3; i <= NF; i++) if ($i ~ /^gone=/) gone[$2] = substr($i, 6); next }
	$1 in gone && ($3 == "-" || n($3) > n(gone[$1])) { $3 = gone[$1] }
	{ print }' profiles/symbols.kfit - | sort -u)
# the storage-driver requirement: every alternative a storage flag
storage_syms=" $(awk '$1 == "storage" { printf "%s ", $3 }' <<<"$items")"
# the legacy xtables set may have the iptables-nft way as a further group
# (`(IP_NF_FILTER && ... && IP_NF_NAT) || (NF_TABLES_IPV4 && ... &&
# NFT_COMPAT)`): check-config.sh's flags are the first group's; one flag
# written for two kernel ranges that meet (`kernel<5.2.0` and
# `kernel>=5.2.0`) is one flag
got=$(jq -r --arg st "$storage_syms" --arg ip6 "$IP6_ONLY" '.requirements[] | select(.profile == "docker") | select(.level == "require" or (.level == "recommend" and ([.alternatives[] | select(.group == 0) | .name as $n | $ip6 | contains(" " + $n + " ")] | all)))
	| select([.alternatives[] | .name as $n | $st | contains(" " + $n + " ")] | all | not)
	| . as $r | .alternatives[] | select(.group == 0)
	| [.name, ($r.when.kernel_min // "-"), ($r.when.kernel_below // "-")] | join(" ")' <<<"$json" |
	sort -k1,1 -k2,2 | awk '
	$1 == s && $2 == hi && hi != "-" { hi = $3; next }
	{ if (s != "") print s, lo, hi; s = $1; lo = $2; hi = $3 }
	END { if (s != "") print s, lo, hi }' | sort -u)
if [ -n "$want" ] && [ "$want" = "$got" ]; then
	echo "ok docker/required"
else
	echo "not ok docker/required"
	diff <(echo "$want") <(echo "$got") | sed -n 's/^</  check-config.sh requires, profile does not: /p; s/^>/  profile requires, check-config.sh does not: /p'
fi
# the IPv6 ip6tables set is recommended, never required (dockerd starts without it)
ip6req=$(jq -r --arg ip6 "$IP6_ONLY" '.requirements[] | select(.profile == "docker" and .level == "require")
	| .alternatives[] | select(.group == 0) | .name | select(. as $n | $ip6 | contains(" " + $n + " "))' <<<"$json")
if [ -z "$ip6req" ]; then
	echo "ok docker/ip6tables-recommended"
else
	echo "not ok docker/ip6tables-recommended"
	sed 's/^/  required, though dockerd starts without it (a recommend): /' <<<"$ip6req"
fi
# the iptables-nft ways: only nf_tables and xtables options after group 0
nft=$(jq -r --arg st "$storage_syms" --arg ip6 "$IP6_ONLY" '.requirements[] | select(.profile == "docker") | select(.level == "require" or (.level == "recommend" and ([.alternatives[] | select(.group == 0) | .name as $n | $ip6 | contains(" " + $n + " ")] | all)))
	| select([.alternatives[] | .group] | max > 0)
	| select([.alternatives[] | .name as $n | $st | contains(" " + $n + " ")] | all | not)
	| [.expr, ([.alternatives[] | select(.group > 0) | .name
		| select(test("^(NF_TABLES_IPV[46]|NFT_[A-Z0-9_]+|NETFILTER_XT_[A-Z0-9_]+)$") | not)] | join(" "))]
	| select(.[1] != "") | join(": ")' <<<"$json")
if [ -z "$nft" ]; then
	echo "ok docker/nft-ways"
else
	echo "not ok docker/nft-ways"
	sed 's/^/  not an nf_tables or xtables option in the iptables-nft way of /' <<<"$nft"
fi
alts=$(jq -r --arg st "$storage_syms" '.requirements[] | select(.level == "require" and .profile == "docker" and (.alternatives | length) > 1)
	| select([.alternatives[] | .name as $n | $st | contains(" " + $n + " ")] | all)
	| .alternatives | map(.name) | join(" ")' <<<"$json")
ok=1
if [ "$(grep -c . <<<"$alts")" != 1 ]; then
	ok=0
	echo "not ok docker/storage"
	echo "  expected one storage-driver requirement with alternatives, found: ${alts:-none}"
else
	for g in $(awk '$1 == "storage" { print $2 }' <<<"$items" | sort -u); do
		hit=0
		for s in $(awk -v g="$g" '$1 == "storage" && $2 == g { print $3 }' <<<"$items"); do
			case " $alts " in *" $s "*) hit=1 ;; esac
		done
		[ $hit = 1 ] || { ok=0; msg="  storage group $g ($(awk -v g="$g" '$1 == "storage" && $2 == g { printf "%s ", $3 }' <<<"$items")) is not an alternative"; }
	done
	for a in $alts; do
		awk -v a="$a" '$1 == "storage" && $3 == a { f = 1 } END { exit !f }' <<<"$items" ||
			{ ok=0; msg="  alternative $a is not a storage driver of check-config.sh"; }
	done
	if [ $ok = 1 ]; then echo "ok docker/storage"; else echo "not ok docker/storage"; echo "$msg"; fi
fi

# ---- lxc ----
want=$(awk '/is_enabled CONFIG_[A-Z0-9_]+ yes/ { match($0, /CONFIG_[A-Z0-9_]+/); print substr($0, RSTART + 7, RLENGTH - 7) }' \
	"$DATA/lxc-checkconfig.in" | sort -u)
# (the pre-4.7 check is written `is_enabled DEVPTS_MULTIPLE_INSTANCES`, no CONFIG_)
reported=$(awk '/is_enabled (CONFIG_)?[A-Z0-9_]+/ { match($0, /is_enabled (CONFIG_)?[A-Z0-9_]+/); s = substr($0, RSTART + 11, RLENGTH - 11); sub(/^CONFIG_/, "", s); print s }' \
	"$DATA/lxc-checkconfig.in" | sort -u)
lxcjson=$(profile_json lxc)
got=$(jq -r '.requirements[] | select(.level == "require" and .profile == "lxc") | .expr' <<<"$lxcjson" | sort -u)
# requires beyond the script's list, with a source other than the checker
extra_ok=$(jq -r '.requirements[] | select(.level == "require" and .profile == "lxc")
	| select([.sources[] | select(test("lxc-checkconfig") | not)] | length > 0) | .expr' <<<"$lxcjson" | sort -u)
missing=$(comm -23 <(echo "$want") <(echo "$got"))
extra=$(comm -13 <(echo "$want") <(echo "$got"))
bad_extra=$(comm -23 <(echo "$extra" | sed '/^$/d') <(comm -12 <(echo "$extra_ok") <(echo "$reported")))
if [ -n "$want" ] && [ -z "$missing" ] && [ -z "$bad_extra" ]; then
	echo "ok lxc/required"
else
	echo "not ok lxc/required"
	[ -z "$missing" ] || sed 's/^/  lxc-checkconfig requires, profile does not: /' <<<"$missing"
	[ -z "$bad_extra" ] || sed 's/^/  profile requires, lxc-checkconfig does not, and no other source or no check of it in the script: /' <<<"$bad_extra"
fi

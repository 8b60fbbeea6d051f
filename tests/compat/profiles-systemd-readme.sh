#!/bin/bash
# profiles-systemd-readme.sh - the systemd-N profile agrees with systemd's
# README for every version: tests/data/requirements holds the kernel part
# of the README of each tag from v208 to v261 whose list changed, and of
# v261, the newest tag kfit could read, and the README that Debian's
# systemd 262 package ships (forky's 262-1; see SOURCES.md there).
# systemd-N for every N from 208 to the newest copy (262) is checked
# against the newest copy not newer than N (the list of every tag between
# two copies equals the older copy's: SOURCES.md says how that was
# checked).
#
# Extraction (readme_items below): the REQUIREMENTS text is read as
# paragraphs; a line whose first word is CONFIG_X[=value] is an item, and
# lines continuing an open parenthesis belong to it ("(must be built-in"
# there makes the item SYM=y, v258 on); the prose lines above
# a run of items are its heading.  An item is "required" when its heading
# is the base list ("REQUIREMENTS: Linux kernel ...", v208, or "Kernel
# Config Options:", later), says udev "will fail to work", or is "Kernel
# crypto/hash API" (v233-v251: NEWS 233 says they "need to be enabled in
# the kernel"); every other
# item ("optional", "strongly recommended", "should", "required for
# <feature>") is "recommended".  CONFIG_{A,B,...}_SUFFIX is expanded.
#
# Checks, per README (and per distro release whose init is systemd-N: it
# requires everything README vN requires):
#   required  = exactly the profile's `require` lines (stated by systemd-N
#               itself) for systemd-VERSION, values included (=n, ="")
#   recommended: every item appears in the profile for that version (any
#               level, renames from profiles/renames.kfit applied), with
#               =n items wanted off, =y items built in and a list item
#               (CONFIG_LSM="...,bpf", v250 on) as "LSM contains bpf",
#               except the SKIP list:
#     SCHEDSTATS   v208: only for systemd-bootchart, a separate tool that
#     SCHED_DEBUG  left systemd in v230; not a need of systemd itself
#   README lags the code (LAGS): items a README still lists after systemd
#     stopped needing them, per version: CRYPTO_* in v250-v251 (the kernel
#     crypto API use went in v250, commit 1fc8d0c9dd; README caught up in
#     v252, commit 2c3794f422); EFI_VARS in v208-v211, which systemd never
#     read ("systemd does not need or use CONFIG_EFI_VARS anywhere, this
#     should be CONFIG_EFIVAR_FS instead", commit f33016ff8b, v212): the
#     profile recommends EFIVAR_FS for every version
#   README typos (TYPO): "CONFIG_{TMPFS,EXT4,...}_POSIX_ACL" in v220-v236
#     means EXT4_FS_POSIX_ACL (v237 corrected it)
#   Required by consequence where the README says less (STRICTER,
#   FIRST-LAST:SYM): NET_NS in v212-v235 ("required for <feature>"),
#     whose own units (hostnamed, localed; machined to v219) set
#     PrivateNetwork=yes and failed to start without it until v236
#     (commit 6e2d7c4f13); PROC_FS in v208 (listed "For systemd-bootchart"),
#     whose PID 1 mounts /proc with MNT_FATAL and stops when that fails;
#     UNIX in v208-v247 (listed from v248), whose PID 1 does not start
#     without its AF_UNIX notification socket in any version;
#     SECCOMP and SECCOMP_FILTER in v231 (SECCOMP "strongly recommended",
#     SECCOMP_FILTER not listed before v232), whose journald and logind
#     units set SystemCallFilter= while a missing kernel seccomp still
#     failed the unit at step SECCOMP (systemd issue 3882; v232 skips).
#     BASE_FULL / BASE_SMALL=n (v243's sysctl.d/50-pid-max.conf) are only
#     recommended: no README lists them, and without them only
#     systemd-sysctl.service ends failed
set -uo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
KFIT=${KFIT:-$ROOT/build/kfit}
DATA=${KFIT_REQUIREMENTS:-$ROOT/tests/data/requirements}
cd "$ROOT" || exit 2
SKIP=" SCHEDSTATS SCHED_DEBUG "
LAGS="250:CRYPTO_USER_API_HASH 250:CRYPTO_HMAC 250:CRYPTO_SHA256
251:CRYPTO_USER_API_HASH 251:CRYPTO_HMAC 251:CRYPTO_SHA256
208:EFI_VARS 209:EFI_VARS 210:EFI_VARS 211:EFI_VARS"
declare -A TYPO=([EXT4_POSIX_ACL]=EXT4_FS_POSIX_ACL)
STRICTER="208-208:PROC_FS 212-235:NET_NS 208-247:UNIX 231-231:SECCOMP 231-231:SECCOMP_FILTER"

# The STRICTER symbols that apply to version $1, one a line.
stricter() {
	local e range sym
	for e in $STRICTER; do
		range=${e%%:*} sym=${e#*:}
		[ "$1" -ge "${range%-*}" ] && [ "$1" -le "${range#*-}" ] && echo "$sym"
	done
}

# Print "required SYM[=VAL]" / "recommended SYM[=VAL]" for a README.
readme_items() {
	awk '
	function flush_heading() { }
	function classify(h) {
		if (h ~ /Kernel Config Options:/) return "required"
		if (h ~ /^ *REQUIREMENTS: *Linux kernel/) return "required"
		if (h ~ /will fail to work/) return "required"
		if (h ~ /^ *Kernel crypto\/hash API/) return "required"
		return "recommended"
	}
	function emit(tok, cls,    m, pre, post, n, parts, i, val) {
		val = ""
		if (index(tok, "=") > 0) { val = substr(tok, index(tok, "=")); tok = substr(tok, 1, index(tok, "=") - 1) }
		sub(/^CONFIG_/, "", tok)
		if (match(tok, /\{[^}]*\}/)) {
			pre = substr(tok, 1, RSTART - 1); post = substr(tok, RSTART + RLENGTH)
			n = split(substr(tok, RSTART + 1, RLENGTH - 2), parts, ",")
			for (i = 1; i <= n; i++)
				if (parts[i] != "...") print cls, pre parts[i] post val
			return
		}
		print cls, tok val
	}
	/^[ \t]*$/ { heading = ""; in_items = 0; depth = 0; next }
	{
		line = $0
		if (depth > 0) {            # continuation of a parenthesis
			depth += gsub(/\(/, "(", line) - gsub(/\)/, ")", line)
			next
		}
		if (match(line, /^[ \t]*CONFIG_[A-Za-z0-9_{},.]+(="[^"]*")?(=[a-z0-9]+)?/)) {
			tok = substr(line, RSTART, RLENGTH); sub(/^[ \t]*/, "", tok)
			if (line ~ /\(must be built-in/ && index(tok, "=") == 0) tok = tok "=y"
			emit(tok, classify(heading))
			in_items = 1
			depth = gsub(/\(/, "(", line) - gsub(/\)/, ")", line)
			if (depth < 0) depth = 0
			next
		}
		if (in_items) { heading = ""; in_items = 0 }
		t = line; sub(/^[ \t]*/, "", t)
		heading = heading (heading == "" ? "" : " ") t
	}' "$1"
}

# The profile's view: "LEVEL|SYMBOL|EXPR|PROFILE" per requirement.
profile_items() { # version
	"$KFIT" profiles show "systemd-$1" --json |
		jq -r '.requirements[] | [.level, (.alternatives | map(.name) | join(",")), .expr, .profile] | join("|")'
}

check_readme() { # file version
	local file=$1 ver=$2 name="systemd-$2" items prof want got missing="" bad="" cls sym base
	items=$(readme_items "$file")
	prof=$(profile_items "$ver") || { echo "not ok $name"; echo "  kfit profiles show $name failed"; return; }
	printf '%s\n' "$items" >"$W/items"
	printf '%s\n' "$prof" >"$W/prof"
	want=$(awk -v v="$ver" -v lags="$LAGS" '
		BEGIN { n = split(lags, l, /[ \n]+/); for (i = 1; i <= n; i++) lag[l[i]] = 1 }
		$1 == "required" && !((v ":" $2) in lag) { print $2 }' <<<"$items"; stricter "$ver")
	want=$(sort -u <<<"$want" | sed '/^$/d')
	got=$(awk -F'|' -v p="$name" '$1 == "require" && $4 == p { print $3 }' <<<"$prof" | sort -u)
	if [ "$want" = "$got" ]; then
		echo "ok $name/required"
	else
		echo "not ok $name/required"
		diff <(echo "$want") <(echo "$got") | sed -n 's/^</  README (or STRICTER) requires, profile does not: /p; s/^>/  profile requires, README does not: /p'
	fi
	# one awk per version: renames, LAGS, TYPO and SKIP applied
	missing=$(awk -v v="$ver" -v lags="$LAGS" -v skip="$SKIP" -v typo="EXT4_POSIX_ACL=EXT4_FS_POSIX_ACL" '
		BEGIN {
			n = split(lags, l, /[ \n]+/); for (i = 1; i <= n; i++) lag[l[i]] = 1
			n = split(skip, l, / +/); for (i = 1; i <= n; i++) if (l[i] != "") skp[l[i]] = 1
			split(typo, t, "="); ty[t[1]] = t[2]
		}
		# s holds w as a whole: "LSM contains bpf" is not in "LSM contains bpfx"
		function has_word(s, w) { return index(" " s " ", " " w " ") > 0 }
		FILENAME == "-" && $1 == "rename" { ren[$2] = $3; next }
		FILENAME == "-" { next }
		FNR == NR { next }
		FILENAME ~ /prof$/ { np++; split($0, f, "|"); palts[np] = "," f[2] ","; pexpr[np] = f[3]; next }
		$1 == "recommended" {
			sym = $2; b = sym; sub(/=.*/, "", b)
			if ((v ":" b) in lag) next
			if (b in ty) { sym = ty[b] substr(sym, length(b) + 1); b = ty[b] }
			if (b in skp) next
			while (b in ren) b = ren[b]
			val = sym ~ /=[ny]$/ ? substr(sym, length(sym) - 1) : ""
			# a list item: CONFIG_LSM="...,bpf" is "LSM contains bpf"
			if (match(sym, /="\.\.\.,[^",]+"$/))
				val = " contains " substr(sym, RSTART + 6, RLENGTH - 7)
			found = 0
			for (k = 1; k <= np; k++)
				if (index(palts[k], "," b ",") && (val == "" || has_word(pexpr[k], b val))) found = 1
			if (!found) printf " %s", sym
		}' - /dev/null "$W/prof" "$W/items" <profiles/renames.kfit)
	if [ -z "$missing" ]; then
		echo "ok $name/recommended"
	else
		echo "not ok $name/recommended"
		echo "  README items the profile lacks:$missing"
	fi
}

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# README copies by version; each systemd-N is checked against the newest
# copy not newer than N (copies exist only where the kernel list changed)
declare -A copy=()
newest=0
for f in "$DATA"/systemd-README-v*.txt; do
	[ -f "$f" ] || continue
	v=${f##*-v}
	v=${v%%[!0-9]*}
	copy[$v]=$f
	[ "$v" -gt "$newest" ] && newest=$v
done
n=0
cur=""
declare -A readme_of=()
for v in $(seq 208 "$newest"); do
	[ -n "${copy[$v]:-}" ] && cur=${copy[$v]}
	[ -n "$cur" ] || continue
	n=$((n + 1))
	readme_of[$v]=$cur
	check_readme "$cur" "$v"
done
[ $n -gt 0 ] || { echo "not ok systemd-readme"; echo "  no README copies in $DATA"; }

# Every distro release whose init is systemd-N (Debian 11's 247, 12's 252,
# 13's 257, ...): the release as a whole requires what the README of its
# packaged systemd requires (no override or drop lost one on the way).
for d in $("$KFIT" profiles --json | jq -r '.profiles[] | select(.kind == "distro") | .name'); do
	json=$("$KFIT" profiles show "$d" --json) || { echo "not ok distro/$d"; echo "  kfit profiles show $d failed"; continue; }
	init=$(jq -r '.init // ""' <<<"$json")
	case $init in systemd-[0-9]*) ;; *) continue ;; esac
	v=${init#systemd-}
	[ -n "${readme_of[$v]:-}" ] || { echo "skip distro/$d $init: no README copy"; continue; }
	want=$(readme_items "${readme_of[$v]}" | awk -v v="$v" -v lags="$LAGS" '
		BEGIN { n = split(lags, l, /[ \n]+/); for (i = 1; i <= n; i++) lag[l[i]] = 1 }
		$1 == "required" && !((v ":" $2) in lag) { print $2 }' | sort -u)
	got=$(jq -r '.requirements[] | select(.level == "require") | .expr' <<<"$json" | sort -u)
	missing=$(comm -23 <(echo "$want") <(echo "$got") | tr '\n' ' ')
	if [ -z "${missing// /}" ]; then
		echo "ok distro/$d/$init"
	else
		echo "not ok distro/$d/$init"
		echo "  README v$v requires, $d does not: $missing"
	fi
done

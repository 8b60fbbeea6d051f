#!/bin/bash
# profiles-systemd-readme.sh - the systemd-N profile agrees with systemd's
# README for each README copy in tests/data/requirements (v208, v256, v260).
#
# Extraction (readme_items below): the REQUIREMENTS text is read as
# paragraphs; a line whose first word is CONFIG_X[=value] is an item, and
# lines continuing an open parenthesis belong to it; the prose lines above
# a run of items are its heading.  An item is "required" when its heading
# is the base list ("REQUIREMENTS: Linux kernel ...", v208, or "Kernel
# Config Options:", later) or says udev "will fail to work"; every other
# item ("optional", "strongly recommended", "should", "required for
# <feature>") is "recommended".  CONFIG_{A,B,...}_SUFFIX is expanded.
#
# Checks, per README:
#   required  = exactly the profile's `require` lines (stated by systemd-N
#               itself) for systemd-VERSION, values included (=n, ="")
#   recommended: every item appears in the profile for that version (any
#               level, renames from profiles/renames.kfit applied), with
#               =n items wanted off, except the SKIP list:
#     LSM          a list value ("...,bpf"); the language has no "contains"
#     SCHEDSTATS   v208: only for systemd-bootchart, a separate tool that
#     SCHED_DEBUG  left systemd in v230; not a need of systemd itself
set -uo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
KFIT=${KFIT:-$ROOT/build/kfit}
DATA=${KFIT_REQUIREMENTS:-$ROOT/tests/data/requirements}
cd "$ROOT" || exit 2
SKIP=" LSM SCHEDSTATS SCHED_DEBUG "

# Print "required SYM[=VAL]" / "recommended SYM[=VAL]" for a README.
readme_items() {
	awk '
	function flush_heading() { }
	function classify(h) {
		if (h ~ /Kernel Config Options:/) return "required"
		if (h ~ /^ *REQUIREMENTS: *Linux kernel/) return "required"
		if (h ~ /will fail to work/) return "required"
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

renames=$(awk '$1 == "rename" { print $2, $3 }' profiles/renames.kfit)
newest() { # symbol -> newest name
	local s=$1 o n
	while read -r o n; do [ "$o" = "$s" ] && s=$n; done <<<"$renames"
	echo "$s"
}

check_readme() { # file version
	local file=$1 ver=$2 name="systemd-$2" items prof want got missing="" bad="" cls sym base
	items=$(readme_items "$file")
	prof=$(profile_items "$ver") || { echo "not ok $name"; echo "  kfit profiles show $name failed"; return; }
	want=$(awk '$1 == "required" { print $2 }' <<<"$items" | sort -u)
	got=$(awk -F'|' -v p="$name" '$1 == "require" && $4 == p { print $3 }' <<<"$prof" | sort -u)
	if [ "$want" = "$got" ]; then
		echo "ok $name/required"
	else
		echo "not ok $name/required"
		diff <(echo "$want") <(echo "$got") | sed -n 's/^</  README requires, profile does not: /p; s/^>/  profile requires, README does not: /p'
	fi
	while read -r cls sym; do
		[ "$cls" = recommended ] || continue
		base=${sym%%=*}
		case $SKIP in *" $base "*) continue ;; esac
		base=$(newest "$base")
		local found=""
		while IFS='|' read -r lvl alts expr p; do
			case ",$alts," in *",$base,"*) ;; *) continue ;; esac
			if [ "${sym#*=}" = n ] && [ "$sym" != "$base" ]; then
				[[ $expr == *"$base=n"* ]] && found=1
			else
				found=1
			fi
		done <<<"$prof"
		[ -n "$found" ] || missing+=" $sym"
	done <<<"$items"
	if [ -z "$missing" ]; then
		echo "ok $name/recommended"
	else
		echo "not ok $name/recommended"
		echo "  README items the profile lacks:$missing"
	fi
}

n=0
for f in "$DATA"/systemd-README-v*.txt; do
	[ -f "$f" ] || continue
	v=${f##*-v}
	v=${v%%[!0-9]*}
	n=$((n + 1))
	check_readme "$f" "$v"
done
[ $n -gt 0 ] || { echo "not ok systemd-readme"; echo "  no README copies in $DATA"; }

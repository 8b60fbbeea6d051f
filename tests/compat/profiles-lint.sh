#!/bin/bash
# profiles-lint.sh - `kfit profiles lint` passes on the database alone and
# against the 5.10, 6.1, 6.12 and 7.3 kernel trees (every symbol a
# requirement names exists where its version range says it applies, renames
# resolved).  Trees come from scripts/kernel-tree.sh or
# $KFIT_COMPAT_TREE_5_10 / $KFIT_COMPAT_TREE_6_1 / $KFIT_COMPAT_TREE_6_12 /
# $KFIT_COMPAT_TREE_7_3; a missing 5.10, 6.1 or 6.12 tree is a skip, a
# missing 7.3 (which `make deps` fetches) a failure.
set -uo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$ROOT/tests/compat/lib.sh"
cd "$ROOT" || exit 2

if out=$("$KFIT" profiles lint 2>&1); then
	echo "ok database"
else
	echo "not ok database"
	sed 's/^/  | /' <<<"$out" | head -n 30
fi

# every profile's JSON parses and has the documented top-level keys
bad=""
for p in $("$KFIT" profiles --json | jq -r '.profiles[] | select(.template != true) | .name') systemd-208 systemd-256 systemd-260; do
	"$KFIT" profiles show "$p" --json | jq -e '.requirements and .profiles and has("initramfs")' >/dev/null 2>&1 ||
		bad+=" $p"
done
if [ -z "$bad" ]; then echo "ok json-all"; else echo "not ok json-all"; echo "  invalid JSON for:$bad"; fi

lint_tree() { # version tree
	local v=$1 t=$2 out
	if out=$("$KFIT" profiles lint -k "$t" 2>&1); then
		echo "ok tree-$v"
	else
		echo "not ok tree-$v"
		sed 's/^/  | /' <<<"$out" | head -n 30
	fi
	# show -k takes the tree's kernel version
	if out=$("$KFIT" profiles show systemd-256 -k "$t" 2>&1) &&
		grep -q "^  for kernel $v\." <<<"$out"; then
		echo "ok show-tree-$v"
	else
		echo "not ok show-tree-$v"
		head -n 10 <<<"$out" | sed 's/^/  | /'
	fi
}
for_each_tree tree lint_tree

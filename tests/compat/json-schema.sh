#!/bin/bash
# json-schema.sh - the JSON of every reporting command (detect, check,
# diff, generate, profiles, profiles show, why) against its schema in
# docs/schema/, checked by tests/schema-check.jq.  Outputs that need a
# kernel tree (detect on the snapshots, generate, diff -k) use Debian's 6.1
# tree from scripts/kernel-tree.sh or $KFIT_COMPAT_TREE_6_1; without one
# they are skipped.
set -uo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
KFIT=${KFIT:-$ROOT/build/kfit}
cd "$ROOT" || exit 2
W=$(mktemp -d "${TMPDIR:-/tmp}/kfit-schema.XXXXXX")
trap 'rm -rf "$W"' EXIT
S=$ROOT/docs/schema
FIX=$ROOT/tests/cases/profiles-check

want() { [ -z "${KFIT_TEST_FILTER:-}" ] || [[ compat/json-schema/$1 =~ $KFIT_TEST_FILTER ]]; }

# check NAME SCHEMA EXPECTED-EXIT CMD...: CMD's stdout must be valid for
# docs/schema/SCHEMA.schema.json and CMD must exit EXPECTED-EXIT
check() {
	local name=$1 schema=$2 want_rc=$3 rc errs
	shift 3
	want "$name" || return 0
	"$@" >"$W/out" 2>"$W/err"
	rc=$?
	if [ "$rc" != "$want_rc" ]; then
		echo "not ok $name"
		echo "  exit $rc, wanted $want_rc: $*"
		sed 's/^/  | /' "$W/err" | head -n 10
		return
	fi
	if ! errs=$(jq -n -r --slurpfile schema "$S/$schema.schema.json" --slurpfile doc "$W/out" \
		-f "$ROOT/tests/schema-check.jq" 2>&1); then
		echo "not ok $name"
		echo "  jq failed: $errs" | head -n 5
		return
	fi
	if [ -n "$errs" ]; then
		echo "not ok $name"
		sed 's/^/  /' <<<"$errs" | head -n 20
	else
		echo "ok $name"
	fi
}

# ---- without a kernel tree
check profiles-list profiles 0 "$KFIT" profiles --json
check profiles-list-fixture profiles 0 "$KFIT" profiles --json --profiles "$FIX/p"
for p in $("$KFIT" profiles --json | jq -r '.profiles[] | .name | sub("-N$"; "-252")'); do
	check "profiles-show/$p" profiles-show 0 "$KFIT" profiles show "$p" --json
done
check profiles-show-kver profiles-show 0 "$KFIT" profiles show debian-12 docker --kver 6.1.0 --arch x86_64 --json
check profiles-show-fixture profiles-show 0 "$KFIT" profiles show demo-1 --profiles "$FIX/p" --json
check check-unmet check 1 "$KFIT" check -p demo-1 --profiles "$FIX/p" --json "$FIX/c/x86.config"
check check-all check 1 "$KFIT" check -p demo-1 --profiles "$FIX/p" --json --all "$FIX/c/x86.config.gz"
check check-kver check 0 "$KFIT" check -p demo-1 --profiles "$FIX/p" --json --initramfs yes --kver 6.1.0 "$FIX/c/x86.config"
# real distribution configs against their own distro profile: a
# distribution's config meets its profile's requirements (exit 0)
for c in debian-12:debian-12-6.1.159 debian-13:debian-13-6.12.63 fedora-43:fedora-43; do
	p=${c%%:*} f=$(ls tests/data/distro-configs/"${c#*:}"*.config.xz 2>/dev/null | head -n 1)
	if [ -z "$f" ]; then
		want "check-distro/$p" &&
			echo "skip check-distro/$p no tests/data/distro-configs/${c#*:}*.config.xz"
		continue
	fi
	check "check-distro/$p" check 0 "$KFIT" check -p "$p" --json --all "$f"
done
# a release whose kernel lacks symbols (absent): CentOS Stream 9's own
# config with the AMD and Intel PC profiles, results with "absent"
f=tests/data/distro-configs/centos-stream-9-5.14.0.config.xz
if [ -f "$f" ]; then
	check check-absent check 0 "$KFIT" check -p centos-stream-9 -p amd-pc -p intel-pc --json --all "$f"
elif want check-absent; then
	echo "skip check-absent no $f"
fi
printf 'CONFIG_A=y\nCONFIG_B=m\n# CONFIG_C is not set\nCONFIG_S="x"\nCONFIG_GONE=y\n' >"$W/a"
printf 'CONFIG_A=y\nCONFIG_B=y\nCONFIG_NEW=m\nCONFIG_S="y y"\n' >"$W/b"
check diff-plain diff 1 "$KFIT" diff --json "$W/a" "$W/b"
check diff-same diff 0 "$KFIT" diff --json "$W/a" "$W/a"

# why, on a tiny tree of three symbols
t=$W/fake
mkdir -p "$t/scripts/kconfig"
printf 'mainmenu "Fake"\n\nmenu "Things"\n\nconfig FOO\n\tbool "foo"\n\tdefault y\n\nconfig BAR\n\ttristate "bar"\n\tdepends on FOO\n\nconfig BAZ\n\tbool "baz"\n\tdepends on !FOO\n\nendmenu\n' >"$t/Kconfig"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\nEXTRAVERSION =\n' >"$t/Makefile"
printf 'profile want-foo\ntitle   wants foo\nkind    feature\n\nrequire FOO\n    reason foo is needed\n    source test\n' >"$W/foo.kfit"
export KFIT_CACHE_DIR=$W/cache
"$KFIT" kconfig -k "$t" -a x86_64 -c "$W/fake.config" alldefconfig >/dev/null 2>&1
check why-set why 0 "$KFIT" why FOO -k "$t" -a x86_64 -c "$W/fake.config" --json
check why-absent why 0 "$KFIT" why CONFIG_BAZ -k "$t" -a x86_64 -c "$W/fake.config" --json
check why-profiles why 0 "$KFIT" why BAZ -k "$t" -a x86_64 -c "$W/fake.config" -p "$W/foo.kfit" --json
unset KFIT_CACHE_DIR

# ---- with the 6.1 tree
tree=${KFIT_COMPAT_TREE_6_1:-$(scripts/kernel-tree.sh 6.1 2>/dev/null)}
if [ -z "$tree" ] || [ ! -d "$tree" ]; then
	for n in detect generate diff-tree; do
		want "$n" && echo "skip $n no linux-source-6.1 tree (scripts/kernel-tree.sh 6.1)"
	done
	exit 0
fi
for snap in tests/data/snapshots/*/; do
	snap=${snap%/}
	check "detect/${snap##*/}" detect 0 "$KFIT" detect -k "$tree" --root "$snap" --json
done
check detect/firecracker-no-modules-alias detect 0 \
	"$KFIT" detect -k "$tree" --root tests/data/snapshots/firecracker --no-modules-alias --json
check generate-kvm-guest generate 0 "$KFIT" generate -k "$tree" -a x86_64 -p debian-12 -p kvm-guest \
	--initramfs no -o "$W/g.config" --json
check generate-unmet generate 1 "$KFIT" generate -k "$tree" -a x86_64 \
	-p tests/cases/generate-unsat-chain/local.kfit --base allnoconfig -o "$W/u.config" --json
check generate-force generate 1 "$KFIT" generate -k "$tree" -a x86_64 \
	-p tests/cases/generate-unsat-chain/local.kfit --base allnoconfig -o "$W/u.config" --json --force
check generate-detect generate 0 "$KFIT" generate -k "$tree" -a x86_64 --detect \
	--root tests/data/snapshots/firecracker -o "$W/d.config" --json
check diff-tree diff 1 "$KFIT" diff -k "$tree" -a x86_64 --json "$W/g.config" "$W/d.config"

#!/bin/bash
# profiles-distro.sh - the proof of the profile database: every real
# distro kernel config in tests/data/distro-configs meets its own distro's
# profile, i.e. `kfit check -p <distro-release> CONFIG` exits 0 and prints
# no "unmet:" line.  File <distro>-<release>-<kver>.config.xz maps to the
# profile <distro>-<release>; arch-*, nixos-* and opensuse-tumbleweed-*
# map to the rolling profiles arch, nixos and opensuse-tumbleweed.
# Protocol: "ok NAME" / "not ok NAME" per config (see tests/run.sh).
set -uo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
KFIT=${KFIT:-$ROOT/build/kfit}
DATA=${KFIT_DISTRO_CONFIGS:-$ROOT/tests/data/distro-configs}
cd "$ROOT" || exit 2

n=0
for f in "$DATA"/*.config.xz; do
	[ -f "$f" ] || continue
	b=${f##*/}
	b=${b%.config.xz}
	case $b in
	arch-*) p=arch ;;
	nixos-*) p=nixos ;;
	opensuse-tumbleweed-*) p=opensuse-tumbleweed ;;
	*) p=${b%-*} ;;
	esac
	n=$((n + 1))
	out=$("$KFIT" check -p "$p" "$f" 2>&1)
	rc=$?
	if [ $rc -eq 0 ] && ! grep -q '^unmet:' <<<"$out"; then
		echo "ok $b"
	else
		echo "not ok $b"
		echo "  kfit check -p $p $f exited $rc:"
		grep -v '^warning:' <<<"$out" | head -n 20 | sed 's/^/  | /'
	fi
done
if [ $n -eq 0 ]; then
	echo "not ok distro-configs"
	echo "  no *.config.xz in $DATA"
fi

#!/bin/bash
# profiles-distro.sh - the proof of the profile database: every real
# distro kernel config in tests/data/distro-configs meets its own distro's
# profile, i.e. `kfit check -p <distro-release> CONFIG` exits 0 and prints
# no "unmet:" line.  File <distro>-<release>-<kver>.config.xz maps to the
# profile <distro>-<release>; arch-*, nixos-* and opensuse-tumbleweed-*
# map to the rolling profiles arch, nixos and opensuse-tumbleweed.
#
# Second part (debian/VER/FLAVOR): every config of Debian's own
# linux-config-VER packages (5.10, 6.1, 6.12, 7.3: /usr/src's, or the
# kfit cache's from scripts/fetch-kernel-debs.sh, found by lib.sh's
# config_dir) meets the Debian release whose kernel range holds its
# version (`kernel` of debian-N: 5.10 is debian-11, 6.1 debian-12, 6.12
# debian-13 (the bookworm build of trixie's series), 7.3 debian-14).
# Protocol: "ok NAME" / "not ok NAME" per config (see tests/run.sh).
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$ROOT/tests/compat/lib.sh"
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

# ---- Debian's linux-config packages ----
ranges=$("$KFIT" profiles --json | jq -r '.profiles[] | select(.name | test("^debian-[0-9]+$")) | .name' |
	while read -r d; do
		"$KFIT" profiles show "$d" --json | jq -r --arg d "$d" '[$d, .ships_kernel.min // "0.0.0", .ships_kernel.below // "999.0.0"] | join(" ")'
	done)
for v in 5.10 6.1 6.12 7.3; do
	dir=$(config_dir "$v")
	if ! compgen -G "$dir/config.amd64_*.xz" >/dev/null; then
		echo "not ok debian/$v"
		echo "  no $dir/config.amd64_*.xz: run 'make deps' (scripts/fetch-kernel-debs.sh) or install linux-config-$v"
		continue
	fi
	for f in "$dir"/config.amd64_*.xz; do
		flavor=${f##*/config.amd64_}
		flavor=${flavor%.xz}
		kver=$(xz -dc "$f" | sed -n 's/^# Linux\/[^ ]* \([0-9]*\.[0-9]*\.[0-9]*\).* Kernel Configuration$/\1/p' | head -n 1)
		p=$(awk -v k="$kver" '
			function num(v,  a) { split(v, a, "."); return a[1] * 1000000 + a[2] * 1000 + a[3] }
			num($2) <= num(k) && num(k) < num($3) { print $1 }' <<<"$ranges" | head -n 1)
		if [ -z "$p" ]; then
			echo "not ok debian/$v/$flavor"
			echo "  no debian-N profile ships $kver"
			continue
		fi
		out=$("$KFIT" check -p "$p" "$f" 2>&1)
		rc=$?
		if [ $rc -eq 0 ] && ! grep -q '^unmet:' <<<"$out"; then
			echo "ok debian/$v/$flavor"
		else
			echo "not ok debian/$v/$flavor"
			echo "  kfit check -p $p $f exited $rc:"
			grep -v '^warning:' <<<"$out" | head -n 20 | sed 's/^/  | /'
		fi
	done
done

# ---- the PC platform profiles ----
# Every general-purpose x86_64 distro kernel (the configs above and
# Debian's generic and rt flavors; not the cloud flavors, which are built
# for VMs without screens or keyboards) meets the platform profiles of a
# physical PC: laptop, desktop and server with both CPU vendors' platforms
# and every laptop vendor's profile (pc.kfit, machines.kfit).  A platform
# requirement no distro kernel meets would be a requirement nobody needs.
pc="-p laptop -p desktop -p server -p intel-pc -p amd-pc -p thinkpad -p ideapad -p dell -p hp -p asus"
pcfiles=("$DATA"/*.config.xz)
for v in 5.10 6.1 6.12 7.3; do
	dir=$(config_dir "$v")
	for f in "$dir"/config.amd64_*.xz; do
		case $f in *cloud*) continue ;; esac
		[ -f "$f" ] && pcfiles+=("$f")
	done
done
for f in "${pcfiles[@]}"; do
	[ -f "$f" ] || continue
	b=${f##*/}
	case $f in */config.amd64_*) b=debian/$(basename "$(dirname "$f")")/${b#config.amd64_} ;; esac
	# shellcheck disable=SC2086
	out=$("$KFIT" check $pc "$f" 2>&1)
	rc=$?
	if [ $rc -eq 0 ] && ! grep -q '^unmet:' <<<"$out"; then
		echo "ok pc/${b%.xz}"
	else
		echo "not ok pc/${b%.xz}"
		echo "  kfit check $pc $f exited $rc:"
		grep -v '^warning:' <<<"$out" | head -n 20 | sed 's/^/  | /'
	fi
done

#!/bin/bash
# profiles-names.sh - the profile names other tools and tests rely on (the
# list in issue 4) all resolve, and a missing release is an error that
# lists the known releases of that distribution.
set -uo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
KFIT=${KFIT:-$ROOT/build/kfit}
cd "$ROOT" || exit 2

names="debian-10 debian-11 debian-12 debian-13 debian-14 debian-sid
ubuntu-18.04 ubuntu-18.10 ubuntu-19.04 ubuntu-19.10 ubuntu-20.04 ubuntu-20.10
ubuntu-21.04 ubuntu-21.10 ubuntu-22.04 ubuntu-22.10 ubuntu-23.04 ubuntu-23.10
ubuntu-24.04 ubuntu-24.10 ubuntu-25.04 ubuntu-25.10 ubuntu-26.04
fedora-30 fedora-31 fedora-32 fedora-33 fedora-34 fedora-35 fedora-36
fedora-37 fedora-38 fedora-39 fedora-40 fedora-41 fedora-42 fedora-43 fedora-44
centos-stream-8 centos-stream-9 centos-stream-10
opensuse-leap-15.0 opensuse-leap-15.1 opensuse-leap-15.2 opensuse-leap-15.3
opensuse-leap-15.4 opensuse-leap-15.5 opensuse-leap-15.6 opensuse-leap-16.0
opensuse-tumbleweed arch
alpine-3.10 alpine-3.11 alpine-3.12 alpine-3.13 alpine-3.14 alpine-3.15
alpine-3.16 alpine-3.17 alpine-3.18 alpine-3.19 alpine-3.20 alpine-3.21
alpine-3.22 alpine-3.23
gentoo-openrc gentoo-systemd nixos
nixos-20.03 nixos-20.09 nixos-21.05 nixos-21.11 nixos-22.05 nixos-22.11
nixos-23.05 nixos-23.11 nixos-24.05 nixos-24.11 nixos-25.05 nixos-25.11 nixos-26.05
systemd-208 systemd-256 systemd-260 systemd-999 openrc
docker podman lxc flatpak snapd kvm-host nftables iptables-legacy wireguard
nfs-client cifs btrfs lvm-luks md-raid zram bpftrace apparmor selinux
kvm-guest xen-guest hyperv-guest vmware-guest virtualbox-guest wsl2 aws gcp
azure laptop desktop server uefi pc intel-pc amd-pc thinkpad ideapad dell
hp asus"

for n in $names; do
	if out=$("$KFIT" profiles show "$n" --json 2>&1) && jq -e '.requirements | length > 0' <<<"$out" >/dev/null; then
		echo "ok $n"
	else
		echo "not ok $n"
		head -n 5 <<<"$out" | sed 's/^/  | /'
	fi
done

# kinds: every distro release is kind distro
bad=$("$KFIT" profiles --json | jq -r '.profiles[] | select((.name | test("^(debian|ubuntu|fedora|centos-stream|opensuse|alpine|gentoo|nixos)-")) and .kind != "distro") | .name')
if [ -z "$bad" ]; then echo "ok distro-kinds"; else echo "not ok distro-kinds"; echo "  not kind distro: $bad"; fi

out=$("$KFIT" profiles show fedora-46 2>&1)
if [ $? -eq 2 ] && grep -q "unknown profile 'fedora-46' (did you mean fedora-44? known: fedora-30, fedora-31, .*, fedora-44)" <<<"$out"; then
	echo "ok missing-release"
else
	echo "not ok missing-release"
	sed 's/^/  | /' <<<"$out"
fi

# every release inherits its predecessor: within a family of numbered
# releases, each one after the first inherits the one before it.
"$KFIT" profiles --json | jq -r '.profiles[] | select(.kind == "distro") | .name' |
	grep -E -- '-[0-9][0-9.]*$' | sort -V >"${TMPDIR:-/tmp}/kfit-names.$$"
bad=""
prev="" pfam=""
while read -r n; do
	fam=${n%-*}
	if [ "$fam" = "$pfam" ]; then
		inh=$("$KFIT" profiles show "$n" --json | jq -r '.profiles[0].inherit // ""')
		[ "$inh" = "$prev" ] || bad+=" $n(inherits '$inh', not $prev)"
	fi
	prev=$n pfam=$fam
done <"${TMPDIR:-/tmp}/kfit-names.$$"
rm -f "${TMPDIR:-/tmp}/kfit-names.$$"
if [ -z "$bad" ]; then echo "ok inherit-predecessor"; else echo "not ok inherit-predecessor"; echo " $bad"; fi

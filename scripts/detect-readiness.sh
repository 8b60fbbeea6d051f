#!/bin/bash
# detect-readiness.sh [KFIT] [VERSION...] - what `kfit generate --detect`
# makes of the real-machine fixtures (tests/data/snapshots: hwprobe-*, the
# ThinkPad T60p, the q35 guest), per tree version (default 6.12 7.3):
# recall of bound drivers (the driver each device had bound on the machine
# -> its symbol: bound-driver-symbols.txt, and for the two sysfs fixtures
# the table below, written by hand from the Makefiles), whether a sound
# codec driver, SOF's HDA link and USB_STORAGE are set, and the drivers
# that may request firmware set =y.  Prints one block per machine.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KFIT=${1:-$ROOT/build/kfit}
shift || true
[ $# -gt 0 ] || set -- 6.12 7.3
S=$ROOT/tests/data/snapshots
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
grep -v '^#' "$S/bound-driver-symbols.txt" | cut -f1,2 >"$T/syms"
cat >>"$T/syms" <<'TAB'
uhci_hcd	USB_UHCI_HCD
ehci_hcd	USB_EHCI_HCD
yenta_cardbus	YENTA
iwl3945	IWL3945
ata_piix	ATA_PIIX
HDA	SND_HDA_INTEL
cdc_acm	USB_ACM
atkbd	KEYBOARD_ATKBD
psmouse	MOUSE_PS2
i8042	SERIO_I8042
button	ACPI_BUTTON
battery	ACPI_BATTERY
ac	ACPI_AC
thermal	ACPI_THERMAL
processor	ACPI_PROCESSOR
thinkpad_acpi	THINKPAD_ACPI
thinkpad_hotkey	THINKPAD_ACPI
thinkpad_hwmon	THINKPAD_ACPI
serial8250	SERIAL_8250
pcspkr	INPUT_PCSPKR
sd	BLK_DEV_SD
sr	BLK_DEV_SR
vesafb	FB_VESA
pcieport-driver	PCIEPORTBUS
snd_hda_codec_generic	SND_HDA_GENERIC
bochs-drm	DRM_BOCHS
lpc_ich	LPC_ICH
iTCO_wdt	ITCO_WDT
fw_cfg	FW_CFG_SYSFS
hid-generic	HID_GENERIC
alarmtimer	RTC_CLASS
TAB
for v in "$@"; do
	tree=$("$ROOT/scripts/kernel-tree.sh" -q "$v") || { echo "no $v tree" >&2; continue; }
	for snap in "$S"/hwprobe-* "$S/thinkpad-t60p-systemd" "$S/qemu-q35-ovmf-debian12"; do
		name=${snap##*/}
		cfg=$T/$name.config
		"$KFIT" generate -k "$tree" -a x86_64 --detect --root "$snap" -o "$cfg" >/dev/null 2>&1
		rc=$?
		if [ -f "$snap/devices.tsv" ]; then
			drvs=$(awk -F'\t' '!/^#/ && $3 != "-" { print $3 }' "$snap/devices.tsv")
		else
			drvs=$(find "$snap/sys/devices" -name driver -type l -exec readlink {} \; | sed 's|.*/||')
		fi
		tot=0 ok=0 miss=
		for d in $drvs; do
			sym=$(awk -F'\t' -v d="$d" '$1 == d { print $2; exit }' "$T/syms")
			# no symbol: core code without a table (pci_link, hub); -: out of tree
			case $sym in '' | -) continue ;; esac
			tot=$((tot + 1))
			if grep -qE "^CONFIG_$sym=[ym]$" "$cfg"; then ok=$((ok + 1)); else miss="$miss $d"; fi
		done
		on() { grep -E "^CONFIG_($1)=[ym]" "$cfg" | sed 's/^CONFIG_//; s/=.*//' | tr '\n' ' '; }
		echo "$name $v: exit $rc, bound drivers enabled $ok/$tot${miss:+ (off:$miss)}"
		echo "  codec: $(on 'SND_HDA_CODEC_[A-Z0-9_]*|SND_HDA_GENERIC')"
		echo "  SOF HDA link: $(on 'SND_SOC_SOF_HDA_LINK')  USB_STORAGE: $(on 'USB_STORAGE')"
		echo "  firmware drivers =y: $(grep -E '^CONFIG_(IWLWIFI|DRM_I915|DRM_XE|DRM_NOUVEAU|DRM_AMDGPU|DRM_RADEON|SND_SOC_SOF_INTEL_[A-Z]{3}|BT_HCIBTUSB|R8169|MT7921E|ATH11K_PCI|BNXT)=y' "$cfg" | sed 's/^CONFIG_//; s/=y//' | tr '\n' ' ')"
	done
done

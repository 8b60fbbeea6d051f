/*
 * detect_infer.c - the devices behind a detected controller that no
 * snapshot lists as a device of its own: the HD-Audio codecs behind an
 * HDA controller (from proc/asound when the snapshot has it, else the
 * codecs a PC with that controller plausibly has), SOF's HDA link,
 * machine drivers and SoundWire, the I2C HID touchpad behind an LPSS or
 * DesignWare I2C controller, the keyboard and mouse behind the i8042,
 * the CMOS RTC, the PNP layer and the ACPI buttons, the card behind an
 * SD reader and what is paired with a Bluetooth radio.  Each requirement
 * names the device or controller that implies it; what was seen (an ACPI
 * device, a serio port) is required, what is only plausible recommended.
 * docs/detect.md ("Behind the controllers") has the rules.
 */
#include "detect_run.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the tree's Kconfig: does a symbol exist in this version? ---- */

/* Line of "config SYM" / "menuconfig SYM" in the first of files ('|'
 * between them, tree-relative) that has it; 0 when none does.  Without
 * a tree (modules.alias only) every symbol counts as there, line -1. */
static int kconfig_line(dctx *c, const char *files, const char *sym, const char **file)
{
	const char *tree = c->o->aliases ? c->o->aliases->tree : NULL;
	*file = NULL;
	if (!tree)
		return -1;
	size_t sl = strlen(sym);
	for (const char *p = files; *p;) {
		size_t n = strcspn(p, "|");
		char *path = kf_xasprintf("%s/%.*s", tree, (int)n, p);
		kf_strbuf sb = KF_STRBUF_INIT;
		kf_diags ignore = KF_DIAGS_INIT;
		int found = 0;
		if (kf_read_file(path, &sb, &ignore) == 0 && sb.buf) {
			int line = 1;
			for (char *l = sb.buf; *l && !found; line++) {
				char *e = strchr(l, '\n');
				const char *w = l;
				while (*w == ' ' || *w == '\t')
					w++;
				const char *kw = !strncmp(w, "config ", 7)	   ? w + 7
						 : !strncmp(w, "menuconfig ", 11) ? w + 11
										   : NULL;
				if (kw && !strncmp(kw, sym, sl) &&
				    (kw[sl] == '\n' || kw[sl] == ' ' || kw[sl] == '\t' || !kw[sl]))
					found = line;
				l = e ? e + 1 : l + strlen(l);
			}
		}
		kf_strbuf_release(&sb);
		kf_diags_release(&ignore);
		free(path);
		if (found) {
			*file = kf_arena_printf(c->a, "%.*s", (int)n, p);
			return found;
		}
		p += n;
		if (*p == '|')
			p++;
	}
	return 0;
}

/* One inferred requirement: sym (defined in one of kconfig's files) for
 * what dv implies (dv NULL: the machine as a whole, `who` says what). */
static void infer(dctx *c, const kf_device *dv, const char *who, const char *sym,
		  const char *kconfig, kf_hw_level lvl, const char *why)
{
	const char *file;
	int line = kconfig_line(c, kconfig, sym, &file);
	if (!line)
		return;
	const char *name = dv ? dv->desc : who;
	char *r = line > 0 ? kf_arena_printf(c->a, "%s: %s → CONFIG_%s (%s:%d)", name, why, sym,
					     file, line)
			   : kf_arena_printf(c->a, "%s: %s → CONFIG_%s", name, why, sym);
	kf_hwreq *h = dv ? hw_dev_add(c, dv, sym, KF_HW_ENABLED, lvl, false, r)
			 : hw_add(c, sym, KF_HW_ENABLED, lvl, false, r);
	if (!h->device && !h->makefile) {
		h->device = dv ? dv->path : NULL;
		h->makefile = file;
		h->line = line > 0 ? line : 0;
	}
}

/* The module (and its symbol) that claims a made-up modalias: an HDA
 * codec ID that stands for a kind of codec.  Returns its alias or NULL. */
static const kf_alias *claim(dctx *c, const char *modalias, const char **sym)
{
	kf_aliasdb *db = c->o->aliases;
	if (!db)
		return NULL;
	size_t idx[16];
	size_t n = kf_aliasdb_match(db, modalias, idx, 16);
	for (size_t k = 0; k < n && k < 16; k++) {
		const kf_alias *al = &db->aliases[idx[k]];
		const kf_modinfo *mi = kf_aliasdb_module(db, al->module);
		*sym = al->symbol ? al->symbol : mi ? mi->symbol : NULL;
		if (*sym)
			return al;
	}
	return NULL;
}

/* A codec driver for a made-up codec ID, recommended for controller dv. */
static void infer_codec(dctx *c, const kf_device *dv, const char *id, const char *kind)
{
	char *m = kf_arena_printf(c->a, "hdaudio:v%sr00100000a01", id);
	const char *sym;
	const kf_alias *al = claim(c, m, &sym);
	if (!al)
		return;
	char *why = kf_arena_printf(
		c->a, "an HD-Audio controller whose codecs (on the hdaudio bus behind it) the "
		      "snapshot does not list (no hdaudio devices, no proc/asound/card*/codec#*): "
		      "%s; as codec %.4s:%.4s → %s",
		kind, id, id + 4, al->module);
	const char *file = al->makefile;
	int line = al->mkline;
	char *r = kf_arena_printf(c->a, "%s: %s → CONFIG_%s (%s:%d)", dv->desc, why, sym,
				  file ? file : "?", line);
	kf_hwreq *h = hw_dev_add(c, dv, sym, KF_HW_ENABLED, KF_HW_RECOMMEND, false, r);
	if (!h->device) {
		h->device = dv->path;
		h->module = al->module;
		h->makefile = file;
		h->line = line;
	}
}

/* ---- what the devices are ---- */

static bool pci_class(const kf_device *dv, const char *bcsc)
{
	return !strncmp(dv->modalias, "pci:", 4) && strstr(dv->modalias, bcsc);
}

static bool pci_vendor(const kf_device *dv, const char *v)
{
	return !strncmp(dv->modalias, "pci:v0000", 9) && !strncasecmp(dv->modalias + 9, v, 4);
}

/* Does the device's bound driver, or without one a module that claims
 * it, start so?  (A desktop's HDA controller that SOF could also drive
 * but snd_hda_intel was bound to is no SOF controller.) */
static bool driven_by(const kf_device *dv, const char *prefix)
{
	size_t n = strlen(prefix);
	if (dv->bound)
		return !strncmp(dv->bound, prefix, n);
	for (size_t k = 0; k < dv->nmodules; k++)
		if (!strncmp(dv->modules[k], prefix, n))
			return true;
	return false;
}

/* Is id one of the ACPI IDs of the device's modalias ("acpi:A:B:")? A
 * trailing '*' matches a prefix (PNP0F* for every PS/2 mouse ID). */
static bool acpi_id(const kf_device *dv, const char *id)
{
	if (strncmp(dv->modalias, "acpi:", 5))
		return false;
	size_t n = strlen(id);
	bool pre = n && id[n - 1] == '*';
	if (pre)
		n--;
	for (const char *p = dv->modalias + 5; *p;) {
		size_t l = strcspn(p, ":");
		if (!strncasecmp(p, id, n) && (pre ? l >= n : l == n))
			return true;
		p += l;
		if (*p == ':')
			p++;
	}
	return false;
}

/* The first ACPI device with one of ids, or NULL. */
static const kf_device *acpi_find(dctx *c, const char *const *ids)
{
	for (size_t i = 0; i < c->det->ndevices; i++)
		for (size_t k = 0; ids[k]; k++)
			if (acpi_id(&c->det->devices[i], ids[k]))
				return &c->det->devices[i];
	return NULL;
}

/* Does the snapshot carry the machine's ACPI devices at all?  (hw-probe
 * fixtures list only PCI and USB devices: nothing there says no.) */
static bool has_acpi_data(dctx *c)
{
	if (det_exists(c, "sys/firmware/acpi"))
		return true;
	for (size_t i = 0; i < c->det->ndevices; i++)
		if (!strcmp(c->det->devices[i].bus, "acpi"))
			return true;
	return false;
}

static bool is_x86(dctx *c)
{
	static const char *const v[] = {"GenuineIntel", "AuthenticAMD", "HygonGenuine",
					"CentaurHauls", "  Shanghai  "};
	for (size_t i = 0; c->det->cpu_vendor && i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(c->det->cpu_vendor, v[i]))
			return true;
	for (size_t i = 0; i < c->det->nprofiles; i++)
		if (!strcmp(c->det->profiles[i].name, "intel-pc") ||
		    !strcmp(c->det->profiles[i].name, "amd-pc"))
			return true;
	return false;
}

static bool bare_metal(dctx *c)
{
	return c->det->virt && !strcmp(c->det->virt, "none");
}

/* ---- HD-Audio: codecs and SOF ---- */

/* Codecs of proc/asound/card*\/codec#* as devices of their own (their
 * modalias made as the hdaudio bus makes it: vendor ID, revision, API
 * 01), when sys/devices has no hdaudio device: the codec lines of a
 * snapshot taken without the sysfs codec devices, or of a machine whose
 * controller runs a driver that creates none. */
void detect_asound_codecs(dctx *c)
{
	for (size_t i = 0; i < c->det->ndevices; i++)
		if (!strcmp(c->det->devices[i].bus, "hdaudio"))
			return;
	for (int card = 0; card < 8; card++)
		for (int n = 0; n < 8; n++) {
			char *rel = kf_arena_printf(c->a, "proc/asound/card%d/codec#%d", card, n);
			char *t = det_read(c, rel);
			if (!t)
				continue;
			const char *v = strstr(t, "Vendor Id: 0x"), *r = strstr(t, "Revision Id: 0x");
			const char *name = strstr(t, "Codec: ");
			unsigned vid, rev = 0;
			if (!v || sscanf(v + 13, "%x", &vid) != 1)
				continue;
			if (r)
				sscanf(r + 15, "%x", &rev);
			kf_detect *det = c->det;
			KF_GROW(det->devices, det->ndevices + 1, det->dalloc);
			kf_device *dv = &det->devices[det->ndevices++];
			memset(dv, 0, sizeof(*dv));
			dv->path = rel;
			dv->modalias = kf_arena_printf(c->a, "hdaudio:v%08Xr%08Xa01", vid, rev);
			dv->bus = "hdaudio";
			dv->desc = kf_arena_printf(c->a, "HDA codec %04x:%04x (%.*s, %s)", vid >> 16,
						   vid & 0xffff,
						   name ? (int)strcspn(name + 7, "\n") : 1,
						   name ? name + 7 : "?", rel);
		}
}

/* Does a device of this bus sit below dv's path (its children)? */
static bool has_child_on(dctx *c, const kf_device *dv, const char *bus)
{
	size_t n = strlen(dv->path);
	for (size_t i = 0; i < c->det->ndevices; i++) {
		const kf_device *o = &c->det->devices[i];
		if (!strcmp(o->bus, bus) && (!strncmp(o->path, dv->path, n) && o->path[n] == '/'))
			return true;
		/* codecs read from proc/asound belong to every controller */
		if (!strcmp(o->bus, bus) && !strncmp(o->path, "proc/", 5))
			return true;
	}
	return false;
}

/* A display device of vendor v ("8086") among the devices. */
static bool has_gpu(dctx *c, const char *v)
{
	for (size_t i = 0; i < c->det->ndevices; i++)
		if (pci_class(&c->det->devices[i], "bc03") && pci_vendor(&c->det->devices[i], v))
			return true;
	return false;
}

/* SOF controllers of these generations have SoundWire links (Comet Lake
 * and later: sound/soc/sof/intel/Kconfig, SND_SOC_SOF_INTEL_SOUNDWIRE's
 * users); older ones and AMD's do not. */
static bool sof_soundwire(const kf_device *dv)
{
	static const char *const gen[] = {"cnl", "icl", "tgl", "mtl", "lnl", "ptl", "nvl", NULL};
	for (size_t k = 0; gen[k]; k++) {
		char *p = kf_xasprintf("snd_sof_pci_intel_%s", gen[k]);
		char *q = kf_xasprintf("sof-audio-pci-intel-%s", gen[k]);
		bool y = driven_by(dv, p) || driven_by(dv, q);
		free(p);
		free(q);
		if (y)
			return true;
	}
	return false;
}

static void infer_sof(dctx *c, const kf_device *dv)
{
	static const char *const sofk = "sound/soc/sof/intel/Kconfig";
	static const char *const mach = "sound/soc/intel/boards/Kconfig";
	infer(c, dv, NULL, "SND_SOC_SOF_HDA_LINK", sofk, KF_HW_RECOMMEND,
	      "an Intel SOF audio DSP: its HD-Audio codecs (the analog codec, the GPU's HDMI/DP "
	      "codec) are reached through the DSP's HDA links, which need SOF's HDA link support");
	infer(c, dv, NULL, "SND_SOC_SOF_HDA_AUDIO_CODEC", sofk, KF_HW_RECOMMEND,
	      "an Intel SOF audio DSP: the HDA codecs behind it are driven by the HDA codec "
	      "drivers only with SOF's HDAudio codec support");
	infer(c, dv, NULL, "SND_SOC_INTEL_SKL_HDA_DSP_GENERIC_MACH", mach, KF_HW_RECOMMEND,
	      "an Intel SOF audio DSP: the machine driver skl_hda_dsp_generic makes the sound "
	      "card of HDA codecs and digital microphones behind the DSP (without a machine "
	      "driver SOF creates no card)");
	if (!sof_soundwire(dv))
		return;
	infer(c, dv, NULL, "SND_SOC_SOF_INTEL_SOUNDWIRE", sofk, KF_HW_RECOMMEND,
	      "an Intel SOF audio DSP of a generation with SoundWire links: laptops of that "
	      "generation often put their codec and amplifiers on SoundWire instead of HDA");
	infer(c, dv, NULL, "SND_SOC_INTEL_SOUNDWIRE_SOF_MACH", mach, KF_HW_RECOMMEND,
	      "an Intel SOF audio DSP with SoundWire links: sof_sdw is the machine driver of "
	      "SoundWire codecs");
}

/* Every HDA controller: its codecs when the snapshot lists none. */
static void infer_hda(dctx *c)
{
	kf_detect *det = c->det;
	for (size_t i = 0; i < det->ndevices; i++) {
		const kf_device *dv = &det->devices[i];
		bool sof = driven_by(dv, "sof-audio-pci") || driven_by(dv, "snd_sof_pci_intel");
		if (!pci_class(dv, "bc04sc03") && !sof)
			continue;
		if (sof)
			infer_sof(c, dv);
		if (has_child_on(c, dv, "hdaudio"))
			continue;
		if (pci_vendor(dv, "10de")) {
			infer_codec(c, dv, "10DE00A0", "an NVIDIA GPU's audio function carries its "
						       "HDMI/DisplayPort codec");
			continue;
		}
		if (pci_vendor(dv, "1002") && has_gpu(c, "1002")) {
			infer_codec(c, dv, "1002AA01", "an AMD GPU's audio function carries its "
						       "HDMI/DisplayPort codec");
			continue;
		}
		infer(c, dv, NULL, "SND_HDA_GENERIC", "sound/pci/hda/Kconfig|sound/hda/codecs/Kconfig",
		      KF_HW_RECOMMEND,
		      "an HD-Audio controller whose codecs the snapshot does not list: the generic "
		      "codec parser drives a codec no vendor driver claims (and QEMU's)");
		if (!bare_metal(c))
			continue;
		infer_codec(c, dv, "10EC0257", "most PC codecs are Realtek's (laptops' ALC2xx)");
		infer_codec(c, dv, "10EC0897", "most PC codecs are Realtek's (desktop boards' "
					       "ALC662/ALC897)");
		infer_codec(c, dv, "10EC1220", "most PC codecs are Realtek's (desktop boards' "
					       "ALC1220)");
		if (has_gpu(c, "8086"))
			infer_codec(c, dv, "80862812", "the Intel GPU's HDMI/DisplayPort audio is a "
						       "codec on this controller");
	}
}

/* ---- I2C HID behind LPSS or DesignWare ---- */

static void infer_i2c_hid(dctx *c)
{
	static const char *const dw[] = {"AMDI0010", "AMDI0019", "AMD0010", "INT33C2", "INT33C3",
					 "INT3432", "INT3433", "80860F41", "808622C1", NULL};
	static const char *const hid[] = {"PNP0C50", "ACPI0C50", NULL};
	const kf_device *ctl = acpi_find(c, dw);
	for (size_t i = 0; !ctl && i < c->det->ndevices; i++)
		if (driven_by(&c->det->devices[i], "intel-lpss") ||
		    driven_by(&c->det->devices[i], "intel_lpss_pci"))
			ctl = &c->det->devices[i];
	if (!ctl)
		return;
	static const char *const i2ck = "drivers/i2c/busses/Kconfig";
	infer(c, ctl, NULL, "I2C_DESIGNWARE_PLATFORM", i2ck, KF_HW_RECOMMEND,
	      "an LPSS/DesignWare I2C controller: its I2C buses are a platform device of the "
	      "DesignWare driver, without which nothing on them (touchpad, touchscreen, sensors) "
	      "appears");
	const kf_device *tp = acpi_find(c, hid);
	bool laptop = c->det->chassis && !strcmp(c->det->chassis, "laptop");
	if (!tp && (!laptop || has_acpi_data(c)))
		return;
	const kf_device *why = tp ? tp : ctl;
	kf_hw_level lvl = tp ? KF_HW_REQUIRE : KF_HW_RECOMMEND;
	const char *what = tp ? "an I2C HID device (touchpad or touchscreen) in ACPI"
			      : "an LPSS/DesignWare I2C controller in a laptop, and the snapshot has "
				"no ACPI devices to say what is on it: laptops put the touchpad there "
				"as an I2C HID device (PNP0C50)";
	const char *hk = "drivers/hid/i2c-hid/Kconfig";
	const char *f;
	if (kconfig_line(c, hk, "I2C_HID_ACPI", &f))
		infer(c, why, NULL, "I2C_HID_ACPI", hk, lvl, what);
	else
		infer(c, why, NULL, "I2C_HID", hk, lvl, what);
	infer(c, why, NULL, "HID_MULTITOUCH", "drivers/hid/Kconfig", KF_HW_RECOMMEND,
	      kf_arena_printf(c->a, "%s: precision touchpads are multitouch HID devices "
				    "(hid-multitouch; without it one finger, no gestures)",
			      what));
}

/* ---- the PC's legacy devices: i8042, RTC, PNP, buttons ---- */

static void infer_legacy(dctx *c)
{
	static const char *const kbd[] = {"PNP0303", "PNP030B", "PNP0320", NULL};
	static const char *const mouse[] = {"PNP0F*", NULL};
	static const char *const rtc[] = {"PNP0B00", "PNP0B01", "PNP0B02", NULL};
	static const char *const sys[] = {"PNP0C01", "PNP0C02", NULL};
	static const char *const btn[] = {"LNXPWRBN", "PNP0C0C", "LNXSLPBN", "PNP0C0E", "PNP0C0D",
					  NULL};
	static const char *const serk = "drivers/input/serio/Kconfig";
	static const char *const kbk = "drivers/input/keyboard/Kconfig";
	static const char *const mk = "drivers/input/mouse/Kconfig";
	static const char *const rtck = "drivers/rtc/Kconfig";
	const kf_device *k = acpi_find(c, kbd), *m = acpi_find(c, mouse);
	if (k) {
		infer(c, k, NULL, "SERIO_I8042", serk, KF_HW_REQUIRE,
		      "the PS/2 keyboard port of the i8042 controller, as ACPI lists it");
		infer(c, k, NULL, "KEYBOARD_ATKBD", kbk, KF_HW_REQUIRE,
		      "the keyboard on the i8042's keyboard port (serio) is driven by atkbd");
	}
	if (m) {
		infer(c, m, NULL, "SERIO_I8042", serk, KF_HW_REQUIRE,
		      "the PS/2 mouse port of the i8042 controller, as ACPI lists it");
		infer(c, m, NULL, "MOUSE_PS2", mk, KF_HW_REQUIRE,
		      "the mouse, TrackPoint or touchpad on the i8042's aux port (serio) is driven "
		      "by psmouse");
	}
	/* serio ports in sys/devices: type 06 the keyboard port, 01 aux */
	for (size_t i = 0; i < c->det->ndevices; i++) {
		const kf_device *dv = &c->det->devices[i];
		if (!strncmp(dv->modalias, "serio:ty06", 10))
			infer(c, dv, NULL, "KEYBOARD_ATKBD", kbk, KF_HW_REQUIRE,
			      "an i8042 keyboard port (serio type 06, SERIO_8042_XL): atkbd");
		else if (!strncmp(dv->modalias, "serio:ty01", 10))
			infer(c, dv, NULL, "MOUSE_PS2", mk, KF_HW_REQUIRE,
			      "an i8042 aux port (serio type 01, SERIO_8042): psmouse");
	}
	const kf_device *r = acpi_find(c, rtc), *s = acpi_find(c, sys), *b = acpi_find(c, btn);
	if (r)
		infer(c, r, NULL, "RTC_DRV_CMOS", rtck, KF_HW_REQUIRE,
		      "the PC's CMOS real-time clock (the battery-backed hardware clock): rtc-cmos "
		      "reads the time at boot and keeps it across power-off");
	if (s) {
		const char *why = "the motherboard's resources as ACPI lists them: the PNP layer's "
				  "system driver (drivers/pnp/system.c) reserves them so that no "
				  "driver is given those ports and memory";
		infer(c, s, NULL, "PNP", "drivers/pnp/Kconfig", KF_HW_REQUIRE, why);
		infer(c, s, NULL, "PNPACPI", "drivers/pnp/pnpacpi/Kconfig", KF_HW_REQUIRE, why);
	}
	if (b)
		infer(c, b, NULL, "ACPI_BUTTON", "drivers/acpi/Kconfig", KF_HW_REQUIRE,
		      "an ACPI power, sleep or lid button: the button driver turns it into input "
		      "events (systemd-logind powers off or suspends on them)");
	if (has_acpi_data(c) || !is_x86(c))
		return;
	/* no ACPI data in the snapshot (hw-probe's lists): what every x86 PC has */
	const char *pc = "an x86 PC (the snapshot has no ACPI devices; nothing says otherwise)";
	infer(c, NULL, pc, "RTC_DRV_CMOS", rtck, KF_HW_RECOMMEND,
	      "every PC has the CMOS real-time clock (PNP0B00): rtc-cmos reads the hardware "
	      "clock at boot");
	if (!bare_metal(c))
		return;
	infer(c, NULL, pc, "PNP", "drivers/pnp/Kconfig", KF_HW_RECOMMEND,
	      "a PC's firmware lists the motherboard resources, the RTC and the i8042 as PNP "
	      "devices");
	infer(c, NULL, pc, "ACPI_BUTTON", "drivers/acpi/Kconfig", KF_HW_RECOMMEND,
	      "a PC's power button is an ACPI button (LNXPWRBN)");
	const char *ch = c->det->chassis;
	if (!ch || !strcmp(ch, "server"))
		return;
	const char *who = kf_arena_printf(c->a, "an x86 %s (DMI chassis_type %d; the snapshot "
						"has no ACPI devices)",
					  ch, c->det->chassis_type);
	infer(c, NULL, who, "SERIO_I8042", serk, KF_HW_RECOMMEND,
	      "PC laptops carry their keyboard (and desktops their PS/2 ports or the firmware's "
	      "USB legacy emulation) on the i8042");
	infer(c, NULL, who, "KEYBOARD_ATKBD", kbk, KF_HW_RECOMMEND,
	      "the keyboard on the i8042 is driven by atkbd");
	if (!strcmp(ch, "laptop"))
		infer(c, NULL, who, "MOUSE_PS2", mk, KF_HW_RECOMMEND,
		      "laptops' TrackPoints and many touchpads are PS/2 devices on the i8042's aux "
		      "port (psmouse)");
}

/* ---- cards and paired devices: SD readers, Bluetooth radios ---- */

static void infer_readers(dctx *c)
{
	static const char *const hostk = "drivers/mmc/host/Kconfig";
	for (size_t i = 0; i < c->det->ndevices; i++) {
		const kf_device *dv = &c->det->devices[i];
		bool pci_rtsx = driven_by(dv, "rtsx_pci");
		bool usb_rtsx = driven_by(dv, "rtsx_usb");
		bool sdhci = driven_by(dv, "sdhci") || pci_class(dv, "bc08sc05");
		if (pci_rtsx)
			infer(c, dv, NULL, "MMC_REALTEK_PCI", hostk, KF_HW_RECOMMEND,
			      "a Realtek PCIe card reader: rtsx_pci is its bus driver, the SD slot "
			      "behind it is the platform device rtsx_pci_sdmmc");
		if (usb_rtsx)
			infer(c, dv, NULL, "MMC_REALTEK_USB", hostk, KF_HW_RECOMMEND,
			      "a Realtek USB card reader: rtsx_usb is its bus driver, the SD slot "
			      "behind it is the platform device rtsx_usb_sdmmc");
		if (pci_rtsx || usb_rtsx || sdhci)
			infer(c, dv, NULL, "MMC_BLOCK", "drivers/mmc/core/Kconfig", KF_HW_RECOMMEND,
			      "an SD/MMC card reader: a card put in it is a block device "
			      "(/dev/mmcblk*) only with the MMC block driver");
	}
}

static void infer_bluetooth(dctx *c)
{
	for (size_t i = 0; i < c->det->ndevices; i++) {
		const kf_device *dv = &c->det->devices[i];
		if (!driven_by(dv, "btusb") && !strstr(dv->modalias, "icE0isc01ip01"))
			continue;
		infer(c, dv, NULL, "BT_HIDP", "net/bluetooth/hidp/Kconfig", KF_HW_RECOMMEND,
		      "a Bluetooth radio: BlueZ's input plugin hands a paired classic keyboard or "
		      "mouse to the kernel's HIDP");
		infer(c, dv, NULL, "UHID", "drivers/hid/Kconfig", KF_HW_RECOMMEND,
		      "a Bluetooth radio: Bluetooth LE keyboards and mice (HID over GATT) are "
		      "created by BlueZ through /dev/uhid");
		/* the Bluetooth half of a MediaTek Wi-Fi combo card (MT7921,
		 * MT7922: the Wi-Fi on PCIe, vendor 14c3) */
		for (size_t k = 0; k < c->det->ndevices; k++)
			if (pci_vendor(&c->det->devices[k], "14c3") &&
			    pci_class(&c->det->devices[k], "bc02"))
				infer(c, dv, NULL, "BT_HCIBTUSB_MTK", "drivers/bluetooth/Kconfig",
				      KF_HW_RECOMMEND,
				      kf_arena_printf(c->a, "a Bluetooth radio beside a MediaTek Wi-Fi "
							    "card (%s): the Bluetooth half of MediaTek's "
							    "combo cards is set up and given its firmware "
							    "by btusb only with MediaTek protocol support "
							    "(btusb_mtk_setup, under "
							    "IS_ENABLED(CONFIG_BT_HCIBTUSB_MTK))",
						      c->det->devices[k].desc));
		return;
	}
}

/* ---- firmware requested for a driver by another module ---- */

/* Drivers whose firmware another module requests for them: the device's
 * module names none and calls no request_firmware itself.  A helper is a
 * module name or, with a '/', a tree-relative source file that calls
 * request_firmware (nouveau's nvkm/core/firmware.c: nvkm is built into
 * nouveau through a Kbuild variable, so the scan gives its files no
 * module of their own). */
static const struct {
	const char *module;     /* the device's module; a trailing '*': prefix */
	const char *helpers[4]; /* who requests the firmware */
} fw_helpers[] = {
	{"snd_sof_*", {"snd_sof"}},
	{"btusb", {"btintel", "btrtl", "btmtk", "btbcm"}},
	{"nouveau", {"drivers/gpu/drm/nouveau/nvkm/core/firmware.c"}},
};

/* Does helper h request firmware?  Its module's name for the reason. */
static const char *helper_requests(dctx *c, const char *h, const kf_modinfo **mi)
{
	const kf_aliasdb *db = c->o->aliases;
	*mi = NULL;
	if (!strchr(h, '/')) {
		*mi = kf_aliasdb_module(db, h);
		return *mi && ((*mi)->nfirmware || (*mi)->requests_firmware) ? (*mi)->name : NULL;
	}
	if (!db->tree)
		return NULL;
	char *path = kf_xasprintf("%s/%s", db->tree, h);
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_diags ignore = KF_DIAGS_INIT;
	bool yes = kf_read_file(path, &sb, &ignore) == 0 && sb.buf &&
		   (strstr(sb.buf, "request_firmware") || strstr(sb.buf, "firmware_request_"));
	kf_strbuf_release(&sb);
	kf_diags_release(&ignore);
	free(path);
	return yes ? h : NULL;
}

/* The core module of a bus glue driver, which requests the firmware for
 * it: ath11k for ath11k_pci, rtw89_core for rtw89_8852be, mt7921_common
 * for mt7921e: the name without its last '_' part, up to its first '_',
 * or without a bus letter after a digit, as is or with _core, _common or
 * _lib; the first such module that requests firmware.  NULL: none. */
static const kf_modinfo *core_module(const kf_aliasdb *db, const char *mod)
{
	static const char *const sfx[] = {"", "_core", "_common", "_lib"};
	size_t n = strlen(mod);
	const char *last = strrchr(mod, '_');
	size_t stems[3] = {last ? (size_t)(last - mod) : 0, strcspn(mod, "_"),
			   n > 2 && strchr("esu", mod[n - 1]) && isdigit((unsigned char)mod[n - 2])
				   ? n - 1
				   : 0};
	for (size_t k = 0; k < 3; k++)
		for (size_t j = 0; stems[k] && stems[k] < n + 1 && j < 4; j++) {
			char *name = kf_xasprintf("%.*s%s", (int)stems[k], mod, sfx[j]);
			const kf_modinfo *mi = strcmp(name, mod) ? kf_aliasdb_module(db, name) : NULL;
			free(name);
			if (mi && (mi->nfirmware || mi->requests_firmware))
				return mi;
		}
	return NULL;
}

static void infer_firmware(dctx *c)
{
	for (size_t i = 0; c->o->aliases && i < c->det->nhw; i++) {
		kf_hwreq *h = &c->det->hw[i];
		if (!h->module || h->requests_firmware)
			continue;
		const kf_modinfo *core = core_module(c->o->aliases, h->module);
		if (core) {
			h->requests_firmware = true;
			h->firmware_by = core->name;
			if (!h->nfirmware && core->nfirmware) {
				h->firmware = (const char **)core->firmware;
				h->nfirmware = core->nfirmware;
			}
			continue;
		}
		for (size_t r = 0; r < sizeof(fw_helpers) / sizeof(fw_helpers[0]); r++) {
			const char *m = fw_helpers[r].module;
			size_t n = strlen(m);
			bool hit = m[n - 1] == '*' ? !strncmp(h->module, m, n - 1)
						   : !strcmp(h->module, m);
			for (size_t k = 0; hit && k < 4 && fw_helpers[r].helpers[k]; k++) {
				const kf_modinfo *mi;
				const char *by = helper_requests(c, fw_helpers[r].helpers[k], &mi);
				if (!by)
					continue;
				h->requests_firmware = true;
				if (!h->firmware_by)
					h->firmware_by = by;
				if (!h->nfirmware && mi && mi->nfirmware) {
					h->firmware = (const char **)mi->firmware;
					h->nfirmware = mi->nfirmware;
				}
			}
		}
	}
}

void detect_infer(dctx *c)
{
	infer_firmware(c);
	infer_hda(c);
	infer_i2c_hid(c);
	infer_legacy(c);
	infer_readers(c);
	infer_bluetooth(c);
}

/* ---- plug-in readiness ---- */

/* A USB host controller (PCI class 0c03, a USB root hub, a platform
 * xHCI/EHCI/OHCI/DWC block): the profile usb-plug-in, for what a person
 * plugs into it later (profiles/platform/usb-plug-in.kfit). */
void detect_plug_in(dctx *c)
{
	static const char *const plat[] = {"xhci", "ehci", "ohci", "dwc2", "dwc3", NULL};
	for (size_t i = 0; i < c->det->ndevices; i++) {
		const kf_device *dv = &c->det->devices[i];
		bool hc = pci_class(dv, "bc0Csc03") || !strncmp(dv->modalias, "usb:v1D6Bp000", 13);
		for (size_t k = 0; !hc && plat[k]; k++)
			hc = (!strncmp(dv->modalias, "platform:", 9) || !strncmp(dv->modalias, "of:", 3)) &&
			     strstr(dv->modalias, plat[k]);
		if (!hc)
			continue;
		det_add_profile(c, "usb-plug-in", PROF_KIND_PLATFORM,
				kf_arena_printf(c->a, "USB host controller %s (%s): sticks, keyboards, "
						      "headsets and Ethernet adapters plugged in later",
						dv->desc, dv->path));
		return;
	}
}

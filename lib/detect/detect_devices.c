/*
 * detect_devices.c - the machine's devices (every modalias below
 * sys/devices, with its bound driver) and the modules that claim them in
 * the alias database: one required, the others recommended; the symbols,
 * #if conditions and boot flags each needs.
 */
#include "detect_run.h"
#include "kfit/rootfs.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- devices ---- */

static const char *pci_class_name(unsigned bc, unsigned sc)
{
	static const struct {
		unsigned bc, sc;
		const char *name;
	} t[] = {
		{0x01, 0x00, "SCSI storage"}, {0x01, 0x01, "IDE"},   {0x01, 0x04, "RAID"},
		{0x01, 0x06, "SATA"},         {0x01, 0x07, "SAS"},   {0x01, 0x08, "NVMe"},
		{0x01, 0xff, "Mass storage"}, {0x02, 0x00, "Ethernet"}, {0x02, 0x80, "Network"},
		{0x02, 0xff, "Network"},      {0x03, 0xff, "Display"}, {0x04, 0x03, "Audio"},
		{0x04, 0xff, "Multimedia"},   {0x05, 0xff, "Memory"}, {0x06, 0x00, "Host bridge"},
		{0x06, 0x01, "ISA bridge"},   {0x06, 0x04, "PCI bridge"}, {0x06, 0xff, "Bridge"},
		{0x07, 0xff, "Communication"}, {0x08, 0xff, "System peripheral"},
		{0x09, 0xff, "Input"},        {0x0c, 0x03, "USB"},    {0x0c, 0x05, "SMBus"},
		{0x0c, 0xff, "Serial bus"},   {0x0d, 0xff, "Wireless"}, {0x10, 0xff, "Encryption"},
		{0x11, 0xff, "Signal processing"}, {0xff, 0xff, "Unclassified"},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].bc == bc && (t[i].sc == sc || t[i].sc == 0xff))
			return t[i].name;
	return "device";
}

static const char *virtio_name(unsigned id)
{
	static const char *const n[] = {NULL,      "net",   "block", "console", "rng",
					"balloon", "iomem", "rpmsg", "scsi",    "9p"};
	if (id < sizeof(n) / sizeof(n[0]) && n[id])
		return n[id];
	switch (id) {
	case 16: return "gpu";
	case 18: return "input";
	case 19: return "vsock";
	case 20: return "crypto";
	case 26: return "fs";
	case 27: return "pmem";
	case 34: return "mem";
	}
	return "device";
}

static const char *describe(dctx *c, const char *m)
{
	unsigned v, d, bc, sc;
	if (sscanf(m, "pci:v%8Xd%8Xsv%*8Xsd%*8Xbc%2Xsc%2X", &v, &d, &bc, &sc) == 4)
		return kf_arena_printf(c->a, "PCI %04x:%04x (%s)", v, d, pci_class_name(bc, sc));
	if (sscanf(m, "virtio:d%8Xv%8X", &d, &v) == 2)
		return kf_arena_printf(c->a, "virtio %s (%u)", virtio_name(d), d);
	if (sscanf(m, "usb:v%4Xp%4X", &v, &d) == 2)
		return kf_arena_printf(c->a, "USB %04x:%04x", v, d);
	if (!strncmp(m, "acpi:", 5))
		return kf_arena_printf(c->a, "ACPI %.*s", (int)strcspn(m + 5, ":"), m + 5);
	if (!strncmp(m, "amba:d", 6))
		return kf_arena_printf(c->a, "AMBA %s", m + 6);
	if (!strncmp(m, "platform:", 9))
		return kf_arena_printf(c->a, "platform %s", m + 9);
	if (!strncmp(m, "cpu:", 4))
		return "CPU features";
	if (!strncmp(m, "input:", 6))
		return kf_arena_printf(c->a, "input %.*s", (int)strcspn(m + 6, "-"), m + 6);
	if (!strncmp(m, "of:", 3)) {
		const char *cc = strstr(m, "C");
		return kf_arena_printf(c->a, "OF %s", cc ? cc + 1 : m + 3);
	}
	const char *colon = strchr(m, ':');
	size_t n = colon ? (size_t)(colon - m) : strlen(m);
	return kf_arena_printf(c->a, "%.*s %s", (int)n, m, colon ? colon + 1 : "");
}

/* The MODALIAS= line of dir's uevent, or NULL: an AMBA primecell (the
 * PL011, PL031, PL061 of arm boards) has no modalias file, only this. */
static char *uevent_modalias(dctx *c, const char *dir)
{
	char *rel = kf_xasprintf("%s/uevent", dir);
	char *u = det_read(c, rel);
	free(rel);
	for (char *l = u; l && *l;) {
		size_t n = strcspn(l, "\n");
		if (!strncmp(l, "MODALIAS=", 9) && n > 9)
			return kf_arena_strndup(c->a, l + 9, n - 9);
		l += n + (l[n] == '\n');
	}
	return NULL;
}

static void add_device(dctx *c, const char *dir, bool from_uevent)
{
	char *m;
	if (from_uevent) {
		m = uevent_modalias(c, dir);
	} else {
		char *rel = kf_xasprintf("%s/modalias", dir);
		m = det_read(c, rel);
		free(rel);
	}
	if (!m || !*m)
		return;
	kf_detect *det = c->det;
	KF_GROW(det->devices, det->ndevices + 1, det->dalloc);
	kf_device *dv = &det->devices[det->ndevices++];
	memset(dv, 0, sizeof(*dv));
	dv->path = kf_arena_strdup(c->a, dir + 4); /* below sys/ */
	dv->modalias = m;
	dv->bus = kf_arena_strndup(c->a, m, strcspn(m, ":"));
	dv->desc = describe(c, m);
	char *rel = kf_xasprintf("%s/driver", dir);
	char *drv = det_link(c, rel);
	free(rel);
	if (drv)
		dv->bound = kf_arena_strdup(c->a, det_base_name(drv));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every directory below ROOT/sys/devices with a modalias (no symlinks),
 * or without one but with a uevent that names a MODALIAS (AMBA). */
void detect_devices(dctx *c, const char *rel, int depth)
{
	if (depth > 40)
		return;
	char *p = det_path(c, rel);
	DIR *dh = opendir(p);
	free(p);
	if (!dh)
		return;
	char **subs = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *de;
	bool has = false, uevent = false;
	while ((de = readdir(dh)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (!strcmp(de->d_name, "modalias"))
			has = true;
		if (!strcmp(de->d_name, "uevent"))
			uevent = true;
		if (de->d_type == DT_DIR) {
			KF_GROW(subs, n + 1, alloc);
			subs[n++] = kf_xasprintf("%s/%s", rel, de->d_name);
		}
	}
	closedir(dh);
	if (has || uevent)
		add_device(c, rel, !has);
	if (n) /* qsort(NULL, 0) is undefined (UBSan) */
		qsort(subs, n, sizeof(char *), cmp_str);
	for (size_t i = 0; i < n; i++) {
		detect_devices(c, subs[i], depth + 1);
		free(subs[i]);
	}
	free(subs);
}


static bool path_under(const char *dev, const rootdevs *rd)
{
	size_t n = strlen(dev);
	for (size_t i = 0; i < rd->n; i++)
		if (!strncmp(rd->v[i], dev, n) && (rd->v[i][n] == '/' || !rd->v[i][n]))
			return true;
	return false;
}

/* One module that claims a device, with what it needs. */
typedef struct cand {
	const kf_alias *al;    /* the alias that matched */
	const kf_modinfo *mi;  /* the module, or NULL */
	const char *sym;       /* its symbol, or NULL */
	const char *mk;        /* Makefile naming it */
	int mkline;            /* its line */
	int score;             /* preference, higher first */
} cand;

/* Literal characters of a pattern: a specific ID beats a class match. */
static int specificity(const char *p)
{
	int n = 0;
	for (; *p; p++)
		n += *p != '*' && *p != '?';
	return n;
}

/* An alias of the bound driver's own module, by the driver name the module
 * registers, or by the module's name with an entry for the device's bus
 * (modalias up to ':'): the HDA core binds snd_hda_codec_generic to a
 * codec no table claims (its own table holds only HDA_CODEC_ID_GENERIC,
 * which no codec reports).  The bus keeps an old kernel's driver name out:
 * EHCI's PCI driver was "ehci_hcd", today the core module, whose entries
 * are of: and platform: ones. */
/* True when module is the one whose driver is bound: the same name, or a
 * driver name the module registers. */
static bool is_bound_module(const kf_aliasdb *db, const char *bound, const char *module)
{
	if (kf_modname_eq(bound, module))
		return true;
	return kf_aliasdb_module_drives(db, module, bound);
}

bool kf_aliasdb_is_bound_module(const kf_aliasdb *db, const char *bound, const char *module)
{
	return is_bound_module(db, bound, module);
}

/* The ID that matched sits under #ifdef CONFIG_X / #if IS_ENABLED(CONFIG_X)
 * (rtl8xxxu's untested devices, tables under CONFIG_OF): the table has it
 * only with X, so X is required too (y for a plain #ifdef).  Negated
 * conditions require nothing. */
static void cond_requirements(dctx *c, const kf_device *dv, const cand *cd, kf_hw_level lvl,
			      bool boot)
{
	const kf_alias *al = cd->al;
	for (const char *p = al->cond; p && *p;) {
		const char *e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		const char *eq = memchr(p, '=', (size_t)(e - p));
		if (*p != '!' && eq && eq + 1 < e && eq[1] != 'm') {
			char *sym = kf_arena_printf(c->a, "%.*s", (int)(eq - p), p);
			if (strcmp(sym, cd->sym)) {
				bool y = eq[1] == 'y';
				char *r = kf_arena_printf(c->a, "%s → %s (its ID is under %sCONFIG_%s%s, %s:%d) → CONFIG_%s%s",
							  dv->desc, al->module, y ? "#ifdef " : "#if IS_ENABLED(",
							  sym, y ? "" : ")", al->file ? al->file : "?", al->line,
							  sym, y ? "=y" : "");
				kf_hwreq *h = hw_dev_add(c, dv, sym, y ? KF_HW_BUILTIN : KF_HW_ENABLED, lvl,
							 boot, r);
				if (!h->device) {
					h->device = dv->path;
					h->module = al->module;
				}
			}
		}
		p = *e ? e + 1 : e;
	}
}

/* An of: alias with a node name or type but no compatible ("of:NwatchdogT*"
 * and "of:NwatchdogT*C*" of cpwd's { .name = "watchdog" }): the
 * OpenFirmware way of SPARC and PowerPC, whose nodes have no compatible. */
static bool of_name_only(const char *pattern)
{
	if (strncmp(pattern, "of:N", 4))
		return false;
	const char *t = strrchr(pattern, 'T'), *cc = t ? strchr(t, 'C') : NULL;
	return t && (!cc || !strcmp(cc, "C*"));
}

/* A device-tree node with compatible strings ("of:NwatchdogT(null)Cbrcm,...").
 * A flattened device tree's nodes that drivers bind have them, and the
 * kernel prefers a compatible match: a name-only entry of a driver for
 * another architecture's firmware does not claim them (the Pi's watchdog
 * node is not cpwd's). */
static bool of_has_compatible(const char *modalias)
{
	return !strncmp(modalias, "of:N", 4) && strchr(modalias + 4, 'C');
}

/*
 * Every module that claims a device could drive it, and some exclude each
 * other (button / tiny_power_button, usbhid / usbkbd), so one is required
 * and the others recommended: the one bound to the device in the snapshot,
 * else one its running config enables, else the most specific match.
 */
void detect_match(dctx *c, const rootdevs *rd, const kf_dotconfig *cfg)
{
	kf_detect *det = c->det;
	kf_aliasdb *db = c->o->aliases;
	size_t cap = 64, *idx = kf_xmalloc(cap * sizeof(size_t));
	for (size_t i = 0; i < det->ndevices; i++) {
		kf_device *dv = &det->devices[i];
		dv->boot = path_under(dv->path, rd);
		size_t n = kf_aliasdb_match(db, dv->modalias, idx, cap);
		if (n > cap) {
			cap = n;
			idx = kf_xrealloc(idx, cap * sizeof(size_t));
			n = kf_aliasdb_match(db, dv->modalias, idx, cap);
		}
		/* the bound driver's module among them, by module name or by
		   the name the driver registers (xhci_pci's "xhci_hcd"); when
		   no table that matched is the bound driver's (built-in
		   drivers export no aliases, tables kfit cannot read, a
		   fallback driver bound by its bus), its module is looked up
		   by that name and added */
		bool by_bound = false;
		if (dv->bound) {
			bool have = false;
			for (size_t k = 0; k < n && k < cap && !have; k++)
				have = is_bound_module(db, dv->bound, db->aliases[idx[k]].module);
			size_t k = have ? SIZE_MAX
					: kf_aliasdb_bound_alias(db, dv->bound, dv->modalias);
			if (k != SIZE_MAX) {
				if (n >= cap) {
					cap = n + 16;
					idx = kf_xrealloc(idx, cap * sizeof(size_t));
				}
				idx[n++] = k;
				by_bound = true;
			}
		}
		const char **mods = kf_arena_alloc(c->a, (n + 1) * sizeof(char *));
		const char **syms = kf_arena_alloc(c->a, (n + 1) * sizeof(char *));
		cand *cs = kf_xcalloc(n + 1, sizeof(cand));
		size_t nm = 0;
		bool cpu = !strncmp(dv->modalias, "cpu:", 4);
		for (size_t k = 0; k < n; k++) {
			const kf_alias *al = &db->aliases[idx[k]];
			if (of_name_only(al->pattern) && of_has_compatible(dv->modalias))
				continue;
			size_t j;
			for (j = 0; j < nm; j++)
				if (!strcmp(mods[j], al->module))
					break;
			bool src = al->origin == KF_ALIAS_SOURCE || al->origin == KF_ALIAS_DRVNAME ||
				   al->origin == KF_ALIAS_BUSTABLE || al->origin == KF_ALIAS_DRIVER;
			const kf_modinfo *mi = kf_aliasdb_module(db, al->module);
			const char *sym = src ? al->symbol : mi ? mi->symbol : NULL;
			int score = specificity(al->pattern);
			if (j < nm) {
				/* the same module again: keep the better alias (with a
				   symbol; without an #if condition) */
				if ((!cs[j].sym && sym) || (sym && cs[j].al->cond && !al->cond)) {
					cs[j].al = al;
					cs[j].sym = sym;
					cs[j].mk = src ? al->makefile : mi ? mi->makefile : NULL;
					cs[j].mkline = src ? al->mkline : mi ? mi->line : 0;
					syms[j] = sym;
				}
				if (score > cs[j].score % 1000)
					cs[j].score = cs[j].score - cs[j].score % 1000 + score;
				continue;
			}
			cs[nm] = (cand){al, mi, sym, src ? al->makefile : mi ? mi->makefile : NULL,
					src ? al->mkline : mi ? mi->line : 0, score};
			/* the bound driver's module; a module of exactly the
			   driver's name before one that only registers a driver
			   of that name (snd_pcsp's platform driver is called
			   "pcspkr" too) */
			if (dv->bound && is_bound_module(db, dv->bound, al->module))
				cs[nm].score += kf_modname_eq(dv->bound, al->module) ? 120000 : 100000;
			if (cfg && sym) {
				const char *v = kf_dotconfig_get(cfg, sym);
				if (v && (!strcmp(v, "y") || !strcmp(v, "m")))
					cs[nm].score += 10000;
			}
			/* input handlers all attach at once and bind no driver;
			   userspace (libinput, X, Wayland) reads evdev */
			if (!strncmp(dv->modalias, "input:", 6) && !strcmp(al->module, "evdev"))
				cs[nm].score += 50000;
			mods[nm] = al->module;
			syms[nm] = sym;
			nm++;
		}
		dv->modules = mods;
		dv->symbols = syms;
		dv->nmodules = nm;
		if (!nm)
			det->unmatched++;
		dv->map = by_bound ? KF_MAP_FALLBACK
			  : nm	   ? KF_MAP_TABLE
			  : dv->bound ? KF_MAP_MISSING
				      : KF_MAP_NONE;
		/* the preferred candidate with a symbol */
		size_t best = (size_t)-1;
		for (size_t k = 0; k < nm; k++)
			if (cs[k].sym && (best == (size_t)-1 || cs[k].score > cs[best].score))
				best = k;
		for (size_t k = 0; k < nm; k++) {
			const cand *cd = &cs[k];
			if (!cd->sym)
				continue;
			const kf_alias *al = cd->al;
			/* another module whose driver has the bound driver's
			   name: the two cannot both register ("Driver 'pcspkr'
			   is already registered"), so it is not even recommended */
			if (k != best && dv->bound && best != (size_t)-1 &&
			    is_bound_module(db, dv->bound, cs[best].al->module) &&
			    is_bound_module(db, dv->bound, al->module))
				continue;
			const char *via = by_bound && kf_alias_is_bound(al, dv->bound, dv->modalias)
						  ? " (the driver bound to it)"
					  : al->origin == KF_ALIAS_MODULES ? " (modules.alias)"
					  : al->origin == KF_ALIAS_BUILTIN ? " (modules.builtin.modinfo)"
					  : "";
			char *reason = kf_arena_printf(c->a, "%s → %s → CONFIG_%s (%s:%d)%s%s", dv->desc,
						       al->module, cd->sym, cd->mk ? cd->mk : "?",
						       cd->mkline, via,
						       k == best ? "" : " (another driver for it is required)");
			kf_hw_level lvl = cpu || k != best ? KF_HW_RECOMMEND : KF_HW_REQUIRE;
			kf_hwreq *h = hw_dev_add(c, dv, cd->sym, KF_HW_ENABLED, lvl, k == best && dv->boot,
						 reason);
			if (!h->device || (lvl == KF_HW_REQUIRE && h->level == KF_HW_REQUIRE &&
					   strstr(h->reason, "(another driver"))) {
				h->reason = reason;
				h->device = dv->path;
				h->module = al->module;
				h->makefile = cd->mk;
				h->line = cd->mkline;
				if (cd->mi) {
					h->firmware = (const char **)cd->mi->firmware;
					h->nfirmware = cd->mi->nfirmware;
					h->requests_firmware = cd->mi->nfirmware ||
							       cd->mi->requests_firmware;
				}
			}
			if (al->part_symbol && strcmp(al->part_symbol, cd->sym)) {
				char *r2 = kf_arena_printf(c->a, "%s → %s (the part of %s with its ID table) → CONFIG_%s",
							   dv->desc, al->file ? al->file : "?",
							   al->module, al->part_symbol);
				kf_hwreq *h2 = hw_dev_add(c, dv, al->part_symbol, KF_HW_ENABLED, lvl,
							  k == best && dv->boot, r2);
				if (!h2->device) {
					h2->device = dv->path;
					h2->module = al->module;
				}
			}
			cond_requirements(c, dv, cd, lvl, k == best && dv->boot);
		}
		free(cs);
	}
	free(idx);
}

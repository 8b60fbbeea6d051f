/*
 * detect_unmapped.c - the devices no table of the tree maps: which of
 * them are worth naming (a PCI or USB device, not an ACPI entry or a PCI
 * bridge nothing drives), and their vendor and product names when the
 * root has them (USB's manufacturer/product files, the pci.ids and
 * usb.ids of the root).  generate ends with this list, detect marks each
 * device with how it was mapped (docs/detect.md, "What was not mapped").
 */
#include "detect_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *kf_dev_map_name(kf_dev_map m)
{
	switch (m) {
	case KF_MAP_TABLE:
		return "table";
	case KF_MAP_FALLBACK:
		return "fallback";
	case KF_MAP_MISSING:
		return "driver-missing";
	case KF_MAP_NONE:
		return "none";
	}
	return "?";
}

/* Is a device that no table maps worth a line of its own? */
static bool worth_listing(const kf_device *dv)
{
	static const char *const buses[] = {"pci", "usb", "hid", "hdaudio", "sdio", "virtio",
					    "i2c", "spi", "serio", "sdw", "mhi", NULL};
	if (dv->map == KF_MAP_TABLE)
		return false;
	bool bus = false;
	for (size_t k = 0; buses[k] && !bus; k++)
		bus = !strcmp(dv->bus, buses[k]);
	if (!bus)
		return false;
	/* bridges, memory controllers and system peripherals without a
	 * driver are the platform's, not devices a driver is missing for */
	if (dv->map == KF_MAP_NONE && !strcmp(dv->bus, "pci")) {
		const char *bc = strstr(dv->modalias, "bc");
		if (bc && (!strncmp(bc, "bc06", 4) || !strncmp(bc, "bc05", 4) ||
			   !strncmp(bc, "bc08", 4) || !strncmp(bc, "bc11", 4)))
			return false;
	}
	return true;
}

size_t kf_detect_unmapped(const kf_detect *det, const kf_device **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < det->ndevices; i++)
		if (det->devices[i].listed) {
			if (out && n < max)
				out[n] = &det->devices[i];
			n++;
		}
	return n;
}

/* The name after an ID at the start of a line of an ids file: vendor
 * lines "8086  Intel Corporation", device lines "\t272b  Name" below
 * their vendor.  NULL when absent. */
static char *ids_lookup(dctx *c, const char *ids, unsigned ven, unsigned dev)
{
	char vk[8], dk[8];
	snprintf(vk, sizeof(vk), "%04x  ", ven);
	snprintf(dk, sizeof(dk), "%04x  ", dev);
	const char *vname = NULL, *dname = NULL;
	size_t vlen = 0, dlen = 0;
	for (const char *l = ids; *l && !dname;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		if (!vname && !strncmp(l, vk, 6)) {
			vname = l + 6;
			vlen = len - 6;
		} else if (vname && l[0] != '\t' && l[0] != '#' && len)
			break; /* the next vendor: no such device */
		else if (vname && l[0] == '\t' && l[1] != '\t' && !strncmp(l + 1, dk, 6)) {
			dname = l + 7;
			dlen = len - 7;
		}
		l = e ? e + 1 : l + len;
	}
	if (!vname)
		return NULL;
	return dname ? kf_arena_printf(c->a, "%.*s %.*s", (int)vlen, vname, (int)dlen, dname)
		     : kf_arena_printf(c->a, "%.*s", (int)vlen, vname);
}

/* The first ids file of the root that exists, read once. */
static const char *ids_file(dctx *c, const char *which, const char **cache, bool *tried)
{
	if (*tried)
		return *cache;
	*tried = true;
	static const char *const dirs[] = {"usr/share/hwdata", "usr/share/misc", NULL};
	for (size_t k = 0; dirs[k] && !*cache; k++)
		*cache = det_read(c, kf_arena_printf(c->a, "%s/%s", dirs[k], which));
	return *cache;
}

/* Mark the devices worth listing and give them names where the root has
 * them: a USB interface's device (its parent directory) has manufacturer
 * and product files; PCI and USB IDs are looked up in the root's ids
 * files. */
void detect_unmapped(dctx *c)
{
	const char *pci = NULL, *usb = NULL;
	bool pci_tried = false, usb_tried = false;
	for (size_t i = 0; i < c->det->ndevices; i++) {
		kf_device *dv = &c->det->devices[i];
		dv->listed = worth_listing(dv);
		if (!dv->listed)
			continue;
		unsigned v, d;
		if (sscanf(dv->modalias, "pci:v%8Xd%8X", &v, &d) == 2 &&
		    ids_file(c, "pci.ids", &pci, &pci_tried))
			dv->name = ids_lookup(c, pci, v, d);
		else if (sscanf(dv->modalias, "usb:v%4Xp%4X", &v, &d) == 2) {
			char *parent = kf_arena_strdup(c->a, dv->path);
			char *slash = strrchr(parent, '/');
			if (slash)
				*slash = 0;
			char *man = det_read(c, kf_arena_printf(c->a, "sys/%s/manufacturer", parent));
			char *prod = det_read(c, kf_arena_printf(c->a, "sys/%s/product", parent));
			if (man || prod)
				dv->name = kf_arena_printf(c->a, "%s%s%s", man ? man : "",
							   man && prod ? " " : "", prod ? prod : "");
			else if (ids_file(c, "usb.ids", &usb, &usb_tried))
				dv->name = ids_lookup(c, usb, v, d);
		}
	}
}

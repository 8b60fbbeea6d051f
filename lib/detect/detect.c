/*
 * detect.c - what a machine is and what it has, read from ROOT ("/" or a
 * snapshot of scripts/snapshot-machine.sh), in stages: the facts
 * (detect_facts.c), the devices and the modules that claim them
 * (detect_devices.c), and the requirements that follow (detect_policy.c).
 * The result is profile names with their evidence and hardware
 * requirements with reasons naming the device.  docs/detect.md has the
 * rules.
 */
#include "detect_run.h"
#include "kfit/rootfs.h"

#include <stdlib.h>
#include <string.h>

kf_detect *kf_detect_run(const kf_detect_opts *o, kf_diags *d)
{
	const char *root = o->root ? o->root : "/";
	if (!kf_is_dir(root)) {
		kf_diag_add(d, KF_ERROR, root, 0, 0, "not a directory");
		return NULL;
	}
	kf_detect *det = kf_xcalloc(1, sizeof(*det));
	det->arena = kf_arena_new();
	dctx c = {o, det, det->arena, d};
	char *probe = det_path(&c, "proc/cpuinfo"), *probe2 = det_path(&c, "sys/devices");
	if (!kf_exists(probe) && !kf_exists(probe2)) {
		kf_diag_add(d, KF_ERROR, root, 0, 0,
			    "neither proc/cpuinfo nor sys/devices: not a machine or snapshot");
		free(probe);
		free(probe2);
		kf_detect_free(det);
		return NULL;
	}
	free(probe);
	free(probe2);
	det->kernel_release = det_read(&c, "proc/sys/kernel/osrelease");
	if (det_regular(&c, "proc/config.gz"))
		det->running_config = "proc/config.gz";
	else if (det->kernel_release) {
		char *p = kf_arena_printf(c.a, "boot/config-%s", det->kernel_release);
		if (det_regular(&c, p))
			det->running_config = p;
	}
	char *cpuinfo = det_read(&c, "proc/cpuinfo");
	detect_os(&c);
	if (det->distro)
		det_add_profile(&c, det->distro, PROF_KIND_DISTRO,
			    det->distro_note ? det->distro_note
					     : kf_arena_printf(c.a, "etc/os-release ID=%s VERSION_ID=%s",
							       det->os_id,
							       det->os_version ? det->os_version : "-"));
	else if (det->os_id && strcmp(det->os_id, "gentoo"))
		kf_diag_add(d, KF_WARNING, NULL, 0, 0,
			    "distribution '%s' version '%s' has no profile; none chosen", det->os_id,
			    det->os_version ? det->os_version : "-");
	detect_init(&c);
	if (det->os_id && !strcmp(det->os_id, "gentoo")) {
		det->distro = det->init && !strcmp(det->init, "openrc") ? "gentoo-openrc"
									: "gentoo-systemd";
		det_add_profile(&c, det->distro, PROF_KIND_DISTRO,
			    kf_arena_printf(c.a, "etc/os-release ID=gentoo with %s",
					    det->init ? det->init : "no known init"));
	}
	detect_security(&c);
	detect_initramfs(&c);
	rootdevs rd = {NULL, 0};
	detect_root(&c, &rd);
	detect_devices(&c, "sys/devices", 0);
	detect_asound_codecs(&c);
	detect_cpu(&c, cpuinfo);
	detect_virt(&c, cpuinfo);
	detect_platform(&c, cpuinfo);
	detect_plug_in(&c);
	detect_features(&c);
	if (o->aliases && o->use_modules_alias && det->kernel_release) {
		char *ma = kf_arena_printf(c.a, "lib/modules/%s/modules.alias", det->kernel_release);
		char *mb = kf_arena_printf(c.a, "lib/modules/%s/modules.builtin.modinfo",
					   det->kernel_release);
		char *p = det_path(&c, ma);
		if (kf_root_regular(p))
			kf_aliasdb_add_modules_alias(o->aliases, p, d);
		free(p);
		p = det_path(&c, mb);
		if (kf_root_regular(p))
			kf_aliasdb_add_builtin_modinfo(o->aliases, p, d);
		free(p);
	}
	if (o->aliases) {
		kf_dotconfig *cfg = NULL;
		if (det->running_config) {
			char *p = det_path(&c, det->running_config);
			kf_diags ignore = KF_DIAGS_INIT;
			cfg = kf_root_regular(p) ? kf_dotconfig_load(p, &ignore) : NULL;
			kf_diags_release(&ignore);
			free(p);
		}
		policy_foreign(&c, cpuinfo);
		detect_match(&c, &rd, cfg);
		detect_dt_consoles(&c);
		detect_infer(&c);
		detect_unmapped(&c);
		if (cfg)
			kf_dotconfig_free(cfg);
	}
	policy_facts(&c, cpuinfo);
	for (size_t i = 0; i < rd.n; i++)
		free(rd.v[i]);
	free(rd.v);
	return det;
}

/* Is one of the names a distribution profile? */
static bool asks_distro(const prof_db *db, const char *const *names, size_t n)
{
	for (size_t k = 0; db && k < n; k++) {
		long param;
		const prof_profile *pp = prof_db_find(db, names[k], &param, NULL);
		if (pp && pp->kind == PROF_KIND_DISTRO)
			return true;
	}
	return false;
}

size_t kf_detect_added(const kf_detect *det, const prof_db *db, const char *const *asked,
		       size_t nasked, const kf_det_profile **out)
{
	bool distro_given = asks_distro(db, asked, nasked);
	size_t n = 0;
	for (size_t i = 0; i < det->nprofiles; i++) {
		const kf_det_profile *dp = &det->profiles[i];
		bool dup = dp->kind == PROF_KIND_DISTRO && distro_given;
		for (size_t k = 0; k < nasked && !dup; k++)
			dup = !strcmp(asked[k], dp->name);
		for (size_t k = 0; k < n && !dup; k++)
			dup = !strcmp(out[k]->name, dp->name);
		if (!dup)
			out[n++] = dp;
	}
	return n;
}

const char *kf_detect_family_release(const kf_detect *det, const prof_db *db,
				     const char *family)
{
	const char *mine = NULL;
	size_t l = strlen(family);
	long param;
	for (size_t i = 0; det && i < det->nprofiles; i++) {
		const char *pn = det->profiles[i].name;
		if (!strncmp(pn, family, l) && pn[l] == '-' && prof_db_find(db, pn, &param, NULL))
			mine = pn;
	}
	return mine;
}

void kf_detect_free(kf_detect *det)
{
	if (!det)
		return;
	free(det->profiles);
	free(det->devices);
	free(det->hw);
	free(det->blockstack);
	kf_arena_free(det->arena);
	free(det);
}

const char *kf_hw_want_name(kf_hw_want w)
{
	switch (w) {
	case KF_HW_ENABLED:
		return "enabled";
	case KF_HW_BUILTIN:
		return "builtin";
	case KF_HW_AT_LEAST:
		return "at-least";
	case KF_HW_OFF:
		return "off";
	}
	return "?";
}


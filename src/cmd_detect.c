/*
 * cmd_detect.c - `kfit detect`: what this machine (or a saved snapshot of
 * one) is and has: distro, init, LSM, firewall, initramfs, root filesystem
 * and block stack, virtualization, cloud, chassis, CPU, console, installed
 * features, and every device matched to the kernel symbol whose driver
 * claims it in the target tree.  Prints the chosen profiles and the
 * hardware requirements with their reasons (text or --json).
 */
#include "cli.h"
#include "options.h"
#include "profcli.h"

#include "kfit/json.h"
#include "kfit/detect.h"
#include "kfit/tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What `kfit detect` is given. */
typedef struct detect_args {
	const char *tree;   /* -k */
	const char *arch;   /* -a */
	const char *root;   /* --root */
	const char *config; /* --config */
	bool json;          /* --json */
	bool no_ma;         /* --no-modules-alias */
	bool no_cache;      /* --no-cache */
	bool aliases;       /* --aliases */
	profcli_opts po;    /* --profiles (and -p, --local) */
} detect_args;

static const cli_opt detect_opts[] = {
	CLI_OPT_KERNEL("-k, --tree", "TREE", detect_args, tree,
		       "kernel tree or linux-source tarball (default as for\n"
		       "`kfit kconfig`)"),
	CLI_OPT_ARCH("-a, --arch", detect_args, arch,
		     "architecture the kernel is for: its arch/ARCH drivers\n"
		     "count, others' do not (default: this machine's)"),
	CLI_OPT_ROOT(detect_args, root,
		     "read a snapshot made by scripts/snapshot-machine.sh\n"
		     "instead of this machine (DIR/etc, DIR/proc, DIR/sys)"),
	CLI_OPT_JSON(detect_args, json, "machine-readable output (docs/schema/detect.schema.json)"),
	CLI_OPT_FLAG("--no-modules-alias", detect_args, no_ma,
		     "ignore ROOT/lib/modules: match from the tree alone"),
	CLI_OPT_FLAG("--no-cache", detect_args, no_cache, "scan the tree's sources again"),
	CLI_OPT_PROFILES(detect_args, po, "profile database the names are checked against"),
	CLI_OPT_FLAG("--aliases", detect_args, aliases,
		     "print the tree's derived alias table as modules.alias\n"
		     "lines (\"alias PATTERN MODULE\") and exit"),
	CLI_OPT_STR("--config", NULL, "FILE", detect_args, config,
		    "with --aliases: only the entries a kernel built with\n"
		    "the .config FILE has (their #if CONFIG_ conditions)"),
	CLI_OPT_PROFILE("-p, --profile", "NAME", detect_args, po,
			"a profile generate would be given: listed first among\n"
			"the profiles (a distro given replaces the detected one)"),
	CLI_OPT_LOCAL(detect_args, po, "a local profile file, the same way"),
	CLI_OPT_TABLE_END,
};

const cli_spec cmd_detect_spec = {
	.cmd = "detect",
	.head = "usage: kfit detect [-k TREE] [-a ARCH] [--root DIR] [--json]\n"
		"                   [--no-modules-alias] [--no-cache] [--profiles DIR]\n"
		"                   [-p NAME]... [--local FILE]...\n"
		"                   [--aliases [--config FILE]]\n"
		"\n"
		"Find out what the machine is and what it has: the distro release (from\n"
		"os-release), init system and systemd version, LSM, firewall, initramfs,\n"
		"root filesystem and the block stack under it, virtualization and cloud,\n"
		"chassis, CPU, console, installed container runtimes and other features,\n"
		"and every device (each modalias under /sys/devices) with the kernel\n"
		"symbol whose driver claims it in TREE.  Prints the profiles chosen and\n"
		"the hardware requirements, each with its reason.\n"
		"\n"
		"Devices are matched against the tree's own driver sources (device ID\n"
		"tables and Makefiles, scanned once per tree into the cache) and, when\n"
		"present, the running kernel's modules.alias.\n"
		"\n"
		"options:\n",
	.opts = detect_opts,
	.col = 22,
	.tail = "\n"
		"exit status: 0 ok, 2 bad usage or an unreadable root\n",
	.word_is_option = true,
};

static const char *orempty(const char *s)
{
	return s ? s : "-";
}

static const char *initramfs_name(int v)
{
	return v == PROF_INITRAMFS_YES ? "yes" : v == PROF_INITRAMFS_NO ? "no" : "unknown";
}

static void text_report(kf_strbuf *sb, const kf_detect *det, const kf_det_profile *prof,
			size_t nprof, const kf_aliasdb *db)
{
	kf_strbuf_addstr(sb, "machine\n");
	kf_strbuf_addf(sb, "  os:             %s (ID=%s VERSION_ID=%s)\n", orempty(det->os_pretty),
		       orempty(det->os_id), orempty(det->os_version));
	kf_strbuf_addf(sb, "  init:           %s", orempty(det->init));
	if (det->systemd_version)
		kf_strbuf_addf(sb, " %d", det->systemd_version);
	kf_strbuf_addf(sb, " (pid 1: %s)\n", orempty(det->pid1));
	kf_strbuf_addf(sb, "  lsm:            %s\n", orempty(det->lsm));
	kf_strbuf_addf(sb, "  firewall:       %s\n", orempty(det->firewall));
	kf_strbuf_addf(sb, "  initramfs:      %s", initramfs_name(det->initramfs));
	if (det->initramfs_why)
		kf_strbuf_addf(sb, " (%s)", det->initramfs_why);
	kf_strbuf_addf(sb, "\n  root:           %s on %s", orempty(det->rootfs), orempty(det->rootdev));
	for (size_t i = 0; i < det->nblockstack; i++)
		kf_strbuf_addf(sb, "%s%s", i ? " > " : " (", det->blockstack[i]);
	kf_strbuf_addstr(sb, det->nblockstack ? ")\n" : "\n");
	kf_strbuf_addf(sb, "  virtualization: %s (%s)\n", orempty(det->virt), orempty(det->virt_why));
	kf_strbuf_addf(sb, "  cloud:          %s\n", orempty(det->cloud));
	kf_strbuf_addf(sb, "  chassis:        %s", orempty(det->chassis));
	if (det->chassis_type)
		kf_strbuf_addf(sb, " (DMI chassis_type %d)", det->chassis_type);
	kf_strbuf_addf(sb, "\n  cpu:            %s family %d, %d CPUs\n", orempty(det->cpu_vendor),
		       det->cpu_family, det->ncpus);
	kf_strbuf_addf(sb, "  console:        %s\n", orempty(det->console));
	kf_strbuf_addf(sb, "  kernel:         %s (running config: %s)\n", orempty(det->kernel_release),
		       orempty(det->running_config));
	kf_strbuf_addstr(sb, "profiles\n");
	for (size_t i = 0; i < nprof; i++)
		kf_strbuf_addf(sb, "  %-20s %-9s %s\n", prof[i].name, prof_kind_name(prof[i].kind),
			       prof[i].reason);
	size_t matched = det->ndevices - det->unmatched;
	kf_strbuf_addf(sb, "devices (%zu, %zu claimed by a driver", det->ndevices, matched);
	if (db && db->kernelversion)
		kf_strbuf_addf(sb, " of %s", db->kernelversion);
	kf_strbuf_addstr(sb, ")\n");
	for (size_t i = 0; i < det->ndevices; i++) {
		const kf_device *dv = &det->devices[i];
		kf_strbuf_addf(sb, "  %s  %s%s\n", dv->desc, dv->path, dv->boot ? "  [boot]" : "");
		kf_strbuf_addf(sb, "    modalias %s", dv->modalias);
		if (dv->bound)
			kf_strbuf_addf(sb, ", bound to %s", dv->bound);
		kf_strbuf_addch(sb, '\n');
		if (dv->name)
			kf_strbuf_addf(sb, "    %s\n", dv->name);
		if (dv->map == KF_MAP_MISSING)
			kf_strbuf_addf(sb, "    no driver in the tree claims it, but the machine ran %s "
					   "for it: a driver this tree lacks (out of tree, renamed, or "
					   "newer)\n", dv->bound);
		else if (dv->map == KF_MAP_NONE)
			kf_strbuf_addstr(sb, "    no driver in the tree claims it, and none was bound to "
					     "it: nothing supports it\n");
		else if (dv->map == KF_MAP_FALLBACK)
			kf_strbuf_addf(sb, "    no table entry of the tree matches it: mapped by the name of "
					   "its bound driver %s\n", dv->bound);
		bool mine = false;
		for (size_t k = 0; k < dv->nmodules && dv->bound && db && !mine; k++)
			mine = kf_aliasdb_is_bound_module(db, dv->bound, dv->modules[k]);
		if (dv->bound && db && !mine && dv->map != KF_MAP_MISSING)
			kf_strbuf_addf(sb, "    the bound driver %s is not one the tree builds "
					   "(out of tree, or renamed since the machine's kernel)\n",
				       dv->bound);
		for (size_t k = 0; k < dv->nmodules; k++)
			kf_strbuf_addf(sb, "    → %s%s%s\n", dv->modules[k],
				       dv->symbols[k] ? " → CONFIG_" : " (always built)",
				       dv->symbols[k] ? dv->symbols[k] : "");
	}
	kf_strbuf_addf(sb, "hardware requirements (%zu)\n", det->nhw);
	for (size_t i = 0; i < det->nhw; i++) {
		const kf_hwreq *h = &det->hw[i];
		kf_strbuf_addf(sb, "  %s CONFIG_%s", h->level == KF_HW_REQUIRE ? "require  " : "recommend",
			       h->symbol);
		if (h->want == KF_HW_BUILTIN)
			kf_strbuf_addstr(sb, "=y");
		else if (h->want == KF_HW_AT_LEAST)
			kf_strbuf_addf(sb, ">=%ld", h->min);
		else if (h->want == KF_HW_OFF)
			kf_strbuf_addstr(sb, "=n");
		if (h->boot)
			kf_strbuf_addstr(sb, " (boot)");
		kf_strbuf_addf(sb, "\n    %s\n", h->reason);
		if (h->firmware_note)
			kf_strbuf_addf(sb, "    firmware: %s\n", h->firmware_note);
	}
}

static void json_report(kf_strbuf *sb, const kf_detect *det, const kf_det_profile *prof,
			size_t nprof, const kf_aliasdb *db, const char *tree)
{
	kf_json j;
	kf_json_init(&j, sb, KF_JSON_SPACED);
	kf_json_begin_object(&j);
	kf_json_kstr(&j, "tree", tree);
	kf_json_kstr(&j, "kernelversion", db ? db->kernelversion : NULL);
	kf_json_line(&j, " ");
	kf_json_key(&j, "os");
	kf_json_begin_object(&j);
	kf_json_kstr(&j, "id", det->os_id);
	kf_json_kstr(&j, "version_id", det->os_version);
	kf_json_kstr(&j, "pretty_name", det->os_pretty);
	kf_json_end_object(&j);
	kf_json_line(&j, " ");
	kf_json_kstr(&j, "distro", det->distro);
	kf_json_kstr(&j, "distro_note", det->distro_note);
	kf_json_line(&j, " ");
	kf_json_kstr(&j, "init", det->init);
	kf_json_kint(&j, "systemd_version", det->systemd_version);
	kf_json_kstr(&j, "pid1", det->pid1);
	kf_json_line(&j, " ");
	kf_json_kstr(&j, "lsm", det->lsm);
	kf_json_kstr(&j, "firewall", det->firewall);
	kf_json_kstr(&j, "initramfs", initramfs_name(det->initramfs));
	kf_json_kstr(&j, "initramfs_why", det->initramfs_why);
	kf_json_line(&j, " ");
	kf_json_kstr(&j, "rootfs", det->rootfs);
	kf_json_kstr(&j, "rootdev", det->rootdev);
	kf_json_kstrs(&j, "blockstack", det->blockstack, det->nblockstack);
	kf_json_line(&j, " ");
	kf_json_kstr(&j, "virtualization", det->virt);
	kf_json_kstr(&j, "virtualization_why", det->virt_why);
	kf_json_kstr(&j, "cloud", det->cloud);
	kf_json_kstr(&j, "chassis", det->chassis);
	kf_json_kint(&j, "chassis_type", det->chassis_type);
	kf_json_kbool(&j, "dmi", det->has_dmi);
	kf_json_line(&j, " ");
	kf_json_key(&j, "cpu");
	kf_json_begin_object(&j);
	kf_json_kstr(&j, "vendor", det->cpu_vendor);
	kf_json_kint(&j, "family", det->cpu_family);
	kf_json_kint(&j, "count", det->ncpus);
	kf_json_end_object(&j);
	kf_json_kstr(&j, "console", det->console);
	kf_json_kstr(&j, "kernel_release", det->kernel_release);
	kf_json_kstr(&j, "running_config", det->running_config);
	kf_json_line(&j, " ");
	kf_json_key(&j, "profiles");
	kf_json_begin_array(&j);
	for (size_t i = 0; i < nprof; i++) {
		kf_json_line(&j, "  ");
		kf_json_begin_object(&j);
		kf_json_kstr(&j, "name", prof[i].name);
		kf_json_kstr(&j, "kind", prof_kind_name(prof[i].kind));
		kf_json_kstr(&j, "reason", prof[i].reason);
		kf_json_end_object(&j);
	}
	kf_json_end_array(&j);
	kf_json_line(&j, " ");
	kf_json_key(&j, "devices");
	kf_json_begin_array(&j);
	for (size_t i = 0; i < det->ndevices; i++) {
		const kf_device *dv = &det->devices[i];
		kf_json_line(&j, "  ");
		kf_json_begin_object(&j);
		kf_json_kstr(&j, "path", dv->path);
		kf_json_kstr(&j, "modalias", dv->modalias);
		kf_json_kstr(&j, "bus", dv->bus);
		kf_json_kstr(&j, "desc", dv->desc);
		kf_json_kstr(&j, "bound", dv->bound);
		kf_json_kbool(&j, "boot", dv->boot);
		kf_json_kstr(&j, "map", kf_dev_map_name(dv->map));
		kf_json_kstr(&j, "name", dv->name);
		kf_json_kstrs(&j, "modules", dv->modules, dv->nmodules);
		kf_json_kstrs(&j, "symbols", dv->symbols, dv->nmodules);
		kf_json_end_object(&j);
	}
	kf_json_end_array(&j);
	kf_json_line(&j, " ");
	kf_json_key(&j, "hardware");
	kf_json_begin_array(&j);
	for (size_t i = 0; i < det->nhw; i++) {
		const kf_hwreq *h = &det->hw[i];
		kf_json_line(&j, "  ");
		kf_json_begin_object(&j);
		kf_json_kstr(&j, "symbol", h->symbol);
		kf_json_kstr(&j, "want", kf_hw_want_name(h->want));
		if (h->want == KF_HW_AT_LEAST)
			kf_json_kint(&j, "min", h->min);
		kf_json_kstr(&j, "level", h->level == KF_HW_REQUIRE ? "require" : "recommend");
		kf_json_kbool(&j, "boot", h->boot);
		kf_json_kstr(&j, "reason", h->reason);
		kf_json_kstr(&j, "device", h->device);
		kf_json_kstr(&j, "module", h->module);
		kf_json_kstr(&j, "makefile", h->makefile);
		kf_json_kint(&j, "line", h->line);
		kf_json_kstrs(&j, "firmware", h->firmware, h->nfirmware);
		kf_json_kbool(&j, "requests_firmware", h->requests_firmware);
		kf_json_kstr(&j, "firmware_by", h->firmware_by);
		kf_json_kstr(&j, "firmware_note", h->firmware_note);
		kf_json_end_object(&j);
	}
	kf_json_end_array(&j);
	kf_json_line(&j, " ");
	kf_json_kuint(&j, "unmatched_devices", det->unmatched);
	kf_json_end_object(&j);
	kf_strbuf_addch(sb, '\n');
}

/* --aliases: the tree's alias table as modules.alias has it (no driver
 * names, no bus tables: only the bus matches), with --config only the
 * entries whose conditions hold.  The exit status. */
static int print_aliases(const detect_args *a, const kf_aliasdb *db, kf_diags *d)
{
	kf_dotconfig *cfg = a->config ? kf_dotconfig_load(a->config, d) : NULL;
	if (a->config && !cfg) {
		cli_print_diags(d);
		return KF_EXIT_BAD;
	}
	kf_strbuf sb = KF_STRBUF_INIT;
	for (size_t i = 0; i < db->naliases; i++)
		if (db->aliases[i].origin != KF_ALIAS_BUSTABLE &&
		    db->aliases[i].origin != KF_ALIAS_DRIVER &&
		    (!cfg || kf_alias_cond_holds(&db->aliases[i], cfg)))
			kf_strbuf_addf(&sb, "alias %s %s\n", db->aliases[i].pattern,
				       db->aliases[i].module);
	kf_dotconfig_free(cfg);
	fwrite(sb.buf ? sb.buf : "", 1, sb.len, stdout);
	kf_strbuf_release(&sb);
	return KF_EXIT_OK;
}

/* Every name given with -p is a profile of pdb (errors printed if not). */
static bool names_known(const prof_db *pdb, const profcli_opts *po)
{
	kf_diags d = KF_DIAGS_INIT;
	for (size_t i = 0; i < po->nnames; i++) {
		long param;
		prof_db_find(pdb, po->names[i], &param, &d);
	}
	cli_print_diags(&d);
	bool ok = !d.n;
	kf_diags_release(&d);
	return ok;
}

/*
 * The profiles generate --detect would use with the same -p and --local:
 * those given first, then the detected ones kf_detect_added keeps (a
 * distro given replaces the detected one).  An array the caller frees.
 */
static kf_det_profile *chosen_profiles(const kf_detect *det, const prof_db *pdb,
				       const profcli_opts *po, size_t *n)
{
	kf_det_profile *out = kf_xcalloc(po->nnames + det->nprofiles + 1, sizeof(*out));
	size_t k = 0;
	for (size_t i = 0; i < po->nnames; i++) {
		long param;
		const prof_profile *pp = prof_db_find(pdb, po->names[i], &param, NULL);
		out[k++] = (kf_det_profile){po->names[i], pp ? pp->kind : PROF_KIND_FEATURE,
					    "given with -p or --local"};
	}
	const kf_det_profile **add = kf_xcalloc(det->nprofiles + 1, sizeof(*add));
	size_t nadd = kf_detect_added(det, pdb, po->names, po->nnames, add);
	for (size_t i = 0; i < nadd; i++)
		out[k++] = *add[i];
	free(add);
	*n = k;
	return out;
}

/* Detection itself and its report: the exit status. */
static int detect_report(detect_args *a, const char *tree, kf_aliasdb *db, kf_diags *d)
{
	int rc = KF_EXIT_BAD;
	a->po.root = a->root;
	prof_db *pdb = profcli_load(&a->po);
	if (a->po.nnames && (!pdb || !names_known(pdb, &a->po))) {
		if (pdb)
			prof_db_free(pdb);
		return KF_EXIT_BAD;
	}
	kf_detect_opts o = {a->root, db, pdb, !a->no_ma};
	kf_detect *det = kf_detect_run(&o, d);
	cli_print_diags(d);
	if (det) {
		kf_strbuf sb = KF_STRBUF_INIT;
		size_t nprof;
		kf_det_profile *prof = chosen_profiles(det, pdb, &a->po, &nprof);
		if (a->json)
			json_report(&sb, det, prof, nprof, tree ? db : NULL, tree);
		else
			text_report(&sb, det, prof, nprof, tree ? db : NULL);
		free(prof);
		/* os-release's names, DMI strings, profile reasons are data */
		cli_put_text(kf_strbuf_str(&sb), stdout);
		kf_strbuf_release(&sb);
		rc = KF_EXIT_OK;
	}
	kf_detect_free(det);
	if (pdb)
		prof_db_free(pdb);
	return rc;
}

int cmd_detect(int argc, char **argv)
{
	detect_args a = {.root = "/"};
	int rc = KF_EXIT_BAD;
	if (cli_parse(&cmd_detect_spec, &a, argc, argv) < 0)
		goto out;
	if (a.config && !a.aliases) {
		cli_error("--config goes with --aliases");
		goto out;
	}
	if (!kf_is_dir(a.root)) {
		cli_error("--root %s: not a directory", a.root);
		goto out;
	}
	kf_diags d = KF_DIAGS_INIT;
	char *tree = kf_tree_find_default(a.tree, cli_progress, NULL, &d);
	if (!tree && (a.tree || a.aliases)) {
		cli_print_diags(&d);
		kf_diags_release(&d);
		goto out;
	}
	if (!tree) {
		kf_diags_release(&d);
		fprintf(stderr, "kfit: warning: no kernel tree: devices are matched by "
				"modules.alias only (give -k TREE)\n");
	}
	kf_aliasdb *db = kf_aliasdb_new();
	if (tree && kf_aliasdb_scan_tree(db, tree, a.arch ? a.arch : cli_machine_arch(), !a.no_cache,
					 cli_progress, NULL, &d) < 0)
		cli_print_diags(&d);
	else if (a.aliases)
		rc = print_aliases(&a, db, &d);
	else
		rc = detect_report(&a, tree, db, &d);
	kf_aliasdb_free(db);
	kf_diags_release(&d);
	free(tree);
out:
	profcli_release(&a.po);
	return rc;
}

/*
 * cmd_detect.c - `kfit detect`: what this machine (or a saved snapshot of
 * one) is and has: distro, init, LSM, firewall, initramfs, root filesystem
 * and block stack, virtualization, cloud, chassis, CPU, console, installed
 * features, and every device matched to the kernel symbol whose driver
 * claims it in the target tree.  Prints the chosen profiles and the
 * hardware requirements with their reasons (text or --json).
 */
#include "cli.h"
#include "profcli.h"

#include "kfit/json.h"
#include "kfit/detect.h"
#include "kfit/tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_detect_usage[] =
	"usage: kfit detect [-k TREE] [-a ARCH] [--root DIR] [--json]\n"
	"                   [--no-modules-alias] [--no-cache] [--profiles DIR]\n"
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
	"options:\n"
	"  -k, --tree TREE     kernel tree or linux-source tarball (default as for\n"
	"                      `kfit kconfig`)\n"
	"  -a, --arch ARCH     architecture the kernel is for: its arch/ARCH drivers\n"
	"                      count, others' do not (default: this machine's)\n"
	"  --root DIR          read a snapshot made by scripts/snapshot-machine.sh\n"
	"                      instead of this machine (DIR/etc, DIR/proc, DIR/sys)\n"
	"  --json              machine-readable output (docs/schema/detect.schema.json)\n"
	"  --no-modules-alias  ignore ROOT/lib/modules: match from the tree alone\n"
	"  --no-cache          scan the tree's sources again\n"
	"  --profiles DIR      profile database the names are checked against\n"
	"  --aliases           print the tree's derived alias table as modules.alias\n"
	"                      lines (\"alias PATTERN MODULE\") and exit\n"
	"  --config FILE       with --aliases: only the entries a kernel built with\n"
	"                      the .config FILE has (their #if CONFIG_ conditions)\n"
	"\n"
	"exit status: 0 ok, 2 bad usage or an unreadable root\n";

static const char *orempty(const char *s)
{
	return s ? s : "-";
}

static const char *initramfs_name(int v)
{
	return v == PROF_INITRAMFS_YES ? "yes" : v == PROF_INITRAMFS_NO ? "no" : "unknown";
}

static void text_report(kf_strbuf *sb, const kf_detect *det, const kf_aliasdb *db)
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
	for (size_t i = 0; i < det->nprofiles; i++)
		kf_strbuf_addf(sb, "  %-20s %-9s %s\n", det->profiles[i].name,
			       prof_kind_name(det->profiles[i].kind), det->profiles[i].reason);
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
					   "(an out-of-tree module)\n", dv->bound);
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

static void json_report(kf_strbuf *sb, const kf_detect *det, const kf_aliasdb *db, const char *tree)
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
	for (size_t i = 0; i < det->nprofiles; i++) {
		kf_json_line(&j, "  ");
		kf_json_begin_object(&j);
		kf_json_kstr(&j, "name", det->profiles[i].name);
		kf_json_kstr(&j, "kind", prof_kind_name(det->profiles[i].kind));
		kf_json_kstr(&j, "reason", det->profiles[i].reason);
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

int cmd_detect(int argc, char **argv)
{
	profcli_opts po;
	memset(&po, 0, sizeof(po));
	const char *tree_arg = NULL, *root = "/", *arch = NULL, *config = NULL;
	bool json = false, no_ma = false, no_cache = false, aliases = false;
	int rc = KF_EXIT_BAD;
	for (int i = 1; i < argc; i++) {
		int missing = 0;
		const char *v;
		int t = profcli_arg(&po, argc, argv, &i);
		if (t < 0)
			goto out;
		if (t > 0)
			continue;
		if ((v = profcli_optval(argc, argv, &i, "-k", "--tree", &missing)) != NULL) {
			tree_arg = v;
		} else if (missing) {
			goto out;
		} else if ((v = profcli_optval(argc, argv, &i, "-a", "--arch", &missing)) != NULL) {
			arch = v;
		} else if (missing) {
			goto out;
		} else if ((v = profcli_optval(argc, argv, &i, NULL, "--root", &missing)) != NULL) {
			root = v;
		} else if (missing) {
			goto out;
		} else if ((v = profcli_optval(argc, argv, &i, NULL, "--config", &missing)) != NULL) {
			config = v;
		} else if (missing) {
			goto out;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--no-modules-alias")) {
			no_ma = true;
		} else if (!strcmp(argv[i], "--no-cache")) {
			no_cache = true;
		} else if (!strcmp(argv[i], "--aliases")) {
			aliases = true;
		} else {
			cli_unknown_option("detect", argv[i]);
			cli_usage_short(cmd_detect_usage);
			goto out;
		}
	}
	if (config && !aliases) {
		cli_error("--config goes with --aliases");
		goto out;
	}
	if (!kf_is_dir(root)) {
		cli_error("--root %s: not a directory", root);
		goto out;
	}
	kf_diags d = KF_DIAGS_INIT;
	char *tree = kf_tree_find_default(tree_arg, cli_progress, NULL, &d);
	if (!tree && (tree_arg || aliases)) {
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
	if (tree && kf_aliasdb_scan_tree(db, tree, arch ? arch : cli_machine_arch(), !no_cache, cli_progress, NULL, &d) < 0) {
		cli_print_diags(&d);
		kf_diags_release(&d);
		kf_aliasdb_free(db);
		free(tree);
		goto out;
	}
	if (aliases) {
		kf_dotconfig *cfg = config ? kf_dotconfig_load(config, &d) : NULL;
		if (config && !cfg) {
			cli_print_diags(&d);
			kf_diags_release(&d);
			kf_aliasdb_free(db);
			free(tree);
			goto out;
		}
		kf_strbuf sb = KF_STRBUF_INIT;
		/* as modules.alias has them: no driver names, no tables
		   only the bus matches */
		for (size_t i = 0; i < db->naliases; i++)
			if (db->aliases[i].origin != KF_ALIAS_BUSTABLE &&
			    db->aliases[i].origin != KF_ALIAS_DRIVER &&
			    (!cfg || kf_alias_cond_holds(&db->aliases[i], cfg)))
				kf_strbuf_addf(&sb, "alias %s %s\n", db->aliases[i].pattern,
					       db->aliases[i].module);
		kf_dotconfig_free(cfg);
		fwrite(sb.buf ? sb.buf : "", 1, sb.len, stdout);
		kf_strbuf_release(&sb);
		kf_aliasdb_free(db);
		free(tree);
		kf_diags_release(&d);
		rc = KF_EXIT_OK;
		goto out;
	}
	prof_db *pdb = profcli_load(&po);
	kf_detect_opts o = {root, db, pdb, !no_ma};
	kf_detect *det = kf_detect_run(&o, &d);
	cli_print_diags(&d);
	if (det) {
		kf_strbuf sb = KF_STRBUF_INIT;
		if (json)
			json_report(&sb, det, tree ? db : NULL, tree);
		else
			text_report(&sb, det, tree ? db : NULL);
		fwrite(sb.buf, 1, sb.len, stdout);
		kf_strbuf_release(&sb);
		rc = KF_EXIT_OK;
	}
	kf_detect_free(det);
	if (pdb)
		prof_db_free(pdb);
	kf_aliasdb_free(db);
	kf_diags_release(&d);
	free(tree);
out:
	profcli_release(&po);
	return rc;
}

/*
 * cmd_check.c - `kfit check`: does a .config (plain, .gz, .xz) meet the
 * requirements of the given profiles for its kernel version?  One line per
 * unmet requirement (symbol, wanted, found, reason, origin), unfollowed
 * recommendations as warnings, a summary line; exit 0 when every `require`
 * holds, 1 when one does not, 2 on bad input.
 */
#include "cli.h"
#include "profcli.h"

#include "kfit/json.h"
#include "kfit/pipeline.h"
#include "kfit/dotconfig.h"
#include "kfit/profile.h"
#include "kfit/build.h"
#include "kfit/detect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

const char cmd_check_usage[] =
	"usage: kfit check [-p PROFILE...] [--detect [--root DIR]] [CONFIG]\n"
	"                  [--kver X.Y.Z] [--arch ARCH] [--initramfs yes|no]\n"
	"                  [--json] [--all] [--profiles DIR] [--local FILE...]\n"
	"\n"
	"Check a kernel .config (plain, .gz or .xz) against the requirements of\n"
	"the profiles for the config's kernel version (from its header).  Without\n"
	"CONFIG: the configuration 'kfit generate' wrote last (and, without -p\n"
	"or --detect, the profiles it was made with), else the running kernel's\n"
	"(/proc/config.gz, else /boot/config-$(uname -r)).\n"
	"\n"
	"options:\n"
	"  -p, --profile NAME  a profile (repeatable); NAME.kfit or a path loads a\n"
	"                      local profile file and uses the profiles it defines\n"
	"  --detect            add the profiles detection picks for this machine\n"
	"                      (distribution, init system, platform, features);\n"
	"                      its devices are checked by 'kfit generate --detect'\n"
	"  --root DIR          detect from a snapshot (scripts/snapshot-machine.sh);\n"
	"                      without CONFIG its running kernel's config is checked\n"
	"  --kver X.Y.Z        kernel version, for a config whose header has none\n"
	"  --arch ARCH         architecture (default: from the config)\n"
	"  --initramfs yes|no  boot-critical options must be y without an initramfs\n"
	"                      (default: the distro profile's habit)\n"
	"  --json              machine-readable report (docs/schema/check.schema.json)\n"
	"  --all               also list the requirements that hold\n"
	"  --profiles DIR      the profile database (default: the installed one)\n"
	"  --local FILE        add a local profile file (repeatable)\n"
	"\n"
	"exit status: 0 every requirement holds, 1 one does not, 2 bad input\n";

static const char *outcome_name(prof_outcome o)
{
	switch (o) {
	case PROF_MET:
		return "met";
	case PROF_UNMET:
		return "unmet";
	case PROF_NOT_APPLICABLE:
		return "not-applicable";
	case PROF_SHADOWED:
		return "shadowed";
	}
	return "?";
}

static void chain_text(kf_strbuf *sb, const prof_req *r)
{
	for (size_t k = 0; k < r->nchain; k++)
		kf_strbuf_addf(sb, "%s%s", k ? " > " : "", r->chain[k]);
}

static void json_report(kf_strbuf *sb, const char *path, const kf_dotconfig *cfg, uint32_t kver,
			const char *arch, int initramfs, const prof_set *s, const prof_result *res,
			size_t unmet, size_t nreq, size_t nrec, size_t unfollowed, bool all)
{
	char vb[16];
	kf_json j;
	kf_json_init(&j, sb, KF_JSON_SPACED);
	kf_json_begin_object(&j);
	kf_json_kstr(&j, "config", path);
	kf_json_kstr(&j, "kernel", kf_kver_format(kver, vb));
	kf_json_kstr(&j, "kernel_header", kf_dotconfig_kver_text(cfg));
	kf_json_kstr(&j, "arch", arch);
	kf_json_kstr(&j, "initramfs", initramfs == PROF_INITRAMFS_NO ? "no" : "yes");
	kf_json_kstrs(&j, "profiles", s->names, s->nnames);
	kf_json_key(&j, "summary");
	kf_json_begin_object(&j);
	kf_json_kuint(&j, "requirements", nreq);
	kf_json_kuint(&j, "unmet", unmet);
	kf_json_kuint(&j, "recommendations", nrec);
	kf_json_kuint(&j, "unfollowed", unfollowed);
	kf_json_end_object(&j);
	kf_json_key(&j, "results");
	kf_json_begin_array(&j);
	for (size_t i = 0; i < s->n; i++) {
		const prof_result *x = &res[i];
		const prof_req *r = x->req;
		if (!all && x->outcome != PROF_UNMET)
			continue;
		kf_json_line(&j, "  ");
		kf_json_begin_object(&j);
		kf_json_kstr(&j, "symbol", r->key);
		kf_json_kstr(&j, "checked", x->checked);
		kf_json_kstr(&j, "level", prof_level_name(r->level));
		kf_json_kstr(&j, "outcome", outcome_name(x->outcome));
		kf_json_kbool(&j, "boot", r->boot);
		kf_json_kstr(&j, "wanted", x->wanted);
		kf_json_kstr(&j, "found", x->found);
		kf_strbuf rsn = KF_STRBUF_INIT;
		prof_reason_oneline(r->reason, &rsn);
		kf_json_kstr(&j, "reason", kf_strbuf_str(&rsn));
		kf_strbuf_release(&rsn);
		kf_json_kstrs(&j, "sources", r->sources, r->nsources);
		kf_json_kstr(&j, "file", r->loc.file);
		kf_json_kint(&j, "line", r->loc.line);
		kf_json_kint(&j, "col", r->loc.col);
		kf_json_kstr(&j, "profile", r->profile);
		kf_json_kstrs(&j, "chain", r->chain, r->nchain);
		kf_json_end_object(&j);
	}
	kf_json_raw(&j, "\n");
	kf_json_end_array(&j);
	kf_json_end_object(&j);
	kf_strbuf_addch(sb, '\n');
}

int cmd_check(int argc, char **argv)
{
	profcli_opts po;
	memset(&po, 0, sizeof(po));
	bool json = false, all = false, detect = false;
	const char *kver_s = NULL, *arch = NULL, *config = NULL, *initramfs_s = NULL;
	const char *root = NULL;
	kf_last_config last = {0};
	kf_detect *det = NULL;
	char *cache = NULL;
	int rc = KF_EXIT_BAD;
	char *defcfg = NULL;
	prof_db *db = NULL;
	prof_set *s = NULL;
	kf_dotconfig *cfg = NULL;
	prof_result *res = NULL;
	for (int i = 1; i < argc; i++) {
		int miss = 0;
		const char *v;
		int r = profcli_arg(&po, argc, argv, &i);
		if (r < 0)
			goto out;
		if (r > 0)
			continue;
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--all")) {
			all = true;
		} else if (!strcmp(argv[i], "--detect")) {
			detect = true;
		} else if ((v = profcli_optval(argc, argv, &i, NULL, "--root", &miss))) {
			root = v;
			detect = true;
		} else if (miss) {
			goto out;
		} else if ((v = profcli_optval(argc, argv, &i, NULL, "--kver", &miss))) {
			kver_s = v;
		} else if (miss) {
			goto out;
		} else if ((v = profcli_optval(argc, argv, &i, NULL, "--arch", &miss))) {
			arch = v;
		} else if (miss) {
			goto out;
		} else if ((v = profcli_optval(argc, argv, &i, NULL, "--initramfs", &miss))) {
			initramfs_s = v;
		} else if (miss) {
			goto out;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			cli_unknown_option("check", argv[i]);
			cli_usage_short(cmd_check_usage);
			goto out;
		} else if (config) {
			cli_error("more than one config given ('%s' and '%s')", config, argv[i]);
			goto out;
		} else {
			config = argv[i];
		}
	}
	int initramfs = PROF_INITRAMFS_UNKNOWN;
	if (initramfs_s) {
		if (!strcmp(initramfs_s, "yes"))
			initramfs = PROF_INITRAMFS_YES;
		else if (!strcmp(initramfs_s, "no"))
			initramfs = PROF_INITRAMFS_NO;
		else {
			cli_error("--initramfs takes yes or no, not '%s'", initramfs_s);
			goto out;
		}
	}
	uint32_t kver = 0;
	if (kver_s && kf_kver_parse(kver_s, &kver) < 0) {
		cli_error("invalid kernel version '%s' (expected X.Y.Z)", kver_s);
		goto out;
	}
	bool user_chose = config && po.nnames;
	/* which configuration: the one given, a snapshot's running kernel's,
	 * what generate wrote last, the running kernel's */
	kf_diags cd = KF_DIAGS_INIT;
	cache = kf_cache_dir(&cd);
	kf_diags_release(&cd);
	if (detect) {
		kf_diags dd = KF_DIAGS_INIT;
		kf_detect_opts dop = {.root = root ? root : "/"};
		det = kf_detect_run(&dop, &dd);
		cli_print_diags(&dd);
		kf_diags_release(&dd);
		if (!det)
			goto out;
		for (size_t i = 0; i < det->nprofiles; i++) {
			bool dup = false;
			for (size_t k = 0; k < po.nnames; k++)
				dup |= !strcmp(po.names[k], det->profiles[i].name);
			if (dup)
				continue;
			fprintf(stderr, "kfit: detected %s (%s)\n", det->profiles[i].name,
				det->profiles[i].reason ? det->profiles[i].reason : "");
			KF_GROW(po.names, po.nnames + 1, po.namealloc);
			po.names[po.nnames++] = det->profiles[i].name;
		}
		if (!config && root) {
			if (!det->running_config) {
				cli_error("%s: the snapshot has no running kernel configuration "
					  "(proc/config.gz or boot/config-RELEASE); give CONFIG", root);
				goto out;
			}
			defcfg = kf_xasprintf("%s/%s", root, det->running_config);
			config = defcfg;
		}
	}
	if (!config && cache && kf_last_config_lookup(cache, NULL, NULL, &last) == 0) {
		config = last.config;
		fprintf(stderr, "kfit: checking %s (what 'kfit generate' wrote last)\n", config);
		if (!po.nnames && last.profiles) {
			fprintf(stderr, "kfit: with its profiles: %s\n", last.profiles);
			for (char *save = NULL, *w = strtok_r(last.profiles, " ", &save); w;
			     w = strtok_r(NULL, " ", &save)) {
				KF_GROW(po.names, po.nnames + 1, po.namealloc);
				po.names[po.nnames++] = w;
			}
		}
	}
	if (!config) {
		defcfg = cli_running_config();
		if (!defcfg) {
			cli_error("no config given and neither /proc/config.gz nor /boot/config-$(uname -r) exists");
			goto out;
		}
		config = defcfg;
	}
	if (!po.nnames) {
		cli_error("check needs at least one profile (-p NAME or --detect); 'kfit profiles' lists them");
		goto out;
	}
	po.root = root;
	db = profcli_load(&po);
	if (!db)
		goto out;
	kf_diags d = KF_DIAGS_INIT;
	/* the requirements stage of the pipeline; no tree: a .config of any
	 * kernel is checked by name */
	kf_pipeline_opts plo = {.db = db, .names = po.names, .nnames = po.nnames,
				.initramfs = PROF_INITRAMFS_UNKNOWN};
	kf_pipeline p;
	kf_pipeline_init(&p, &plo);
	if (kf_pipeline_requirements(&p, &d) == 0) {
		s = p.set;
		p.set = NULL; /* ours now */
		cfg = kf_dotconfig_load(config, &d);
	}
	kf_pipeline_release(&p);
	cli_print_diags(&d);
	kf_diags_release(&d);
	if (!s || !cfg)
		goto out;
	if (!kver)
		kver = kf_dotconfig_kver(cfg);
	if (!kver) {
		cli_error("%s: no kernel version in the header ('# Linux/<arch> X.Y.Z Kernel Configuration'); pass --kver X.Y.Z",
			  config);
		goto out;
	}
	if (!kf_dotconfig_count(cfg)) {
		cli_error("%s: no CONFIG_ lines: not a kernel config", config);
		goto out;
	}
	if (!arch)
		arch = kf_dotconfig_arch(cfg);
	prof_check_opts o = {kver, arch, initramfs};
	size_t unmet = prof_check(db, s, cfg, &o, &res);
	int eff_initramfs = initramfs != PROF_INITRAMFS_UNKNOWN ? initramfs : s->initramfs;
	size_t nreq = 0, nrec = 0, unfollowed = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (res[i].outcome == PROF_NOT_APPLICABLE || res[i].outcome == PROF_SHADOWED)
			continue;
		if (prof_req_is_hard(res[i].req))
			nreq++;
		else {
			nrec++;
			if (res[i].outcome == PROF_UNMET)
				unfollowed++;
		}
	}
	kf_strbuf sb = KF_STRBUF_INIT;
	char vb[16];
	if (json) {
		json_report(&sb, config, cfg, kver, arch, eff_initramfs, s, res, unmet, nreq, nrec,
			    unfollowed, all);
	} else {
		/* unmet requires first, then recommendations: one line each
		 * (what, wanted, found, whose, where), the reason wrapped
		 * below it */
		int width = cli_text_width(stdout);
		for (int pass = 0; pass < 3; pass++)
			for (size_t i = 0; i < s->n; i++) {
				const prof_result *x = &res[i];
				const prof_req *r = x->req;
				const char *tag, *sgr;
				if (pass == 0 && x->outcome == PROF_UNMET && prof_req_is_hard(r))
					tag = "unmet", sgr = CLI_RED;
				else if (pass == 1 && x->outcome == PROF_UNMET && !prof_req_is_hard(r))
					tag = "warning", sgr = CLI_YELLOW;
				else if (pass == 2 && all && x->outcome == PROF_MET)
					tag = "ok", sgr = CLI_GREEN;
				else
					continue;
				kf_strbuf_addf(&sb, "%s%s%s: CONFIG_%s: wanted %s, found %s%s  (%s:%d, ",
					       cli_sgr(stdout, sgr), tag, cli_sgr(stdout, CLI_RESET),
					       x->checked, x->wanted, x->found,
					       r->boot ? " (boot-critical)" : "", r->loc.file,
					       r->loc.line);
				chain_text(&sb, r);
				kf_strbuf_addstr(&sb, ")\n");
				cli_wrap(&sb, r->reason ? r->reason : "", 4, 4, width);
			}
		/* per profile: what it asks and what is missing */
		const char **prof = NULL;
		size_t nprof = 0, aprof = 0;
		for (size_t i = 0; i < s->n; i++) {
			const prof_result *x = &res[i];
			if (x->outcome == PROF_NOT_APPLICABLE || x->outcome == PROF_SHADOWED)
				continue;
			const char *pn = x->req->profile ? x->req->profile : "?";
			bool seen = false;
			for (size_t k = 0; k < nprof && !seen; k++)
				seen = !strcmp(prof[k], pn);
			if (!seen) {
				KF_GROW(prof, nprof + 1, aprof);
				prof[nprof++] = pn;
			}
		}
		if (nprof) {
			kf_strbuf_addf(&sb, "%-24s %8s %6s %11s %12s\n", "profile", "required", "unmet",
				       "recommended", "not followed");
			for (size_t k = 0; k < nprof; k++) {
				size_t q = 0, qu = 0, c = 0, cu = 0;
				for (size_t i = 0; i < s->n; i++) {
					const prof_result *x = &res[i];
					if (x->outcome == PROF_NOT_APPLICABLE ||
					    x->outcome == PROF_SHADOWED ||
					    strcmp(x->req->profile ? x->req->profile : "?", prof[k]))
						continue;
					bool un = x->outcome == PROF_UNMET;
					if (prof_req_is_hard(x->req))
						q++, qu += un;
					else
						c++, cu += un;
				}
				kf_strbuf_addf(&sb, "%-24s %8zu %6zu %11zu %12zu\n", prof[k], q, qu, c, cu);
			}
			kf_strbuf_addf(&sb, "%-24s %8zu %6zu %11zu %12zu\n", "total", nreq, unmet, nrec,
				       unfollowed);
		}
		free(prof);
		kf_strbuf_addf(&sb, "%s%s on %s%s%s: %zu requirement%s, %zu unmet; %zu recommendation%s, %zu not followed%s\n",
			       cli_sgr(stdout, CLI_BOLD), config, kf_kver_format(kver, vb), arch ? " " : "", arch ? arch : "",
			       nreq, nreq == 1 ? "" : "s", unmet, nrec, nrec == 1 ? "" : "s", unfollowed,
			       cli_sgr(stdout, CLI_RESET));
		/* a release's kernel range matters when the user put that
		 * release and this config together; not for a config kfit
		 * made, or profiles detection or memory chose */
		if (user_chose && s->kmin && (kver < s->kmin || (s->kmax && kver >= s->kmax))) {
			char lo[16], hi[16];
			kf_strbuf_addf(&sb, "note: the distro profile ships kernels >=%s%s%s; this config is %s\n",
				       kf_kver_format(s->kmin, lo), s->kmax ? " <" : "",
				       s->kmax ? kf_kver_format(s->kmax, hi) : "", kf_kver_format(kver, vb));
		}
	}
	fputs(kf_strbuf_str(&sb), stdout);
	kf_strbuf_release(&sb);
	rc = unmet ? KF_EXIT_UNMET : KF_EXIT_OK;
out:
	free(res);
	kf_dotconfig_free(cfg);
	prof_set_free(s);
	prof_db_free(db);
	free(defcfg);
	free(cache);
	kf_last_config_release(&last);
	kf_detect_free(det);
	profcli_release(&po);
	return rc;
}

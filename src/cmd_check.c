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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

const char cmd_check_usage[] =
	"usage: kfit check -p PROFILE... [CONFIG] [--kver X.Y.Z] [--arch ARCH]\n"
	"                  [--initramfs yes|no] [--json] [--all]\n"
	"                  [--profiles DIR] [--local FILE...]\n"
	"\n"
	"Check a kernel .config (plain, .gz or .xz) against the requirements of\n"
	"the profiles for the config's kernel version (from its header).  Without\n"
	"CONFIG: /proc/config.gz, else /boot/config-$(uname -r).\n"
	"\n"
	"options:\n"
	"  -p, --profile NAME  a profile (repeatable); NAME.kfit or a path loads a\n"
	"                      local profile file and uses the profiles it defines\n"
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
		kf_json_kstr(&j, "reason", r->reason);
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

/* The running kernel's config: /proc/config.gz, else /boot/config-RELEASE. */
static char *default_config(void)
{
	if (kf_exists("/proc/config.gz"))
		return kf_xstrdup("/proc/config.gz");
	struct utsname u;
	if (uname(&u) == 0) {
		char *p = kf_xasprintf("/boot/config-%s", u.release);
		if (kf_exists(p))
			return p;
		free(p);
	}
	return NULL;
}

int cmd_check(int argc, char **argv)
{
	profcli_opts po;
	memset(&po, 0, sizeof(po));
	bool json = false, all = false;
	const char *kver_s = NULL, *arch = NULL, *config = NULL, *initramfs_s = NULL;
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
	if (!po.nnames) {
		cli_error("check needs at least one profile (-p NAME); 'kfit profiles' lists them");
		goto out;
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
	if (!config) {
		defcfg = default_config();
		if (!defcfg) {
			cli_error("no config given and neither /proc/config.gz nor /boot/config-$(uname -r) exists");
			goto out;
		}
		config = defcfg;
	}
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
		if (res[i].req->level == PROF_REQUIRE)
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
		/* unmet requires first, then recommendations */
		for (int pass = 0; pass < 3; pass++)
			for (size_t i = 0; i < s->n; i++) {
				const prof_result *x = &res[i];
				const prof_req *r = x->req;
				const char *tag, *sgr;
				if (pass == 0 && x->outcome == PROF_UNMET && r->level == PROF_REQUIRE)
					tag = "unmet", sgr = CLI_RED;
				else if (pass == 1 && x->outcome == PROF_UNMET && r->level == PROF_RECOMMEND)
					tag = "warning", sgr = CLI_YELLOW;
				else if (pass == 2 && all && x->outcome == PROF_MET)
					tag = "ok", sgr = CLI_GREEN;
				else
					continue;
				kf_strbuf_addf(&sb, "%s%s%s: CONFIG_%s: wanted %s, found %s%s: %s (%s:%d, ",
					       cli_sgr(stdout, sgr), tag, cli_sgr(stdout, CLI_RESET),
					       x->checked, x->wanted, x->found,
					       r->boot ? " (boot-critical)" : "", r->reason, r->loc.file,
					       r->loc.line);
				chain_text(&sb, r);
				kf_strbuf_addstr(&sb, ")\n");
			}
		kf_strbuf_addf(&sb, "%s%s on %s%s%s: %zu requirement%s, %zu unmet; %zu recommendation%s, %zu not followed%s\n",
			       cli_sgr(stdout, CLI_BOLD), config, kf_kver_format(kver, vb), arch ? " " : "", arch ? arch : "",
			       nreq, nreq == 1 ? "" : "s", unmet, nrec, nrec == 1 ? "" : "s", unfollowed,
			       cli_sgr(stdout, CLI_RESET));
		if (s->kmin && (kver < s->kmin || (s->kmax && kver >= s->kmax))) {
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
	profcli_release(&po);
	return rc;
}

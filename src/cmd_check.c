/*
 * cmd_check.c - `kfit check`: does a .config (plain, .gz, .xz) meet the
 * requirements of the given profiles for its kernel version?  One line per
 * unmet requirement (symbol, wanted, found, reason, origin), unfollowed
 * recommendations as warnings, a summary line; exit 0 when every `require`
 * holds, 1 when one does not, 2 on bad input.
 */
#include "cli.h"
#include "options.h"
#include "profcli.h"

#include "kfit/json.h"
#include "kfit/pipeline.h"
#include "kfit/dotconfig.h"
#include "kfit/profile.h"
#include "kfit/build.h"
#include "kfit/lastconfig.h"
#include "kfit/detect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

/* What `kfit check` is given. */
typedef struct check_args {
	const char *config;    /* CONFIG */
	const char *kver;      /* --kver */
	const char *arch;      /* --arch */
	const char *initramfs; /* --initramfs */
	const char *root;      /* --root (detects) */
	bool json;             /* --json */
	bool all;              /* --all */
	bool detect;           /* --detect */
	profcli_opts po;       /* -p, --local, --profiles */
} check_args;

static int check_word(void *args, const char *word)
{
	check_args *a = args;
	if (a->config) {
		cli_error("more than one config given ('%s' and '%s')", a->config, word);
		return -1;
	}
	a->config = word;
	return 0;
}

static const cli_opt check_opts[] = {
	CLI_OPT_PROFILE("-p, --profile", "NAME", check_args, po,
			"a profile (repeatable); NAME.kfit or a path loads a\n"
			"local profile file and uses the profiles it defines"),
	CLI_OPT_FLAG("--detect", check_args, detect,
		     "add the profiles detection picks for this machine\n"
		     "(distribution, init system, platform, features);\n"
		     "its devices are checked by 'kfit generate --detect'"),
	CLI_OPT_ROOT(check_args, root,
		     "detect from a snapshot (scripts/snapshot-machine.sh);\n"
		     "without CONFIG its running kernel's config is checked"),
	CLI_OPT_STR("--kver", NULL, "X.Y.Z", check_args, kver,
		    "kernel version, for a config whose header has none"),
	CLI_OPT_ARCH("--arch", check_args, arch, "architecture (default: from the config)"),
	CLI_OPT_INITRAMFS(check_args, initramfs,
			  "boot-critical options must be y without an initramfs\n"
			  "(default: the distro profile's habit)"),
	CLI_OPT_JSON(check_args, json, "machine-readable report (docs/schema/check.schema.json)"),
	CLI_OPT_FLAG("--all", check_args, all, "also list the requirements that hold, and those\n"
		     "that the release's kernel lacks (absent)"),
	CLI_OPT_PROFILES(check_args, po, "the profile database (default: the installed one)"),
	CLI_OPT_LOCAL(check_args, po, "add a local profile file (repeatable)"),
	CLI_OPT_TABLE_END,
};

const cli_spec cmd_check_spec = {
	.cmd = "check",
	.head = "usage: kfit check [-p PROFILE...] [--detect [--root DIR]] [CONFIG]\n"
		"                  [--kver X.Y.Z] [--arch ARCH] [--initramfs yes|no]\n"
		"                  [--json] [--all] [--profiles DIR] [--local FILE...]\n"
		"\n"
		"Check a kernel .config (plain, .gz or .xz) against the requirements of\n"
		"the profiles for the config's kernel version (from its header).  Without\n"
		"CONFIG: the configuration 'kfit generate' wrote last (and, without -p\n"
		"or --detect, the profiles it was made with), else the running kernel's\n"
		"(/proc/config.gz, else /boot/config-$(uname -r)).\n"
		"\n"
		"options:\n",
	.opts = check_opts,
	.col = 22,
	.tail = "\n"
		"exit status: 0 every requirement holds, 1 one does not, 2 bad input\n",
	.positional = check_word,
};

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
		if (x->absent) {
			/* not applicable: the release's kernel lacks it */
			kf_json_key(&j, "absent");
			profcli_json_absent(&j, x->absent);
		}
		kf_json_end_object(&j);
	}
	kf_json_raw(&j, "\n");
	kf_json_end_array(&j);
	kf_json_end_object(&j);
	kf_strbuf_addch(sb, '\n');
}

/* One check: what it was given and what it found on the way. */
typedef struct check_run {
	check_args a;            /* the options */
	int initramfs;           /* PROF_INITRAMFS_* of --initramfs */
	uint32_t kver;           /* --kver, else the config's */
	bool user_chose;         /* CONFIG and -p both given */
	prof_db *db;             /* the profile database */
	kf_detect *det;          /* --detect's result, or NULL */
	kf_config_choice cfg;    /* which configuration */
} check_run;

/* The requirement counts of a check. */
typedef struct check_counts {
	size_t unmet;      /* requires not met */
	size_t nreq;       /* requires that apply */
	size_t nrec;       /* recommendations that apply */
	size_t unfollowed; /* recommendations not followed */
} check_counts;

/* --detect: add the profiles detection picks to those asked for. */
static int check_detect(check_run *r)
{
	kf_diags dd = KF_DIAGS_INIT;
	kf_detect_opts dop = {.root = r->a.root ? r->a.root : "/", .db = r->db};
	r->det = kf_detect_run(&dop, &dd);
	cli_print_diags(&dd);
	kf_diags_release(&dd);
	if (!r->det)
		return -1;
	profcli_opts *po = &r->a.po;
	const kf_det_profile **add = kf_xcalloc(r->det->nprofiles + 1, sizeof(*add));
	size_t nadd = kf_detect_added(r->det, r->db, po->names, po->nnames, add);
	for (size_t i = 0; i < nadd; i++) {
		cli_print_detected(add[i]->name, add[i]->reason);
		cli_add_profile(po, add[i]->name);
	}
	free(add);
	return 0;
}

/* Which configuration: the one given, a snapshot's running kernel's,
 * what generate wrote last (with its profiles when none are asked for),
 * the running kernel's. */
static int check_choose_config(check_run *r)
{
	kf_diags cd = KF_DIAGS_INIT;
	char *cache = kf_cache_dir(&cd);
	kf_diags_release(&cd);
	kf_config_want want = {
		.given = r->a.config,
		.root = r->a.root,
		.root_config = r->det ? r->det->running_config : NULL,
		.last = true,
		.cache = cache,
		.running = true,
	};
	kf_config_source from = kf_config_choose(&want, &r->cfg);
	free(cache);
	if (from == KF_CONFIG_NONE && r->a.root) {
		cli_error("%s: the snapshot has no running kernel configuration "
			  "(proc/config.gz or boot/config-RELEASE); give CONFIG", r->a.root);
		return -1;
	}
	if (from == KF_CONFIG_NONE) {
		cli_error("no config given and neither /proc/config.gz nor /boot/config-$(uname -r) exists");
		return -1;
	}
	if (from != KF_CONFIG_LAST)
		return 0;
	fprintf(stderr, "kfit: checking %s (what 'kfit generate' wrote last)\n", r->cfg.path);
	if (!r->a.po.nnames && r->cfg.profiles) {
		fprintf(stderr, "kfit: with its profiles: %s\n", r->cfg.profiles);
		for (char *save = NULL, *w = strtok_r(r->cfg.profiles, " ", &save); w;
		     w = strtok_r(NULL, " ", &save))
			cli_add_profile(&r->a.po, w);
	}
	return 0;
}

/* --all: a requirement that does not apply because the release's own
 * kernel lacks its symbol (`absent`), with the release's reason. */
static void absent_line(kf_strbuf *sb, const prof_result *x, int width)
{
	const prof_req *r = x->req;
	const prof_absent *ab = x->absent;
	char *file = cli_escape(r->loc.file), *afile = cli_escape(ab->loc.file);
	kf_strbuf_addf(sb, "%sabsent%s: CONFIG_%s: not in %s's kernel  (%s:%d, ",
		       cli_sgr(stdout, CLI_BOLD), cli_sgr(stdout, CLI_RESET), x->checked,
		       ab->profile, file, r->loc.line);
	chain_text(sb, r);
	kf_strbuf_addf(sb, "; absent at %s:%d)\n", afile, ab->loc.line);
	free(file);
	free(afile);
	kf_strbuf reason = KF_STRBUF_INIT;
	cli_add_text(&reason, ab->reason ? ab->reason : "", true);
	cli_wrap(sb, kf_strbuf_str(&reason), 4, 4, width);
	kf_strbuf_release(&reason);
}

/* Unmet requires first, then recommendations (and with --all what
 * holds, then what the release's kernel lacks): one line each, the
 * reason wrapped below it. */
static void report_lines(kf_strbuf *sb, const prof_set *s, const prof_result *res, bool all)
{
	/* unmet requires first, then recommendations: one line each
	 * (what, wanted, found, whose, where), the reason wrapped
	 * below it */
	int width = cli_text_width(stdout);
	for (int pass = 0; pass < 4; pass++)
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
			else if (pass == 3 && all && x->absent)
				tag = "absent", sgr = CLI_BOLD;
			else
				continue;
			if (pass == 3) {
				absent_line(sb, x, width);
				continue;
			}
			/* values, paths and reasons are data */
			char *wanted = cli_escape(x->wanted), *found = cli_escape(x->found),
			     *file = cli_escape(r->loc.file);
			kf_strbuf_addf(sb, "%s%s%s: CONFIG_%s: wanted %s, found %s%s  (%s:%d, ",
				       cli_sgr(stdout, sgr), tag, cli_sgr(stdout, CLI_RESET),
				       x->checked, wanted, found,
				       r->boot ? " (boot-critical)" : "", file, r->loc.line);
			free(wanted);
			free(found);
			free(file);
			chain_text(sb, r);
			kf_strbuf_addstr(sb, ")\n");
			kf_strbuf reason = KF_STRBUF_INIT;
			cli_add_text(&reason, r->reason ? r->reason : "", true);
			cli_wrap(sb, kf_strbuf_str(&reason), 4, 4, width);
			kf_strbuf_release(&reason);
		}
}

/* Per profile: what it asks and what is missing. */
static void report_table(kf_strbuf *sb, const prof_set *s, const prof_result *res,
			 const check_counts *n)
{
	size_t nreq = n->nreq, unmet = n->unmet, nrec = n->nrec, unfollowed = n->unfollowed;
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
		kf_strbuf_addf(sb, "%-24s %8s %6s %11s %12s\n", "profile", "required", "unmet",
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
			kf_strbuf_addf(sb, "%-24s %8zu %6zu %11zu %12zu\n", prof[k], q, qu, c, cu);
		}
		kf_strbuf_addf(sb, "%-24s %8zu %6zu %11zu %12zu\n", "total", nreq, unmet, nrec,
			       unfollowed);
	}
	free(prof);
}

static void text_report(kf_strbuf *sb, const check_run *r, const prof_set *s,
			const prof_result *res, const check_counts *n, const char *arch)
{
	const char *config = r->cfg.path;
	uint32_t kver = r->kver;
	bool user_chose = r->user_chose;
	size_t nreq = n->nreq, unmet = n->unmet, nrec = n->nrec, unfollowed = n->unfollowed;
	char vb[16];
	report_lines(sb, s, res, r->a.all);
	report_table(sb, s, res, n);
	kf_strbuf_addf(sb, "%s%s on %s%s%s: %zu requirement%s, %zu unmet; %zu recommendation%s, %zu not followed%s\n",
		       cli_sgr(stdout, CLI_BOLD), config, kf_kver_format(kver, vb), arch ? " " : "", arch ? arch : "",
		       nreq, nreq == 1 ? "" : "s", unmet, nrec, nrec == 1 ? "" : "s", unfollowed,
		       cli_sgr(stdout, CLI_RESET));
	/* a release's kernel range matters when the user put that
	 * release and this config together; not for a config kfit
	 * made, or profiles detection or memory chose */
	if (user_chose && s->kmin && (kver < s->kmin || (s->kmax && kver >= s->kmax))) {
		char lo[16], hi[16];
		kf_strbuf_addf(sb, "note: the distro profile ships kernels >=%s%s%s; this config is %s\n",
			       kf_kver_format(s->kmin, lo), s->kmax ? " <" : "",
			       s->kmax ? kf_kver_format(s->kmax, hi) : "", kf_kver_format(kver, vb));
	}
}

/* The requirements of the profiles against the configuration: the exit
 * status. */
static int check_config(check_run *r)
{
	const char *config = r->cfg.path, *arch = r->a.arch;
	prof_set *s = NULL;
	kf_dotconfig *cfg = NULL;
	prof_result *res = NULL;
	int rc = KF_EXIT_BAD;
	kf_diags d = KF_DIAGS_INIT;
	/* the requirements stage of the pipeline; no tree: a .config of any
	 * kernel is checked by name */
	kf_pipeline_opts plo = {.db = r->db, .names = r->a.po.names, .nnames = r->a.po.nnames,
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
	if (!r->kver)
		r->kver = kf_dotconfig_kver(cfg);
	if (!r->kver) {
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
	prof_check_opts o = {r->kver, arch, r->initramfs};
	check_counts n = {.unmet = prof_check(r->db, s, cfg, &o, &res)};
	int eff_initramfs = r->initramfs != PROF_INITRAMFS_UNKNOWN ? r->initramfs : s->initramfs;
	for (size_t i = 0; i < s->n; i++) {
		if (res[i].outcome == PROF_NOT_APPLICABLE || res[i].outcome == PROF_SHADOWED)
			continue;
		if (prof_req_is_hard(res[i].req))
			n.nreq++;
		else {
			n.nrec++;
			if (res[i].outcome == PROF_UNMET)
				n.unfollowed++;
		}
	}
	kf_strbuf sb = KF_STRBUF_INIT;
	if (r->a.json)
		json_report(&sb, config, cfg, r->kver, arch, eff_initramfs, s, res, n.unmet, n.nreq,
			    n.nrec, n.unfollowed, r->a.all);
	else
		text_report(&sb, r, s, res, &n, arch);
	fputs(kf_strbuf_str(&sb), stdout);
	kf_strbuf_release(&sb);
	rc = n.unmet ? KF_EXIT_UNMET : KF_EXIT_OK;
out:
	free(res);
	kf_dotconfig_free(cfg);
	prof_set_free(s);
	return rc;
}

int cmd_check(int argc, char **argv)
{
	check_run r = {.initramfs = PROF_INITRAMFS_UNKNOWN};
	int rc = KF_EXIT_BAD;
	if (cli_parse(&cmd_check_spec, &r.a, argc, argv) < 0 ||
	    cli_initramfs(r.a.initramfs, "", &r.initramfs) < 0)
		goto out;
	if (r.a.kver && kf_kver_parse(r.a.kver, &r.kver) < 0) {
		cli_error("invalid kernel version '%s' (expected X.Y.Z)", r.a.kver);
		goto out;
	}
	r.user_chose = r.a.config && r.a.po.nnames;
	/* the database first: which of the names asked for is a distribution
	 * decides which detected profiles join them */
	r.a.po.root = r.a.root;
	r.db = profcli_load(&r.a.po);
	if (!r.db)
		goto out;
	if ((r.a.detect || r.a.root) && check_detect(&r) < 0)
		goto out;
	if (check_choose_config(&r) < 0)
		goto out;
	if (!r.a.po.nnames) {
		cli_error("check needs at least one profile (-p NAME or --detect); 'kfit profiles' lists them");
		goto out;
	}
	rc = check_config(&r);
out:
	prof_db_free(r.db);
	kf_config_choice_release(&r.cfg);
	kf_detect_free(r.det);
	profcli_release(&r.a.po);
	return rc;
}

/*
 * cmd_profiles.c - `kfit profiles`: list the profile database, show one
 * profile's fully resolved requirements (for a kernel version), and lint
 * the database (optionally against kernel trees).
 */
#include "cli.h"
#include "options.h"
#include "profcli.h"

#include "kfit/json.h"
#include "kfit/dotconfig.h"
#include "kfit/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What `kfit profiles` is given. */
typedef struct profiles_args {
	const char *sub;  /* list, show or lint */
	cli_strs trees;   /* -k (repeatable) */
	const char *kver; /* --kver */
	const char *arch; /* --arch */
	bool json;        /* --json */
	profcli_opts po;  /* show's NAMEs and -p, --local, --profiles */
} profiles_args;

static int profiles_word(void *args, const char *word)
{
	profiles_args *a = args;
	if (strcmp(a->sub, "show")) {
		cli_error("unexpected argument '%s'", word);
		return -1;
	}
	return cli_add_profile(&a->po, word);
}

static const cli_opt profiles_opts[] = {
	{CLI_OPT_CALL, "-k, --tree", "--kernel", "TREE", offsetof(profiles_args, trees), cli_add_str,
	 0, false, false,
	 "kernel source tree: its version selects requirements;\n"
	 "lint checks every symbol exists in it (repeatable)"},
	CLI_OPT_STR("--kver", NULL, "X.Y.Z", profiles_args, kver,
		    "show the requirements that apply to this kernel, with\n"
		    "symbol names as that kernel spells them"),
	CLI_OPT_ARCH("--arch", profiles_args, arch, "architecture (x86_64, i386, arm64, ...)"),
	CLI_OPT_JSON(profiles_args, json,
		     "machine-readable output (docs/schema/profiles.schema.json,\n"
		     "docs/schema/profiles-show.schema.json)"),
	CLI_OPT_PROFILES(profiles_args, po, "profile database (default: the one shipped with kfit)"),
	CLI_OPT_LOCAL(profiles_args, po, "add a local profile file; -p ./FILE.kfit works as well"),
	CLI_OPT_PROFILE("-p", "NAME", profiles_args, po, NULL),
	CLI_OPT_TABLE_END,
};

static const char *const profiles_words[] = {"show", "lint", NULL};

const cli_spec cmd_profiles_spec = {
	.cmd = "profiles",
	.head = "usage: kfit profiles [--json] [--profiles DIR] [--local FILE...]\n"
		"       kfit profiles show NAME... [-k TREE] [--kver X.Y.Z] [--arch ARCH] [--json]\n"
		"       kfit profiles lint [-k TREE...] [--profiles DIR] [--local FILE...]\n"
		"\n"
		"List the profiles (what a distro release, an init system, a feature or a\n"
		"platform needs from the kernel), show the resolved requirements of one or\n"
		"more profiles with reason, source and origin, or check the database.\n"
		"\n"
		"options:\n",
	.opts = profiles_opts,
	.col = 20,
	.tail = "\n"
		"exit status: 0 ok, 1 lint found problems, 2 bad usage or a broken profile\n",
	.positional = profiles_word,
	.words = profiles_words,
};

static int list_profiles(prof_db *db, bool json)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	size_t n = prof_db_count(db);
	kf_json j;
	kf_json_init(&j, &sb, KF_JSON_SPACED);
	if (json) {
		kf_json_begin_object(&j);
		kf_json_key(&j, "profiles");
		kf_json_begin_array(&j);
	} else
		kf_strbuf_addf(&sb, "%-22s %-9s %s\n", "NAME", "KIND", "TITLE");
	for (int k = 0; k < 5; k++)
		for (size_t i = 0; i < n; i++) {
			const prof_profile *p = prof_db_get(db, i);
			/* grouped by kind in prof_kind's order: distro first */
			if ((int)p->kind != k)
				continue;
			if (json) {
				kf_json_line(&j, "  ");
				kf_json_begin_object(&j);
				kf_json_kstr(&j, "name", p->name);
				kf_json_kstr(&j, "kind", prof_kind_name(p->kind));
				kf_json_kstr(&j, "title", p->title);
				kf_json_kstr(&j, "file", p->loc.file);
				kf_json_kint(&j, "line", p->loc.line);
				if (p->stem) {
					kf_json_kbool(&j, "template", true);
					kf_json_key(&j, "versions");
					kf_json_begin_object(&j);
					kf_json_kint(&j, "min", p->vmin);
					kf_json_kint(&j, "max", p->vmax);
					kf_json_end_object(&j);
				}
				kf_json_end_object(&j);
			} else {
				kf_strbuf_addf(&sb, "%-22s %-9s %s\n", p->name, prof_kind_name(p->kind),
					       p->title ? p->title : "");
			}
		}
	if (json) {
		kf_json_raw(&j, "\n");
		kf_json_end_array(&j);
		kf_json_end_object(&j);
		kf_strbuf_addch(&sb, '\n');
	}
	cli_put_text(kf_strbuf_str(&sb), stdout); /* titles are data */
	kf_strbuf_release(&sb);
	return KF_EXIT_OK;
}

static const char *want_kind(prof_want w)
{
	static const char *const n[] = {"enabled", "builtin", "off", "string", "number",
					"at_least", "contains", "lacks"};
	return n[w];
}

static void json_req(kf_json *j, const prof_db *db, const prof_set *s, const prof_req *r,
		     uint32_t kver)
{
	char vb[16];
	kf_json_begin_object(j);
	kf_json_kstr(j, "symbol", r->key);
	kf_json_kstr(j, "expr", prof_req_expr(s->arena, r));
	kf_json_key(j, "alternatives");
	kf_json_begin_array(j);
	for (size_t k = 0; k < r->nalts; k++) {
		const prof_alt *a = &r->alts[k];
		kf_json_begin_object(j);
		kf_json_kstr(j, "name", a->sym);
		kf_json_kstr(j, "name_in_kernel", prof_alt_sym(db, a, kver));
		kf_json_kstr(j, "want", want_kind(a->want));
		kf_json_kstr(j, "value", a->value);
		kf_json_kstr(j, "wanted", prof_alt_wanted(s->arena, a, r->boot, s->initramfs));
		kf_json_kint(j, "group", (long long)a->group);
		kf_json_end_object(j);
	}
	kf_json_end_array(j);
	kf_json_kstr(j, "level", prof_level_name(r->level));
	kf_json_kbool(j, "boot", r->boot);
	kf_json_kbool(j, "override", r->override);
	kf_json_key(j, "when");
	kf_json_begin_object(j);
	kf_json_kstr(j, "kernel_min", r->cond.kmin ? kf_kver_format(r->cond.kmin, vb) : NULL);
	kf_json_kstr(j, "kernel_below", r->cond.kmax ? kf_kver_format(r->cond.kmax, vb) : NULL);
	kf_json_kstrs(j, "arch", r->cond.arch, r->cond.narch);
	kf_json_kstr(j, "if", r->cond.if_alt ? prof_alt_expr(s->arena, r->cond.if_alt)
					     : r->cond.if_sym);
	kf_json_end_object(j);
	kf_strbuf rsn = KF_STRBUF_INIT;
	prof_reason_oneline(r->reason, &rsn);
	kf_json_kstr(j, "reason", kf_strbuf_str(&rsn));
	kf_strbuf_release(&rsn);
	kf_json_kstrs(j, "sources", r->sources, r->nsources);
	kf_json_kstr(j, "unverified", r->unverified);
	kf_json_kstr(j, "file", r->loc.file);
	kf_json_kint(j, "line", r->loc.line);
	kf_json_kint(j, "col", r->loc.col);
	kf_json_kstr(j, "profile", r->profile);
	kf_json_kstrs(j, "chain", r->chain, r->nchain);
	kf_json_key(j, "shadowed_by");
	if (r->shadowed_by) {
		kf_json_begin_object(j);
		kf_json_kstr(j, "file", r->shadowed_by->loc.file);
		kf_json_kint(j, "line", r->shadowed_by->loc.line);
		kf_json_end_object(j);
	} else {
		kf_json_null(j);
	}
	kf_json_end_object(j);
}

static void text_chain(kf_strbuf *sb, const prof_req *r)
{
	for (size_t k = 0; k < r->nchain; k++)
		kf_strbuf_addf(sb, "%s%s", k ? " > " : "", r->chain[k]);
}

/* show --json: docs/schema/profiles-show.schema.json */
static void show_json(kf_strbuf *sb, const prof_db *db, const prof_set *s, uint32_t kver,
		      const char *arch)
{
	char vb[16];
	kf_json j;
	kf_json_init(&j, sb, KF_JSON_SPACED);
	kf_json_begin_object(&j);
	kf_json_key(&j, "profiles");
	kf_json_begin_array(&j);
	for (size_t i = 0; i < s->nnames; i++) {
		long param;
		const prof_profile *p = prof_db_find(db, s->names[i], &param, NULL);
		kf_json_begin_object(&j);
		kf_json_kstr(&j, "name", s->names[i]);
		kf_json_kstr(&j, "kind", prof_kind_name(p->kind));
		kf_json_kstr(&j, "title", p->title);
		kf_json_kstr(&j, "inherit", p->inherit);
		kf_json_kstrs(&j, "sources", p->sources, p->nsources);
		kf_json_end_object(&j);
	}
	kf_json_end_array(&j);
	kf_json_kstr(&j, "kernel", kver ? kf_kver_format(kver, vb) : NULL);
	kf_json_kstr(&j, "arch", arch);
	kf_json_kstr(&j, "init", s->init);
	kf_json_kstr(&j, "lsm", s->lsm);
	kf_json_kstr(&j, "firewall", s->firewall);
	kf_json_kstr(&j, "initramfs", s->initramfs == PROF_INITRAMFS_YES ? "yes"
				      : s->initramfs == PROF_INITRAMFS_NO ? "no" : "unknown");
	kf_json_key(&j, "ships_kernel");
	kf_json_begin_object(&j);
	kf_json_kstr(&j, "min", s->kmin ? kf_kver_format(s->kmin, vb) : NULL);
	kf_json_kstr(&j, "below", s->kmax ? kf_kver_format(s->kmax, vb) : NULL);
	kf_json_key(&j, "absent");
	kf_json_begin_array(&j);
	for (size_t i = 0; i < s->nabsent; i++)
		profcli_json_absent(&j, &s->absent[i]);
	kf_json_end_array(&j);
	kf_json_end_object(&j);
	kf_json_key(&j, "requirements");
	kf_json_begin_array(&j);
	for (size_t i = 0; i < s->n; i++) {
		const prof_req *r = s->reqs[i];
		if (kver && !prof_req_applies(r, kver, arch))
			continue;
		kf_json_line(&j, "  ");
		json_req(&j, db, s, r, kver);
	}
	kf_json_raw(&j, "\n");
	kf_json_end_array(&j);
	kf_json_end_object(&j);
}

/* show: the profiles and what the set says besides requirements. */
static void show_head(kf_strbuf *sb, const prof_db *db, const prof_set *s, uint32_t kver,
		      const char *arch)
{
	char vb[16];
	for (size_t i = 0; i < s->nnames; i++) {
		long param;
		const prof_profile *p = prof_db_find(db, s->names[i], &param, NULL);
		kf_strbuf_addf(sb, "%s: %s (%s)\n", s->names[i], p->title ? p->title : "",
			       prof_kind_name(p->kind));
		if (p->inherit)
			kf_strbuf_addf(sb, "  inherits: %s\n", p->inherit);
		for (size_t k = 0; k < p->nsources; k++)
			kf_strbuf_addf(sb, "  source: %s\n", p->sources[k]);
	}
	if (s->init || s->lsm || s->firewall)
		kf_strbuf_addf(sb, "  init: %s, lsm: %s, firewall: %s\n", s->init ? s->init : "-",
			       s->lsm ? s->lsm : "-", s->firewall ? s->firewall : "-");
	if (s->initramfs != PROF_INITRAMFS_UNKNOWN)
		kf_strbuf_addf(sb, "  initramfs: %s\n", s->initramfs == PROF_INITRAMFS_YES ? "yes" : "no");
	if (s->kmin || s->kmax) {
		kf_strbuf_addstr(sb, "  ships kernel:");
		if (s->kmin)
			kf_strbuf_addf(sb, " >=%s", kf_kver_format(s->kmin, vb));
		if (s->kmax)
			kf_strbuf_addf(sb, " <%s", kf_kver_format(s->kmax, vb));
		kf_strbuf_addch(sb, '\n');
	}
	for (size_t i = 0; i < s->nabsent; i++) {
		const prof_absent *ab = &s->absent[i];
		kf_strbuf rsn = KF_STRBUF_INIT;
		prof_reason_oneline(ab->reason, &rsn);
		kf_strbuf_addf(sb, "  not in its kernel: %s (%s:%d, %s)\n    reason: %s\n", ab->sym,
			       ab->loc.file, ab->loc.line, ab->profile,
			       kf_strbuf_str(&rsn));
		kf_strbuf_release(&rsn);
		for (size_t k = 0; k < ab->nsources; k++)
			kf_strbuf_addf(sb, "    source: %s\n", ab->sources[k]);
	}
	if (kver)
		kf_strbuf_addf(sb, "  for kernel %s%s%s\n", kf_kver_format(kver, vb),
			       arch ? " on " : "", arch ? arch : "");
}

/* show: one requirement with its reason, sources and origin. */
static void show_req(kf_strbuf *sb, const prof_db *db, const prof_set *s, const prof_req *r,
		     uint32_t kver)
{
	char vb[16];
	kf_strbuf_addf(sb, "\n%s%s %s", r->override ? "override " : "", prof_level_name(r->level),
		       prof_req_expr(s->arena, r));
	if (r->boot)
		kf_strbuf_addstr(sb, " boot");
	if (r->literal)
		kf_strbuf_addstr(sb, " literal");
	const char *ct = prof_cond_text(s->arena, &r->cond);
	if (*ct)
		kf_strbuf_addf(sb, " %s", ct);
	kf_strbuf_addch(sb, '\n');
	if (kver) {
		for (size_t k = 0; k < r->nalts; k++) {
			const char *n = prof_alt_sym(db, &r->alts[k], kver);
			if (strcmp(n, r->alts[k].sym))
				kf_strbuf_addf(sb, "  renamed: %s is %s in %s\n", r->alts[k].sym, n,
					       kf_kver_format(kver, vb));
		}
	}
	if (r->boot)
		kf_strbuf_addf(sb, "  boot-critical: wanted %s (initramfs: %s)\n",
			       prof_alt_wanted(s->arena, &r->alts[0], true, s->initramfs),
			       s->initramfs == PROF_INITRAMFS_NO ? "no" : "yes");
	for (const char *p = r->reason ? r->reason : "", *nl; *p; p = nl + !!*nl) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		kf_strbuf_addf(sb, "  reason: %.*s\n", (int)(nl - p), p);
	}
	for (size_t k = 0; k < r->nsources; k++)
		kf_strbuf_addf(sb, "  source: %s\n", r->sources[k]);
	if (r->unverified)
		kf_strbuf_addf(sb, "  unverified: %s\n", r->unverified);
	kf_strbuf_addf(sb, "  from: %s:%d (", r->loc.file, r->loc.line);
	text_chain(sb, r);
	kf_strbuf_addstr(sb, ")\n");
	if (r->shadowed_by)
		kf_strbuf_addf(sb, "  not applied: contradicted by the requirement at %s:%d\n",
			       r->shadowed_by->loc.file, r->shadowed_by->loc.line);
}

static int show_profiles(prof_db *db, profcli_opts *po, uint32_t kver, const char *arch, bool json)
{
	kf_diags d = KF_DIAGS_INIT;
	prof_set *s = prof_flatten(db, po->names, po->nnames, &d);
	cli_print_diags(&d);
	kf_diags_release(&d);
	if (!s)
		return KF_EXIT_BAD;
	kf_strbuf sb = KF_STRBUF_INIT;
	size_t nreq = 0, nrec = 0;
	if (json) {
		show_json(&sb, db, s, kver, arch);
		kf_strbuf_addch(&sb, '\n');
	} else {
		show_head(&sb, db, s, kver, arch);
		for (size_t i = 0; i < s->n; i++) {
			const prof_req *r = s->reqs[i];
			if (kver && !prof_req_applies(r, kver, arch))
				continue;
			if (r->level == PROF_REQUIRE)
				nreq++;
			else
				nrec++;
			show_req(&sb, db, s, r, kver);
		}
		kf_strbuf_addf(&sb, "\n%zu requirements, %zu recommendations\n", nreq, nrec);
	}
	cli_put_text(kf_strbuf_str(&sb), stdout); /* titles, reasons: data */
	kf_strbuf_release(&sb);
	prof_set_free(s);
	return KF_EXIT_OK;
}

/* The checks of the options that need all of them; -1 after an error. */
static int profiles_check_args(const profiles_args *a, uint32_t *kver)
{
	if (a->kver && kf_kver_parse(a->kver, kver) < 0) {
		cli_error("invalid kernel version '%s' (expected X.Y.Z)", a->kver);
		return -1;
	}
	bool show = !strcmp(a->sub, "show");
	if (show && !a->po.nnames) {
		cli_error("profiles show needs a profile name");
		return -1;
	}
	if (!show && a->po.nnames) {
		cli_error("-p is for 'profiles show' and 'check'");
		return -1;
	}
	if (show && a->trees.n > 1) {
		cli_error("profiles show takes one tree");
		return -1;
	}
	return 0;
}

int cmd_profiles(int argc, char **argv)
{
	profiles_args a = {.sub = "list"};
	int i = 1;
	if (i < argc && argv[i][0] != '-') {
		a.sub = argv[i];
		i++;
	}
	if (strcmp(a.sub, "list") && strcmp(a.sub, "show") && strcmp(a.sub, "lint")) {
		cli_error("unknown profiles command '%s' (expected show or lint)", a.sub);
		cli_spec_usage_short(&cmd_profiles_spec);
		return KF_EXIT_BAD;
	}
	uint32_t kver = 0;
	int rc = KF_EXIT_BAD;
	if (cli_parse(&cmd_profiles_spec, &a, argc - i + 1, argv + i - 1) < 0 ||
	    profiles_check_args(&a, &kver) < 0)
		goto out;
	prof_db *db = profcli_load(&a.po);
	if (!db)
		goto out;
	if (!strcmp(a.sub, "list")) {
		rc = list_profiles(db, a.json);
	} else if (!strcmp(a.sub, "show")) {
		if (a.trees.n && !kver) {
			uint32_t tv = 0;
			if (profiles_tree_kver(a.trees.v[0], &tv) < 0) {
				prof_db_free(db);
				goto out;
			}
			kver = tv;
		}
		rc = show_profiles(db, &a.po, kver, a.arch, a.json);
	} else {
		rc = profiles_lint_trees(db, a.trees.v, a.trees.n, a.arch);
	}
	prof_db_free(db);
out:
	free(a.trees.v);
	profcli_release(&a.po);
	return rc;
}

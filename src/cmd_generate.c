/*
 * cmd_generate.c - `kfit generate`: start from a base configuration, make
 * the requirements of the named profiles hold (resolver), and write the
 * .config; `kfit why SYMBOL` explains one symbol of a configuration.
 */
#include "cli.h"
#include "options.h"
#include "profcli.h"
#include "kfit/detect.h"
#include "kfit/build.h"
#include "kfit/lastconfig.h"
#include "kfit/explain.h"
#include "kfit/json.h"
#include "kfit/pipeline.h"
#include "kfit/kconfig.h"
#include "kfit/solve.h"
#include "kfit/tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What `kfit generate` is given. */
typedef struct generate_args {
	const char *tree;      /* -k */
	const char *arch;      /* -a, or NULL: this machine's */
	const char *base;      /* --base */
	const char *out;       /* -o */
	const char *initramfs; /* --initramfs yes|no */
	const char *root;      /* --root */
	int explain;           /* EXPLAIN_* */
	bool json;             /* --json */
	bool verify;           /* --verify */
	bool force;            /* --force */
	bool check_minimal;    /* --check-minimal */
	bool detect;           /* --detect */
	profcli_opts po;       /* -p, --local (both applied), --profiles */
} generate_args;

enum { EXPLAIN_NONE, EXPLAIN_FULL, EXPLAIN_REQUIREMENTS };

static int explain_mode(void *target, const char *value);
static int generate_word(void *args, const char *word);

static const cli_opt generate_opts[] = {
	CLI_OPT_KERNEL("-k", "TREE", generate_args, tree,
		       "kernel tree or linux-source tarball (default as for\n"
		       "`kfit kconfig`)"),
	CLI_OPT_ARCH("-a", generate_args, arch,
		     "architecture (default: this machine's, x86_64 on a\n"
		     "64-bit x86 host); for another, the Kconfig's compiler\n"
		     "tests run $CROSS_COMPILE, else Debian's gcc-TRIPLET\n"
		     "when installed, as 'kfit build' cross-compiles"),
	CLI_OPT_PROFILE("-p", "NAME", generate_args, po,
			"a profile (repeatable): debian-12, kvm-guest, docker...\n"
			"or a file given as a path (DIR/FILE.kfit, ./FILE.kfit)\n"
			"whose profiles are all used"),
	CLI_OPT_STR("--base", NULL, "BASE", generate_args, base,
		    "allnoconfig, tinyconfig, defconfig or a .config file\n"
		    "(default: allnoconfig with a platform profile, else\n"
		    "defconfig); settings of a distro config that name\n"
		    "files of the distro's build (trusted keys...) are reset"),
	/* a local profile: its profiles are applied */
	CLI_OPT_FN("--local", NULL, "FILE", generate_args, po, cli_add_local_applied,
		   "a local profile (overrides, drops); repeatable"),
	CLI_OPT_INITRAMFS(generate_args, initramfs,
			  "whether the kernel boots with an initramfs; `no` makes\n"
			  "boot-critical drivers built in (default: the distro's)"),
	CLI_OPT_STR("-o", "--output", "FILE", generate_args, out,
		    "where to write (default: TREE/.config)"),
	{CLI_OPT_CALL, "--explain", NULL, NULL, offsetof(generate_args, explain), explain_mode, 0,
	 true, false,
	 "print each requirement that changed something, its\n"
	 "reasons and every change it made or pulled in"},
	CLI_OPT_HELP_LINE("--explain=requirements", "only the requirement lines, with their counts"),
	CLI_OPT_JSON(generate_args, json,
		     "print the result as JSON (docs/schema/generate.schema.json)"),
	CLI_OPT_FLAG("--verify", generate_args, verify,
		     "check the result with the tree's own make olddefconfig"),
	CLI_OPT_FLAG("--force", generate_args, force,
		     "write the best partial result even when requirements\n"
		     "cannot be met (still exits 1); with --detect and\n"
		     "--initramfs no, generate although the root is on\n"
		     "LUKS, LVM or md (a warning instead of an error)"),
	CLI_OPT_PROFILES(generate_args, po, "the profile database (default: the installed one)"),
	CLI_OPT_FLAG("--detect", generate_args, detect,
		     "detect this machine (distro, init, platform, features\n"
		     "and every device) and add its profiles and hardware\n"
		     "requirements; writes into a build directory in the\n"
		     "cache unless -o is given, and prints the build command"),
	CLI_OPT_ROOT(generate_args, root, "with --detect: a saved snapshot of another machine"),
	CLI_OPT_FLAG("--check-minimal", generate_args, check_minimal,
		     "check that no change can be put back without breaking\n"
		     "a requirement (exit 1 when one can)"),
	CLI_OPT_TABLE_END,
};

const cli_spec cmd_generate_spec = {
	.cmd = "generate",
	.head = "usage: kfit generate [-k TREE] [-a ARCH] -p NAME... [--base BASE]\n"
		"                     [--local FILE...] [--initramfs yes|no] [-o FILE]\n"
		"                     [--explain] [--json] [--verify] [--force]\n"
		"                     [--profiles DIR] [--detect [--root DIR]] [--check-minimal]\n"
		"\n"
		"Make a kernel configuration in which every requirement of the named\n"
		"profiles holds: dependencies are enabled, conflicting options turned off,\n"
		"alternatives chosen to change least, and nothing changed that no\n"
		"requirement needs.\n"
		"\n"
		"options:\n",
	.opts = generate_opts,
	.col = 21,
	.tail = "\n"
		"exit status: 0 every requirement holds, 1 some cannot be met (the chain\n"
		"that blocks each is printed), 2 bad usage or input\n",
	.positional = generate_word,
};

/* --explain, --explain=all, --explain=requirements */
static int explain_mode(void *target, const char *value)
{
	int *mode = target;
	if (!value || !strcmp(value, "all"))
		*mode = EXPLAIN_FULL;
	else if (!strcmp(value, "requirements"))
		*mode = EXPLAIN_REQUIREMENTS;
	else {
		cli_error("generate: --explain= takes all or requirements, not '%s'", value);
		cli_spec_usage_short(&cmd_generate_spec);
		return -1;
	}
	return 0;
}

static int generate_word(void *args, const char *word)
{
	cli_error("generate: unexpected argument '%s' (a profile is given as -p %s)", word, word);
	cli_spec_usage_short(&cmd_generate_spec);
	return -1;
}

static void print_json(const kf_gen_result *r, const char *out, bool written,
		       const char *base, const prof_set *set)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_json j;
	kf_json_init(&j, &sb, KF_JSON_COMPACT);
	kf_json_begin_object(&j);
	kf_json_kstr(&j, "config", out);
	kf_json_kbool(&j, "written", written);
	kf_json_kstr(&j, "base", base);
	kf_json_kstrs(&j, "profiles", set->names, set->nnames);
	kf_json_kuint(&j, "requirements_met", r->applied);
	kf_json_kuint(&j, "not_applicable", r->notapplicable);
	kf_json_key(&j, "changes");
	kf_json_begin_array(&j);
	for (size_t i = 0; i < r->nchanges; i++) {
		const kf_change *c = &r->changes[i];
		kf_json_begin_object(&j);
		kf_json_kstr(&j, "symbol", c->sym);
		kf_json_kstr(&j, "from", c->from);
		kf_json_kstr(&j, "to", c->to);
		kf_json_kstr(&j, "group", c->group);
		kf_json_kstr(&j, "why", c->why);
		if (c->req) {
			kf_json_key(&j, "requirement");
			kf_json_begin_object(&j);
			kf_json_kstr(&j, "profile", c->req->profile);
			kf_json_kstr(&j, "file", c->req->loc.file);
			kf_json_kint(&j, "line", c->req->loc.line);
			kf_strbuf rsn = KF_STRBUF_INIT;
			prof_reason_oneline(c->req->reason, &rsn);
			kf_json_kstr(&j, "reason", kf_strbuf_str(&rsn));
			kf_strbuf_release(&rsn);
			kf_json_end_object(&j);
		}
		if (c->path)
			kf_json_kstr(&j, "path", c->path);
		kf_json_end_object(&j);
	}
	kf_json_end_array(&j);
	kf_json_key(&j, "unmet");
	kf_json_begin_array(&j);
	for (size_t i = 0; i < r->nunmet; i++) {
		const prof_req *q = r->unmet[i].req;
		kf_json_begin_object(&j);
		kf_json_kstr(&j, "requirement", prof_req_expr(set->arena, q));
		kf_json_kstr(&j, "profile", q->profile);
		kf_json_kstr(&j, "file", q->loc.file);
		kf_json_kint(&j, "line", q->loc.line);
		kf_strbuf rsn = KF_STRBUF_INIT;
		prof_reason_oneline(q->reason, &rsn);
		kf_json_kstr(&j, "reason", kf_strbuf_str(&rsn));
		kf_strbuf_release(&rsn);
		kf_json_kstr(&j, "blocked_by", r->unmet[i].chain);
		kf_json_end_object(&j);
	}
	kf_json_end_array(&j);
	kf_json_key(&j, "recommendations_skipped");
	kf_json_begin_array(&j);
	for (size_t i = 0; i < r->nskipped; i++) {
		const prof_req *q = r->skipped[i].req;
		kf_json_begin_object(&j);
		kf_json_kstr(&j, "requirement", prof_req_expr(set->arena, q));
		kf_json_kstr(&j, "file", q->loc.file);
		kf_json_kint(&j, "line", q->loc.line);
		kf_json_kstr(&j, "why", r->skipped[i].why);
		kf_json_end_object(&j);
	}
	kf_json_end_array(&j);
	kf_json_end_object(&j);
	kf_strbuf_addch(&sb, '\n');
	fputs(sb.buf, stdout);
	kf_strbuf_release(&sb);
}

static const char *const groups[] = {"distro",   "init",	 "platform", "feature",
				     "hardware", "base",	 "local",    "dependencies",
				     NULL};

/* Where a requirement comes from, for people: the profile file relative
 * to the database, or the driver's Makefile line detection found. */
static void req_where(const prof_db *db, const prof_req *q, kf_strbuf *sb)
{
	if (!q->loc.file || (!strcmp(q->loc.file, "detect") && q->loc.line <= 0)) {
		kf_strbuf_addstr(sb, "detected");
		return;
	}
	kf_strbuf_addstr(sb, prof_db_relpath(db, q->loc.file));
	if (q->loc.line > 0)
		kf_strbuf_addf(sb, ":%d", q->loc.line);
}

/* The change group of a requirement: the group its own changes carry. */
static const char *req_group(const kf_gen_result *r, const prof_req *q)
{
	for (size_t i = 0; i < r->nchanges; i++)
		if (r->changes[i].req == q && strcmp(r->changes[i].group, "dependencies"))
			return r->changes[i].group;
	return "dependencies";
}

/* --explain: each requirement that changed something, with its reasons
 * wrapped to the terminal, then every change it made or pulled in
 * (indented), in the order of the summary's groups; changes nothing
 * traces to a requirement come last.  EXPLAIN_REQUIREMENTS prints the
 * requirement lines only. */
static void print_explain(const kf_gen_result *r, kc_tree *t, const prof_db *db, int mode)
{
	size_t n = r->nchanges;
	const prof_req **owner = kf_xcalloc(n ? n : 1, sizeof(*owner));
	kf_explain_owners(t, r, owner);
	bool *done = kf_xcalloc(n ? n : 1, sizeof(bool));
	int width = cli_text_width(stdout);
	kf_strbuf sb = KF_STRBUF_INIT;
	for (int g = 0; groups[g]; g++) {
		for (size_t i = 0; i < n; i++) {
			const prof_req *q = owner[i];
			if (done[i] || !q || strcmp(req_group(r, q), groups[g]))
				continue;
			size_t cnt = 0;
			for (size_t k = i; k < n; k++)
				cnt += owner[k] == q;
			kf_strbuf_reset(&sb);
			kf_strbuf_addf(&sb, "%s%s %s %s%s  (", cli_sgr(stdout, CLI_BOLD),
				       q->profile ? q->profile : "?",
				       q->level == PROF_REQUIRE ? "requires" : "recommends",
				       prof_req_expr(r->arena, q), cli_sgr(stdout, CLI_RESET));
			req_where(db, q, &sb);
			kf_strbuf_addf(&sb, "; %zu change%s)\n", cnt, cnt == 1 ? "" : "s");
			fputs(sb.buf, stdout);
			if (mode == EXPLAIN_FULL) {
				kf_strbuf_reset(&sb);
				cli_wrap(&sb, q->reason ? q->reason : "", 4, 4, width);
				fputs(sb.buf, stdout);
			}
			for (size_t k = i; k < n; k++) {
				if (owner[k] != q)
					continue;
				done[k] = true;
				if (mode != EXPLAIN_FULL)
					continue;
				const kf_change *c = &r->changes[k];
				kf_strbuf_reset(&sb);
				kf_strbuf_addf(&sb, "CONFIG_%s: %s -> %s", c->sym, c->from, c->to);
				/* how it followed: from another change, along a
				 * dependency path, or (its own symbol, which no
				 * answer set) through a select or a default */
				if (c->req != q || !c->path || strchr(c->path, ' ')) {
					kf_strbuf_addstr(&sb, " (");
					if (c->req == q && c->path)
						kf_strbuf_addstr(&sb, c->path);
					else
						kf_why_line(t, kc_sym_find(t, c->sym), &sb);
					kf_strbuf_addch(&sb, ')');
				}
				char *line = kf_strbuf_detach(&sb);
				cli_wrap(&sb, line, 2, 6, width);
				free(line);
				fputs(sb.buf, stdout);
			}
		}
	}
	size_t rest = 0;
	for (size_t i = 0; i < n; i++)
		rest += !done[i];
	if (rest) {
		printf("%sother changes%s  (%zu: what the kernel's own rules changed with them)\n",
		       cli_sgr(stdout, CLI_BOLD), cli_sgr(stdout, CLI_RESET), rest);
		for (size_t i = 0; mode == EXPLAIN_FULL && i < n; i++) {
			if (done[i])
				continue;
			const kf_change *c = &r->changes[i];
			char *line = kf_xasprintf("CONFIG_%s: %s -> %s (%s)", c->sym, c->from, c->to, c->why);
			kf_strbuf_reset(&sb);
			cli_wrap(&sb, line, 2, 6, width);
			free(line);
			fputs(sb.buf, stdout);
		}
	}
	kf_strbuf_release(&sb);
	free(done);
	free(owner);
}

static void print_summary(const kf_gen_result *r, kc_tree *t, const prof_db *db, int explain)
{
	size_t y = 0, m = 0, off = 0;
	for (size_t i = 0; i < r->nchanges; i++) {
		const char *to = r->changes[i].to;
		if (!strcmp(to, "y"))
			y++;
		else if (!strcmp(to, "m"))
			m++;
		else if (!strcmp(to, "n") || !strcmp(to, "absent"))
			off++;
	}
	size_t vals = r->nchanges - y - m - off;
	fprintf(stderr, "kfit: %s%zu options changed from the base (%zu =y, %zu =m, %zu off, %zu value%s); %zu requirements hold, %zu do not apply here%s\n",
		cli_sgr(stderr, CLI_BOLD), r->nchanges, y, m, off, vals, vals == 1 ? "" : "s",
		r->applied, r->notapplicable, cli_sgr(stderr, CLI_RESET));
	for (int g = 0; groups[g]; g++) {
		size_t n = 0;
		for (size_t i = 0; i < r->nchanges; i++)
			if (!strcmp(r->changes[i].group, groups[g]))
				n++;
		if (n)
			fprintf(stderr, "  %-13s %zu\n", groups[g], n);
	}
	if (explain != EXPLAIN_NONE)
		print_explain(r, t, db, explain);
	for (size_t i = 0; i < r->nskipped; i++) {
		const prof_req *q = r->skipped[i].req;
		if (q->soft)
			fprintf(stderr, "%s:%d: note: driver left out (no driver was bound to the device on the machine): %s: %s\n",
				q->loc.file ? q->loc.file : "?", q->loc.line, q->reason, r->skipped[i].why);
		else
			fprintf(stderr, "%s:%d: note: recommendation not applied: %s\n",
				q->loc.file ? q->loc.file : "?", q->loc.line, r->skipped[i].why);
	}
	for (size_t i = 0; i < r->nunmet; i++) {
		const prof_req *q = r->unmet[i].req;
		fprintf(stderr, "%s:%d: %serror:%s cannot meet %s (%s): %s\n",
			q->loc.file ? q->loc.file : "?", q->loc.line,
			cli_sgr(stderr, CLI_RED CLI_BOLD), cli_sgr(stderr, CLI_RESET),
			q->nalts ? q->alts[0].sym : "?", q->profile ? q->profile : "",
			r->unmet[i].chain);
	}
}

/* Which firmware policy each driver that may request firmware got
 * (docs/generate.md, "Modules, firmware and the initramfs"). */
static void print_firmware(const kf_pipeline *p)
{
	if (p->fw_modules)
		fprintf(stderr, "kfit: firmware: built as modules, their firmware loaded from "
				"/lib/firmware once udev loads them: %s\n", p->fw_modules);
	if (p->fw_embedded)
		fprintf(stderr, "kfit: firmware: built in, their files found on the machine in "
				"EXTRA_FIRMWARE: %s\n", p->fw_embedded);
	if (p->fw_initramfs)
		fprintf(stderr, "kfit: firmware: boot-critical, the initramfs carries their files: "
				"%s\n", p->fw_initramfs);
	if (p->fw_missing)
		fprintf(stderr, "kfit: firmware: boot-critical and built in without an initramfs, "
				"none of their files found: %s\n", p->fw_missing);
}

/* The end of generate --detect's report: the devices no table of the
 * tree maps (kf_detect_unmapped), alike ones on one line with a count,
 * the first few by name. */
static void print_unmapped(const kf_detect *det)
{
	enum { SHOWN = 10 };
	size_t n = det ? kf_detect_unmapped(det, NULL, 0) : 0;
	if (!n)
		return;
	const kf_device **v = kf_xcalloc(n, sizeof(*v));
	kf_detect_unmapped(det, v, n);
	size_t *count = kf_xcalloc(n, sizeof(*count)), ng = 0;
	for (size_t i = 0; i < n; i++) {
		size_t g = 0;
		for (; g < ng; g++)
			if (!strcmp(v[g]->desc, v[i]->desc) && v[g]->map == v[i]->map &&
			    !strcmp(v[g]->bound ? v[g]->bound : "", v[i]->bound ? v[i]->bound : ""))
				break;
		if (g == ng)
			v[ng++] = v[i];
		count[g]++;
	}
	fprintf(stderr, "kfit: %zu device%s not mapped by a driver table of this tree:\n", n,
		n == 1 ? "" : "s");
	for (size_t g = 0; g < ng && g < SHOWN; g++) {
		const kf_device *dv = v[g];
		fprintf(stderr, "  %s%s%s%s", dv->desc, dv->name ? " [" : "", dv->name ? dv->name : "",
			dv->name ? "]" : "");
		if (count[g] > 1)
			fprintf(stderr, " (%zu alike)", count[g]);
		if (dv->map == KF_MAP_MISSING)
			fprintf(stderr, ": the machine ran %s for it, a driver this tree lacks (out of "
					"tree, renamed, or newer)\n", dv->bound);
		else if (dv->map == KF_MAP_FALLBACK)
			fprintf(stderr, ": mapped by a fallback rule, the name of its bound driver %s (no "
					"table entry matches it)\n", dv->bound);
		else
			fprintf(stderr, ": nothing in this tree supports it (%s; no driver was bound)\n",
				dv->modalias);
	}
	if (ng > SHOWN)
		fprintf(stderr, "  and %zu more kinds (kfit detect lists every device)\n",
			ng - SHOWN);
	free(count);
	free(v);
}

/* "kfit: next: kfit build ...": the command that builds exactly the
 * file written, as the user would type it here, quoted for pasting. */
static void print_next(const char *tree, const char *arch, const char *out)
{
	const char *cmd[9] = {"kfit", "build"}, **a = cmd + 2;
	if (tree)
		*a++ = "-k", *a++ = tree;
	if (arch)
		*a++ = "-a", *a++ = arch;
	if (out)
		*a++ = "-c", *a++ = out;
	kf_strbuf sb = KF_STRBUF_INIT;
	cli_shell_words(&sb, cmd);
	fprintf(stderr, "kfit: next: %s   (or --dry-run to see its commands)\n", kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
}

/* Where the configuration went, and the command that builds exactly
 * this file, as the user would type it here. */
static void print_written(const generate_args *a, const char *dest)
{
	fprintf(stderr, "kfit: configuration written to %s\n", dest);
	struct stat st;
	if (stat(dest, &st) == 0 && S_ISREG(st.st_mode))
		print_next(a->tree, a->arch, a->out);
}

/* --check-minimal and --verify after the write: rc, or KF_EXIT_UNMET. */
static int generate_checks(const generate_args *a, kf_pipeline *p, bool write, int rc,
			   kf_diags *d)
{
	if (a->check_minimal) {
		for (size_t i = 0; i < p->res.nnot_minimal; i++)
			fprintf(stderr, "kfit: error: not minimal: CONFIG_%s can go back to the base value and every requirement still holds\n",
				p->res.not_minimal[i]);
		if (p->res.nnot_minimal)
			rc = KF_EXIT_UNMET;
		else
			fprintf(stderr, "kfit: minimal: no change can go back to the base value\n");
	}
	if (write && a->verify) {
		int v = kf_pipeline_verify(p, d);
		if (v == 0)
			fprintf(stderr, "kfit: verified: the kernel's make olddefconfig changes nothing\n");
		else {
			fprintf(stderr, "kfit: error: %s\n",
				v > 0 ? "the kernel's make olddefconfig changes the result"
				      : "could not run the kernel's make olddefconfig");
			rc = KF_EXIT_UNMET;
		}
	}
	return rc;
}

/* The stages up to solve: its result (0, or 1 when some requirement
 * cannot be met), -1 on an error (in d). */
static int generate_solve(const generate_args *a, kf_pipeline *p, kf_diags *d)
{
	if (kf_pipeline_tree(p, d) < 0)
		return -1;
	if (a->detect) {
		if (kf_pipeline_detect(p, d) < 0)
			return -1;
		for (size_t i = 0; i < p->ndetected; i++)
			cli_print_detected(p->detected[i].name, p->detected[i].reason);
	}
	if (kf_pipeline_requirements(p, d) < 0 || kf_pipeline_load(p, d) < 0 ||
	    kf_pipeline_base(p, d) < 0)
		return -1;
	return kf_pipeline_solve(p, d);
}

/* For another architecture than this machine's, the Kconfig's compiler
 * tests ($(cc-option), CC_VERSION_TEXT, CC_HAS_*) should run the compiler
 * the kernel will be built with, as kfit build cross-compiles: with no
 * CROSS_COMPILE (nor LLVM) given, Debian's cross gcc when it is installed
 * (said), else this machine's, with a note (as make ARCH=... would). */
static void generate_cross(const char *arch)
{
	char *cross = cli_cross_compile(arch);
	if (!cross)
		return;
	char *gcc = kf_xasprintf("%sgcc", cross);
	if (kf_have_program(gcc)) {
		setenv("CROSS_COMPILE", cross, 1);
		fprintf(stderr,
			"kfit: ARCH=%s on %s: the Kconfig's compiler tests run %s "
			"(CROSS_COMPILE=%s, as kfit build compiles)\n",
			arch, cli_machine_arch(), gcc, cross);
	} else
		fprintf(stderr,
			"kfit: note: ARCH=%s on %s and no %s (package gcc-%.*s): the Kconfig's "
			"compiler tests run this machine's compiler; set CROSS_COMPILE, or install "
			"it before generating (kfit build needs it)\n",
			arch, cli_machine_arch(), gcc, (int)strlen(cross) - 1, cross);
	free(gcc);
	free(cross);
}

static int generate_run(const generate_args *a, prof_db *db, int initramfs)
{
	int rc = KF_EXIT_BAD;
	kf_diags d = KF_DIAGS_INIT;
	generate_cross(a->arch ? a->arch : cli_machine_arch());
	kf_pipeline_opts plo = {
		.tree = a->tree,
		.arch = a->arch ? a->arch : cli_machine_arch(),
		.progress = cli_progress,
		.db = db,
		.names = a->po.names,
		.nnames = a->po.nnames,
		.root = a->root,
		.initramfs = initramfs,
		.base = a->base,
		.output = a->out,
		.check_minimal = a->check_minimal,
		.force = a->force,
		/* KFIT_LOAD_AHEAD=0: every stage in turn on this thread (the
		 * same output; tests/compat/generate-threads.sh compares) */
		.serial = getenv("KFIT_LOAD_AHEAD") && !strcmp(getenv("KFIT_LOAD_AHEAD"), "0"),
	};
	kf_pipeline p;
	kf_pipeline_init(&p, &plo);
	int g = generate_solve(a, &p, &d);
	if (g < 0)
		goto fail;
	bool write = g == 0 || a->force;
	cli_print_diags(&d);
	kf_diags_release(&d);
	if (write && kf_pipeline_write(&p, &d) < 0) {
		cli_print_diags(&d);
		rc = KF_EXIT_BAD;
		goto done;
	}
	if (a->json)
		print_json(&p.res, p.dest, write, p.base, p.set);
	else {
		print_summary(&p.res, p.t, db, a->explain);
		print_firmware(&p);
	}
	if (write && !a->json)
		print_written(a, p.dest);
	else if (!write)
		fprintf(stderr, "kfit: nothing written (use --force to write the partial result)\n");
	if (!a->json)
		print_unmapped(p.det);
	rc = generate_checks(a, &p, write, g ? KF_EXIT_UNMET : KF_EXIT_OK, &d);
	goto done;
fail:
	cli_print_diags(&d);
	kf_diags_release(&d);
	rc = KF_EXIT_BAD;
done:
	kf_pipeline_release(&p);
	kf_diags_release(&d); /* what kc_config_write added (its note) */
	return rc;
}

int cmd_generate(int argc, char **argv)
{
	generate_args a = {.explain = EXPLAIN_NONE};
	int rc = KF_EXIT_BAD, initramfs;
	if (cli_parse(&cmd_generate_spec, &a, argc, argv) < 0)
		goto out;
	if (!a.po.nnames && !a.detect) {
		cli_error("generate: no profile given (-p NAME or --detect; `kfit profiles` lists them)");
		cli_spec_usage_short(&cmd_generate_spec);
		goto out;
	}
	if (cli_initramfs(a.initramfs, "generate: ", &initramfs) < 0) {
		cli_spec_usage_short(&cmd_generate_spec);
		goto out;
	}
	a.po.root = a.root;
	prof_db *db = profcli_load(&a.po);
	if (db)
		rc = generate_run(&a, db, initramfs);
	prof_db_free(db);
out:
	profcli_release(&a.po);
	return rc;
}

/* What `kfit why` is given. */
typedef struct why_args {
	const char *sym;    /* SYMBOL */
	const char *tree;   /* -k */
	const char *arch;   /* -a */
	const char *config; /* -c */
	bool json;          /* --json */
	profcli_opts po;    /* -p, --local, --profiles */
} why_args;

static int why_word(void *args, const char *word);

static const cli_opt why_opts[] = {
	CLI_OPT_KERNEL("-k", "TREE", why_args, tree, "kernel tree (default as for `kfit kconfig`)"),
	CLI_OPT_ARCH("-a", why_args, arch, "architecture (default: this machine's)"),
	CLI_OPT_STR("-c", "--config", "CONFIG", why_args, config,
		    "the configuration (default: TREE/.config)"),
	CLI_OPT_PROFILE("-p", "NAME", why_args, po,
			"a profile (or ./FILE.kfit) whose requirements to weigh"),
	CLI_OPT_LOCAL(why_args, po, "a local profile file (as for `kfit generate`)"),
	CLI_OPT_JSON(why_args, json,
		     "one JSON object: value, menu, the short reason and the\n"
		     "whole explanation (docs/schema/why.schema.json)"),
	CLI_OPT_PROFILES(why_args, po, NULL),
	CLI_OPT_TABLE_END,
};

const cli_spec cmd_why_spec = {
	.cmd = "why",
	.head = "usage: kfit why SYMBOL [-k TREE] [-a ARCH] [-c CONFIG] [-p NAME...]\n"
		"                [--local FILE...] [--json]\n"
		"\n"
		"Explain one symbol of a configuration: its value, what set it (an answer\n"
		"in the .config, a select, an imply, a default) and what it would take to\n"
		"change it.  With profiles: the requirements that name it and whether\n"
		"they hold, the answers that would turn it off (on, when it is off), and\n"
		"the requirements that would break then (\"needed by\").\n"
		"\n"
		"options:\n",
	.opts = why_opts,
	.col = 16,
	.tail = "\n"
		"exit status: 0 explained, 2 bad usage, no such symbol or unreadable input\n",
	.positional = why_word,
};

static int why_word(void *args, const char *word)
{
	why_args *a = args;
	if (!a->sym) {
		a->sym = word;
		return 0;
	}
	cli_error("why: unexpected argument '%s'", word);
	cli_spec_usage_short(&cmd_why_spec);
	return -1;
}

/* kfit why --json: docs/schema/why.schema.json */
static void why_json(kc_tree *t, const char *sym, const char *cfg, const char *text)
{
	kf_strbuf sb = KF_STRBUF_INIT, w = KF_STRBUF_INIT;
	const char *menu = NULL;
	bool have = kf_why_short(t, sym, &w, &menu) == 0;
	kf_json j;
	kf_json_init(&j, &sb, KF_JSON_SPACED);
	kf_json_begin_object(&j);
	kf_json_kstr(&j, "symbol", sym);
	kf_json_kstr(&j, "config", cfg);
	kf_json_kstr(&j, "value", kf_sym_value(t, sym));
	kf_json_kstr(&j, "menu", have ? menu : NULL);
	kf_json_kstr(&j, "why", have ? kf_strbuf_str(&w) : NULL);
	kf_json_kstr(&j, "explanation", text);
	kf_json_end_object(&j);
	kf_strbuf_addch(&sb, '\n');
	fputs(kf_strbuf_str(&sb), stdout);
	kf_strbuf_release(&w);
	kf_strbuf_release(&sb);
}

int cmd_why(int argc, char **argv)
{
	why_args wa = {0};
	profcli_opts po;
	memset(&po, 0, sizeof(po));
	if (cli_parse(&cmd_why_spec, &wa, argc, argv) < 0) {
		profcli_release(&wa.po);
		return KF_EXIT_BAD;
	}
	if (!wa.sym) {
		cli_error("why: no SYMBOL given");
		cli_spec_usage_short(&cmd_why_spec);
		profcli_release(&wa.po);
		return KF_EXIT_BAD;
	}
	po = wa.po;
	const char *tree_arg = wa.tree, *arch = wa.arch, *config = wa.config, *sym = wa.sym;
	bool json = wa.json;
	prof_db *db = NULL;
	if (po.nnames || po.nlocals) {
		db = profcli_load(&po);
		if (!db) {
			profcli_release(&po);
			return KF_EXIT_BAD;
		}
	}
	if (!arch)
		arch = cli_machine_arch();
	if (!strncmp(sym, "CONFIG_", 7))
		sym += 7;
	kf_diags d = KF_DIAGS_INIT;
	int rc = KF_EXIT_BAD;
	kf_pipeline_opts plo = {.tree = tree_arg, .arch = arch, .progress = cli_progress,
				.db = db, .names = po.names, .nnames = po.nnames,
				.initramfs = PROF_INITRAMFS_UNKNOWN};
	kf_pipeline p;
	kf_pipeline_init(&p, &plo);
	char *cfg = NULL;
	if (kf_pipeline_tree(&p, &d) < 0 || kf_pipeline_load(&p, &d) < 0)
		goto out;
	if (db && kf_pipeline_requirements(&p, &d) < 0)
		goto out;
	/* the configuration: -c, what generate wrote last for this tree
	 * (as build uses it), TREE/.config */
	kf_config_want want = {.given = config, .last = true, .cache = p.cache, .tree = p.tree,
			       .arch = arch, .tree_config = p.tree};
	kf_config_choice cc;
	if (kf_config_choose(&want, &cc) == KF_CONFIG_LAST)
		fprintf(stderr, "kfit: explaining %s (what 'kfit generate' wrote last for this tree)\n",
			cc.path);
	cfg = cc.path;
	cc.path = NULL;
	kf_config_choice_release(&cc);
	if (kf_pipeline_read_config(&p, cfg, &d) < 0)
		goto out;
	kf_strbuf out = KF_STRBUF_INIT;
	if (kf_why(p.t, sym, &out) < 0) {
		kf_diag_add(&d, KF_ERROR, NULL, 0, 0, "this tree has no symbol %s", sym);
	} else {
		if (p.set) {
			kf_gen_opts go = {.tree = p.t, .db = db, .set = p.set, .arch = arch,
					  .initramfs = PROF_INITRAMFS_UNKNOWN};
			kf_why_profiles(&go, sym, &out);
		}
		if (json)
			why_json(p.t, sym, cfg, out.buf);
		else
			cli_put_text(out.buf, stdout); /* values are data */
		rc = KF_EXIT_OK;
	}
	kf_strbuf_release(&out);
out:
	for (size_t i = 0; i < d.n; i++)
		if (d.v[i].sev != KF_NOTE) {
			kf_strbuf sb = KF_STRBUF_INIT;
			if (!d.v[i].file && !d.v[i].raw)
				kf_strbuf_addstr(&sb, "kfit: ");
			kf_diag_format(&d.v[i], &sb);
			fprintf(stderr, "%s\n", sb.buf);
			kf_strbuf_release(&sb);
		}
	kf_diags_release(&d);
	kf_pipeline_release(&p);
	prof_db_free(db);
	profcli_release(&po);
	free(cfg);
	return rc;
}

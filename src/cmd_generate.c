/*
 * cmd_generate.c - `kfit generate`: start from a base configuration, make
 * the requirements of the named profiles hold (resolver), and write the
 * .config; `kfit why SYMBOL` explains one symbol of a configuration.
 */
#include "cli.h"
#include "profcli.h"
#include "kfit/detect.h"
#include "kfit/build.h"
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

const char cmd_generate_usage[] =
	"usage: kfit generate [-k TREE] [-a ARCH] -p NAME... [--base BASE]\n"
	"                     [--local FILE...] [--initramfs yes|no] [-o FILE]\n"
	"                     [--explain] [--json] [--verify] [--force]\n"
	"                     [--profiles DIR] [--detect [--root DIR]] [--check-minimal]\n"
	"\n"
	"Make a kernel configuration in which every requirement of the named\n"
	"profiles holds: dependencies are enabled, conflicting options turned off,\n"
	"alternatives chosen to change least, and nothing changed that no\n"
	"requirement needs.\n"
	"\n"
	"options:\n"
	"  -k TREE            kernel tree or linux-source tarball (default as for\n"
	"                     `kfit kconfig`)\n"
	"  -a ARCH            architecture (default: this machine's, x86_64 on a\n"
	"                     64-bit x86 host)\n"
	"  -p NAME            a profile (repeatable): debian-12, kvm-guest, docker...\n"
	"                     or a file given as a path (DIR/FILE.kfit, ./FILE.kfit)\n"
	"                     whose profiles are all used\n"
	"  --base BASE        allnoconfig, tinyconfig, defconfig or a .config file\n"
	"                     (default: allnoconfig with a platform profile, else\n"
	"                     defconfig); settings of a distro config that name\n"
	"                     files of the distro's build (trusted keys...) are reset\n"
	"  --local FILE       a local profile (overrides, drops); repeatable\n"
	"  --initramfs yes|no whether the kernel boots with an initramfs; `no` makes\n"
	"                     boot-critical drivers built in (default: the distro's)\n"
	"  -o FILE            where to write (default: TREE/.config)\n"
	"  --explain          print each requirement that changed something, its\n"
	"                     reasons and every change it made or pulled in\n"
	"  --explain=requirements\n"
	"                     only the requirement lines, with their counts\n"
	"  --json             print the result as JSON (docs/schema/generate.schema.json)\n"
	"  --verify           check the result with the tree's own make olddefconfig\n"
	"  --force            write the best partial result even when requirements\n"
	"                     cannot be met (still exits 1); with --detect and\n"
	"                     --initramfs no, generate although the root is on\n"
	"                     LUKS, LVM or md (a warning instead of an error)\n"
	"  --profiles DIR     the profile database (default: the installed one)\n"
	"  --detect           detect this machine (distro, init, platform, features\n"
	"                     and every device) and add its profiles and hardware\n"
	"                     requirements; writes into a build directory in the\n"
	"                     cache unless -o is given, and prints the build command\n"
	"  --root DIR         with --detect: a saved snapshot of another machine\n"
	"  --check-minimal    check that no change can be put back without breaking\n"
	"                     a requirement (exit 1 when one can)\n"
	"\n"
	"exit status: 0 every requirement holds, 1 some cannot be met (the chain\n"
	"that blocks each is printed), 2 bad usage or input\n";

const char cmd_why_usage[] =
	"usage: kfit why SYMBOL [-k TREE] [-a ARCH] [-c CONFIG] [-p NAME...]\n"
	"                [--local FILE...] [--json]\n"
	"\n"
	"Explain one symbol of a configuration: its value, what set it (an answer\n"
	"in the .config, a select, an imply, a default) and what it would take to\n"
	"change it.  With profiles: the requirements that name it and whether\n"
	"they hold, the answers that would turn it off (on, when it is off), and\n"
	"the requirements that would break then (\"needed by\").\n"
	"\n"
	"options:\n"
	"  -k TREE       kernel tree (default as for `kfit kconfig`)\n"
	"  -a ARCH       architecture (default: this machine's)\n"
	"  -c CONFIG     the configuration (default: TREE/.config)\n"
	"  -p NAME       a profile (or ./FILE.kfit) whose requirements to weigh\n"
	"  --local FILE  a local profile file (as for `kfit generate`)\n"
	"  --json        one JSON object: value, menu, the short reason and the\n"
	"                whole explanation (docs/schema/why.schema.json)\n"
	"\n"
	"exit status: 0 explained, 2 bad usage, no such symbol or unreadable input\n";

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

enum { EXPLAIN_NONE, EXPLAIN_FULL, EXPLAIN_REQUIREMENTS };

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

int cmd_generate(int argc, char **argv)
{
	const char *tree_arg = NULL, *arch = NULL, *base = NULL, *out = NULL;
	const char *initramfs = NULL;
	int explain = EXPLAIN_NONE;
	bool json = false, do_verify = false, force = false;
	bool check_minimal = false, detect = false;
	const char *root = NULL;
	profcli_opts po;
	memset(&po, 0, sizeof(po));
	int rc = KF_EXIT_BAD;

	for (int i = 1; i < argc; i++) {
		int miss = 0;
		const char *v;
		int taken = strcmp(argv[i], "--local") ? profcli_arg(&po, argc, argv, &i) : 0;
		if (taken < 0)
			goto usage_out;
		if (taken > 0)
			continue;
		if ((v = profcli_optval(argc, argv, &i, "-k", "--kernel", &miss)))
			tree_arg = v;
		else if ((v = profcli_optval(argc, argv, &i, "-a", "--arch", &miss)))
			arch = v;
		else if ((v = profcli_optval(argc, argv, &i, NULL, "--base", &miss)))
			base = v;
		else if ((v = profcli_optval(argc, argv, &i, "-o", "--output", &miss)))
			out = v;
		else if ((v = profcli_optval(argc, argv, &i, NULL, "--initramfs", &miss)))
			initramfs = v;
		else if ((v = profcli_optval(argc, argv, &i, NULL, "--root", &miss)))
			root = v;
		else if ((v = profcli_optval(argc, argv, &i, NULL, "--local", &miss))) {
			/* a local profile: its profiles are applied */
			KF_GROW(po.names, po.nnames + 1, po.namealloc);
			po.names[po.nnames++] = v;
		} else if (miss) {
			cli_error("generate: %s needs a value", argv[i]);
			goto usage_out;
		} else if (!strcmp(argv[i], "--explain") || !strcmp(argv[i], "--explain=all"))
			explain = EXPLAIN_FULL;
		else if (!strcmp(argv[i], "--explain=requirements"))
			explain = EXPLAIN_REQUIREMENTS;
		else if (!strncmp(argv[i], "--explain=", 10)) {
			cli_error("generate: --explain= takes all or requirements, not '%s'", argv[i] + 10);
			goto usage_out;
		}
		else if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--verify"))
			do_verify = true;
		else if (!strcmp(argv[i], "--force"))
			force = true;
		else if (!strcmp(argv[i], "--check-minimal"))
			check_minimal = true;
		else if (!strcmp(argv[i], "--detect"))
			detect = true;
		else if (argv[i][0] != '-') {
			cli_error("generate: unexpected argument '%s' (a profile is given as -p %s)",
				  argv[i], argv[i]);
			goto usage_out;
		} else {
			cli_unknown_option("generate", argv[i]);
			goto usage_out;
		}
	}
	if (!po.nnames && !detect) {
		cli_error("generate: no profile given (-p NAME or --detect; `kfit profiles` lists them)");
		goto usage_out;
	}
	int ir = PROF_INITRAMFS_UNKNOWN;
	if (initramfs) {
		if (!strcmp(initramfs, "yes"))
			ir = PROF_INITRAMFS_YES;
		else if (!strcmp(initramfs, "no"))
			ir = PROF_INITRAMFS_NO;
		else {
			cli_error("generate: --initramfs takes yes or no, not '%s'", initramfs);
			goto usage_out;
		}
	}
	const char *arch_arg = arch;
	if (!arch)
		arch = cli_machine_arch();

	po.root = root;
	prof_db *db = profcli_load(&po);
	if (!db) {
		profcli_release(&po);
		return KF_EXIT_BAD;
	}
	kf_diags d = KF_DIAGS_INIT;
	kf_pipeline_opts plo = {
		.tree = tree_arg,
		.arch = arch,
		.progress = cli_progress,
		.db = db,
		.names = po.names,
		.nnames = po.nnames,
		.root = root,
		.initramfs = ir,
		.base = base,
		.output = out,
		.check_minimal = check_minimal,
		.force = force,
		/* KFIT_LOAD_AHEAD=0: every stage in turn on this thread (the
		 * same output; tests/compat/generate-threads.sh compares) */
		.serial = getenv("KFIT_LOAD_AHEAD") && !strcmp(getenv("KFIT_LOAD_AHEAD"), "0"),
	};
	kf_pipeline p;
	kf_pipeline_init(&p, &plo);
	if (kf_pipeline_tree(&p, &d) < 0)
		goto fail;
	if (detect) {
		if (kf_pipeline_detect(&p, &d) < 0)
			goto fail;
		for (size_t i = 0; i < p.ndetected; i++)
			fprintf(stderr, "kfit: detected %s (%s)\n", p.detected[i].name,
				p.detected[i].reason);
	}
	if (kf_pipeline_requirements(&p, &d) < 0)
		goto fail;
	/* detect started the load already; otherwise it starts here, once
	 * the profile names are known good (a mistyped one stops at once),
	 * and goes on to build the resolver's index beside the base */
	kf_pipeline_load_ahead(&p);
	if (kf_pipeline_load(&p, &d) < 0 || kf_pipeline_base(&p, &d) < 0)
		goto fail;
	int g = kf_pipeline_solve(&p, &d);
	if (g < 0)
		goto fail;
	bool write = g == 0 || force;
	cli_print_diags(&d);
	kf_diags_release(&d);
	if (write && kf_pipeline_write(&p, &d) < 0) {
		cli_print_diags(&d);
		rc = KF_EXIT_BAD;
		goto done;
	}
	if (json)
		print_json(&p.res, p.dest, write, p.base, p.set);
	else {
		print_summary(&p.res, p.t, db, explain);
		print_firmware(&p);
	}
	if (write && !json) {
		fprintf(stderr, "kfit: configuration written to %s\n", p.dest);
		struct stat st;
		if (stat(p.dest, &st) == 0 && S_ISREG(st.st_mode)) {
			/* the command that builds exactly this file, as the user
			 * would type it here */
			fprintf(stderr, "kfit: next: kfit build");
			if (tree_arg)
				fprintf(stderr, " -k %s", tree_arg);
			if (arch_arg)
				fprintf(stderr, " -a %s", arch_arg);
			if (out)
				fprintf(stderr, " -c %s", out);
			fprintf(stderr, "   (or --dry-run to see its commands)\n");
		}
	}
	else if (!write)
		fprintf(stderr, "kfit: nothing written (use --force to write the partial result)\n");
	if (!json)
		print_unmapped(p.det);
	rc = g ? KF_EXIT_UNMET : KF_EXIT_OK;
	if (check_minimal) {
		for (size_t i = 0; i < p.res.nnot_minimal; i++)
			fprintf(stderr, "kfit: error: not minimal: CONFIG_%s can go back to the base value and every requirement still holds\n",
				p.res.not_minimal[i]);
		if (p.res.nnot_minimal)
			rc = KF_EXIT_UNMET;
		else
			fprintf(stderr, "kfit: minimal: no change can go back to the base value\n");
	}
	if (write && do_verify) {
		int v = kf_pipeline_verify(&p, &d);
		if (v == 0)
			fprintf(stderr, "kfit: verified: the kernel's make olddefconfig changes nothing\n");
		else {
			fprintf(stderr, "kfit: error: %s\n",
				v > 0 ? "the kernel's make olddefconfig changes the result"
				      : "could not run the kernel's make olddefconfig");
			rc = KF_EXIT_UNMET;
		}
	}
	goto done;
fail:
	cli_print_diags(&d);
	kf_diags_release(&d);
	rc = KF_EXIT_BAD;
done:
	kf_pipeline_release(&p);
	kf_diags_release(&d); /* what kc_config_write added (its note) */
	prof_db_free(db);
	profcli_release(&po);
	return rc;
usage_out:
	profcli_release(&po);
	cli_usage_short(cmd_generate_usage);
	return KF_EXIT_BAD;
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
	const char *tree_arg = NULL, *arch = NULL, *config = NULL, *sym = NULL;
	bool json = false;
	profcli_opts po;
	memset(&po, 0, sizeof(po));
	for (int i = 1; i < argc; i++) {
		int miss = 0;
		const char *v;
		int taken = profcli_arg(&po, argc, argv, &i);
		if (taken < 0) {
			profcli_release(&po);
			return KF_EXIT_BAD;
		}
		if (taken)
			continue;
		if ((v = profcli_optval(argc, argv, &i, "-k", "--kernel", &miss)))
			tree_arg = v;
		else if ((v = profcli_optval(argc, argv, &i, "-a", "--arch", &miss)))
			arch = v;
		else if ((v = profcli_optval(argc, argv, &i, "-c", "--config", &miss)))
			config = v;
		else if (!miss && !strcmp(argv[i], "--json"))
			json = true;
		else if (miss || argv[i][0] == '-' || sym) {
			if (!miss && argv[i][0] == '-')
				cli_unknown_option("why", argv[i]);
			else
				cli_error("why: unexpected argument '%s'", argv[i]);
			cli_usage_short(cmd_why_usage);
			profcli_release(&po);
			return KF_EXIT_BAD;
		} else
			sym = argv[i];
	}
	if (!sym) {
		cli_error("why: no SYMBOL given");
		cli_usage_short(cmd_why_usage);
		profcli_release(&po);
		return KF_EXIT_BAD;
	}
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
	kf_last_config last;
	if (config)
		cfg = kf_xstrdup(config);
	else if (p.cache && kf_last_config_lookup(p.cache, p.tree, arch, &last) == 0) {
		/* what generate wrote last for this tree, as build uses it */
		fprintf(stderr, "kfit: explaining %s (what 'kfit generate' wrote last for this tree)\n",
			last.config);
		cfg = last.config;
		last.config = NULL;
		kf_last_config_release(&last);
	} else
		cfg = kf_xasprintf("%s/.config", p.tree);
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

/*
 * cmd_diff.c - `kfit diff A B`: the options two .config files set
 * differently, grouped by the menu they are in, each with what gives it its
 * value in B when a kernel tree is given (-k).
 */
#include "cli.h"
#include "options.h"
#include "kfit/build.h"
#include "kfit/lastconfig.h"
#include "kfit/explain.h"
#include "kfit/json.h"
#include "kfit/dotconfig.h"
#include "kfit/kconfig.h"
#include "kfit/pipeline.h"
#include "kfit/solve.h"
#include "kfit/tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What `kfit diff` is given. */
typedef struct diff_args {
	const char *tree; /* -k */
	const char *arch; /* -a */
	const char *fa;   /* A */
	const char *fb;   /* B */
	bool json;        /* --json */
	bool stat;        /* --stat */
} diff_args;

static int diff_word(void *args, const char *word);

static const cli_opt diff_opts[] = {
	CLI_OPT_KERNEL("-k", "TREE", diff_args, tree,
		       "kernel tree: group by menu and explain every value of B"),
	CLI_OPT_ARCH("-a", diff_args, arch, "architecture for the tree (default x86_64)"),
	CLI_OPT_FLAG("--stat", diff_args, stat,
		     "only the counts: added, removed, changed, per menu with -k"),
	CLI_OPT_JSON(diff_args, json,
		     "one JSON object: {\"a\":..., \"b\":..., \"changes\":[{\"symbol\",\n"
		     "\"a\", \"b\", \"menu\", \"why\"}]} (docs/schema/diff.schema.json)"),
	CLI_OPT_TABLE_END,
};

const cli_spec cmd_diff_spec = {
	.cmd = "diff",
	.head = "usage: kfit diff [-k TREE] [-a ARCH] [--stat] [--json] [A [B]]\n"
		"\n"
		"Show the options whose values differ between two .config files (plain,\n"
		".gz or .xz): added, removed and changed, grouped by menu when a kernel\n"
		"tree is given (-k), each with what gives it its value in B.  Without B:\n"
		"what 'kfit generate' wrote last; without A either: the running kernel's\n"
		"configuration (/proc/config.gz, else /boot/config-$(uname -r)).\n"
		"\n"
		"options:\n",
	.opts = diff_opts,
	.col = 12,
	.tail = "\n"
		"exit status: 0 no differences, 1 differences found, 2 bad usage or input\n",
	.positional = diff_word,
};

static int diff_word(void *args, const char *word)
{
	diff_args *a = args;
	if (!a->fa)
		a->fa = word;
	else if (!a->fb)
		a->fb = word;
	else {
		cli_error("diff: unexpected argument '%s'", word);
		cli_spec_usage_short(&cmd_diff_spec);
		return -1;
	}
	return 0;
}

/* One difference. */
struct change {
	const char *sym;  /* symbol */
	const char *a;    /* value in A, NULL when absent */
	const char *b;    /* value in B, NULL when absent */
	const char *menu; /* menu title in the tree, or NULL */
	char *why;        /* what gives it its value in B, or NULL */
};

static bool same(const char *a, const char *b)
{
	/* a bool that is absent is n */
	if (!a)
		a = "n";
	if (!b)
		b = "n";
	return !strcmp(a, b);
}

/* The two configurations: A and B as given; without B what generate
 * wrote last, and then without A the running kernel's.  -1 after an
 * error. */
static int diff_choose(diff_args *a, kf_config_choice *ca, kf_config_choice *cb)
{
	kf_diags cd = KF_DIAGS_INIT;
	char *cache = kf_cache_dir(&cd);
	kf_diags_release(&cd);
	kf_config_want wb = {.given = a->fb, .last = true, .cache = cache};
	kf_config_source from = kf_config_choose(&wb, cb);
	free(cache);
	if (from == KF_CONFIG_NONE) {
		cli_error("diff: no B given and no configuration made by 'kfit generate' "
			  "to compare with");
		return -1;
	}
	kf_config_want wa = {.given = a->fa, .running = from == KF_CONFIG_LAST};
	if (kf_config_choose(&wa, ca) == KF_CONFIG_NONE) {
		cli_error("diff: no A given and neither /proc/config.gz nor "
			  "/boot/config-$(uname -r) exists");
		return -1;
	}
	if (from == KF_CONFIG_LAST)
		fprintf(stderr, "kfit: comparing %s with %s (what 'kfit generate' wrote last)\n",
			ca->path, cb->path);
	return 0;
}

/* The symbols set differently in ca and cb (sorted), with their menu and
 * what gives each its value in B when t is given. */
static size_t diff_collect(kf_dotconfig *ca, kf_dotconfig *cb, kc_tree *t, struct change **out)
{
	struct change *ch = NULL;
	size_t n = 0, alloc = 0;
	const char **na = NULL, **nb = NULL;
	size_t a_n = kf_dotconfig_names(ca, &na);
	size_t b_n = kf_dotconfig_names(cb, &nb);
	/* merge the two sorted lists */
	for (size_t i = 0, j = 0; i < a_n || j < b_n;) {
		int c = i >= a_n ? 1 : j >= b_n ? -1 : strcmp(na[i], nb[j]);
		const char *sym = c <= 0 ? na[i] : nb[j];
		const char *va = c <= 0 ? kf_dotconfig_get(ca, sym) : NULL;
		const char *vb = c >= 0 ? kf_dotconfig_get(cb, sym) : NULL;
		if (c <= 0)
			i++;
		if (c >= 0)
			j++;
		if (same(va, vb))
			continue;
		KF_GROW(ch, n + 1, alloc);
		struct change *x = &ch[n++];
		memset(x, 0, sizeof(*x));
		x->sym = sym;
		x->a = va;
		x->b = vb;
		if (t) {
			kf_strbuf w = KF_STRBUF_INIT;
			if (kf_why_short(t, sym, &w, &x->menu) == 0)
				x->why = kf_strbuf_detach(&w);
			else {
				kf_strbuf_release(&w);
				x->why = kf_xstrdup("not in this tree");
			}
		}
	}

	free(na);
	free(nb);
	*out = ch;
	return n;
}

static void print_json(const char *fa, const char *fb, const struct change *ch, size_t n)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_json j;
	kf_json_init(&j, &sb, KF_JSON_COMPACT);
	kf_json_begin_object(&j);
	kf_json_kstr(&j, "a", fa);
	kf_json_kstr(&j, "b", fb);
	kf_json_key(&j, "changes");
	kf_json_begin_array(&j);
	for (size_t i = 0; i < n; i++) {
		kf_json_begin_object(&j);
		kf_json_kstr(&j, "symbol", ch[i].sym);
		kf_json_kstr(&j, "a", ch[i].a);
		kf_json_kstr(&j, "b", ch[i].b);
		kf_json_kstr(&j, "menu", ch[i].menu);
		kf_json_kstr(&j, "why", ch[i].why);
		kf_json_end_object(&j);
	}
	kf_json_end_array(&j);
	kf_json_end_object(&j);
	kf_strbuf_addch(&sb, '\n');
	fputs(sb.buf, stdout);
	kf_strbuf_release(&sb);
}

/* --stat: counts only, per menu (with -k), then the totals. */
static void print_stat(const struct change *ch, size_t n, const kc_tree *t)
{
	/* counts only: per menu (with -k), then the totals */
	bool *done = kf_xcalloc(n ? n : 1, sizeof(bool));
	size_t ta = 0, tr = 0, tc = 0;
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		const char *m = ch[i].menu;
		size_t add = 0, rem = 0, chg = 0;
		for (size_t k = i; k < n; k++) {
			const char *mk = ch[k].menu;
			if (done[k] || (t && !(m == mk || (m && mk && !strcmp(m, mk)))))
				continue;
			done[k] = true;
			if (!ch[k].a)
				add++;
			else if (!ch[k].b)
				rem++;
			else
				chg++;
		}
		char *em = cli_escape(m ? m : "(top level)");
		if (t)
			printf("%6zu  %s  (+%zu -%zu ~%zu)\n", add + rem + chg, em, add, rem, chg);
		free(em);
		ta += add, tr += rem, tc += chg;
	}
	free(done);
	printf("%zu options differ: %zu added, %zu removed, %zu changed\n", n, ta, tr, tc);
}

/* Each difference, grouped by menu in order of first appearance. */
static void print_text(const struct change *ch, size_t n, const kc_tree *t)
{
	/* group by menu, in order of first appearance */
	bool *done = kf_xcalloc(n ? n : 1, sizeof(bool));
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		const char *m = ch[i].menu;
		if (t) {
			size_t cnt = 0;
			for (size_t k = i; k < n; k++) {
				const char *mk = ch[k].menu;
				cnt += !done[k] && (m == mk || (m && mk && !strcmp(m, mk)));
			}
			char *em = cli_escape(m ? m : "(top level)");
			printf("%s%s:%s  (%zu)\n", cli_sgr(stdout, CLI_BOLD), em,
			       cli_sgr(stdout, CLI_RESET), cnt);
			free(em);
		}
		for (size_t k = i; k < n; k++) {
			if (done[k])
				continue;
			const char *mk = ch[k].menu;
			if (t && !(m == mk || (m && mk && !strcmp(m, mk))))
				continue;
			done[k] = true;
			/* the values are data: control characters escaped */
			char *va = cli_escape(ch[k].a ? ch[k].a : "absent");
			char *vb = cli_escape(ch[k].b ? ch[k].b : "absent");
			char *why = ch[k].why ? cli_escape(ch[k].why) : NULL;
			char mark = !ch[k].a ? '+' : !ch[k].b ? '-' : '~';
			const char *sgr = mark == '+' ? CLI_GREEN : mark == '-' ? CLI_RED : CLI_YELLOW;
			printf("%s%s%c CONFIG_%s: %s -> %s%s", t ? "  " : "", cli_sgr(stdout, sgr),
			       mark, ch[k].sym, va, vb, cli_sgr(stdout, CLI_RESET));
			if (why)
				printf("  (%s)", why);
			putchar('\n');
			free(va);
			free(vb);
			free(why);
		}
	}
	free(done);
	fprintf(stderr, "kfit: %zu options differ\n", n);
}

int cmd_diff(int argc, char **argv)
{
	diff_args a = {.arch = "x86_64"};
	kf_config_choice fa = {0}, fb = {0};
	if (cli_parse(&cmd_diff_spec, &a, argc, argv) < 0)
		return KF_EXIT_BAD;
	if (diff_choose(&a, &fa, &fb) < 0) {
		kf_config_choice_release(&fa);
		kf_config_choice_release(&fb);
		cli_spec_usage_short(&cmd_diff_spec);
		return KF_EXIT_BAD;
	}
	kf_diags d = KF_DIAGS_INIT;
	int rc = KF_EXIT_BAD;
	kf_dotconfig *ca = kf_dotconfig_load(fa.path, &d);
	kf_dotconfig *cb = ca ? kf_dotconfig_load(fb.path, &d) : NULL;
	kf_pipeline_opts plo = {.tree = a.tree, .arch = a.arch};
	kf_pipeline p;
	kf_pipeline_init(&p, &plo);
	kc_tree *t = NULL;
	struct change *ch = NULL;
	size_t n = 0;
	if (!cb)
		goto out;
	if (a.tree) {
		if (kf_pipeline_tree(&p, &d) < 0 || kf_pipeline_load(&p, &d) < 0)
			goto out;
		/* B as the kernel computes it, to say why each value is there */
		kf_pipeline_read_config(&p, fb.path, &d);
		t = p.t;
	}
	n = diff_collect(ca, cb, t, &ch);
	if (a.json)
		print_json(fa.path, fb.path, ch, n);
	else if (a.stat)
		print_stat(ch, n, t);
	else
		print_text(ch, n, t);
	rc = n ? KF_EXIT_UNMET : KF_EXIT_OK;
out:
	cli_print_diags(&d);
	kf_diags_release(&d);
	for (size_t i = 0; i < n; i++)
		free(ch[i].why);
	free(ch);
	kf_dotconfig_free(ca);
	kf_dotconfig_free(cb);
	kf_pipeline_release(&p);
	kf_config_choice_release(&fa);
	kf_config_choice_release(&fb);
	return rc;
}

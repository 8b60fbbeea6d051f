/*
 * options.c - the option tables of src/options.h at work: parsing argv
 * ("-k TREE", "-kTREE", "--kernel=TREE", switches, words that are no
 * option), the "options:" section of a usage text, `kfit help --flags`.
 */
#include "options.h"
#include "cli.h"
#include "profcli.h"

#include "kfit/profile.h"

#include <string.h>

/* Call fn with each name of a names list ("-p, --profile", "-k --tree"). */
static bool each_name(const char *names, bool (*fn)(const char *n, size_t len, void *ctx),
		      void *ctx)
{
	for (const char *p = names; p && *p;) {
		p += strspn(p, ", ");
		size_t len = strcspn(p, ", ");
		if (len && fn(p, len, ctx))
			return true;
		p += len;
	}
	return false;
}

/* What matching one argument against one option found. */
typedef struct match {
	const char *arg;   /* the argument: "-k", "-kTREE", "--kernel=TREE" */
	const cli_opt *o;  /* the option */
	bool hit;          /* the argument is this option */
	const char *value; /* its value in the same argument, or NULL */
} match;

static bool match_name(const char *n, size_t len, void *ctx)
{
	match *m = ctx;
	const char *a = m->arg;
	if (strncmp(a, n, len))
		return false;
	if (!a[len])
		return m->hit = true;
	bool takes = m->o->arg || m->o->eq_value;
	if (len > 2 && a[len] == '=' && takes) { /* --kernel=TREE */
		m->value = a + len + 1;
		return m->hit = true;
	}
	if (len == 2 && n[1] != '-' && m->o->arg) { /* -kTREE */
		m->value = a + 2;
		return m->hit = true;
	}
	return false;
}

/* The option argument a is, or NULL; *value its value when given in a. */
static const cli_opt *find_opt(const cli_spec *spec, const char *a, const char **value)
{
	for (const cli_opt *o = spec->opts; o->kind != CLI_OPT_END; o++) {
		if (o->kind == CLI_OPT_SHOW || o->kind == CLI_OPT_WORD)
			continue;
		match m = {a, o, false, NULL};
		if (each_name(o->flags, match_name, &m) || each_name(o->also, match_name, &m)) {
			*value = m.value;
			return o;
		}
	}
	return NULL;
}

/* Store what option o was given (value: NULL for a switch). */
static int take(const cli_opt *o, void *args, const char *value)
{
	void *target = (char *)args + o->off;
	switch (o->kind) {
	case CLI_OPT_STRING:
		*(const char **)target = value;
		return 0;
	case CLI_OPT_BOOL:
		*(bool *)target = true;
		return 0;
	case CLI_OPT_SET:
		*(int *)target = o->value;
		return 0;
	case CLI_OPT_CALL:
		return o->fn(target, value);
	default:
		return -1;
	}
}

int cli_parse(const cli_spec *spec, void *args, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *value = NULL;
		if (a[0] != '-' || !a[1]) {
			if (spec->positional && spec->positional(args, a) == 0)
				continue;
			if (spec->positional)
				return -1;
			if (!spec->word_is_option) {
				cli_error("%s: unexpected argument '%s'", spec->cmd, a);
				return -1;
			}
		}
		const cli_opt *o = a[0] == '-' ? find_opt(spec, a, &value) : NULL;
		if (!o) {
			cli_unknown_option(spec->cmd, a);
			cli_spec_usage_short(spec);
			return -1;
		}
		if (o->arg && !value) {
			if (i + 1 >= argc) {
				cli_error("option '%s' needs a value", a);
				return -1;
			}
			value = argv[++i];
		}
		if (take(o, args, value) < 0)
			return -1;
	}
	return 0;
}

/* Whether an option appears in the help. */
static bool shown(const cli_opt *o)
{
	return o->kind == CLI_OPT_SHOW || o->kind == CLI_OPT_WORD || (!o->hidden && o->help);
}

/* The entries of a table as the help shows them, their texts from col. */
static void table_usage(const cli_opt *opts, int col, kf_strbuf *sb)
{
	for (const cli_opt *o = opts; o->kind != CLI_OPT_END; o++) {
		if (!shown(o))
			continue;
		size_t start = sb->len;
		kf_strbuf_addf(sb, "  %s", o->flags);
		if (o->arg && o->kind != CLI_OPT_SHOW)
			kf_strbuf_addf(sb, o->eq_value ? "=%s" : " %s", o->arg);
		size_t left = sb->len - start;
		if (left >= (size_t)col)
			kf_strbuf_addf(sb, "\n%*s", col, "");
		else
			kf_strbuf_addf(sb, "%*s", (int)(col - left), "");
		for (const char *p = o->help; *p;) {
			size_t len = strcspn(p, "\n");
			if (p != o->help)
				kf_strbuf_addf(sb, "%*s", col, "");
			kf_strbuf_add(sb, p, len);
			kf_strbuf_addch(sb, '\n');
			p += len + (p[len] == '\n');
		}
	}
}

void cli_spec_usage(const cli_spec *spec, kf_strbuf *sb)
{
	kf_strbuf_addstr(sb, spec->head);
	if (spec->modes) {
		table_usage(spec->modes, spec->modes_col, sb);
		kf_strbuf_addstr(sb, spec->mid);
	}
	table_usage(spec->opts, spec->col, sb);
	kf_strbuf_addstr(sb, spec->tail);
}

void cli_spec_words(const cli_spec *spec, FILE *f)
{
	for (const cli_opt *o = spec->modes; o && o->kind != CLI_OPT_END; o++)
		if (o->kind == CLI_OPT_WORD)
			fprintf(f, "%s\n", o->flags);
	for (size_t i = 0; spec->words && spec->words[i]; i++)
		fprintf(f, "%s\n", spec->words[i]);
}

const cli_opt *cli_spec_mode(const cli_spec *spec, const char *word)
{
	for (const cli_opt *o = spec->modes; o && o->kind != CLI_OPT_END; o++)
		if (!strcmp(o->flags, word))
			return o;
	return NULL;
}

struct flags_ctx {
	const cli_opt *o; /* the option */
	FILE *f;          /* where to print */
};

static bool print_name(const char *n, size_t len, void *vctx)
{
	struct flags_ctx *c = vctx;
	fprintf(c->f, "%.*s", (int)len, n);
	if (c->o->arg && c->o->kind != CLI_OPT_SHOW)
		fprintf(c->f, " %s", c->o->arg);
	fputc('\n', c->f);
	return false;
}

void cli_spec_flags(const cli_spec *spec, FILE *f)
{
	for (const cli_opt *o = spec->modes; o && o->kind != CLI_OPT_END; o++) {
		struct flags_ctx c = {o, f};
		if (o->kind != CLI_OPT_WORD)
			each_name(o->flags, print_name, &c);
	}
	for (const cli_opt *o = spec->opts; o->kind != CLI_OPT_END; o++) {
		struct flags_ctx c = {o, f};
		if (shown(o))
			each_name(o->flags, print_name, &c);
	}
}

int cli_initramfs(const char *value, const char *prefix, int *out)
{
	*out = PROF_INITRAMFS_UNKNOWN;
	if (!value)
		return 0;
	if (!strcmp(value, "yes"))
		*out = PROF_INITRAMFS_YES;
	else if (!strcmp(value, "no"))
		*out = PROF_INITRAMFS_NO;
	else {
		cli_error("%s--initramfs takes yes or no, not '%s'", prefix, value);
		return -1;
	}
	return 0;
}

int cli_add_str(void *strs, const char *value)
{
	cli_strs *s = strs;
	KF_GROW(s->v, s->n + 1, s->alloc);
	s->v[s->n++] = value;
	return 0;
}

int cli_add_profile(void *po, const char *value)
{
	profcli_opts *o = po;
	KF_GROW(o->names, o->nnames + 1, o->namealloc);
	o->names[o->nnames++] = value;
	return 0;
}

int cli_add_local(void *po, const char *value)
{
	profcli_opts *o = po;
	KF_GROW(o->locals, o->nlocals + 1, o->localloc);
	o->locals[o->nlocals++] = value;
	return 0;
}

int cli_add_local_applied(void *po, const char *value)
{
	cli_add_local(po, value);
	return cli_add_profile(po, value);
}

struct names_ctx {
	char **v;   /* the names */
	size_t n;   /* how many */
	size_t max; /* room in v */
};

static bool add_name(const char *n, size_t len, void *vctx)
{
	struct names_ctx *c = vctx;
	if (c->n < c->max)
		c->v[c->n++] = kf_xstrndup(n, len);
	return false;
}

size_t cli_spec_names(const cli_spec *spec, char **out, size_t max)
{
	struct names_ctx c = {out, 0, max};
	for (const cli_opt *o = spec->modes; o && o->kind != CLI_OPT_END; o++)
		if (o->kind != CLI_OPT_WORD)
			each_name(o->flags, add_name, &c);
	for (const cli_opt *o = spec->opts; o->kind != CLI_OPT_END; o++)
		if (shown(o))
			each_name(o->flags, add_name, &c);
	return c.n;
}

/*
 * help.c - what kfit says about its own command line (and, until every
 * command has an option table, the flags and words read back from the
 * usage texts of those that do not): the options every
 * command takes (--color), the synopsis after bad usage, and did-you-mean
 * for a mistyped command or option.  The option tables themselves and
 * what scripts derive from them (`kfit help --flags CMD`, `--words CMD`,
 * which completion/kfit.bash and scripts/gen-man.sh read) are
 * src/options.c's.
 */
#include "cli.h"
#include "options.h"

#include <ctype.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Options every command takes (main() handles them). */
static const cli_opt global_opts[] = {
	{CLI_OPT_STRING, "--color", NULL, "WHEN", 0, NULL, 0, false, false, "colour the output: auto (on a terminal, unless\n"
					  "NO_COLOR is set or TERM=dumb), always or never;\n"
					  "--color=WHEN works as well"},
	CLI_OPT_HELP_LINE("--no-color", "the same as --color never"),
	CLI_OPT_HELP_LINE("-h, --help", "the command's help"),
	CLI_OPT_TABLE_END,
};

const cli_spec cli_global_spec = {.cmd = "", .head = "", .opts = global_opts, .col = 21, .tail = ""};

/* An option argument: TREE, FILE..., X.Y.Z, yes|no, WHEN. */
static bool is_arg_token(const char *s, size_t n)
{
	if (!n)
		return false;
	if (memchr(s, '|', n))
		return true;
	if (!isupper((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isupper((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) &&
		    !strchr("._-", s[i]))
			return false;
	return true;
}

/* One "  -p, --profile NAME  text" line: print "-p NAME" and "--profile NAME". */
static void option_line(const char *p, size_t len, FILE *f)
{
	const char *end = p + len;
	const char *flags[8];
	size_t flen[8], nflags = 0;
	const char *arg = NULL;
	size_t alen = 0;
	while (p < end && *p == ' ')
		p++;
	while (p < end && *p == '-' && nflags < 8) {
		const char *s = p;
		while (p < end && *p != ' ' && *p != ',' && *p != '=')
			p++;
		if (p < end && *p == '=') {
			const char *a = p + 1, *e = a;
			while (e < end && *e != ' ' && *e != ',')
				e++;
			if (!is_arg_token(a, (size_t)(e - a)))
				p = e; /* --explain=requirements: one literal flag */
		}
		flags[nflags] = s;
		flen[nflags++] = (size_t)(p - s);
		if (p < end && *p == '=') { /* --color=WHEN */
			const char *a = ++p;
			while (p < end && *p != ' ' && *p != ',')
				p++;
			arg = a;
			alen = (size_t)(p - a);
		}
		if (p + 1 < end && p[0] == ',' && p[1] == ' ') {
			p += 2;
			continue;
		}
		if (p + 1 < end && p[0] == ' ' && p[1] != ' ' && !arg) {
			const char *a = p + 1, *e = a;
			while (e < end && *e != ' ')
				e++;
			if (*a == '-') {
				p = a;
				continue;
			}
			if (is_arg_token(a, (size_t)(e - a))) {
				arg = a;
				alen = (size_t)(e - a);
			}
		}
		break;
	}
	for (size_t i = 0; i < nflags; i++) {
		fprintf(f, "%.*s", (int)flen[i], flags[i]);
		if (arg)
			fprintf(f, " %.*s", (int)alen, arg);
		fputc('\n', f);
	}
}

/* Call fn for each line of text with the name of the section it is in
 * ("usage", "options", "modes", ...; "" before any). */
typedef void line_fn(const char *section, const char *line, size_t len, void *ctx);

static void each_line(const char *text, line_fn *fn, void *ctx)
{
	char section[32] = "";
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (!len) {
			section[0] = 0; /* a blank line ends a section */
		} else if (p[0] != ' ') {
			/* "options:", "usage: kfit ...", "exit status: ..." */
			size_t n = 0;
			while (n < len && (islower((unsigned char)p[n]) || p[n] == ' '))
				n++;
			if (n < len && p[n] == ':' && n < sizeof(section)) {
				memcpy(section, p, n);
				section[n] = 0;
			} else
				section[0] = 0;
		}
		fn(section, p, len, ctx);
		p = nl ? nl + 1 : p + len;
	}
}

static void flags_fn(const char *section, const char *line, size_t len, void *ctx)
{
	/* "options:", "global options:" ... entries start at column 2 */
	if (strstr(section, "options") && len > 3 && !strncmp(line, "  -", 3))
		option_line(line, len, ctx);
}

void cli_print_flags(const char *usage, FILE *f)
{
	each_line(usage, flags_fn, f);
}

struct words_ctx {
	const char *cmd;
	FILE *f;
};

static void words_fn(const char *section, const char *line, size_t len, void *vctx)
{
	struct words_ctx *w = vctx;
	if (!strcmp(section, "modes") && len > 2 && line[0] == ' ' && line[2] != ' ') {
		const char *s = line + 2, *e = s;
		while (e < line + len && *e != ' ')
			e++;
		fprintf(w->f, "%.*s\n", (int)(e - s), s);
	} else if (!strcmp(section, "usage")) {
		/* "usage: kfit CMD WORD ..." or "       kfit CMD WORD ..." */
		const char *k = strstr(line, "kfit ");
		size_t cl = strlen(w->cmd);
		if (!k || k >= line + len || strncmp(k + 5, w->cmd, cl) || k[5 + cl] != ' ')
			return;
		const char *s = k + 5 + cl + 1, *e = s;
		while (e < line + len && (islower((unsigned char)*e) || *e == '-'))
			e++;
		if (e > s && *s != '-' && (e == line + len || *e == ' '))
			fprintf(w->f, "%.*s\n", (int)(e - s), s);
	}
}

void cli_print_words(const char *cmd, const char *usage, FILE *f)
{
	struct words_ctx w = {cmd, f};
	each_line(usage, words_fn, &w);
}

/* Levenshtein distance of a and b (both short: options, names). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return (size_t)-1;
	size_t row[65];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t prev = row[0]; /* row[i-1][j-1] */
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cur = row[j];
			size_t best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = cur;
		}
	}
	return row[lb];
}

const char *cli_did_you_mean(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1, len = strlen(word);
	/* a typo: at most a third of the word wrong (1 for short words) */
	size_t limit = len < 6 ? 1 : len / 3;
	for (size_t i = 0; i < n; i++) {
		size_t dist = edit_distance(word, cands[i]);
		if (dist < bestd) {
			bestd = dist;
			best = cands[i];
		}
	}
	return bestd <= limit ? best : NULL;
}

void cli_spec_usage_short(const cli_spec *spec)
{
	/* the synopsis: the text up to its first blank line */
	const char *end = strstr(spec->head, "\n\n");
	size_t n = end ? (size_t)(end - spec->head) + 1 : strlen(spec->head);
	fwrite(spec->head, 1, n, stderr);
	fprintf(stderr, "Run 'kfit %s --help' for the options.\n", spec->cmd);
}

void cli_usage_short(const char *usage)
{
	/* the synopsis: the text up to its first blank line */
	const char *end = strstr(usage, "\n\n");
	size_t n = end ? (size_t)(end - usage) + 1 : strlen(usage);
	fwrite(usage, 1, n, stderr);
	const char *cmd = strstr(usage, "kfit ");
	size_t cl = cmd ? strcspn(cmd + 5, " \n[") : 0;
	if (cl)
		fprintf(stderr, "Run 'kfit %.*s --help' for the options.\n", (int)cl, cmd + 5);
}

void cli_unknown_option(const char *cmd, const char *arg)
{
	const kf_cmd *c = cli_find(cmd);
	const char *hint = NULL;
	char *flags = NULL;
	char *names[64];
	const char *cands[64];
	size_t n = 0, nn = 0;
	if (c && c->spec && arg[0] == '-') {
		nn = cli_spec_names(c->spec, names, 64);
		hint = cli_did_you_mean(arg, (const char *const *)names, nn);
	} else if (c && arg[0] == '-') {
		/* the command's options, as `kfit help --flags` reads them */
		size_t sz = 0;
		FILE *f = open_memstream(&flags, &sz);
		if (f) {
			cli_print_flags(c->usage, f);
			fclose(f);
			for (char *save = NULL, *l = strtok_r(flags, "\n", &save); l && n < 64;
			     l = strtok_r(NULL, "\n", &save)) {
				l[strcspn(l, " ")] = 0;
				cands[n++] = l;
			}
			hint = cli_did_you_mean(arg, cands, n);
		}
	}
	if (hint)
		cli_error("%s: unknown option '%s' (did you mean '%s'?)", cmd, arg, hint);
	else
		cli_error("%s: unknown option '%s'", cmd, arg);
	free(flags);
	for (size_t i = 0; i < nn; i++)
		free(names[i]);
}

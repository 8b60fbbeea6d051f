/*
 * help.c - what kfit says about its own command line: the options every
 * command takes (--color), the synopsis after bad usage, and did-you-mean
 * for a mistyped command or option.  The option tables themselves and
 * what scripts derive from them (`kfit help --flags CMD`, `--words CMD`,
 * which completion/kfit.bash and scripts/gen-man.sh read) are
 * src/options.c's.
 */
#include "cli.h"
#include "options.h"

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

void cli_unknown_option(const char *cmd, const char *arg)
{
	const kf_cmd *c = cli_find(cmd);
	char *names[64];
	size_t n = c && arg[0] == '-' ? cli_spec_names(c->spec, names, 64) : 0;
	const char *hint = cli_did_you_mean(arg, (const char *const *)names, n);
	if (hint)
		cli_error("%s: unknown option '%s' (did you mean '%s'?)", cmd, arg, hint);
	else
		cli_error("%s: unknown option '%s'", cmd, arg);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
}

/*
 * options.h - a command's options as a table (after git's parse-options,
 * OPT_*): each entry is a flag, its argument, its help and where its
 * value goes; src/options.c parses argv with it and writes the "options:"
 * section of the usage, `kfit help --flags` (which the bash completion
 * reads) and the did-you-mean list of an unknown option from it.  The
 * options several commands share (-k, -a, -p, --local, --profiles,
 * --initramfs, --json, --root) are the CLI_OPT_* macros at the end.
 */
#ifndef KFIT_OPTIONS_H
#define KFIT_OPTIONS_H

#include "kfit/util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What an option does with what it is given. */
typedef enum cli_opt_kind {
	CLI_OPT_END,    /* ends a table */
	CLI_OPT_STRING, /* const char *: the value (the last one given wins) */
	CLI_OPT_BOOL,   /* bool: set to true */
	CLI_OPT_SET,    /* int: set to .value */
	CLI_OPT_CALL,   /* .fn(target, value), for each one given */
	CLI_OPT_SHOW,   /* a line of the help only (--explain=requirements) */
	CLI_OPT_WORD,   /* a word the command takes first (kconfig's modes):
			   .arg "FILE" (needed), "[FILE]" or NULL after it,
			   .value the command's code for it */
} cli_opt_kind;

/* Where a value goes: the command's own struct, at .off; -1 after
 * printing an error. */
typedef int cli_opt_fn(void *target, const char *value);

typedef struct cli_opt {
	cli_opt_kind kind; /* what it does */
	const char *flags; /* the names the help shows: "-p, --profile" */
	const char *also;  /* names also taken, not shown ("--kernel --tree"),
			      or NULL */
	const char *arg;   /* the value's name ("TREE", "yes|no"), NULL: none */
	size_t off;        /* offset of the target in the command's struct */
	cli_opt_fn *fn;    /* CLI_OPT_CALL */
	int value;         /* CLI_OPT_SET: what to store */
	bool eq_value;     /* CLI_OPT_CALL without arg: "--x=VALUE" gives fn
			      VALUE, a bare "--x" NULL (--explain); with
			      arg: the help shows "--x=ARG" */
	bool hidden;       /* taken but neither in the help nor --flags (so
			      is an option without help) */
	const char *help;  /* the help text, '\n' between its lines */
} cli_opt;

/* A command's usage: the text before and after its options, the options
 * and the column their help starts at; a word that is no option goes to
 * positional (NULL: every such word is an error). */
typedef struct cli_spec {
	const char *cmd;       /* "generate" (messages: "generate: ...") */
	const char *head;      /* "usage: ...\n\n...\n\noptions:\n" */
	const cli_opt *modes;  /* a table shown after head, or NULL: modes as
				  words (CLI_OPT_WORD: kconfig's) or as
				  options (conf's --MODE) */
	int modes_col;         /* the column their help starts at */
	const char *mid;       /* between modes and options: "\noptions:\n" */
	const cli_opt *opts;   /* ended by CLI_OPT_END */
	int col;               /* the column the help texts start at */
	const char *tail;      /* after the options: "\nexit status: ...\n" */
	int (*positional)(void *args, const char *word); /* -1 after an error */
	bool word_is_option;   /* without positional: a word is reported as
				  an unknown option, with the synopsis (else
				  "unexpected argument") */
	const char *const *words; /* the words the command takes first
				     (subcommands) besides modes, NULL-ended,
				     or NULL */
} cli_spec;

/* The options every command takes (--color, src/help.c). */
extern const cli_spec cli_global_spec;

/* Parse argv[1..argc-1] into args by spec.  0, or -1 after printing the
 * error (and the synopsis after an unknown option). */
int cli_parse(const cli_spec *spec, void *args, int argc, char **argv);
/* The whole usage text: head, options, tail. */
void cli_spec_usage(const cli_spec *spec, kf_strbuf *sb);
/* `kfit help --flags CMD`: each shown name of each option with its
 * argument, one a line ("-p NAME", "--profile NAME", "--json"). */
void cli_spec_flags(const cli_spec *spec, FILE *f);
/* `kfit help --words CMD`: its modes and words, one a line. */
void cli_spec_words(const cli_spec *spec, FILE *f);
/* The names the help shows (what an unknown option may have meant):
 * malloc'd into out, at most max; how many. */
size_t cli_spec_names(const cli_spec *spec, char **out, size_t max);
/* The mode entry named word, or NULL. */
const cli_opt *cli_spec_mode(const cli_spec *spec, const char *word);
/* The synopsis of spec on stderr and where the rest is (bad usage). */
void cli_spec_usage_short(const cli_spec *spec);
/* "yes" or "no" for --initramfs: PROF_INITRAMFS_*; -1 after an error
 * (prefix: "generate: " or ""). */
int cli_initramfs(const char *value, const char *prefix, int *out);

/* For CLI_OPT_CALL: append the value to a cli_strs list. */
typedef struct cli_strs {
	const char **v; /* the values */
	size_t n;       /* how many */
	size_t alloc;   /* capacity of v */
} cli_strs;
int cli_add_str(void *strs, const char *value);
/* For CLI_OPT_CALL on a profcli_opts: -p NAME, --local FILE. */
int cli_add_profile(void *po, const char *value);
int cli_add_local(void *po, const char *value);
/* generate's --local FILE: loaded as a local file and its profiles applied. */
int cli_add_local_applied(void *po, const char *value);

#define CLI_OPT_TABLE_END {CLI_OPT_END, NULL, NULL, NULL, 0, NULL, 0, false, false, NULL}

/* The shared options, defined once: what they take and where their value
 * goes; shown is the form a command's help gives them ("-k" or "-k,
 * --tree"), help its text there. */
#define CLI_OPT_KERNEL(shown, arg, type, field, help_)                                       \
	{CLI_OPT_STRING, shown, "-k --kernel --tree", arg, offsetof(type, field), NULL, 0, false, \
	 false, help_}
#define CLI_OPT_ARCH(shown, type, field, help_)                                             \
	{CLI_OPT_STRING, shown, "-a --arch", "ARCH", offsetof(type, field), NULL, 0, false, false, \
	 help_}
#define CLI_OPT_PROFILE(shown, arg, type, po, help_)                                         \
	{CLI_OPT_CALL, shown, "-p --profile", arg, offsetof(type, po), cli_add_profile, 0, false, \
	 false, help_}
#define CLI_OPT_LOCAL(type, po, help_)                                                      \
	{CLI_OPT_CALL, "--local", NULL, "FILE", offsetof(type, po), cli_add_local, 0, false,     \
	 false, help_}
#define CLI_OPT_PROFILES(type, po, help_)                                                   \
	{CLI_OPT_STRING, "--profiles", NULL, "DIR", offsetof(type, po.dir), NULL, 0, false,      \
	 false, help_}
#define CLI_OPT_INITRAMFS(type, field, help_)                                               \
	{CLI_OPT_STRING, "--initramfs", NULL, "yes|no", offsetof(type, field), NULL, 0, false,   \
	 false, help_}
#define CLI_OPT_JSON(type, field, help_)                                                    \
	{CLI_OPT_BOOL, "--json", NULL, NULL, offsetof(type, field), NULL, 0, false, false, help_}
#define CLI_OPT_ROOT(type, field, help_)                                                    \
	{CLI_OPT_STRING, "--root", NULL, "DIR", offsetof(type, field), NULL, 0, false, false,    \
	 help_}
/* A command's own options. */
#define CLI_OPT_STR(shown, also_, arg, type, field, help_)                                  \
	{CLI_OPT_STRING, shown, also_, arg, offsetof(type, field), NULL, 0, false, false, help_}
#define CLI_OPT_FLAG(shown, type, field, help_)                                             \
	{CLI_OPT_BOOL, shown, NULL, NULL, offsetof(type, field), NULL, 0, false, false, help_}
#define CLI_OPT_FN(shown, also_, arg, type, field, fn_, help_)                              \
	{CLI_OPT_CALL, shown, also_, arg, offsetof(type, field), fn_, 0, false, false, help_}
#define CLI_OPT_HELP_LINE(shown, help_)                                                    \
	{CLI_OPT_SHOW, shown, NULL, NULL, 0, NULL, 0, false, false, help_}

#endif

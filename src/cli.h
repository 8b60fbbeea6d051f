/*
 * cli.h - what the command-line front end's files share: the subcommand
 * table entry, diagnostic printing and exit codes.  Only src/ prints.
 */
#ifndef KFIT_CLI_H
#define KFIT_CLI_H

#include "kfit/kconfig.h"
#include "kfit/util.h"

#include <stdbool.h>
#include <stdio.h>

/* Exit codes, documented in docs/kfit.1 and README. */
enum {
	KF_EXIT_OK = 0,    /* success, requirements met, no differences */
	KF_EXIT_UNMET = 1, /* unmet requirements, differences found */
	KF_EXIT_BAD = 2,   /* bad usage or bad input */
};

struct cli_spec;

typedef struct kf_cmd {
	const char *name;    /* subcommand word */
	int (*fn)(int argc, char **argv); /* argv[0] is the subcommand */
	const char *summary; /* one line for `kfit --help` */
	const struct cli_spec *spec; /* its options and help (src/options.h) */
} kf_cmd;

/* Print every diagnostic in d to stderr, in order. */
void cli_print_diags(const kf_diags *d);
/* s with control characters (not newline, tab) shown as \xNN. */
void cli_put_text(const char *s, FILE *f);
/* Text made from data (src/quote.c): s with control characters shown as
 * \xNN (a terminal would obey them), newline and tab kept when lines is
 * true (not in a '#' comment line, where a newline would end the comment). */
void cli_add_text(kf_strbuf *sb, const char *s, bool lines);
/* A malloc'd copy of s (NULL: "") for one line of a terminal: every
 * control character, newline and tab included, as \xNN. */
char *cli_escape(const char *s);
/* "kfit: detected NAME (REASON)" on stderr, escaped (the reason quotes
 * os-release). */
void cli_print_detected(const char *name, const char *reason);
/* w as one POSIX shell word, for a command the user pastes: as it is when
 * it needs no quoting, else in single quotes, a control character (not
 * newline or tab) made by "$(printf '\NNN')" between them. */
void cli_shell_word(kf_strbuf *sb, const char *w);
/* argv (NULL-ended) as shell words separated by spaces. */
void cli_shell_words(kf_strbuf *sb, const char *const *argv);
/* Print "kfit: error: msg" to stderr. */
void cli_error(const char *fmt, ...) KF_PRINTF(1, 2);
/* Print a command's usage to stdout (for --help) or stderr. */
void cli_usage(const kf_cmd *c, int to_stderr);
/* The table entry for a subcommand name, or NULL. */
const kf_cmd *cli_find(const char *name);
/* A progress callback for the library: "kfit: msg" on stderr. */
void cli_progress(const char *msg, void *ctx);
/* A signal that ends kfit ends the commands it started; out of memory
 * says so and exits (src/signals.c). */
void cli_signals_init(void);
/* What kfit does, for the out-of-memory message: the command, or (step)
 * a step of it after the command. */
void cli_doing(const char *what, bool step);
/* The status out of memory exits with (KF_EXIT_BAD; conf: 1). */
void cli_oom_status(int status);
/* ARCH for a kernel for this machine (its own width: x86_64 on a 64-bit
 * x86 host, arm64 on aarch64, i386 on 32-bit x86). */
const char *cli_machine_arch(void);
/* The CROSS_COMPILE kfit takes for ARCH when the environment names none:
 * for another architecture than this machine's and no LLVM (clang takes
 * the target from ARCH), Debian's gcc-TRIPLET prefix ("aarch64-linux-gnu-",
 * malloc'd); NULL when CROSS_COMPILE is set (even empty, as make takes it),
 * with LLVM, or for this machine's architecture. */
char *cli_cross_compile(const char *arch);

/* Columns to wrap text for f at: the terminal's width when f is one, else
 * $COLUMNS, else 80. */
int cli_text_width(FILE *f);
/* Append text wrapped at width: each '\n'-separated paragraph starts on a
 * line of its own after indent spaces, its continuation lines after cont;
 * words longer than a line stay whole. */
void cli_wrap(kf_strbuf *sb, const char *text, int indent, int cont, int width);

/* Colour (src/term.c): main() sets the mode from --color WHEN. */
typedef enum { CLI_COLOR_AUTO, CLI_COLOR_ALWAYS, CLI_COLOR_NEVER } cli_color_mode;
/* "auto", "always" or "never"; -1 for anything else. */
int cli_color_parse(const char *when, cli_color_mode *mode);
void cli_color_set(cli_color_mode mode);
/* Whether to colour what goes to f: always; never; auto = f is a tty,
 * NO_COLOR unset or empty and TERM is not "dumb". */
bool cli_color(FILE *f);
/* code when colouring f, else "". */
const char *cli_sgr(FILE *f, const char *code);
#define CLI_RED "\033[31m"
#define CLI_GREEN "\033[32m"
#define CLI_YELLOW "\033[33m"
#define CLI_BOLD "\033[1m"
#define CLI_RESET "\033[0m"

/* The candidate a mistyped word most likely meant, or NULL. */
const char *cli_did_you_mean(const char *word, const char *const *cands, size_t n);
/* "kfit: error: CMD: unknown option 'ARG' (did you mean '--X'?)" on
 * stderr (the caller adds the synopsis: cli_spec_usage_short). */
void cli_unknown_option(const char *cmd, const char *arg);

int cmd_kconfig(int argc, char **argv);
int cmd_conf(int argc, char **argv);
extern const struct cli_spec cmd_conf_spec;

/* The terminal side of the interactive modes (src/cmd_conf.c): answers
 * from stdin, conf's text on stdout, diagnostics printed as they come. */
typedef struct cli_ask {
	kc_io io;       /* what the engine calls */
	kf_diags *d;    /* the run's diagnostics */
	size_t printed; /* how many of d are printed */
	bool silent;    /* conf -s: conf's messages are not printed */
	bool conf_format; /* errors as conf prints them: "Kconfig:5: msg" */
} cli_ask;
void cli_ask_init(cli_ask *c, kf_diags *d, bool silent);
/* Print the diagnostics not printed yet (conf's messages on stdout). */
void cli_ask_print_diags(cli_ask *c);
int cmd_generate(int argc, char **argv);
extern const struct cli_spec cmd_generate_spec;
int cmd_why(int argc, char **argv);
int cmd_diff(int argc, char **argv);
extern const struct cli_spec cmd_diff_spec;
int cmd_kconfig_menu(int argc, char **argv);
extern const struct cli_spec cmd_kconfig_menu_spec;
extern const struct cli_spec cmd_why_spec;
extern const struct cli_spec cmd_kconfig_spec;

int cmd_profiles(int argc, char **argv);
extern const struct cli_spec cmd_profiles_spec;
int cmd_check(int argc, char **argv);
extern const struct cli_spec cmd_check_spec;
int cmd_detect(int argc, char **argv);
int cmd_build(int argc, char **argv);
extern const struct cli_spec cmd_build_spec;
extern const struct cli_spec cmd_detect_spec;

#endif

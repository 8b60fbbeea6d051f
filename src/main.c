/*
 * main.c - kfit's entry point: the subcommand table and dispatch.
 * Each subcommand lives in src/cmd_<name>.c with its usage text beside it.
 */
#include "cli.h"
#include "options.h"

#include <malloc.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#ifndef KFIT_VERSION
#define KFIT_VERSION "0.1"
#endif

static const kf_cmd commands[] = {
	{"kconfig", cmd_kconfig, "run a Kconfig mode (olddefconfig, allnoconfig, ...) on a kernel tree",
	 &cmd_kconfig_spec},
	{"conf", cmd_conf, "the kernel's scripts/kconfig/conf (its command line and output) over kfit's engine",
	 &cmd_conf_spec},
	{"generate", cmd_generate, "make a .config in which the named profiles' requirements hold",
	 &cmd_generate_spec},
	{"kconfig-menu", cmd_kconfig_menu, "write the in-tree \"Distro\" Kconfig menu from the profiles",
	 &cmd_kconfig_menu_spec},
	{"diff", cmd_diff, "show the options two .config files set differently, grouped by menu",
	 &cmd_diff_spec},
	{"why", cmd_why, "explain why a symbol has its value in a configuration",
	 &cmd_why_spec},
	{"profiles", cmd_profiles, "list, show and lint the profiles (what a distro, init, feature or platform needs)",
	 &cmd_profiles_spec},
	{"check", cmd_check, "check a .config against profiles: every requirement, with its reason",
	 &cmd_check_spec},
	{"build", cmd_build, "build the kernel for a configuration kfit made, packaged for the target distribution",
	 &cmd_build_spec},
	{"detect", cmd_detect, "what this machine is and has: distro, init, platform, devices and the symbols they need",
	 &cmd_detect_spec},
};

const kf_cmd *cli_find(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

void cli_print_diags(const kf_diags *d)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	for (size_t i = 0; i < d->n; i++) {
		kf_strbuf_reset(&sb);
		/* one error format: FILE:LINE:COL: for input, else kfit: */
		if (!d->v[i].file && !d->v[i].raw)
			kf_strbuf_addstr(&sb, "kfit: ");
		kf_diag_format(&d->v[i], &sb);
		kf_strbuf_addch(&sb, '\n');
		if (d->v[i].raw) /* conf's own text, byte for byte */
			fputs(kf_strbuf_str(&sb), stderr);
		else /* names and values in it are data */
			cli_put_text(kf_strbuf_str(&sb), stderr);
	}
	kf_strbuf_release(&sb);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "kfit: %serror:%s ", cli_sgr(stderr, CLI_RED CLI_BOLD),
		cli_sgr(stderr, CLI_RESET));
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void cli_usage(const kf_cmd *c, int to_stderr)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	cli_spec_usage(c->spec, &sb);
	fputs(kf_strbuf_str(&sb), to_stderr ? stderr : stdout);
	kf_strbuf_release(&sb);
}

static void main_usage(FILE *f)
{
	fputs("usage: kfit [--color WHEN] COMMAND [ARGS...]\n\ncommands:\n", f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-14s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "  %-14s %s\n", "help", "this text; 'kfit help COMMAND': a command's options");
	fprintf(f, "  %-14s %s\n", "version", "print kfit's version (also --version)");
	fputs("\noptions for every command:\n", f);
	kf_strbuf sb = KF_STRBUF_INIT;
	cli_spec_usage(&cli_global_spec, &sb);
	fputs(kf_strbuf_str(&sb), f);
	kf_strbuf_release(&sb);
	fputs("\nRun 'kfit COMMAND --help' for a command's options.\n"
	      "exit status: 0 ok, 1 unmet requirements or differences found,\n"
	      "2 bad usage or bad input\n", f);
}

/* "unknown command" with the command it most likely meant, and where the
 * list is (not the whole help: the mistake would scroll away). */
static void unknown_command(const char *name)
{
	const char *names[sizeof(commands) / sizeof(commands[0]) + 2];
	size_t n = 0;
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		names[n++] = commands[i].name;
	names[n++] = "help";
	names[n++] = "version";
	const char *hint = cli_did_you_mean(name, names, n);
	if (hint)
		cli_error("unknown command '%s' (did you mean '%s'?)", name, hint);
	else
		cli_error("unknown command '%s'", name);
	fputs("usage: kfit [--color WHEN] COMMAND [ARGS...]\n"
	      "Run 'kfit --help' for the commands.\n", stderr);
}

/* kfit help --commands | --flags [CMD] | --words CMD (src/help.c) */
static int help_mode(int argc, char **argv)
{
	const char *mode = argv[2];
	const kf_cmd *c = argc > 3 ? cli_find(argv[3]) : NULL;
	if (argc > 3 && !c) {
		cli_error("help: unknown command '%s'", argv[3]);
		return KF_EXIT_BAD;
	}
	if (!strcmp(mode, "--commands") && argc == 3) {
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			printf("%s\t%s\n", commands[i].name, commands[i].summary);
		return KF_EXIT_OK;
	}
	if (!strcmp(mode, "--flags") && argc <= 4) {
		if (c)
			cli_spec_flags(c->spec, stdout);
		else
			cli_spec_flags(&cli_global_spec, stdout);
		return KF_EXIT_OK;
	}
	if (!strcmp(mode, "--words") && c && argc == 4) {
		cli_spec_words(c->spec, stdout);
		return KF_EXIT_OK;
	}
	cli_error("help: usage: kfit help [COMMAND | --commands | --flags [COMMAND] | --words COMMAND]");
	return KF_EXIT_BAD;
}

/* Take the options every command has (--color WHEN, --color=WHEN,
 * --no-color) out of argv, anywhere before "--".  -1 on a bad WHEN. */
static int global_options(int *argc, char **argv)
{
	int n = 1;
	cli_color_mode mode = CLI_COLOR_AUTO;
	bool rest = false;
	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i], *when = NULL;
		if (rest || strncmp(a, "--", 2)) {
			argv[n++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			rest = true;
			argv[n++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--no-color"))
			when = "never";
		else if (!strncmp(a, "--color=", 8))
			when = a + 8;
		else if (!strcmp(a, "--color")) {
			if (i + 1 >= *argc) {
				cli_error("--color needs auto, always or never");
				return -1;
			}
			when = argv[++i];
		} else {
			argv[n++] = argv[i];
			continue;
		}
		if (cli_color_parse(when, &mode) < 0) {
			cli_error("--color takes auto, always or never, not '%s'", when);
			return -1;
		}
	}
	argv[n] = NULL;
	*argc = n;
	cli_color_set(mode);
	return 0;
}

/*
 * kfit runs for a second or less and reuses what it frees: the heap grows
 * in 16 MB steps and is never given back, since every fresh page costs a
 * fault and the trimmed top of the heap was faulted in again and again
 * (under a hypervisor a fault costs tens of microseconds: olddefconfig of
 * Debian's 6.1 config 994 -> 840 faults, generate 1736 -> 1482).  Only
 * the process's allocator: the commands kfit runs are not touched.
 */
static void tune_malloc(void)
{
	mallopt(M_TOP_PAD, 16 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	/* setting those fixes the mmap threshold at 128 KB (glibc raises it
	 * as big blocks are freed, unless told): every file read of 128 KB
	 * or more would be a fresh mapping */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
}

int main(int argc, char **argv)
{
	tune_malloc();
	cli_signals_init();
	/* installed as scripts/kconfig/conf (or a link named conf) */
	const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	if (!strcmp(base, "conf")) {
		cli_oom_status(1);
		return cmd_conf(argc, argv);
	}
	if (global_options(&argc, argv) < 0)
		return KF_EXIT_BAD;
	if (argc < 2) {
		main_usage(stderr);
		return KF_EXIT_BAD;
	}
	if (!strcmp(argv[1], "help") && argc > 2 && argv[2][0] == '-' &&
	    strcmp(argv[2], "-h") && strcmp(argv[2], "--help"))
		return help_mode(argc, argv);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		if (argc > 2 && cli_find(argv[2])) {
			cli_usage(cli_find(argv[2]), 0);
			return KF_EXIT_OK;
		}
		if (argc > 2 && strcmp(argv[2], "-h") && strcmp(argv[2], "--help")) {
			unknown_command(argv[2]);
			return KF_EXIT_BAD;
		}
		main_usage(stdout);
		return KF_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		puts("kfit " KFIT_VERSION);
		return KF_EXIT_OK;
	}
	if (!strcmp(argv[1], "version")) {
		puts("kfit " KFIT_VERSION);
		return KF_EXIT_OK;
	}
	const kf_cmd *c = cli_find(argv[1]);
	if (c) {
		char what[128];
		snprintf(what, sizeof(what), "kfit %s", argv[1]);
		cli_doing(what, false);
	}
	if (!c) {
		unknown_command(argv[1]);
		return KF_EXIT_BAD;
	}
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_usage(c, 0);
			return KF_EXIT_OK;
		}
	}
	return c->fn(argc - 1, argv + 1);
}

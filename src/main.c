/*
 * main.c - kfit's entry point: the subcommand table and dispatch.
 * Each subcommand lives in src/cmd_<name>.c with its usage text beside it.
 */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const kf_cmd commands[] = {
	{"kconfig", cmd_kconfig, "run a Kconfig mode (olddefconfig, allnoconfig, ...) on a kernel tree",
	 cmd_kconfig_usage},
	{"generate", cmd_generate, "make a .config in which the named profiles' requirements hold",
	 cmd_generate_usage},
	{"kconfig-menu", cmd_kconfig_menu, "write the in-tree \"Distro\" Kconfig menu from the profiles",
	 cmd_kconfig_menu_usage},
	{"diff", cmd_diff, "show the options two .config files set differently, grouped by menu",
	 cmd_diff_usage},
	{"why", cmd_why, "explain why a symbol has its value in a configuration",
	 cmd_why_usage},
	{"profiles", cmd_profiles, "list, show and lint the profiles (what a distro, init, feature or platform needs)",
	 cmd_profiles_usage},
	{"check", cmd_check, "check a .config against profiles: every requirement, with its reason",
	 cmd_check_usage},
	{"detect", cmd_detect, "what this machine is and has: distro, init, platform, devices and the symbols they need",
	 cmd_detect_usage},
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
		kf_diag_format(&d->v[i], &sb);
		fprintf(stderr, "%s\n", kf_strbuf_str(&sb));
	}
	kf_strbuf_release(&sb);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("kfit: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void cli_usage(const kf_cmd *c, int to_stderr)
{
	fputs(c->usage, to_stderr ? stderr : stdout);
}

static void main_usage(FILE *f)
{
	fputs("usage: kfit COMMAND [ARGS...]\n\ncommands:\n", f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-14s %s\n", commands[i].name, commands[i].summary);
	fputs("\nRun 'kfit COMMAND --help' for a command's options.\n", f);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		main_usage(stderr);
		return KF_EXIT_BAD;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		if (argc > 2 && cli_find(argv[2])) {
			cli_usage(cli_find(argv[2]), 0);
			return KF_EXIT_OK;
		}
		main_usage(stdout);
		return KF_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		puts("kfit 0.1");
		return KF_EXIT_OK;
	}
	const kf_cmd *c = cli_find(argv[1]);
	if (!c) {
		cli_error("unknown command '%s'", argv[1]);
		main_usage(stderr);
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

/*
 * term.c - terminal manners shared by the subcommands: whether to colour
 * (--color WHEN, NO_COLOR, TERM=dumb, a tty), progress lines and the
 * machine's own ARCH.
 * Colour is decided per stream: stdout may be a pipe while stderr is a tty.
 */
#include "cli.h"

#include "kfit/build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The front end's one piece of state: set once by main() from --color. */
static cli_color_mode color_mode = CLI_COLOR_AUTO;

int cli_color_parse(const char *when, cli_color_mode *mode)
{
	if (!strcmp(when, "auto"))
		*mode = CLI_COLOR_AUTO;
	else if (!strcmp(when, "always"))
		*mode = CLI_COLOR_ALWAYS;
	else if (!strcmp(when, "never"))
		*mode = CLI_COLOR_NEVER;
	else
		return -1;
	return 0;
}

void cli_color_set(cli_color_mode mode)
{
	color_mode = mode;
}

bool cli_color(FILE *f)
{
	if (color_mode == CLI_COLOR_ALWAYS)
		return true; /* an explicit request beats NO_COLOR */
	if (color_mode == CLI_COLOR_NEVER)
		return false;
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		return false;
	const char *term = getenv("TERM");
	if (term && !strcmp(term, "dumb"))
		return false;
	return isatty(fileno(f)) == 1;
}

const char *cli_sgr(FILE *f, const char *code)
{
	return cli_color(f) ? code : "";
}

void cli_progress(const char *msg, void *ctx)
{
	(void)ctx;
	cli_doing(msg, true);
	fprintf(stderr, "kfit: %s\n", msg);
}

char *cli_cross_compile(const char *arch)
{
	const char *llvm = getenv("LLVM");
	if (getenv("CROSS_COMPILE") || (llvm && *llvm))
		return NULL;
	const char *trip = kf_build_cross_triplet(arch, cli_machine_arch());
	return trip ? kf_xasprintf("%s-", trip) : NULL;
}

const char *cli_machine_arch(void)
{
	static struct utsname u;
	if (uname(&u) < 0)
		return "x86_64";
	if (!strcmp(u.machine, "aarch64"))
		return "arm64";
	if (u.machine[0] == 'i' && strstr(u.machine, "86"))
		return "i386";
	return u.machine;
}

int cli_text_width(FILE *f)
{
	struct winsize ws;
	if (isatty(fileno(f)) && ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	const char *c = getenv("COLUMNS");
	long v = c ? strtol(c, NULL, 10) : 0;
	return v >= 40 && v <= 1000 ? (int)v : 80;
}

void cli_wrap(kf_strbuf *sb, const char *text, int indent, int cont, int width)
{
	for (const char *p = text;;) {
		const char *nl = strchr(p, '\n');
		const char *end = nl ? nl : p + strlen(p);
		kf_strbuf_addf(sb, "%*s", indent, "");
		int col = indent;
		bool first = true;
		while (p < end) {
			const char *w = p;
			while (p < end && *p != ' ')
				p++;
			int wl = (int)(p - w);
			if (!first && col + 1 + wl > width) {
				kf_strbuf_addf(sb, "\n%*s", cont, "");
				col = cont;
			} else if (!first) {
				kf_strbuf_addch(sb, ' ');
				col++;
			}
			kf_strbuf_add(sb, w, (size_t)wl);
			col += wl;
			first = false;
			while (p < end && *p == ' ')
				p++;
		}
		kf_strbuf_addch(sb, '\n');
		if (!nl)
			break;
		p = nl + 1;
	}
}

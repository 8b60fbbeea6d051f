/*
 * quote.c - text made from data, made safe for where it goes: a word of a
 * command the user pastes into a POSIX shell (quoted so that the shell
 * sees exactly that one word, with no control character a terminal would
 * obey), and text for a terminal or a '#' comment
 * line (control characters shown as \xNN, so that the terminal obeys no
 * escape sequence and a newline cannot end a comment and start a command).
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* Characters a shell word may hold unquoted: none of them is special to
 * a POSIX shell anywhere in a word ('=' and '%' only at a command's start,
 * where kfit never puts a value). */
static const char shell_plain[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%";

void cli_shell_word(kf_strbuf *sb, const char *w)
{
	bool plain = *w != 0;
	for (const char *p = w; *p && plain; p++)
		plain = strchr(shell_plain, *p) != NULL;
	if (plain) {
		kf_strbuf_addstr(sb, w);
		return;
	}
	/* in single quotes everything is literal, a newline included; a
	 * quote ends them, is escaped, and they start again; a control
	 * character other than newline and tab, which a terminal would obey
	 * when the command is shown, is made by printf in a command
	 * substitution between the quotes (POSIX sh has no $'\NNN') */
	kf_strbuf_addch(sb, '\'');
	for (const unsigned char *p = (const unsigned char *)w; *p; p++) {
		if (*p == '\'')
			kf_strbuf_addstr(sb, "'\\''");
		else if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
			kf_strbuf_addf(sb, "'\"$(printf '\\%03o')\"'", *p);
		else
			kf_strbuf_addch(sb, (char)*p);
	}
	kf_strbuf_addch(sb, '\'');
}

void cli_shell_words(kf_strbuf *sb, const char *const *argv)
{
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			kf_strbuf_addch(sb, ' ');
		cli_shell_word(sb, argv[i]);
	}
}

void cli_add_text(kf_strbuf *sb, const char *s, bool lines)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		bool keep = lines && (*p == '\n' || *p == '\t');
		if ((*p < 0x20 && !keep) || *p == 0x7f)
			kf_strbuf_addf(sb, "\\x%02x", *p);
		else
			kf_strbuf_addch(sb, (char)*p);
	}
}

char *cli_escape(const char *s)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	cli_add_text(&sb, s ? s : "", false);
	char *r = kf_strbuf_detach(&sb);
	return r ? r : kf_xstrdup("");
}

void cli_print_detected(const char *name, const char *reason)
{
	char *n = cli_escape(name), *r = cli_escape(reason);
	fprintf(stderr, "kfit: detected %s (%s)\n", n, r);
	free(n);
	free(r);
}

void cli_put_text(const char *s, FILE *f)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	cli_add_text(&sb, s, true);
	fputs(kf_strbuf_str(&sb), f);
	kf_strbuf_release(&sb);
}

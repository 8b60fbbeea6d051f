/*
 * kc_diag.c - where the Kconfig reader is, for messages: the current
 * statement's file and line, the lexer's line, and the two ways an error
 * is reported there: the preprocessor's and $(shell)'s fatal one
 * (kc_pp_error) and the parser's (kc_parse_error, which says when the
 * tree is newer than the kernels kfit knows).  The preprocessor and the
 * shell need only this, not the parser.
 */
#include "kc_lex.h"

#include <stdarg.h>
#include <stdlib.h>

const char *kc_cur_file(kc_tree *t)
{
	return t->lx && t->lx->cur_file ? t->lx->cur_file : "<none>";
}

int kc_cur_lineno(kc_tree *t)
{
	return t->lx ? t->lx->cur_lineno : 0;
}

int kc_lex_lineno(kc_tree *t)
{
	if (t->lx && !t->lx->f && t->lx->eof_file)
		return t->lx->eof_lineno; /* conf's yylineno after the end */
	return t->lx && t->lx->f ? t->lx->f->lineno : 0;
}

bool kc_pp_failed(kc_tree *t)
{
	return t->lx && t->lx->fatal;
}

void kc_pp_error(kc_tree *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	/* before parsing: a command of the top Makefile's (CC_VERSION_TEXT) */
	char *mk = t->lx && t->lx->f ? NULL : kf_xasprintf("%s/Makefile", t->srctree);
	const char *file = mk ? mk : t->lx->f->name;
	kf_diag_add(t->diags, KF_ERROR, file, kc_lex_lineno(t), 0, "%s",
		    kf_strbuf_str(&sb));
	free(mk);
	kf_strbuf_release(&sb);
	if (t->lx)
		t->lx->fatal = true;
	t->nerrors++;
}

void kc_parse_error(kc_tree *t, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	/* a tree newer than kfit may use syntax kfit does not know yet */
	if (t->newer_than_kfit)
		kf_strbuf_addf(&sb,
			       " (this tree is Linux %s, newer than the kernels kfit knows, up to %d.%d: it may use Kconfig syntax kfit does not support yet)",
			       t->kernelversion, KC_VER_NEWEST / 100,
			       KC_VER_NEWEST % 100);
	kf_diag_add(t->diags, KF_ERROR, kc_cur_file(t), kc_cur_lineno(t), col,
		    "%s", kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
	t->nerrors++;
}

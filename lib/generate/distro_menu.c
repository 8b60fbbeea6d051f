/*
 * distro_menu.c - the "Distro" Kconfig menu of `kfit kconfig-menu`
 * (include/kfit/menu.h): the RFC's literal output.  Pick a distribution,
 * then a release; platform and feature options sit beside it.  Each option
 * selects what its profile needs, with a comment giving the reason, and -
 * because `select` ignores dependencies - the dependency closure the
 * resolver found, so the kernel's own conf prints no "unmet direct
 * dependencies" warning.  What select cannot express (must-be-off, choice
 * members, string and number values, the items of a list such as
 * CONFIG_LSM) becomes a comment that shows while unmet and a line of the
 * KCONFIG_ALLCONFIG fragment.  A requirement that depends on another
 * option's value (`if FAT_DEFAULT_IOCHARSET="utf8"`) selects under the
 * same condition.
 */
#include "kfit/menu.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* One menu option and what it selects. */
struct item {
	const char *profile;     /* profile name */
	const prof_profile *p;   /* the profile */
	char *sym;               /* DISTRO_DEBIAN_12 */
	char *family;            /* DISTRO family symbol, distros only */
	kf_strbuf selects;       /* "\t# reason\n\tselect X\n" lines */
	kf_strbuf comments;      /* comments for what select cannot set */
	kf_strbuf fragment;      /* allconfig lines for what select cannot set */
	char **sel;              /* selected symbols (for the subset test) */
	size_t nsel, asel;       /* their count */
	const char *parent;      /* symbol of the release this one inherits */
};

static char *symify(const char *prefix, const char *name)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addstr(&sb, prefix);
	for (const char *p = name; *p; p++)
		kf_strbuf_addch(&sb, isalnum((unsigned char)*p)
					     ? toupper((unsigned char)*p)
					     : '_');
	return kf_strbuf_detach(&sb);
}

static const char *prefix_of(prof_kind k)
{
	switch (k) {
	case PROF_KIND_DISTRO:
		return "DISTRO_";
	case PROF_KIND_PLATFORM:
		return "PLATFORM_";
	case PROF_KIND_FEATURE:
		return "FEATURE_";
	default:
		return NULL;
	}
}

/*
 * Everything below copies profile text (titles, reasons, values) into
 * Kconfig, which the kernel's conf preprocesses: "$(...)" in a quoted
 * string is expanded, so $(shell,...) would run on every `make *config`.
 * In a string, the lexer's backslash escape makes '$' literal ("\$"), as
 * it does for '"' and '\'; comment lines and help text are never
 * expanded.  Control characters (a newline would end the line, an escape
 * sequence would reach menuconfig's terminal) become spaces.
 */
static int ktext_char(int c)
{
	return (c >= 0 && c < 0x20) || c == 0x7f ? ' ' : c;
}

/* A Kconfig string literal. */
static void kstr(kf_strbuf *sb, const char *s)
{
	kf_strbuf_addch(sb, '"');
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\' || *s == '$')
			kf_strbuf_addch(sb, '\\');
		kf_strbuf_addch(sb, ktext_char((unsigned char)*s));
	}
	kf_strbuf_addch(sb, '"');
}

/* A string value in a .config fragment (conf reads it back unexpanded;
 * only '"' and '\\' are escaped there). */
static void cstr(kf_strbuf *sb, const char *s)
{
	kf_strbuf_addch(sb, '"');
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			kf_strbuf_addch(sb, '\\');
		kf_strbuf_addch(sb, ktext_char((unsigned char)*s));
	}
	kf_strbuf_addch(sb, '"');
}

/* Plain text on one line: a comment or a help line. */
static void ktext(kf_strbuf *sb, const char *s)
{
	for (; s && *s; s++)
		kf_strbuf_addch(sb, ktext_char((unsigned char)*s));
}

/* The first line of a help text: the lexer takes its indentation as the
 * block's, so a title starting with blanks (or control characters, which
 * become blanks) would end the help at the next line; they are left out. */
static void khelp_first(kf_strbuf *sb, const char *s)
{
	while (s && *s && ktext_char((unsigned char)*s) == ' ')
		s++;
	ktext(sb, s);
}

/* Kconfig comment text: one comment per paragraph (a reason line of the
 * profile), each wrapped at 78 columns with its continuation lines
 * indented, so that several reasons never run together. */
static void kcomment(kf_strbuf *sb, const char *indent, const char *s)
{
	enum { WIDTH = 78 };
	int base = indent[0] == '\t' ? 8 : 0;
	for (const char *p = s ? s : ""; ; ) {
		const char *nl = strchr(p, '\n');
		const char *end = nl ? nl : p + strlen(p);
		kf_strbuf_addf(sb, "%s#", indent);
		int col = base + 1;
		bool first = true;
		while (p < end) {
			while (p < end && *p == ' ')
				p++;
			const char *w = p;
			while (p < end && *p != ' ')
				p++;
			if (w == p)
				break;
			int wl = (int)(p - w);
			if (!first && col + 1 + wl > WIDTH) {
				kf_strbuf_addf(sb, "\n%s#  ", indent);
				col = base + 3;
			}
			kf_strbuf_addch(sb, ' ');
			for (const char *c = w; c < p; c++)
				kf_strbuf_addch(sb, ktext_char((unsigned char)*c));
			col += 1 + wl;
			first = false;
		}
		kf_strbuf_addch(sb, '\n');
		if (!nl)
			break;
		p = nl + 1;
	}
}

/* A number a profile gave (validated by the profile parser); anything
 * else is quoted. */
static bool plain_number(const char *s)
{
	if (*s == '-')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s))
			return false;
	return true;
}

static bool has_sel(const struct item *it, const char *s)
{
	for (size_t i = 0; i < it->nsel; i++)
		if (!strcmp(it->sel[i], s))
			return true;
	return false;
}

/* The tree's kernel version (KF_KVER), 0 when unknown. */
static uint32_t tree_kver(kc_tree *t)
{
	uint32_t v = 0;
	const char *s = kc_tree_kernelversion(t);
	if (!s || kf_kver_parse(s, &v) < 0)
		return 0;
	return v;
}

/*
 * " if COND": the Kconfig form of a requirement's condition on another
 * option's value, so the menu's select follows that value as the
 * requirement does (`select NLS_UTF8 if FAT_DEFAULT_IOCHARSET = "utf8"`);
 * "" when it has none, or one Kconfig cannot say (a list item) or about
 * a symbol this tree lacks.
 */
static const char *select_cond(kf_arena *a, kc_tree *t, const prof_db *db,
			       const prof_req *r)
{
	const prof_alt *c = r->cond.if_alt;
	if (!c)
		return "";
	uint32_t kver = tree_kver(t);
	const char *n = prof_sym_for_kver(db, c->sym, kver);
	if (!kc_sym_find(t, n))
		return "";
	kf_strbuf sb = KF_STRBUF_INIT;
	switch (c->want) {
	case PROF_WANT_ENABLED:
		kf_strbuf_addf(&sb, " if %s", n);
		break;
	case PROF_WANT_BUILTIN:
		kf_strbuf_addf(&sb, " if %s = y", n);
		break;
	case PROF_WANT_OFF:
		kf_strbuf_addf(&sb, " if !%s", n);
		break;
	case PROF_WANT_STRING:
		kf_strbuf_addf(&sb, " if %s = ", n);
		kstr(&sb, c->value);
		break;
	case PROF_WANT_NUMBER:
		if (plain_number(c->value))
			kf_strbuf_addf(&sb, " if %s = %s", n, c->value);
		break;
	default:
		break;
	}
	const char *out = kf_arena_strdup(a, kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
	return out;
}

/* A list requirement's alternative on sym, or NULL. */
static const prof_alt *list_alt(kc_tree *t, const prof_db *db, const prof_req *r,
				const char *sym)
{
	uint32_t kver = tree_kver(t);
	for (size_t k = 0; k < r->nalts; k++)
		if ((r->alts[k].want == PROF_WANT_CONTAINS || r->alts[k].want == PROF_WANT_LACKS) &&
		    !strcmp(prof_sym_for_kver(db, r->alts[k].sym, kver), sym))
			return &r->alts[k];
	return NULL;
}

/* Compute what one profile selects, from allnoconfig. */
static int compute_item(struct item *it, prof_db *db, kc_tree *t,
			const kf_base *base, const char *arch, kf_diags *d)
{
	const char *names[1] = {it->profile};
	prof_set *set = prof_flatten(db, names, 1, d);
	if (!set)
		return -1;
	kf_base_restore(t, base);
	kf_gen_opts go = {.tree = t, .db = db, .set = set, .arch = arch,
			  .initramfs = PROF_INITRAMFS_UNKNOWN, .minimize = true};
	kf_gen_result res;
	kf_generate(&go, base, &res, d);
	for (size_t i = 0; i < res.nchanges; i++) {
		const kf_change *c = &res.changes[i];
		bool on = !strcmp(c->to, "y") || !strcmp(c->to, "m");
		const char *why = c->req ? c->req->reason : c->why;
		if (!c->req) {
			/* followed from a select or a default: nothing to do */
			continue;
		}
		if (on && kf_sym_selectable(t, c->sym)) {
			if (c->path && strchr(c->path, ' '))
				kcomment(&it->selects, "\t", kf_arena_printf(res.arena, "%s (%s:%d)",
						c->path, c->req->loc.file ?
						prof_db_relpath(db, c->req->loc.file) : "?",
						c->req->loc.line));
			else
				kcomment(&it->selects, "\t", why);
			kf_strbuf_addf(&it->selects, "\tselect %s%s\n", c->sym,
				       select_cond(res.arena, t, db, c->req));
			KF_GROW(it->sel, it->nsel + 1, it->asel);
			it->sel[it->nsel++] = kf_xstrdup(c->sym);
			continue;
		}
		/* a value select cannot set: a comment while unmet and a
		 * fragment line */
		/* a list: one comment per requirement on its items (the
		 * change names only the last that edited it); Kconfig cannot
		 * test an item, so each shows while the list differs from the
		 * one kfit made */
		bool listed = false;
		for (size_t q = 0; q < set->n; q++) {
			const prof_req *r = set->reqs[q];
			const prof_alt *la = list_alt(t, db, r, c->sym);
			if (!la || r->shadowed_by || !prof_req_applies(r, tree_kver(t), arch))
				continue;
			kcomment(&it->comments, "", r->reason);
			kf_strbuf_addstr(&it->comments, "comment ");
			kstr(&it->comments,
			     kf_arena_printf(res.arena, "%s needs CONFIG_%s to %s %s%s%s",
					     it->profile, c->sym,
					     la->want == PROF_WANT_CONTAINS ? "list" : "leave out",
					     la->value, la->before ? " before " : "",
					     la->before ? la->before : ""));
			kf_strbuf_addf(&it->comments, "\n\tdepends on %s && %s != ", it->sym, c->sym);
			kstr(&it->comments, c->to);
			kf_strbuf_addstr(&it->comments, "\n\n");
			listed = true;
		}
		if (!listed) {
			/* a comment entry takes no help: the reason goes above it */
			kcomment(&it->comments, "", why ? why : "");
			kf_strbuf_addstr(&it->comments, "comment ");
			kstr(&it->comments, kf_arena_printf(res.arena, "%s needs CONFIG_%s=%s",
							    it->profile, c->sym, c->to));
			kf_strbuf_addf(&it->comments, "\n\tdepends on %s && ", it->sym);
			if (on)
				kf_strbuf_addf(&it->comments, "!%s\n", c->sym);
			else if (!strcmp(c->to, "n") || !strcmp(c->to, "absent"))
				kf_strbuf_addf(&it->comments, "%s\n", c->sym);
			else {
				kf_strbuf_addf(&it->comments, "%s != ", c->sym);
				if (!isdigit((unsigned char)c->to[*c->to == '-']) || !plain_number(c->to))
					kstr(&it->comments, c->to);
				else
					kf_strbuf_addstr(&it->comments, c->to);
				kf_strbuf_addch(&it->comments, '\n');
			}
			kf_strbuf_addch(&it->comments, '\n');
		}
		kcomment(&it->fragment, "", kf_arena_printf(res.arena, "%s: %s", it->profile,
							    why ? why : ""));
		if (!strcmp(c->to, "n") || !strcmp(c->to, "absent"))
			kf_strbuf_addf(&it->fragment, "# CONFIG_%s is not set\n", c->sym);
		else if (kf_sym_is_string(t, c->sym)) {
			kf_strbuf_addf(&it->fragment, "CONFIG_%s=", c->sym);
			cstr(&it->fragment, c->to);
			kf_strbuf_addch(&it->fragment, '\n');
		} else {
			kf_strbuf_addf(&it->fragment, "CONFIG_%s=", c->sym);
			ktext(&it->fragment, c->to);
			kf_strbuf_addch(&it->fragment, '\n');
		}
	}
	for (size_t i = 0; i < res.nunmet; i++)
		kf_diag_add(d, KF_WARNING, res.unmet[i].req->loc.file,
			    res.unmet[i].req->loc.line, 0,
			    "%s: cannot be met on this tree: %s", it->profile,
			    res.unmet[i].chain);
	kf_gen_result_release(&res);
	prof_set_free(set);
	return 0;
}

static void emit_item(kf_strbuf *out, const struct item *it, const struct item *items,
		      size_t n)
{
	kf_strbuf_addf(out, "config %s\n\tbool ", it->sym);
	kstr(out, it->p->title ? it->p->title : it->profile);
	kf_strbuf_addch(out, '\n');
	/* release N selects release N-1 when N keeps everything N-1 selects */
	const struct item *par = NULL;
	if (it->p->inherit)
		for (size_t i = 0; i < n; i++)
			if (!strcmp(items[i].profile, it->p->inherit))
				par = &items[i];
	/* only within one family: the parent's option depends on its own */
	bool chain = par && it->family && par->family &&
		     !strcmp(it->family, par->family);
	if (par)
		for (size_t i = 0; i < par->nsel && chain; i++)
			if (!has_sel(it, par->sel[i]))
				chain = false;
	if (chain) {
		kf_strbuf_addf(out, "\t# %s builds on %s\n\tselect %s\n", it->profile,
			       par->profile, par->sym);
		/* only what the parent does not select already */
		const char *p = kf_strbuf_str(&it->selects);
		while (*p) {
			const char *e1 = strchr(p, '\n');
			const char *l2 = e1 ? e1 + 1 : p + strlen(p);
			const char *e2 = strchr(l2, '\n');
			const char *next = e2 ? e2 + 1 : l2 + strlen(l2);
			const char *s = strstr(l2, "select ");
			bool dup = false;
			if (s && s < next) {
				char name[256];
				size_t k = 0;
				s += 7;
				while (s[k] && s[k] != '\n' && k < sizeof(name) - 1) {
					name[k] = s[k];
					k++;
				}
				name[k] = 0;
				dup = has_sel(par, name);
			}
			if (!dup)
				kf_strbuf_add(out, p, (size_t)(next - p));
			p = next;
		}
	} else {
		kf_strbuf_addstr(out, kf_strbuf_str(&it->selects));
	}
	kf_strbuf_addstr(out, "\thelp\n\t  ");
	khelp_first(out, it->p->title ? it->p->title : it->profile);
	kf_strbuf_addf(out, ".\n\t  Requirements: kfit profiles show %s\n\n", it->profile);
	kf_strbuf_addstr(out, kf_strbuf_str(&it->comments));
}


/* The family of a distro release: its name without the release. */
static char *family_of(const char *profile)
{
	char *fam = kf_xstrdup(profile);
	char *dash = strrchr(fam, '-');
	if (dash && isdigit((unsigned char)dash[1]))
		*dash = 0;
	return fam;
}

struct kf_menu {
	prof_db *db;            /* the profile database */
	const char **wanted;    /* the names asked for */
	size_t nwanted;         /* their count */
	struct item *items;     /* the options, in database order */
	size_t n, a;            /* their count and capacity */
};

kf_menu *kf_menu_new(prof_db *db, const char *const *wanted, size_t nwanted, bool all,
		     kf_diags *d)
{
	kf_menu *m = kf_xcalloc(1, sizeof(*m));
	m->db = db;
	m->wanted = kf_xcalloc(nwanted + 1, sizeof(char *));
	if (nwanted) /* --all: wanted may be NULL, and memcpy(.., NULL, 0) is undefined */
		memcpy(m->wanted, wanted, nwanted * sizeof(char *));
	m->nwanted = nwanted;
	/* the profiles: those asked for (and, for releases, the releases they
	 * inherit, so the menu can chain them), or all of them */
	for (size_t i = 0; i < prof_db_count(db); i++) {
		const prof_profile *p = prof_db_get(db, i);
		if (!prefix_of(p->kind) || p->stem)
			continue;
		bool take = all;
		for (size_t k = 0; k < nwanted && !take; k++) {
			if (!strcmp(wanted[k], p->name))
				take = true;
			/* inherited releases of a wanted distro */
			long param;
			const prof_profile *w = prof_db_find(db, wanted[k], &param, NULL);
			/* at most one step per profile: an inheritance cycle
			   (a local profile inheriting itself) is the resolver's
			   error to report, not a reason to loop here */
			for (size_t steps = prof_db_count(db); w && w->inherit && !take && steps;
			     steps--) {
				if (!strcmp(w->inherit, p->name))
					take = true;
				w = prof_db_find(db, w->inherit, &param, NULL);
			}
		}
		if (!take)
			continue;
		KF_GROW(m->items, m->n + 1, m->a);
		struct item *it = &m->items[m->n++];
		memset(it, 0, sizeof(*it));
		it->profile = p->name;
		it->p = p;
		it->sym = symify(prefix_of(p->kind), p->name);
		if (p->kind == PROF_KIND_DISTRO) {
			char *fam = family_of(p->name);
			it->family = symify("DISTRO_FAMILY_", fam);
			free(fam);
		}
	}
	for (size_t k = 0; k < nwanted; k++) {
		bool found = false;
		for (size_t i = 0; i < m->n; i++)
			if (!strcmp(m->items[i].profile, wanted[k]))
				found = true;
		if (!found) {
			long param;
			if (prof_db_find(db, wanted[k], &param, d))
				kf_diag_add(d, KF_ERROR, NULL, 0, 0,
					    "%s: only distro, platform and feature profiles have menu options",
					    wanted[k]);
		}
	}
	return m;
}

size_t kf_menu_count(const kf_menu *m)
{
	return m->n;
}

int kf_menu_compute(kf_menu *m, kc_tree *t, const kf_base *base, const char *arch,
		    kf_diags *d)
{
	for (size_t i = 0; i < m->n; i++)
		if (compute_item(&m->items[i], m->db, t, base, arch, d) < 0)
			return -1;
	return 0;
}

void kf_menu_allconfig(const kf_menu *m, kf_strbuf *f)
{
	kf_strbuf_addf(f, "# KCONFIG_ALLCONFIG fragment written by kfit kconfig-menu for");
	for (size_t k = 0; k < m->nwanted; k++) {
		kf_strbuf_addch(f, ' ');
		ktext(f, m->wanted[k]);
	}
	kf_strbuf_addstr(f, "\n# (needs the Distro menu: kfit kconfig-menu --install)\n");
	for (size_t k = 0; k < m->nwanted; k++)
		for (size_t i = 0; i < m->n; i++) {
			const struct item *it = &m->items[i];
			if (strcmp(it->profile, m->wanted[k]))
				continue;
			if (it->family)
				kf_strbuf_addf(f, "CONFIG_%s=y\n", it->family);
			kf_strbuf_addf(f, "CONFIG_%s=y\n", it->sym);
			kf_strbuf_addstr(f, kf_strbuf_str(&it->fragment));
		}
}

void kf_menu_kconfig(const kf_menu *m, kf_strbuf *k)
{
	kf_strbuf_addstr(k,
			 "# SPDX-License-Identifier: GPL-2.0\n"
			 "#\n"
			 "# Distro menu written by `kfit kconfig-menu` from kfit's profile\n"
			 "# database: what each distribution, platform and feature needs from\n"
			 "# the kernel, with the reason for every option.  Regenerate it\n"
			 "# instead of editing it.\n"
			 "\nmenu \"Distro\"\n\n");
	/* distributions: a choice of family, then a release */
	kf_strbuf_addstr(k, "choice\n\tprompt \"Distribution\"\n\tdefault DISTRO_NONE\n\thelp\n"
			    "\t  Pick the distribution this kernel is for; its release below\n"
			    "\t  then selects what that release's userspace needs.\n\n"
			    "config DISTRO_NONE\n\tbool \"none\"\n\n");
	const char **fams = NULL;
	size_t nf = 0, af = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct item *it = &m->items[i];
		if (!it->family)
			continue;
		bool seen = false;
		for (size_t f = 0; f < nf; f++)
			if (!strcmp(fams[f], it->family))
				seen = true;
		if (seen)
			continue;
		KF_GROW(fams, nf + 1, af);
		fams[nf++] = it->family;
		char *fam = family_of(it->profile);
		kf_strbuf_addf(k, "config %s\n\tbool ", it->family);
		kstr(k, fam);
		kf_strbuf_addstr(k, "\n\n");
		free(fam);
	}
	kf_strbuf_addstr(k, "endchoice\n\n");
	for (size_t f = 0; f < nf; f++) {
		kf_strbuf_addf(k, "if %s\n\n", fams[f]);
		for (size_t i = 0; i < m->n; i++)
			if (m->items[i].family && !strcmp(m->items[i].family, fams[f]))
				emit_item(k, &m->items[i], m->items, m->n);
		kf_strbuf_addf(k, "endif # %s\n\n", fams[f]);
	}
	free(fams);
	kf_strbuf_addstr(k, "comment \"Platforms\"\n\n");
	for (size_t i = 0; i < m->n; i++)
		if (m->items[i].p->kind == PROF_KIND_PLATFORM)
			emit_item(k, &m->items[i], m->items, m->n);
	kf_strbuf_addstr(k, "comment \"Features\"\n\n");
	for (size_t i = 0; i < m->n; i++)
		if (m->items[i].p->kind == PROF_KIND_FEATURE)
			emit_item(k, &m->items[i], m->items, m->n);
	kf_strbuf_addstr(k, "endmenu\n");
}

void kf_menu_free(kf_menu *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		struct item *it = &m->items[i];
		free(it->sym);
		free(it->family);
		kf_strbuf_release(&it->selects);
		kf_strbuf_release(&it->comments);
		kf_strbuf_release(&it->fragment);
		for (size_t s = 0; s < it->nsel; s++)
			free(it->sel[s]);
		free(it->sel);
	}
	free(m->items);
	free(m->wanted);
	free(m);
}

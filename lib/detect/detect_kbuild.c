/*
 * detect_kbuild.c - the Makefile facts of a kernel tree for the source
 * scan: every Kbuild/Makefile (arch/ only for the target arch), its
 * obj-$(CONFIG_FOO) += foo.o dir/ lines, composite objects (foo-y,
 * foo-objs, foo-$(CONFIG_BAR)), -I directories and modules a foreach
 * makes through a define'd macro (7.3's intel- and lenovo- prefixes);
 * then, for a .c file,
 * its object, module and the symbol that builds it (or the gate of its
 * directory, walking up).
 */
#include "detect_scan.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static objent *obj_get(scan *s, const char *path)
{
	size_t v;
	if (kf_strmap_get(&s->objmap, path, &v))
		return &s->objs[v];
	KF_GROW(s->objs, s->nobjs + 1, s->aobjs);
	objent *o = &s->objs[s->nobjs];
	memset(o, 0, sizeof(*o));
	o->path = kf_xstrdup(path);
	kf_strmap_put(&s->objmap, path, s->nobjs++);
	return o;
}

static bool is_word_end(char c)
{
	return c == 0 || c == ' ' || c == '\t';
}

/* Normalize "a/./b/../c" style paths (Makefiles rarely need more). */
char *kbuild_join_path(const char *dir, const char *rel, size_t n)
{
	char *p = kf_xasprintf("%s%.*s", dir, (int)n, rel);
	/* drop "x/../" */
	char *q;
	while ((q = strstr(p, "/../")) != NULL) {
		char *st = q;
		while (st > p && st[-1] != '/')
			st--;
		if (st == q) {
			break;
		}
		memmove(st, q + 4, strlen(q + 4) + 1);
	}
	while ((q = strstr(p, "/./")) != NULL)
		memmove(q, q + 2, strlen(q + 2) + 1);
	return p;
}

/* The -I directories of a ccflags line ($(srctree), $(src), $(obj)
 * replaced; anything else with $ ignored). */
static void mk_incdirs(scan *s, const char *dir, const char *words, bool subdir)
{
	const char *w = words;
	bool next_is_dir = false;
	for (;;) {
		while (*w == ' ' || *w == '\t')
			w++;
		if (!*w)
			break;
		const char *we = w;
		while (!is_word_end(*we))
			we++;
		const char *a = NULL;
		if (next_is_dir)
			a = w;
		else if (we - w > 2 && w[0] == '-' && w[1] == 'I')
			a = w + 2;
		next_is_dir = we - w == 2 && w[0] == '-' && w[1] == 'I';
		if (a) {
			kf_strbuf sb = KF_STRBUF_INIT;
			const char *q = a;
			bool ok = true;
			while (q < we && ok) {
				if (!strncmp(q, "$(srctree)/", 11)) {
					q += 11;
				} else if (!strncmp(q, "$(src)", 6) || !strncmp(q, "$(obj)", 6)) {
					size_t dl = strlen(dir);
					kf_strbuf_add(&sb, dir, dl && dir[dl - 1] == '/' ? dl - 1 : dl);
					q += 6;
				} else if (*q == '$') {
					ok = false;
				} else {
					kf_strbuf_addch(&sb, *q++);
				}
			}
			if (ok && sb.len && sb.buf[0] != '/') {
				if (sb.buf[sb.len - 1] != '/')
					kf_strbuf_addch(&sb, '/');
				char *path = kbuild_join_path("", sb.buf, sb.len);
				if (!strstr(path, "../") && strncmp(path, "./", 2)) {
					KF_GROW(s->incs, s->nincs + 1, s->aincs);
					s->incs[s->nincs].dir = kf_xstrdup(dir);
					s->incs[s->nincs].path = path;
					s->incs[s->nincs].subdir = subdir;
					s->nincs++;
				} else {
					free(path);
				}
			}
			kf_strbuf_release(&sb);
		}
		w = we;
	}
}

/* Handle one logical Makefile line "VAR OP words". */
static void mk_line(scan *s, const char *dir, const char *mkfile, int line, char *text)
{
	char *p = text;
	while (*p == ' ' || *p == '\t')
		p++;
	/* variable name up to an assignment operator */
	char *ve = p;
	int depth = 0;
	while (*ve && (depth || (*ve != '+' && *ve != ':' && *ve != '=' && *ve != '?' &&
				 *ve != ' ' && *ve != '\t'))) {
		if (*ve == '(')
			depth++;
		else if (*ve == ')')
			depth--;
		ve++;
	}
	if (ve == p)
		return;
	char *op = ve;
	while (*op == ' ' || *op == '\t')
		op++;
	if (!strncmp(op, "+=", 2) || !strncmp(op, ":=", 2) || !strncmp(op, "?=", 2))
		op += 2;
	else if (*op == '=')
		op++;
	else
		return;
	char *var = kf_xstrndup(p, (size_t)(ve - p));
	bool sub = !strncmp(var, "subdir-", 7);
	const char *cv = sub ? var + 7 : var;
	if (!strcmp(cv, "ccflags-y") || !strncmp(cv, "ccflags-$(CONFIG_", 17) ||
	    !strcmp(var, "EXTRA_CFLAGS")) {
		mk_incdirs(s, dir, op, sub);
		free(var);
		return;
	}
	char *sym = NULL, *name = NULL;
	bool obj = false, unconditional = false;
	char *dash = strstr(var, "-$(CONFIG_");
	if (dash) {
		char *e = strchr(dash, ')');
		if (e && e[1] == 0) {
			sym = kf_xstrndup(dash + 10, (size_t)(e - dash - 10));
			name = kf_xstrndup(var, (size_t)(dash - var));
		}
	} else {
		char *last = strrchr(var, '-');
		if (last && (!strcmp(last, "-y") || !strcmp(last, "-m") || !strcmp(last, "-objs"))) {
			name = kf_xstrndup(var, (size_t)(last - var));
			unconditional = true;
		}
	}
	if (!name) {
		free(var);
		return;
	}
	(void)unconditional;
	obj = !strcmp(name, "obj");
	static const char *const skip[] = {"lib", "ccflags", "asflags", "ldflags", "subdir",
					   "always", "extra", "targets", "hostprogs", "userprogs",
					   "clean", "core", "drivers", "libs", "head", "init",
					   "subdir-ccflags", "CFLAGS", "AFLAGS", "header-test",
					   "no-header-test", "generic", "mandatory", "generated",
					   "userccflags", "hostccflags", "always-$(KBUILD_BUILTIN)"};
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(name, skip[i]) || strchr(name, '$') || strchr(name, '/')) {
			free(var);
			free(name);
			free(sym);
			return;
		}
	char *composite = obj ? NULL : kf_xasprintf("%s%s.o", dir, name);
	/* the words */
	char *w = op;
	for (;;) {
		while (*w == ' ' || *w == '\t')
			w++;
		if (!*w)
			break;
		char *we = w;
		while (!is_word_end(*we))
			we++;
		size_t n = (size_t)(we - w);
		if (n > 2 && !strncmp(we - 2, ".o", 2) && !memchr(w, '$', n)) {
			char *path = kbuild_join_path(dir, w, n);
			objent *o = obj_get(s, path);
			if (obj) {
				if (!o->is_obj) {
					o->is_obj = true;
					o->symbol = sym ? kf_xstrdup(sym) : NULL;
					free(o->makefile);
					o->makefile = kf_xstrdup(mkfile);
					o->line = line;
				}
			} else if (!o->composite && strcmp(path, composite)) {
				o->composite = kf_xstrdup(composite);
				o->part_sym = sym ? kf_xstrdup(sym) : NULL;
				if (!o->makefile) {
					o->makefile = kf_xstrdup(mkfile);
					o->line = line;
				}
			}
			free(path);
		} else if (obj && n > 1 && w[n - 1] == '/' && !memchr(w, '$', n)) {
			char *path = kbuild_join_path(dir, w, n);
			size_t v;
			if (!kf_strmap_get(&s->dirmap, path, &v)) {
				KF_GROW(s->dirs, s->ndirs + 1, s->adirs);
				dir_gate *g = &s->dirs[s->ndirs];
				g->path = kf_xstrdup(path);
				g->symbol = sym ? kf_xstrdup(sym) : NULL;
				g->makefile = kf_xstrdup(mkfile);
				g->line = line;
				g->parent = kf_xstrdup(dir);
				kf_strmap_put(&s->dirmap, path, s->ndirs++);
			}
			free(path);
		}
		w = we;
	}
	free(composite);
	free(var);
	free(name);
	free(sym);
}

/* A Makefile's logical lines (continuations joined, comments cut). */
typedef struct mklines {
	char **v;   /* the lines */
	int *at;    /* the line each starts on */
	size_t n;   /* how many */
	size_t alloc; /* capacity */
} mklines;

/* "define NAME" .. "endef" bodies and the lists a foreach hands to them:
 * 7.3's drivers/platform/x86/{intel,lenovo}/Makefile prefix each module
 * so, from "intel-target-$(CONFIG_X) += hid.o" and
 *   define INTEL_OBJ_TARGET
 *   intel-$(1)-y := $(1).o
 *   obj-$(2) += intel-$(1).o
 *   endef
 *   $(foreach target, $(basename $(intel-target-y)), $(eval $(call INTEL_OBJ_TARGET,$(target),y)))
 * the body is read for each list entry with $(1) its name and $(2)
 * $(CONFIG_X). */
typedef struct mkmacro {
	char *list;  /* "intel-target" */
	size_t from, to; /* the body: lines [from, to) */
} mkmacro;

/* The list and macro of a "$(foreach V, $(basename $(LIST-y)), $(eval
 * $(call NAME,$(V),y)))" line: true with *list and *name (malloc'd). */
static bool foreach_call(const char *l, char **list, char **name)
{
	const char *p = strstr(l, "$(foreach ");
	const char *b = p ? strstr(p, "$(basename $(") : NULL;
	const char *c = b ? strstr(b, "$(eval $(call ") : NULL;
	if (!c)
		return false;
	b += 13;
	const char *be = strstr(b, "-y))");
	c += 14;
	const char *ce = strchr(c, ',');
	if (!be || be > c || !ce)
		return false;
	*list = kf_xstrndup(b, (size_t)(be - b));
	*name = kf_xstrndup(c, (size_t)(ce - c));
	return true;
}

/* Replace every $(1) in line with v1 and $(2) with v2 (malloc'd). */
static char *mk_subst(const char *line, const char *v1, const char *v2)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	for (const char *p = line; *p;) {
		if (!strncmp(p, "$(1)", 4) || !strncmp(p, "$(2)", 4)) {
			kf_strbuf_addstr(&sb, p[2] == '1' ? v1 : v2);
			p += 4;
		} else {
			kf_strbuf_addch(&sb, *p++);
		}
	}
	char *r = kf_xstrdup(sb.buf ? sb.buf : "");
	kf_strbuf_release(&sb);
	return r;
}

/* line assigns to "LIST-$(CONFIG_X)": X (malloc'd) and the words after the
 * operator in *words; NULL otherwise. */
static char *list_entry(const char *line, const char *list, const char **words)
{
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	size_t n = strlen(list);
	if (strncmp(p, list, n) || strncmp(p + n, "-$(CONFIG_", 10))
		return NULL;
	const char *e = strchr(p + n + 10, ')');
	const char *op = e ? strchr(e, '=') : NULL;
	if (!op)
		return NULL;
	*words = op + 1;
	return kf_xstrndup(p + n + 10, (size_t)(e - p - n - 10));
}

/* The body of macro m for each entry of its list, through mk_line. */
static void mk_expand(scan *s, const char *dir, const char *mkrel, const mklines *ml,
		      const mkmacro *m, int at)
{
	for (size_t i = 0; i < ml->n; i++) {
		const char *words;
		char *sym = list_entry(ml->v[i], m->list, &words);
		if (!sym)
			continue;
		char *v2 = kf_xasprintf("$(CONFIG_%s)", sym);
		for (const char *w = words; *w;) {
			while (*w == ' ' || *w == '\t')
				w++;
			size_t wn = strcspn(w, " \t");
			if (wn > 2 && !strncmp(w + wn - 2, ".o", 2)) {
				char *v1 = kf_xstrndup(w, wn - 2);
				for (size_t k = m->from; k < m->to; k++) {
					char *l = mk_subst(ml->v[k], v1, v2);
					mk_line(s, dir, mkrel, at, l);
					free(l);
				}
				free(v1);
			}
			w += wn;
		}
		free(v2);
		free(sym);
	}
}

static void mk_lines(char *text, mklines *ml)
{
	char *p = text;
	int line = 1;
	kf_strbuf logical = KF_STRBUF_INIT;
	while (*p) {
		int start = line;
		kf_strbuf_reset(&logical);
		for (;;) {
			char *e = strchr(p, '\n');
			size_t n = e ? (size_t)(e - p) : strlen(p);
			bool cont = n && p[n - 1] == '\\';
			kf_strbuf_add(&logical, p, cont ? n - 1 : n);
			kf_strbuf_addch(&logical, ' ');
			p = e ? e + 1 : p + n;
			if (e)
				line++;
			if (!cont || !*p)
				break;
		}
		char *l = logical.buf;
		char *hash = strchr(l, '#');
		if (hash)
			*hash = 0;
		KF_GROW(ml->v, ml->n + 1, ml->alloc);
		ml->at = kf_xrealloc(ml->at, ml->alloc * sizeof(int));
		ml->v[ml->n] = kf_xstrdup(l);
		ml->at[ml->n++] = start;
	}
	kf_strbuf_release(&logical);
}

static void mk_parse(scan *s, const char *dir, const char *mkrel, char *text)
{
	s->db->nmakefiles++;
	mklines ml = {0};
	mk_lines(text, &ml);
	/* the macros a foreach calls, with their lists */
	mkmacro mm[4];
	size_t nm = 0;
	for (size_t i = 0; i < ml.n && nm < 4; i++) {
		char *list, *name;
		if (!foreach_call(ml.v[i], &list, &name))
			continue;
		for (size_t k = 0; k < ml.n; k++) {
			const char *d = ml.v[k];
			while (*d == ' ' || *d == '\t')
				d++;
			size_t nl = strlen(name);
			if (strncmp(d, "define ", 7) || strncmp(d + 7, name, nl) ||
			    (d[7 + nl] != ' ' && d[7 + nl]))
				continue;
			size_t e = k + 1;
			while (e < ml.n && !strstr(ml.v[e], "endef"))
				e++;
			mm[nm++] = (mkmacro){kf_xstrdup(list), k + 1, e};
			break;
		}
		free(list);
		free(name);
	}
	for (size_t i = 0; i < ml.n; i++) {
		bool skip = false;
		for (size_t k = 0; k < nm && !skip; k++) {
			const char *w;
			char *sym = list_entry(ml.v[i], mm[k].list, &w);
			skip = sym || (i >= mm[k].from - 1 && i <= mm[k].to);
			free(sym);
			char *list, *name;
			if (!skip && foreach_call(ml.v[i], &list, &name)) {
				if (!strcmp(list, mm[k].list))
					mk_expand(s, dir, mkrel, &ml, &mm[k], ml.at[i]);
				skip = true;
				free(list);
				free(name);
			}
		}
		if (!skip)
			mk_line(s, dir, mkrel, ml.at[i], ml.v[i]);
	}
	for (size_t k = 0; k < nm; k++)
		free(mm[k].list);
	for (size_t i = 0; i < ml.n; i++)
		free(ml.v[i]);
	free(ml.v);
	free(ml.at);
}

/* ---- walking the tree ---- */

static bool skip_top(const scan *s, const char *rel, const char *name)
{
	if (*rel)
		return false;
	static const char *const top[] = {"Documentation", "tools", "scripts", "samples", "usr",
					  "LICENSES", "debian", "include", ".git"};
	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++)
		if (!strcmp(name, top[i]))
			return true;
	(void)s;
	return false;
}

void kbuild_walk(scan *s, const char *rel)
{
	char *abs = kf_xasprintf("%s/%s", s->tree, rel);
	DIR *dh = opendir(abs);
	if (!dh) {
		free(abs);
		return;
	}
	/* the Makefile of this directory: Kbuild wins, as in the kernel */
	char *kb = kf_xasprintf("%sKbuild", abs), *mk = kf_xasprintf("%sMakefile", abs);
	const char *use = kf_exists(kb) ? kb : kf_exists(mk) ? mk : NULL;
	/* the alias cache's stamp: the directory (files come and go, a
	 * Kbuild appears) and the Makefile read */
	KF_GROW(s->read, s->nread + 2, s->aread);
	s->read[s->nread++] = kf_xstrdup(rel);
	if (use)
		s->read[s->nread++] = kf_xstrdup(use + strlen(s->tree) + 1);
	if (use && *rel) {
		kf_strbuf sb = KF_STRBUF_INIT;
		kf_diags ignore = KF_DIAGS_INIT;
		if (kf_read_file(use, &sb, &ignore) == 0 && sb.buf)
			mk_parse(s, rel, use + strlen(s->tree) + 1, sb.buf);
		kf_strbuf_release(&sb);
		kf_diags_release(&ignore);
	}
	free(kb);
	free(mk);
	struct dirent *de;
	char **subs = NULL;
	size_t nsubs = 0, asubs = 0;
	while ((de = readdir(dh)) != NULL) {
		const char *n = de->d_name;
		if (n[0] == '.')
			continue;
		size_t len = strlen(n);
		bool isdir = de->d_type == DT_DIR;
		if (de->d_type == DT_UNKNOWN) {
			char *p = kf_xasprintf("%s%s", abs, n);
			isdir = kf_is_dir(p);
			free(p);
		}
		if (isdir) {
			if (skip_top(s, rel, n))
				continue;
			if (!strcmp(rel, "arch/") && strcmp(n, s->arch))
				continue;
			KF_GROW(subs, nsubs + 1, asubs);
			subs[nsubs++] = kf_xasprintf("%s%s/", rel, n);
		} else if (len > 2 && !strcmp(n + len - 2, ".c") && *rel) {
			KF_GROW(s->cfiles, s->ncfiles + 1, s->acfiles);
			s->cfiles[s->ncfiles++] = kf_xasprintf("%s%s", rel, n);
		}
	}
	closedir(dh);
	free(abs);
	for (size_t i = 0; i < nsubs; i++) {
		kbuild_walk(s, subs[i]);
		free(subs[i]);
	}
	free(subs);
}

void owner_release(owner *o)
{
	free(o->module);
	free(o->symbol);
	free(o->makefile);
	free(o->part_sym);
	free(o->object);
}

char *kbuild_modname(const char *objpath)
{
	const char *b = strrchr(objpath, '/');
	b = b ? b + 1 : objpath;
	size_t n = strlen(b);
	if (n > 2 && !strcmp(b + n - 2, ".o"))
		n -= 2;
	char *m = kf_xstrndup(b, n);
	for (char *p = m; *p; p++)
		if (*p == '-')
			*p = '_';
	return m;
}



/* The sibling .c file that has #include "BASENAME.c" for cfile, or NULL. */
static char *find_includer(scan *s, const char *cfile)
{
	const char *b = strrchr(cfile, '/');
	size_t dl = b ? (size_t)(b - cfile + 1) : 0;
	char *needle = kf_xasprintf("\"%s\"", b ? b + 1 : cfile);
	char *res = NULL;
	for (size_t i = 0; i < s->ncfiles && !res; i++) {
		const char *o = s->cfiles[i];
		if (strncmp(o, cfile, dl) || strchr(o + dl, '/') || !strcmp(o, cfile))
			continue;
		char *ob = kf_xstrdup(o);
		ob[strlen(ob) - 1] = 'o';
		size_t v;
		bool known = kf_strmap_get(&s->objmap, ob, &v);
		free(ob);
		if (!known)
			continue;
		char *abs = kf_xasprintf("%s/%s", s->tree, o);
		kf_strbuf sb = KF_STRBUF_INIT;
		kf_diags ignore = KF_DIAGS_INIT;
		if (kf_read_file(abs, &sb, &ignore) == 0 && sb.buf && strstr(sb.buf, needle))
			res = kf_xstrdup(o);
		kf_strbuf_release(&sb);
		kf_diags_release(&ignore);
		free(abs);
	}
	free(needle);
	return res;
}

void kbuild_find_owner(scan *s, const char *cfile, owner *ow)
{
	memset(ow, 0, sizeof(*ow));
	char *objp = kf_xstrdup(cfile);
	objp[strlen(objp) - 1] = 'o';
	size_t v;
	objent *e = kf_strmap_get(&s->objmap, objp, &v) ? &s->objs[v] : NULL;
	for (int guard = 0; e && e->composite && guard < 8; guard++) {
		if (!ow->part_sym && e->part_sym)
			ow->part_sym = kf_xstrdup(e->part_sym);
		size_t c;
		if (!kf_strmap_get(&s->objmap, e->composite, &c)) {
			free(objp);
			objp = kf_xstrdup(e->composite);
			e = NULL;
			break;
		}
		e = &s->objs[c];
	}
	if (!e) {
		/* a .c file #included by a sibling (uhci-pci.c in uhci-hcd.c):
		   it belongs to the includer's object */
		char *inc = find_includer(s, cfile);
		if (inc) {
			owner_release(ow);
			kbuild_find_owner(s, inc, ow);
			free(inc);
			free(objp);
			return;
		}
	}
	const char *path = e ? e->path : objp;
	ow->module = kbuild_modname(path);
	ow->object = kf_xstrdup(path);
	if (e && e->is_obj && e->symbol) {
		ow->symbol = kf_xstrdup(e->symbol);
		ow->makefile = kf_xstrdup(e->makefile);
		ow->line = e->line;
		free(objp);
		return;
	}
	/* the gate of the directory whose Makefile names the object */
	char *dir;
	if (e && e->makefile) {
		dir = kf_xstrdup(e->makefile);
		char *sl = strrchr(dir, '/');
		if (sl)
			sl[1] = 0;
	} else {
		dir = kf_xstrdup(path);
		char *sl = strrchr(dir, '/');
		if (sl)
			sl[1] = 0;
	}
	for (int guard = 0; guard < 32; guard++) {
		size_t g;
		if (!kf_strmap_get(&s->dirmap, dir, &g))
			break;
		dir_gate *gd = &s->dirs[g];
		if (gd->symbol) {
			ow->symbol = kf_xstrdup(gd->symbol);
			ow->makefile = kf_xstrdup(gd->makefile);
			ow->line = gd->line;
			break;
		}
		char *p = kf_xstrdup(gd->parent);
		free(dir);
		dir = p;
	}
	free(dir);
	free(objp);
}


void kbuild_release(scan *s)
{
	for (size_t i = 0; i < s->nobjs; i++) {
		free(s->objs[i].path);
		free(s->objs[i].symbol);
		free(s->objs[i].makefile);
		free(s->objs[i].composite);
		free(s->objs[i].part_sym);
	}
	free(s->objs);
	for (size_t i = 0; i < s->ndirs; i++) {
		free(s->dirs[i].path);
		free(s->dirs[i].symbol);
		free(s->dirs[i].makefile);
		free(s->dirs[i].parent);
	}
	free(s->dirs);
	for (size_t i = 0; i < s->ncfiles; i++)
		free(s->cfiles[i]);
	for (size_t i = 0; i < s->nread; i++)
		free(s->read[i]);
	free(s->read);
	free(s->cfile_named);
	free(s->cfiles);
	for (size_t i = 0; i < s->nincs; i++) {
		free(s->incs[i].dir);
		free(s->incs[i].path);
	}
	free(s->incs);
	kf_strmap_release(&s->objmap);
	kf_strmap_release(&s->dirmap);
}

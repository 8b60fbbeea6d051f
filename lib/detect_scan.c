/*
 * detect_scan.c - derive the alias database from a kernel tree's own
 * sources, the way modpost's file2alias.c would from built objects:
 *
 *  1. every Kbuild/Makefile (arch/ only for the target arch): lines
 *     obj-$(CONFIG_FOO) += foo.o dir/, obj-y, and composite objects
 *     foo-y := a.o b.o, foo-objs, foo-$(CONFIG_BAR) += c.o;
 *  2. every .c file with a device table, MODULE_ALIAS*, MODULE_FIRMWARE or
 *     a platform_driver: the tables (pci, usb, hid, virtio, acpi, of,
 *     platform, i2c, spi, serio, sdio, x86cpu) macro-expanded with the
 *     tree's own header macros (detect_cpp.c) and turned into the alias
 *     strings file2alias.c prints;
 *  3. each file -> its object -> its module and the symbol on the obj- line
 *     (or the gate of the directory, walking up).
 *
 * Not a C compiler: #if is ignored, enum constants are not known, tables
 * built at run time are invisible.  docs/detect.md has the measured
 * coverage against a distro kernel's modules.alias.
 */
#include "detect_internal.h"
#include "kfit/hashmap.h"
#include "kfit/tree.h"

#include <ctype.h>
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- Makefile facts ---- */

/* An object named in a Makefile. */
typedef struct objent {
	char *path;      /* tree-relative: "drivers/net/virtio_net.o" */
	char *symbol;    /* CONFIG_ symbol (without prefix) of its obj- line */
	char *makefile;  /* tree-relative Makefile */
	int line;        /* line of the statement */
	bool is_obj;     /* named in obj-* (a module or built-in object) */
	char *composite; /* the composite object it is part of, or NULL */
	char *part_sym;  /* symbol of a foo-$(CONFIG_X) part line */
} objent;

/* A directory named in its parent's Makefile (obj-$(CONFIG_X) += dir/). */
typedef struct dirent_gate {
	char *path;     /* "drivers/net/ethernet/intel/" */
	char *symbol;   /* gate symbol, NULL for obj-y */
	char *makefile; /* where */
	int line;       /* line */
	char *parent;   /* the directory whose Makefile names it */
} dir_gate;

typedef struct scan {
	const char *tree;       /* tree root */
	const char *arch;       /* SRCARCH */
	kf_aliasdb *db;         /* the result */
	objent *objs;           /* objects */
	size_t nobjs, aobjs;    /* count, capacity */
	kf_strmap objmap;            /* path -> objs index */
	dir_gate *dirs;         /* gated directories */
	size_t ndirs, adirs;    /* count, capacity */
	kf_strmap dirmap;            /* path -> dirs index */
	char **cfiles;          /* tree-relative .c files */
	size_t ncfiles, acfiles;/* count, capacity */
	dcpp_defs *global;      /* macros of the kernel's headers */
	size_t failed_entries;  /* table entries not understood */
	int dmi_slot[14];       /* enum dmi_field values of dmi_names[] */
	struct incdir {
		char *dir;      /* the Makefile's directory: "drivers/scsi/csiostor/" */
		char *path;     /* a -I directory of its ccflags: "drivers/net/.../cxgb4/" */
		bool subdir;    /* subdir-ccflags: for the directories below too */
	} *incs;                /* -I directories from the Makefiles */
	size_t nincs, aincs;    /* count, capacity */
	kf_alias_origin table_origin; /* of the table being read: SOURCE, or
					 BUSTABLE for a driver's own table */
} scan;

/* file2alias.c's dmi_fields: the DMI_ fields a dmi: alias names, in its
 * order, and their prefixes. */
static const char *const dmi_names[14] = {
	"DMI_BIOS_VENDOR", "DMI_BIOS_VERSION", "DMI_BIOS_DATE", "DMI_BIOS_RELEASE",
	"DMI_EC_FIRMWARE_RELEASE", "DMI_SYS_VENDOR", "DMI_PRODUCT_NAME", "DMI_PRODUCT_VERSION",
	"DMI_BOARD_VENDOR", "DMI_BOARD_NAME", "DMI_BOARD_VERSION", "DMI_CHASSIS_VENDOR",
	"DMI_CHASSIS_TYPE", "DMI_CHASSIS_VERSION"};
static const char *const dmi_prefix[14] = {"bvn", "bvr", "bd", "br", "efr", "svn", "pn",
					    "pvr", "rvn", "rn", "rvr", "cvn", "ct", "cvr"};

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
static char *join_path(const char *dir, const char *rel, size_t n)
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
				char *path = join_path("", sb.buf, sb.len);
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
			char *path = join_path(dir, w, n);
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
			char *path = join_path(dir, w, n);
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

static void mk_parse(scan *s, const char *dir, const char *mkrel, char *text)
{
	s->db->nmakefiles++;
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
		mk_line(s, dir, mkrel, start, l);
	}
	kf_strbuf_release(&logical);
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

static void walk(scan *s, const char *rel)
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
		walk(s, subs[i]);
		free(subs[i]);
	}
	free(subs);
}

/* ---- which module and symbol a source file belongs to ---- */

typedef struct owner {
	char *module;     /* module name with '_' */
	char *symbol;     /* symbol, or NULL (always built) */
	char *makefile;   /* where the symbol is named */
	int line;         /* its line */
	char *part_sym;   /* part symbol of a composite, or NULL */
	char *object;     /* the object path */
} owner;

static void owner_release(owner *o)
{
	free(o->module);
	free(o->symbol);
	free(o->makefile);
	free(o->part_sym);
	free(o->object);
}

static char *modname_of(const char *objpath)
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

static void find_owner(scan *s, const char *cfile, owner *ow);

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

static void find_owner(scan *s, const char *cfile, owner *ow)
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
			find_owner(s, inc, ow);
			free(inc);
			free(objp);
			return;
		}
	}
	const char *path = e ? e->path : objp;
	ow->module = modname_of(path);
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

/* ---- #if conditions over CONFIG_ symbols ---- */

/* One literal of a condition: CONFIG_SYM defined (kind 'y': =y),
 * CONFIG_SYM_MODULE defined ('m': =m), or IS_ENABLED ('e': y or m);
 * neg: its negation. */
typedef struct condlit {
	char sym[80]; /* without CONFIG_ */
	char kind;    /* 'y', 'm' or 'e' */
	bool neg;     /* negated */
} condlit;

/* One #if level: what its branch is known to need. */
typedef struct condframe {
	condlit lit[4]; /* a conjunction */
	int n;          /* how many */
	bool known;     /* lit is the whole condition (so #else negates it) */
	bool dead;      /* #if 0 */
} condframe;

typedef struct condstack {
	condframe f[16]; /* open levels */
	int depth;       /* how many are open (may exceed 16: not tracked) */
} condstack;

static const char *skip_sp(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\\' || *p == '\n'))
		p++;
	return p;
}

/* A CONFIG_ name at p..e (whole): the literal; false otherwise. */
static bool config_name(const char *p, const char *e, char kind, bool neg, condlit *l)
{
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (e - p <= 7 || strncmp(p, "CONFIG_", 7))
		return false;
	for (const char *q = p; q < e; q++)
		if (!isalnum((unsigned char)*q) && *q != '_')
			return false;
	size_t n = (size_t)(e - p - 7);
	if (kind == 'y' && n > 7 && !strncmp(e - 7, "_MODULE", 7)) {
		kind = 'm';
		n -= 7;
	}
	if (n >= sizeof(l->sym))
		return false;
	memcpy(l->sym, p + 7, n);
	l->sym[n] = 0;
	l->kind = kind;
	l->neg = neg;
	return true;
}

/* One operand of && in an #if: 1 a literal, 0 not understood, 2 always
 * true, 3 always false. */
static int cond_operand(const char *p, const char *e, condlit *l)
{
	bool neg = false;
	for (;;) {
		p = skip_sp(p, e);
		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (p < e && *p == '!') {
			neg = !neg;
			p++;
			continue;
		}
		/* (x) as a whole */
		if (p < e && *p == '(' && e[-1] == ')') {
			int depth = 0;
			const char *q = p;
			for (; q < e; q++) {
				if (*q == '(')
					depth++;
				else if (*q == ')' && --depth == 0)
					break;
			}
			if (q == e - 1) {
				p++;
				e--;
				continue;
			}
		}
		break;
	}
	if (e - p == 1 && (*p == '0' || *p == '1'))
		return (*p == '1') != neg ? 2 : 3;
	static const struct {
		const char *fn;
		char kind;
	} fns[] = {{"defined", 'y'},	{"IS_ENABLED", 'e'}, {"IS_REACHABLE", 'e'},
		   {"IS_BUILTIN", 'y'}, {"IS_MODULE", 'm'}};
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		size_t fl = strlen(fns[i].fn);
		if ((size_t)(e - p) <= fl || strncmp(p, fns[i].fn, fl) ||
		    isalnum((unsigned char)p[fl]) || p[fl] == '_')
			continue;
		const char *a = skip_sp(p + fl, e), *z = e;
		if (a < z && *a == '(' && z[-1] == ')') {
			a++;
			z--;
		} else if (i != 0) {
			return 0;
		}
		a = skip_sp(a, z);
		return config_name(a, z, fns[i].kind, neg, l) ? 1 : 0;
	}
	return config_name(p, e, 'y', neg, l) ? 1 : 0;
}

/* #if EXPR: a conjunction of understood operands (others dropped). */
static void cond_if(condframe *f, const char *p, const char *e)
{
	f->n = 0;
	f->known = true;
	f->dead = false;
	int depth = 0;
	for (const char *q = p; q + 1 < e; q++) {
		if (*q == '(')
			depth++;
		else if (*q == ')')
			depth--;
		else if (!depth && q[0] == '|' && q[1] == '|') {
			/* defined(CONFIG_X) || defined(CONFIG_X_MODULE): IS_ENABLED */
			condlit a, b;
			if (cond_operand(p, q, &a) == 1 && cond_operand(q + 2, e, &b) == 1 && !a.neg &&
			    !b.neg && !strcmp(a.sym, b.sym) && a.kind != b.kind && a.kind != 'e' &&
			    b.kind != 'e') {
				a.kind = 'e';
				f->lit[f->n++] = a;
			} else {
				f->known = false;
			}
			return;
		}
	}
	const char *st = p;
	depth = 0;
	for (const char *q = p;; q++) {
		bool end = q + 1 >= e;
		if (!end) {
			if (*q == '(')
				depth++;
			else if (*q == ')')
				depth--;
		}
		if (!end && !(depth == 0 && q[0] == '&' && q[1] == '&'))
			continue;
		condlit l;
		int r = cond_operand(st, end ? e : q, &l);
		if (r == 1 && f->n < 4)
			f->lit[f->n++] = l;
		else if (r == 3)
			f->dead = true;
		else if (r != 2)
			f->known = false;
		if (end)
			break;
		st = q + 2;
		q++;
	}
}

/* Apply one directive line (text after '#', up to e). */
static void cond_directive(condstack *cs, const char *p, const char *e)
{
	p = skip_sp(p, e);
	const char *w = p;
	while (p < e && isalpha((unsigned char)*p))
		p++;
	size_t wl = (size_t)(p - w);
	condframe *top = cs->depth > 0 && cs->depth <= 16 ? &cs->f[cs->depth - 1] : NULL;
	if ((wl == 5 && !strncmp(w, "ifdef", 5)) || (wl == 6 && !strncmp(w, "ifndef", 6)) ||
	    (wl == 2 && !strncmp(w, "if", 2))) {
		cs->depth++;
		if (cs->depth > 16)
			return;
		condframe *f = &cs->f[cs->depth - 1];
		memset(f, 0, sizeof(*f));
		if (wl == 2) {
			cond_if(f, p, e);
			return;
		}
		const char *a = skip_sp(p, e), *z = a;
		while (z < e && (isalnum((unsigned char)*z) || *z == '_'))
			z++;
		f->known = config_name(a, z, 'y', wl == 6, &f->lit[0]);
		f->n = f->known;
	} else if (wl == 4 && !strncmp(w, "elif", 4)) {
		if (top)
			memset(top, 0, sizeof(*top));
	} else if (wl == 4 && !strncmp(w, "else", 4)) {
		if (!top)
			return;
		if (top->dead) {
			memset(top, 0, sizeof(*top));
		} else if (top->known && top->n == 0) {
			top->dead = true; /* #if 1 */
		} else if (top->known && top->n == 1) {
			top->lit[0].neg = !top->lit[0].neg;
		} else {
			memset(top, 0, sizeof(*top));
		}
	} else if (wl == 5 && !strncmp(w, "endif", 5)) {
		if (cs->depth > 0)
			cs->depth--;
	}
}

/* Process the directive lines of t[from, to) (from at a line start). */
static void cond_scan(condstack *cs, const char *t, size_t from, size_t to)
{
	size_t i = from;
	while (i < to) {
		size_t e = i;
		while (e < to && t[e] != '\n')
			e++;
		size_t p = i;
		while (p < e && (t[p] == ' ' || t[p] == '\t'))
			p++;
		if (p < e && t[p] == '#') {
			while (e < to && e > i && t[e - 1] == '\\') {
				e++;
				while (e < to && t[e] != '\n')
					e++;
			}
			cond_directive(cs, t + p + 1, t + e);
		}
		i = e + 1;
	}
}

/* The condition in effect: "SYM=y,!SYM2=e" (malloc'd) or NULL when none;
 * *dead when some level is #if 0. */
static char *cond_string(const condstack *cs, bool *dead)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	*dead = false;
	for (int i = 0; i < cs->depth && i < 16; i++) {
		const condframe *f = &cs->f[i];
		if (f->dead)
			*dead = true;
		for (int k = 0; k < f->n; k++)
			kf_strbuf_addf(&sb, "%s%s%s=%c", sb.len ? "," : "", f->lit[k].neg ? "!" : "",
				       f->lit[k].sym, f->lit[k].kind);
	}
	if (sb.len)
		return kf_strbuf_detach(&sb);
	kf_strbuf_release(&sb);
	return NULL;
}

/* The condition at offset pos of t. */
static char *cond_at(const char *t, size_t pos, bool *dead)
{
	condstack cs;
	cs.depth = 0;
	cond_scan(&cs, t, 0, pos);
	return cond_string(&cs, dead);
}

/* Two conditions joined (either may be NULL); malloc'd or NULL. */
static char *cond_join(const char *a, const char *b)
{
	if (!a || !*a)
		return b && *b ? kf_xstrdup(b) : NULL;
	if (!b || !*b)
		return kf_xstrdup(a);
	return kf_xasprintf("%s,%s", a, b);
}

/* The condition of each line a table region becomes (splice_region). */
typedef struct condline {
	char *cond; /* as cond_string, or NULL */
	bool dead;  /* under #if 0 */
} condline;

typedef struct condlines {
	condstack cs;  /* the region's own #if levels */
	condline *v;   /* per output line */
	size_t n, a;   /* count, capacity */
} condlines;

static void condlines_push(condlines *cl)
{
	if (!cl)
		return;
	KF_GROW(cl->v, cl->n + 1, cl->a);
	cl->v[cl->n].cond = cond_string(&cl->cs, &cl->v[cl->n].dead);
	cl->n++;
}

static void condlines_release(condlines *cl)
{
	for (size_t i = 0; i < cl->n; i++)
		free(cl->v[i].cond);
	free(cl->v);
}

/* ---- tables ---- */

/* Fields of one initializer element. */
typedef struct field {
	const char *name; /* field name */
	size_t from, to;  /* token range of the value */
} field;

typedef struct elem {
	const dcpp_toks *t; /* expanded tokens */
	field f[24];        /* the fields written */
	int n;              /* how many */
	bool bad;           /* a value was not understood */
} elem;

static const field *elem_find(const elem *e, const char *name)
{
	for (int i = e->n - 1; i >= 0; i--)
		if (!strcmp(e->f[i].name, name))
			return &e->f[i];
	return NULL;
}

static unsigned long long fint(elem *e, const char *name)
{
	const field *f = elem_find(e, name);
	if (!f)
		return 0;
	long long v;
	if (!dcpp_eval_int(e->t, f->from, f->to, &v)) {
		e->bad = true;
		return 0;
	}
	return (unsigned long long)v;
}

/* A string field; "" when absent; NULL (and e->bad) when not understood. */
static char *fstr(elem *e, const char *name)
{
	const field *f = elem_find(e, name);
	if (!f)
		return kf_xstrdup("");
	char *s = dcpp_eval_str(e->t, f->from, f->to);
	if (!s) {
		long long v;
		if (dcpp_eval_int(e->t, f->from, f->to, &v) && v == 0)
			return kf_xstrdup("");
		e->bad = true;
	}
	return s;
}

static bool is_punct(const dcpp_tok *t, const char *p)
{
	return t->kind == DCPP_PUNCT && !strcmp(t->s, p);
}

/* Parse the inside of one braced element t->v[a..b) into fields. */
static void elem_parse(elem *e, const dcpp_toks *t, size_t a, size_t b, const char *const *order)
{
	e->t = t;
	e->n = 0;
	e->bad = false;
	int pos = 0;
	size_t i = a;
	while (i < b) {
		/* one item up to a top-level comma */
		size_t st = i;
		int depth = 0;
		while (i < b) {
			if (is_punct(&t->v[i], "(") || is_punct(&t->v[i], "{") || is_punct(&t->v[i], "["))
				depth++;
			else if (is_punct(&t->v[i], ")") || is_punct(&t->v[i], "}") || is_punct(&t->v[i], "]"))
				depth--;
			else if (depth == 0 && is_punct(&t->v[i], ","))
				break;
			i++;
		}
		size_t en = i;
		i++;
		if (en == st)
			continue;
		const char *name = NULL;
		size_t vs = st;
		if (is_punct(&t->v[st], ".") && st + 2 < en && t->v[st + 1].kind == DCPP_ID &&
		    is_punct(&t->v[st + 2], "=")) {
			name = t->v[st + 1].s;
			vs = st + 3;
			for (int k = 0; order[k]; k++)
				if (!strcmp(order[k], name))
					pos = k + 1;
		} else if (is_punct(&t->v[st], ".") && st + 1 < en && t->v[st + 1].kind == DCPP_ID) {
			/* nested designator (.a.b = x): not a field we read */
			continue;
		} else {
			int k;
			for (k = 0; order[k] && k < pos; k++)
				;
			if (!order[k]) {
				pos++;
				continue;
			}
			name = order[pos++];
		}
		/* a value in braces: { x } */
		if (vs < en && is_punct(&t->v[vs], "{") && is_punct(&t->v[en - 1], "}")) {
			vs++;
			en--;
		}
		if (e->n < 24)
			e->f[e->n++] = (field){name, vs, en};
	}
}

static bool elem_empty(const elem *e)
{
	for (int i = 0; i < e->n; i++) {
		const field *f = &e->f[i];
		if (f->to - f->from == 1 && (!strcmp(e->t->v[f->from].s, "0") ||
					     !strcmp(e->t->v[f->from].s, "\"\"") ||
					     !strcmp(e->t->v[f->from].s, "NULL")))
			continue;
		if (f->to == f->from)
			continue;
		return false;
	}
	return true;
}

typedef struct emit {
	scan *s;          /* the scan */
	const owner *ow;  /* module of the file */
	const char *file; /* tree-relative source */
	int line;         /* line of the element */
	const char *devtype; /* MODULE_DEVICE_TABLE's type word ("mhi_ep") */
	const char *cond; /* the element's #if condition, or NULL */
} emit;

/* Add a source alias with the symbol of the file's own object. */
static void add_owned(scan *s, const owner *ow, const char *pattern, const char *file, int line,
		      kf_alias_origin origin, const char *cond)
{
	kf_alias *a = kf_aliasdb_add(s->db, pattern, ow->module, ow->part_sym, file, line, origin);
	a->cond = cond ? kf_arena_strdup(s->db->arena, cond) : NULL;
	a->symbol = ow->symbol ? kf_arena_strdup(s->db->arena, ow->symbol) : NULL;
	a->makefile = ow->makefile ? kf_arena_strdup(s->db->arena, ow->makefile) : NULL;
	a->mkline = ow->line;
}

/* A pattern that names no value, only fields and wildcards
 * ("pci:v*d*sv*sd*bc*sc*i*": xen-pciback's and amd64-agp's tables that
 * the drivers filter themselves): values are digits and upper-case hex. */
static bool matches_all(const char *alias)
{
	const char *p = strchr(alias, ':');
	for (p = p ? p + 1 : alias; *p; p++)
		if (isdigit((unsigned char)*p) || isupper((unsigned char)*p))
			return false;
	return true;
}

static void add_alias(emit *em, const char *alias)
{
	/* a driver's own table binds what it lists; one that lists
	   everything says nothing about a device */
	if (em->s->table_origin == KF_ALIAS_BUSTABLE && matches_all(alias))
		return;
	add_owned(em->s, em->ow, alias, em->file, em->line, em->s->table_origin, em->cond);
}

/* ADD() of file2alias.c: "sep" then the value in width hex digits, or "*". */
static void add_field(kf_strbuf *sb, const char *sep, bool cond, unsigned long long v, int width)
{
	kf_strbuf_addstr(sb, sep);
	if (cond)
		kf_strbuf_addf(sb, "%0*llX", width, v & ((width >= 16) ? ~0ULL : ((1ULL << (width * 4)) - 1)));
	else
		kf_strbuf_addch(sb, '*');
}

static void add_wildcard(kf_strbuf *sb)
{
	if (!sb->len || sb->buf[sb->len - 1] != '*')
		kf_strbuf_addch(sb, '*');
}

/* A field of a plain modalias format (file2alias.c's ADD()): SEP and the
 * member's value in WIDTH hex digits, or SEP and '*' when the entry
 * leaves it open (its value is ANY, or its match flag is clear). */
typedef struct id_field {
	const char *sep;         /* "v", "ty" */
	const char *name;        /* the member of the id struct */
	unsigned long long mask; /* the member's size, as a mask */
	int width;               /* hex digits written */
	unsigned long long any;  /* the value that leaves it open */
	unsigned flag;           /* nonzero: open unless match_flags has it */
} id_field;

/* A modalias format that is a prefix and a list of fields. */
typedef struct id_format {
	const char *prefix;      /* "hid:" */
	bool flags;              /* fields are chosen by match_flags */
	bool wildcard;           /* '*' at the end (unless one is there) */
	id_field f[6];           /* in alias order, ended by a NULL sep */
} id_format;

#define ALL16 0xffffULL
#define ALL32 0xffffffffULL

static const id_format hid_format = {"hid:", false, false, {
	{"b", "bus", ALL16, 4, ALL16, 0}, {"g", "group", ALL16, 4, 0, 0},
	{"v", "vendor", ALL32, 8, ALL32, 0}, {"p", "product", ALL32, 8, ALL32, 0}}};
static const id_format virtio_format = {"virtio:", false, true, {
	{"d", "device", ALL32, 8, ALL32, 0}, {"v", "vendor", ALL32, 8, ALL32, 0}}};
static const id_format serio_format = {"serio:", false, true, {
	{"ty", "type", 0xff, 2, 0xff, 0}, {"pr", "proto", 0xff, 2, 0xff, 0},
	{"id", "id", 0xff, 2, 0xff, 0}, {"ex", "extra", 0xff, 2, 0xff, 0}}};
static const id_format sdio_format = {"sdio:", false, true, {
	{"c", "class", 0xff, 2, 0xff, 0}, {"v", "vendor", ALL16, 4, ALL16, 0},
	{"d", "device", ALL16, 4, ALL16, 0}}};
static const id_format ssb_format = {"ssb:", false, true, {
	{"v", "vendor", ALL16, 4, ALL16, 0}, {"id", "coreid", ALL16, 4, ALL16, 0},
	{"rev", "revision", 0xff, 2, 0xff, 0}}};
static const id_format bcma_format = {"bcma:", false, true, {
	{"m", "manuf", ALL16, 4, ALL16, 0}, {"id", "id", ALL16, 4, ALL16, 0},
	{"rev", "rev", 0xff, 2, 0xff, 0}, {"cl", "class", 0xff, 2, 0xff, 0}}};
static const id_format sdw_format = {"sdw:", false, true, {
	{"m", "mfg_id", ALL16, 4, 0, 0}, {"p", "part_id", ALL16, 4, 0, 0},
	{"v", "sdw_version", 0xff, 2, 0, 0}, {"c", "class_id", 0xff, 2, 0, 0}}};
static const id_format ieee1394_format = {"ieee1394:", true, true, {
	{"ven", "vendor_id", ALL32, 8, 0, 0x1}, {"mo", "model_id", ALL32, 8, 0, 0x2},
	{"sp", "specifier_id", ALL32, 8, 0, 0x4}, {"ver", "version", ALL32, 8, 0, 0x8}}};

/* The alias of one entry in a plain format. */
static void do_format(emit *em, elem *e, const id_format *fmt)
{
	unsigned long long flags = fmt->flags ? fint(e, "match_flags") : 0;
	unsigned long long v[6];
	int n = 0;
	for (; n < 6 && fmt->f[n].sep; n++)
		v[n] = fint(e, fmt->f[n].name) & fmt->f[n].mask;
	if (e->bad)
		return;
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addstr(&sb, fmt->prefix);
	for (int i = 0; i < n; i++) {
		const id_field *f = &fmt->f[i];
		add_field(&sb, f->sep, f->flag ? (flags & f->flag) != 0 : v[i] != f->any, v[i],
			  f->width);
	}
	if (fmt->wildcard)
		add_wildcard(&sb);
	add_alias(em, sb.buf);
	kf_strbuf_release(&sb);
}

static void do_pci(emit *em, elem *e)
{
	unsigned long long vendor = fint(e, "vendor") & 0xffffffff, device = fint(e, "device") & 0xffffffff,
		sv = fint(e, "subvendor") & 0xffffffff, sd = fint(e, "subdevice") & 0xffffffff,
		cls = fint(e, "class"), mask = fint(e, "class_mask"), oo = fint(e, "override_only");
	if (e->bad)
		return;
	const unsigned long long any = 0xffffffff;
	kf_strbuf sb = KF_STRBUF_INIT;
	if (oo == 0)
		kf_strbuf_addstr(&sb, "pci:");
	else if (oo == 1)
		kf_strbuf_addstr(&sb, "vfio_pci:");
	else
		return;
	add_field(&sb, "v", vendor != any, vendor, 8);
	add_field(&sb, "d", device != any, device, 8);
	add_field(&sb, "sv", sv != any, sv, 8);
	add_field(&sb, "sd", sd != any, sd, 8);
	unsigned bc = (cls >> 16) & 0xff, bcm = (mask >> 16) & 0xff, sc = (cls >> 8) & 0xff,
		 scm = (mask >> 8) & 0xff, in = cls & 0xff, inm = mask & 0xff;
	if ((bcm && bcm != 0xff) || (scm && scm != 0xff) || (inm && inm != 0xff)) {
		kf_strbuf_release(&sb);
		return;
	}
	add_field(&sb, "bc", bcm == 0xff, bc, 2);
	add_field(&sb, "sc", scm == 0xff, sc, 2);
	add_field(&sb, "i", inm == 0xff, in, 2);
	add_wildcard(&sb);
	add_alias(em, sb.buf);
	kf_strbuf_release(&sb);
}

/* do_usb_entry and do_usb_entry_multi of file2alias.c */
typedef struct usbid {
	unsigned flags, vendor, product, dlo, dhi;
	unsigned dc, dsc, dp, ic, isc, ip, inum;
} usbid;

static void usb_entry(emit *em, const usbid *u, unsigned init, int digits, unsigned lo, unsigned hi,
		      unsigned max)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addstr(&sb, "usb:");
	add_field(&sb, "v", u->flags & 0x1, u->vendor, 4);
	add_field(&sb, "p", u->flags & 0x2, u->product, 4);
	kf_strbuf_addch(&sb, 'd');
	if (digits)
		kf_strbuf_addf(&sb, "%0*X", digits, init);
	if (lo == hi)
		kf_strbuf_addf(&sb, "%X", lo);
	else if (lo > 0 || hi < max) {
		if (lo > 0x9 || hi < 0xA)
			kf_strbuf_addf(&sb, "[%X-%X]", lo, hi);
		else {
			kf_strbuf_addf(&sb, lo < 0x9 ? "[%X-9" : "[%X", lo);
			kf_strbuf_addf(&sb, hi > 0xA ? "A-%X]" : "%X]", hi);
		}
	}
	if (digits < 3)
		kf_strbuf_addch(&sb, '*');
	add_field(&sb, "dc", u->flags & 0x10, u->dc, 2);
	add_field(&sb, "dsc", u->flags & 0x20, u->dsc, 2);
	add_field(&sb, "dp", u->flags & 0x40, u->dp, 2);
	add_field(&sb, "ic", u->flags & 0x80, u->ic, 2);
	add_field(&sb, "isc", u->flags & 0x100, u->isc, 2);
	add_field(&sb, "ip", u->flags & 0x200, u->ip, 2);
	add_field(&sb, "in", u->flags & 0x400, u->inum, 2);
	add_wildcard(&sb);
	add_alias(em, sb.buf);
	kf_strbuf_release(&sb);
}

static unsigned incbcd(unsigned *bcd, int inc, unsigned max, size_t chars)
{
	unsigned init = *bcd;
	unsigned long long dec = 0;
	if (max > 0x9) {
		*bcd += (unsigned)inc;
		return init;
	}
	for (size_t i = 0; i < chars; i++) {
		unsigned long long c = (*bcd >> (i << 2)) & 0xf;
		c = c > 9 ? 9 : c;
		for (size_t j = 0; j < i; j++)
			c *= 10;
		dec += c;
	}
	dec += (unsigned long long)(long long)inc;
	*bcd = 0;
	for (size_t i = 0; i < chars; i++) {
		unsigned long long c = 1;
		for (size_t j = 0; j < i; j++)
			c *= 10;
		c = (dec / c) % 10;
		*bcd += (unsigned)(c << (i << 2));
	}
	return init;
}

static void do_usb(emit *em, elem *e)
{
	usbid u;
	u.flags = (unsigned)fint(e, "match_flags");
	u.vendor = (unsigned)fint(e, "idVendor") & 0xffff;
	u.product = (unsigned)fint(e, "idProduct") & 0xffff;
	u.dlo = (unsigned)fint(e, "bcdDevice_lo") & 0xffff;
	u.dhi = (unsigned)fint(e, "bcdDevice_hi") & 0xffff;
	u.dc = (unsigned)fint(e, "bDeviceClass") & 0xff;
	u.dsc = (unsigned)fint(e, "bDeviceSubClass") & 0xff;
	u.dp = (unsigned)fint(e, "bDeviceProtocol") & 0xff;
	u.ic = (unsigned)fint(e, "bInterfaceClass") & 0xff;
	u.isc = (unsigned)fint(e, "bInterfaceSubClass") & 0xff;
	u.ip = (unsigned)fint(e, "bInterfaceProtocol") & 0xff;
	u.inum = (unsigned)fint(e, "bInterfaceNumber") & 0xff;
	if (e->bad)
		return;
	unsigned devlo = u.flags & 0x4 ? u.dlo : 0, devhi = u.flags & 0x8 ? u.dhi : ~0u;
	unsigned max = 0x9;
	for (int nd = 0; nd < 4; nd++) {
		unsigned clo = (devlo >> (nd << 2)) & 0xf;
		unsigned chi = ((devhi > 0x9999 ? 0x9999 : devhi) >> (nd << 2)) & 0xf;
		if (clo > max || chi > max) {
			max = 0xf;
			break;
		}
	}
	if (!(u.vendor | u.product | u.dc | u.ic))
		return;
	for (int nd = 3; devlo <= devhi; nd--) {
		unsigned clo = devlo & 0xf, chi = devhi & 0xf;
		if (chi > max)
			chi = max;
		devlo >>= 4;
		devhi >>= 4;
		if (devlo == devhi || !nd) {
			usb_entry(em, &u, devlo, nd, clo, chi, max);
			break;
		}
		if (clo > 0x0)
			usb_entry(em, &u, incbcd(&devlo, 1, max, 4), nd, clo, max, max);
		if (chi < max)
			usb_entry(em, &u, incbcd(&devhi, -1, max, 4), nd, 0x0, chi, max);
	}
}

static void do_x86cpu(emit *em, elem *e)
{
	unsigned long long vendor = fint(e, "vendor") & 0xffff, family = fint(e, "family") & 0xffff,
		model = fint(e, "model") & 0xffff, feature = fint(e, "feature") & 0xffff;
	if (e->bad)
		return;
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addstr(&sb, "cpu:type:x86,");
	add_field(&sb, "ven", vendor != 0xffff, vendor, 4);
	add_field(&sb, "fam", family != 0, family, 4);
	add_field(&sb, "mod", model != 0, model, 4);
	kf_strbuf_addstr(&sb, ":feature:*");
	if (feature != 0)
		kf_strbuf_addf(&sb, "%04llX*", feature);
	add_alias(em, sb.buf);
	kf_strbuf_release(&sb);
}

static void do_acpi(emit *em, elem *e)
{
	char *id = fstr(e, "id");
	if (!id)
		return;
	if (*id) {
		char *a = kf_xasprintf("acpi*:%s:*", id);
		add_alias(em, a);
		free(a);
	}
	free(id);
}

static void do_of(emit *em, elem *e)
{
	char *name = fstr(e, "name"), *type = fstr(e, "type"), *compat = fstr(e, "compatible");
	if (name && type && compat) {
		kf_strbuf sb = KF_STRBUF_INIT;
		kf_strbuf_addf(&sb, "of:N%sT%s", *name ? name : "*", *type ? type : "*");
		if (*compat)
			kf_strbuf_addf(&sb, "%sC%s", *type ? "*" : "", compat);
		for (char *p = sb.buf; *p; p++)
			if (*p == ' ' || *p == '\t' || *p == '\n')
				*p = '_';
		add_alias(em, sb.buf);
		kf_strbuf_addch(&sb, 'C');
		add_wildcard(&sb);
		add_alias(em, sb.buf);
		kf_strbuf_release(&sb);
	}
	free(name);
	free(type);
	free(compat);
}

static void do_named(emit *em, elem *e, const char *prefix)
{
	char *name = fstr(e, "name");
	if (name && *name) {
		char *a = kf_xasprintf("%s%s", prefix, name);
		add_alias(em, a);
		free(a);
	}
	free(name);
}

static void do_platform(emit *em, elem *e)
{
	do_named(em, e, "platform:");
}

static void do_i2c(emit *em, elem *e)
{
	do_named(em, e, "i2c:");
}

static void do_spi(emit *em, elem *e)
{
	do_named(em, e, "spi:");
}

/* pnp_device_id: "pnp:dID*" and, for the ACPI companion, "acpi*:ID:*" */
static void do_pnp(emit *em, elem *e)
{
	char *id = fstr(e, "id");
	if (id && *id) {
		char *a = kf_xasprintf("pnp:d%s*", id);
		add_alias(em, a);
		free(a);
		for (char *p = id; *p; p++)
			*p = (char)toupper((unsigned char)*p);
		a = kf_xasprintf("acpi*:%s:*", id);
		add_alias(em, a);
		free(a);
	}
	free(id);
}

static void do_hda(emit *em, elem *e)
{
	unsigned long long v = fint(e, "vendor_id") & 0xffffffff, r = fint(e, "rev_id") & 0xffffffff,
			   a = fint(e, "api_version") & 0xff;
	if (e->bad)
		return;
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addstr(&sb, "hdaudio:");
	add_field(&sb, "v", v != 0, v, 8);
	add_field(&sb, "r", r != 0, r, 8);
	add_field(&sb, "a", a != 0, a, 2);
	add_wildcard(&sb);
	add_alias(em, sb.buf);
	kf_strbuf_release(&sb);
}

static void do_wmi(emit *em, elem *e)
{
	char *g = fstr(e, "guid_string");
	if (g && strlen(g) == 36) {
		char *a = kf_xasprintf("wmi:%s", g);
		add_alias(em, a);
		free(a);
	}
	free(g);
}

/* hv_vmbus_device_id: the guid's 16 bytes (GUID_INIT's braces) in hex */
static void do_vmbus(emit *em, elem *e)
{
	const field *f = elem_find(e, "guid");
	if (!f)
		return;
	const dcpp_toks *t = e->t;
	/* the innermost brace list */
	size_t open = (size_t)-1;
	for (size_t i = f->from; i < f->to; i++)
		if (is_punct(&t->v[i], "{"))
			open = i;
	size_t a = open == (size_t)-1 ? f->from : open + 1;
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addstr(&sb, "vmbus:");
	int nb = 0;
	size_t st = a;
	int depth = 0;
	for (size_t i = a; i <= f->to && nb < 16; i++) {
		bool end = i == f->to || (depth == 0 && (is_punct(&t->v[i], ",") || is_punct(&t->v[i], "}")));
		if (i < f->to && is_punct(&t->v[i], "("))
			depth++;
		else if (i < f->to && is_punct(&t->v[i], ")"))
			depth--;
		if (!end)
			continue;
		long long v;
		if (i > st && dcpp_eval_int(t, st, i, &v)) {
			kf_strbuf_addf(&sb, "%02llx", (unsigned long long)v & 0xff);
			nb++;
		}
		st = i + 1;
		if (i < f->to && is_punct(&t->v[i], "}"))
			break;
	}
	if (nb == 16)
		add_alias(em, sb.buf);
	kf_strbuf_release(&sb);
}

/* A bitmap field ({ BIT_MASK(EV_KEY) }, { [BIT_WORD(x)] = BIT_MASK(x) })
 * as 64-bit words; false when not understood. */
static bool fbitmap(elem *e, const char *name, unsigned long long *w, size_t nw)
{
	memset(w, 0, nw * sizeof(*w));
	const field *f = elem_find(e, name);
	if (!f)
		return true;
	const dcpp_toks *t = e->t;
	size_t i = f->from, pos = 0;
	while (i < f->to) {
		size_t st = i;
		int depth = 0;
		while (i < f->to) {
			if (is_punct(&t->v[i], "(") || is_punct(&t->v[i], "[") || is_punct(&t->v[i], "{"))
				depth++;
			else if (is_punct(&t->v[i], ")") || is_punct(&t->v[i], "]") || is_punct(&t->v[i], "}"))
				depth--;
			else if (depth == 0 && is_punct(&t->v[i], ","))
				break;
			i++;
		}
		size_t en = i++;
		if (en == st)
			continue;
		size_t vs = st;
		if (is_punct(&t->v[st], "[")) {
			size_t k = st + 1;
			int d2 = 1;
			while (k < en && d2) {
				if (is_punct(&t->v[k], "["))
					d2++;
				else if (is_punct(&t->v[k], "]"))
					d2--;
				k++;
			}
			long long idx;
			if (!dcpp_eval_int(t, st + 1, k - 1, &idx) || k >= en || !is_punct(&t->v[k], "="))
				return false;
			pos = (size_t)idx;
			vs = k + 1;
		}
		long long v;
		if (!dcpp_eval_int(t, vs, en, &v))
			return false;
		if (pos < nw)
			w[pos] |= (unsigned long long)v;
		pos++;
	}
	return true;
}

static void add_bits(kf_strbuf *sb, const unsigned long long *w, unsigned min, unsigned max)
{
	for (unsigned i = min; i <= max; i++)
		if (w[i / 64] & (1ULL << (i % 64)))
			kf_strbuf_addf(sb, "%X,*", i);
}

static void do_input(emit *em, elem *e)
{
	static const struct {
		const char *field, *sep;
		unsigned flag, min, max;
	} bm[] = {
		{"evbit", "-e*", 0x10, 0, 0x1f},  {"keybit", "k*", 0x20, 0x71, 0x2ff},
		{"relbit", "r*", 0x40, 0, 0x0f},  {"absbit", "a*", 0x80, 0, 0x3f},
		{"mscbit", "m*", 0x100, 0, 0x07}, {"ledbit", "l*", 0x200, 0, 0x0f},
		{"sndbit", "s*", 0x400, 0, 0x07}, {"ffbit", "f*", 0x800, 0, 0x7f},
		{"swbit", "w*", 0x1000, 0, 0x10},
	};
	unsigned long long flags = fint(e, "flags"), bus = fint(e, "bustype") & 0xffff,
			   ven = fint(e, "vendor") & 0xffff, prod = fint(e, "product") & 0xffff,
			   ver = fint(e, "version") & 0xffff;
	if (e->bad)
		return;
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addstr(&sb, "input:");
	add_field(&sb, "b", flags & 1, bus, 4);
	add_field(&sb, "v", flags & 2, ven, 4);
	add_field(&sb, "p", flags & 4, prod, 4);
	add_field(&sb, "e", flags & 8, ver, 4);
	for (size_t k = 0; k < sizeof(bm) / sizeof(bm[0]); k++) {
		unsigned long long w[12];
		kf_strbuf_addstr(&sb, bm[k].sep);
		if (!(flags & bm[k].flag))
			continue;
		if (!fbitmap(e, bm[k].field, w, 12)) {
			kf_strbuf_release(&sb);
			return;
		}
		add_bits(&sb, w, bm[k].min, bm[k].max);
	}
	add_alias(em, sb.buf);
	kf_strbuf_release(&sb);
}

/* mdio_device_id: "mdio:" and 32 bits, '?' where the mask is clear */
static void do_mdio(emit *em, elem *e)
{
	unsigned long long id = fint(e, "phy_id") & 0xffffffff, mask = fint(e, "phy_id_mask") & 0xffffffff;
	if (e->bad)
		return;
	char a[5 + 33];
	memcpy(a, "mdio:", 5);
	for (int i = 0; i < 32; i++)
		a[5 + i] = !((mask >> (31 - i)) & 1) ? '?' : ((id >> (31 - i)) & 1) ? '1' : '0';
	a[37] = 0;
	add_alias(em, a);
}

/* An array field ({ 0x41240e5b, 0, ... } or designated [i] = v) as
 * integers; false when not understood. */
static bool farray(elem *e, const char *name, unsigned long long *v, size_t n)
{
	return fbitmap(e, name, v, n);
}
/* pcmcia_device_id: the product-string hashes are literal in the table
 * (PCMCIA_DEVICE_PROD_ID12("3Com", "...", 0x41240e5b, ...)); the kernel
 * only checks them against crc32(0, string) at run time. */
static void do_pcmcia(emit *em, elem *e)
{
	unsigned long long flags = fint(e, "match_flags") & 0xffff, manf = fint(e, "manf_id") & 0xffff,
			   card = fint(e, "card_id") & 0xffff, func = fint(e, "func_id") & 0xff,
			   fn = fint(e, "function") & 0xff, devno = fint(e, "device_no") & 0xff;
	unsigned long long hash[4];
	if (e->bad || !farray(e, "prod_id_hash", hash, 4))
		return;
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addstr(&sb, "pcmcia:");
	add_field(&sb, "m", flags & 0x1, manf, 4);
	add_field(&sb, "c", flags & 0x2, card, 4);
	add_field(&sb, "f", flags & 0x4, func, 2);
	add_field(&sb, "fn", flags & 0x8, fn, 2);
	add_field(&sb, "pfn", flags & 0x100, devno, 2);
	add_field(&sb, "pa", flags & 0x10, hash[0], 8);
	add_field(&sb, "pb", flags & 0x20, hash[1], 8);
	add_field(&sb, "pc", flags & 0x40, hash[2], 8);
	add_field(&sb, "pd", flags & 0x80, hash[3], 8);
	add_wildcard(&sb);
	add_alias(em, sb.buf);
	kf_strbuf_release(&sb);
}

/* mhi_device_id: "mhi:CHAN", or "mhi_ep:CHAN" for MODULE_DEVICE_TABLE(mhi_ep, ...) */
static void do_mhi(emit *em, elem *e)
{
	char *chan = fstr(e, "chan");
	if (chan && *chan) {
		char *a = kf_xasprintf("%s:%s", !strcmp(em->devtype, "mhi_ep") ? "mhi_ep" : "mhi", chan);
		add_alias(em, a);
		free(a);
	}
	free(chan);
}

static void do_auxiliary(emit *em, elem *e)
{
	do_named(em, e, "auxiliary:");
}

/* dmi_system_id: "dmi*", then for each field of file2alias.c's dmi_fields
 * (in that order) every match on it as ":PREFIX*STRING*" (the string
 * without spaces, controls, DEL and ':'), then ":". */
static void do_dmi(emit *em, elem *e)
{
	const field *f = elem_find(e, "matches");
	int slot[4];
	char *str[4];
	int nm = 0;
	static const char *const sub_order[] = {"slot", "exact_match", "substr", NULL};
	const dcpp_toks *t = e->t;
	size_t i = f ? f->from : 0, to = f ? f->to : 0;
	bool ok = true;
	while (i < to && nm < 4) {
		if (is_punct(&t->v[i], ",")) {
			i++;
			continue;
		}
		if (!is_punct(&t->v[i], "{")) {
			ok = false;
			break;
		}
		size_t st = i;
		int depth = 0;
		for (; i < to; i++) {
			if (is_punct(&t->v[i], "{"))
				depth++;
			else if (is_punct(&t->v[i], "}") && --depth == 0)
				break;
		}
		if (i >= to) {
			ok = false;
			break;
		}
		elem m;
		elem_parse(&m, t, st + 1, i, sub_order);
		i++;
		long long sl = (long long)fint(&m, "slot");
		char *s = fstr(&m, "substr");
		if (m.bad || !s) {
			free(s);
			ok = false;
			break;
		}
		slot[nm] = (int)(sl & 0x7f);
		str[nm++] = s;
	}
	if (ok) {
		kf_strbuf sb = KF_STRBUF_INIT;
		kf_strbuf_addstr(&sb, "dmi*");
		for (size_t k = 0; k < sizeof(em->s->dmi_slot) / sizeof(em->s->dmi_slot[0]); k++)
			for (int j = 0; j < nm; j++) {
				if (!slot[j] || slot[j] != em->s->dmi_slot[k])
					continue;
				kf_strbuf_addf(&sb, ":%s*", dmi_prefix[k]);
				/* substr is char[79]: at most 78 characters */
				for (size_t c = 0; str[j][c] && c < 78; c++) {
					unsigned char ch = (unsigned char)str[j][c];
					if (ch > ' ' && ch < 127 && ch != ':')
						kf_strbuf_addch(&sb, (char)ch);
				}
				kf_strbuf_addch(&sb, '*');
			}
		kf_strbuf_addch(&sb, ':');
		add_alias(em, sb.buf);
		kf_strbuf_release(&sb);
	} else {
		e->bad = true;
	}
	for (int j = 0; j < nm; j++)
		free(str[j]);
}

/* cpu_feature (module_cpu_feature_match: arm64, arm, powerpc, s390...) */
static void do_cpufeat(emit *em, elem *e)
{
	unsigned long long f = fint(e, "feature") & 0xffff;
	if (e->bad)
		return;
	char a[40];
	snprintf(a, sizeof(a), "cpu:type:*:feature:*%04llX*", f);
	add_alias(em, a);
}

typedef struct table_type {
	const char *type;            /* struct name */
	const char *devtable;        /* MODULE_DEVICE_TABLE type word */
	const char *const *order;    /* positional field order */
	void (*fn)(emit *em, elem *e); /* alias maker, or NULL: */
	const id_format *format;     /* a plain format's fields */
} table_type;

static const char *const pci_order[] = {"vendor", "device", "subvendor", "subdevice", "class",
					"class_mask", "driver_data", "override_only", NULL};
static const char *const usb_order[] = {"match_flags", "idVendor", "idProduct", "bcdDevice_lo",
					"bcdDevice_hi", "bDeviceClass", "bDeviceSubClass",
					"bDeviceProtocol", "bInterfaceClass", "bInterfaceSubClass",
					"bInterfaceProtocol", "bInterfaceNumber", "driver_info", NULL};
static const char *const hid_order[] = {"bus", "group", "vendor", "product", "driver_data", NULL};
static const char *const virtio_order[] = {"device", "vendor", NULL};
static const char *const acpi_order[] = {"id", "driver_data", "cls", "cls_msk", NULL};
static const char *const of_order[] = {"name", "type", "compatible", "data", NULL};
static const char *const named_order[] = {"name", "driver_data", NULL};
static const char *const serio_order[] = {"type", "extra", "id", "proto", NULL};
static const char *const sdio_order[] = {"class", "vendor", "device", "driver_data", NULL};
static const char *const x86_order[] = {"vendor", "family", "model", "steppings", "feature",
					"flags", "driver_data", NULL};

static const char *const pnp_order[] = {"id", "driver_data", NULL};
static const char *const hda_order[] = {"vendor_id", "rev_id", "api_version", "name",
					"driver_data", NULL};
static const char *const wmi_order[] = {"guid_string", "context", NULL};
static const char *const vmbus_order[] = {"guid", "driver_data", NULL};

static const char *const input_order[] = {"flags", "bustype", "vendor", "product", "version",
					  "evbit", "keybit", "relbit", "absbit", "mscbit", "ledbit",
					  "sndbit", "ffbit", "swbit", "propbit", "driver_info", NULL};

static const char *const mdio_order[] = {"phy_id", "phy_id_mask", NULL};
static const char *const pcmcia_order[] = {"match_flags", "manf_id", "card_id", "func_id",
					   "function", "device_no", "prod_id_hash", "prod_id",
					   "driver_info", "cisfile", NULL};
static const char *const ieee1394_order[] = {"match_flags", "vendor_id", "model_id",
					     "specifier_id", "version", "driver_data", NULL};
static const char *const ssb_order[] = {"vendor", "coreid", "revision", NULL};
static const char *const bcma_order[] = {"manuf", "id", "rev", "class", NULL};
static const char *const sdw_order[] = {"mfg_id", "part_id", "sdw_version", "class_id",
					"driver_data", NULL};
static const char *const mhi_order[] = {"chan", "driver_data", NULL};
static const char *const dmi_order[] = {"callback", "ident", "matches", "driver_data", NULL};
static const char *const cpufeat_order[] = {"feature", NULL};

static const table_type table_types[] = {
	{"mdio_device_id", "mdio", mdio_order, do_mdio, NULL},
	{"input_device_id", "input", input_order, do_input, NULL},
	{"pnp_device_id", "pnp", pnp_order, do_pnp, NULL},
	{"hda_device_id", "hdaudio", hda_order, do_hda, NULL},
	{"wmi_device_id", "wmi", wmi_order, do_wmi, NULL},
	{"hv_vmbus_device_id", "vmbus", vmbus_order, do_vmbus, NULL},
	{"pci_device_id", "pci", pci_order, do_pci, NULL},
	{"usb_device_id", "usb", usb_order, do_usb, NULL},
	{"hid_device_id", "hid", hid_order, NULL, &hid_format},
	{"virtio_device_id", "virtio", virtio_order, NULL, &virtio_format},
	{"acpi_device_id", "acpi", acpi_order, do_acpi, NULL},
	{"of_device_id", "of", of_order, do_of, NULL},
	{"platform_device_id", "platform", named_order, do_platform, NULL},
	{"i2c_device_id", "i2c", named_order, do_i2c, NULL},
	{"spi_device_id", "spi", named_order, do_spi, NULL},
	{"serio_device_id", "serio", serio_order, NULL, &serio_format},
	{"sdio_device_id", "sdio", sdio_order, NULL, &sdio_format},
	{"x86_cpu_id", "x86cpu", x86_order, do_x86cpu, NULL},
	{"pcmcia_device_id", "pcmcia", pcmcia_order, do_pcmcia, NULL},
	{"ieee1394_device_id", "ieee1394", ieee1394_order, NULL, &ieee1394_format},
	{"ssb_device_id", "ssb", ssb_order, NULL, &ssb_format},
	{"bcma_device_id", "bcma", bcma_order, NULL, &bcma_format},
	{"sdw_device_id", "sdw", sdw_order, NULL, &sdw_format},
	{"mhi_device_id", "mhi", mhi_order, do_mhi, NULL},
	{"auxiliary_device_id", "auxiliary", named_order, do_auxiliary, NULL},
	{"dmi_system_id", "dmi", dmi_order, do_dmi, NULL},
	{"cpu_feature", "cpu", cpufeat_order, do_cpufeat, NULL},
};

/* Index just past the brace matching the one at s[i] (strings skipped). */
static size_t match_brace(const char *s, size_t n, size_t i, char open, char close)
{
	int depth = 0;
	for (; i < n; i++) {
		char c = s[i];
		if (c == '"' || c == '\'') {
			for (i++; i < n && s[i] != c; i++)
				if (s[i] == '\\')
					i++;
			continue;
		}
		if (c == open)
			depth++;
		else if (c == close && --depth == 0)
			return i + 1;
	}
	return 0;
}

static int line_at(const char *s, size_t off)
{
	int l = 1;
	for (size_t i = 0; i < off; i++)
		if (s[i] == '\n')
			l++;
	return l;
}

/* Append region text to out: "#include" lines replaced by the file (from
 * dir, comments stripped), other preprocessor lines by empty lines; the
 * region's own #if levels go to cl with the condition of each line. */
static void splice_region(kf_strbuf *out, const char *t, size_t n, const char *dir, int depth,
			  condlines *cl)
{
	size_t i = 0;
	while (i < n) {
		size_t e = i;
		while (e < n && t[e] != '\n')
			e++;
		size_t p = i;
		while (p < e && (t[p] == ' ' || t[p] == '\t'))
			p++;
		if (p < e && t[p] == '#') {
			/* continuation lines belong to the directive */
			while (e < n && e > i && t[e - 1] == '\\') {
				e++;
				while (e < n && t[e] != '\n')
					e++;
			}
			const char *q = t + p + 1;
			while (*q == ' ' || *q == '\t')
				q++;
			if (depth == 0 && cl)
				cond_directive(&cl->cs, q, t + e);
			if (!strncmp(q, "include", 7) && depth < 3) {
				const char *a = memchr(q, '"', (size_t)(t + e - q));
				const char *b = a ? memchr(a + 1, '"', (size_t)(t + e - a - 1)) : NULL;
				if (a && b) {
					char *path = kf_xasprintf("%s/%.*s", dir, (int)(b - a - 1), a + 1);
					kf_strbuf sb = KF_STRBUF_INIT;
					kf_diags ignore = KF_DIAGS_INIT;
					if (kf_exists(path) && kf_read_file(path, &sb, &ignore) == 0 &&
					    sb.buf) {
						dcpp_strip_comments(sb.buf, sb.len);
						splice_region(out, sb.buf, sb.len, dir, depth + 1, cl);
					}
					kf_strbuf_release(&sb);
					kf_diags_release(&ignore);
					free(path);
				}
			}
			kf_strbuf_addch(out, '\n');
			condlines_push(cl);
		} else {
			kf_strbuf_add(out, t + i, e - i);
			kf_strbuf_addch(out, '\n');
			condlines_push(cl);
		}
		i = e + 1;
	}
}

static void scan_elems(scan *s, const table_type *tt, const char *devtype, const dcpp_toks *ex,
		       size_t from, size_t to, int line, const condlines *cl, const char *outer,
		       const owner *ow, const char *file);

static void scan_table(scan *s, const dcpp_defs *defs, const table_type *tt, const char *devtype,
		       const char *text, size_t n, size_t open, const owner *ow, const char *file,
		       const char *dir)
{
	size_t close = match_brace(text, n, open, '{', '}');
	if (!close)
		return;
	int line = line_at(text, open);
	bool dead;
	char *outer = cond_at(text, open, &dead);
	if (dead) {
		free(outer);
		return;
	}
	condlines cl;
	memset(&cl, 0, sizeof(cl));
	dcpp_toks raw = {0}, ex = {0};
	if (memchr(text + open + 1, '#', close - open - 2)) {
		kf_strbuf sb = KF_STRBUF_INIT;
		splice_region(&sb, text + open + 1, close - open - 2, dir, 0, &cl);
		dcpp_tokenize(kf_strbuf_str(&sb), sb.len, line, &raw);
		kf_strbuf_release(&sb);
	} else {
		dcpp_tokenize(text + open + 1, close - open - 2, line, &raw);
	}
	dcpp_expand(defs, &raw, 0, raw.n, &ex);
	scan_elems(s, tt, devtype, &ex, 0, ex.n, line, &cl, outer, ow, file);
	free(outer);
	condlines_release(&cl);
	dcpp_toks_release(&raw);
	dcpp_toks_release(&ex);
}

/* The elements { ... } of a table's expanded tokens ex[from, to): cl has
 * the #if condition of each line from line on, outer the table's. */
static void scan_elems(scan *s, const table_type *tt, const char *devtype, const dcpp_toks *ex,
		       size_t from, size_t to, int line, const condlines *cl, const char *outer,
		       const owner *ow, const char *file)
{
	emit em = {s, ow, file, line, devtype, NULL};
	size_t i = from;
	while (i < to) {
		/* each top-level element: { ... } */
		if (!is_punct(&ex->v[i], "{")) {
			i++;
			continue;
		}
		int depth = 0;
		size_t st = i;
		for (; i < to; i++) {
			if (is_punct(&ex->v[i], "{"))
				depth++;
			else if (is_punct(&ex->v[i], "}") && --depth == 0)
				break;
		}
		elem e;
		elem_parse(&e, ex, st + 1, i < to ? i : to, tt->order);
		em.line = ex->v[st].line;
		i++;
		if (elem_empty(&e))
			continue;
		size_t li = (size_t)(em.line - line);
		const condline *c = cl && em.line >= line && li < cl->n ? &cl->v[li] : NULL;
		if (c && c->dead)
			continue;
		char *cond = cond_join(outer, c ? c->cond : NULL);
		em.cond = cond;
		size_t before = s->db->naliases;
		if (tt->format)
			do_format(&em, &e, tt->format);
		else
			tt->fn(&em, &e);
		if (s->db->naliases == before && e.bad)
			s->failed_entries++;
		free(cond);
	}
}

/* MODULE_ALIAS*(...) and MODULE_FIRMWARE(...) calls in the file. */
static void scan_calls(scan *s, const dcpp_defs *defs, const char *text, size_t n,
		       const owner *ow, const char *file, kf_modinfo *mi)
{
	for (size_t i = 0; i + 12 < n; i++) {
		if (text[i] != 'M' || strncmp(text + i, "MODULE_", 7))
			continue;
		bool fw = !strncmp(text + i, "MODULE_FIRMWARE", 15);
		bool al = !strncmp(text + i, "MODULE_ALIAS", 12);
		if (!fw && !al)
			continue;
		/* also a driver's own wrapper: IBM_BIOS_MODULE_ALIAS("I[MU]") */
		size_t m = i;
		while (i > 0 && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_'))
			i--;
		size_t p = m;
		while (p < n && (isalnum((unsigned char)text[p]) || text[p] == '_'))
			p++;
		while (p < n && (text[p] == ' ' || text[p] == '\t'))
			p++;
		size_t e = p < n && text[p] == '(' ? match_brace(text, n, p, '(', ')') : 0;
		if (!e) {
			i = m;
			continue;
		}
		/* a #define of such a macro is not a use */
		size_t ls = i;
		while (ls > 0 && text[ls - 1] != '\n')
			ls--;
		while (ls < i && (text[ls] == ' ' || text[ls] == '\t'))
			ls++;
		if (text[ls] == '#') {
			i = e;
			continue;
		}
		bool dead;
		char *cond = cond_at(text, i, &dead);
		if (dead) {
			free(cond);
			i = e;
			continue;
		}
		int line = line_at(text, i);
		dcpp_toks raw = {0}, ex = {0};
		dcpp_tokenize(text + i, e - i, line, &raw);
		dcpp_expand(defs, &raw, 0, raw.n, &ex);
		for (size_t k = 0; k + 1 < ex.n; k++) {
			bool isal = ex.v[k].kind == DCPP_ID && !strcmp(ex.v[k].s, "MODULE_ALIAS");
			bool isfw = ex.v[k].kind == DCPP_ID && !strcmp(ex.v[k].s, "MODULE_FIRMWARE");
			/* __MODULE_INFO(alias, NAME, "text") (MODULE_ALIAS_CRYPTO) */
			bool isinfo = ex.v[k].kind == DCPP_ID && !strcmp(ex.v[k].s, "__MODULE_INFO") &&
				      k + 5 < ex.n && !strcmp(ex.v[k + 2].s, "alias") &&
				      is_punct(&ex.v[k + 3], ",") && is_punct(&ex.v[k + 5], ",");
			if ((!isal && !isfw && !isinfo) || !is_punct(&ex.v[k + 1], "("))
				continue;
			int depth = 0;
			size_t a = isinfo ? k + 6 : k + 2, z = k + 1;
			isal |= isinfo;
			for (; z < ex.n; z++) {
				if (is_punct(&ex.v[z], "("))
					depth++;
				else if (is_punct(&ex.v[z], ")") && --depth == 0)
					break;
			}
			char *str = dcpp_eval_str(&ex, a, z);
			if (str && *str) {
				if (isal)
					add_owned(s, ow, str, file, line, KF_ALIAS_SOURCE, cond);
				else
					kf_modinfo_add_firmware(s->db, mi, str);
			}
			free(str);
			k = z;
		}
		free(cond);
		dcpp_toks_release(&raw);
		dcpp_toks_release(&ex);
		i = e;
	}
}

/* The string a plain identifier names: `static const char hcd_name[] =
 * "xhci_hcd";` (xhci-pci's .name = hcd_name), or NULL. */
static char *string_var(const char *text, const char *ident)
{
	size_t nl = strlen(ident);
	for (const char *p = strstr(text, ident); p; p = strstr(p + 1, ident)) {
		if ((p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) ||
		    strncmp(p + nl, "[]", 2))
			continue;
		const char *c = p + nl + 2;
		while (*c == ' ' || *c == '\t')
			c++;
		if (*c++ != '=')
			continue;
		while (*c == ' ' || *c == '\t')
			c++;
		if (*c != '"')
			continue;
		const char *e = strchr(c + 1, '"');
		return e ? kf_xstrndup(c + 1, (size_t)(e - c - 1)) : NULL;
	}
	return NULL;
}

/* struct WHAT X = { ... .name = NAME ... }: the name the driver registers,
 * as FORMAT ("platform:%s": platform drivers match by it; "driver:%s":
 * the name a device's driver link shows). */
static void scan_named_drivers(scan *s, const dcpp_defs *defs, const char *text, size_t n,
			       const owner *ow, const char *file, const char *w,
			       const char *format, kf_alias_origin origin)
{
	for (const char *p = strstr(text, w); p; p = strstr(p + 1, w)) {
		size_t i = (size_t)(p - text) + strlen(w);
		if (isalnum((unsigned char)text[i]) || text[i] == '_')
			continue;
		size_t q = i;
		while (q < n && text[q] != ';' && text[q] != '{' && text[q] != '(')
			q++;
		if (q >= n || text[q] != '{')
			continue;
		/* need "= {" */
		size_t b = q;
		while (b > i && (text[b - 1] == ' ' || text[b - 1] == '\t' || text[b - 1] == '\n'))
			b--;
		if (b <= i || text[b - 1] != '=')
			continue;
		size_t close = match_brace(text, n, q, '{', '}');
		if (!close)
			continue;
		bool dead;
		char *cond = cond_at(text, q, &dead);
		if (dead) {
			free(cond);
			continue;
		}
		dcpp_toks raw = {0}, ex = {0};
		int line = line_at(text, q);
		dcpp_tokenize(text + q, close - q, line, &raw);
		dcpp_expand(defs, &raw, 0, raw.n, &ex);
		for (size_t k = 0; k + 3 < ex.n; k++) {
			if (!is_punct(&ex.v[k], ".") || strcmp(ex.v[k + 1].s, "name") ||
			    !is_punct(&ex.v[k + 2], "="))
				continue;
			size_t z = k + 3;
			while (z < ex.n && !is_punct(&ex.v[z], ",") && !is_punct(&ex.v[z], "}"))
				z++;
			char *name = dcpp_eval_str(&ex, k + 3, z);
			if (!name && z == k + 4)
				name = string_var(text, ex.v[k + 3].s);
			if (name && *name) {
				char *a = kf_xasprintf(format, name);
				add_owned(s, ow, a, file, ex.v[k].line, origin, cond);
				free(a);
			}
			free(name);
			break;
		}
		free(cond);
		dcpp_toks_release(&raw);
		dcpp_toks_release(&ex);
	}
}

/* Platform drivers match devices by name; PCI, USB and HID drivers are
 * known by theirs in a device's driver link. */
static void scan_platform_drivers(scan *s, const dcpp_defs *defs, const char *text, size_t n,
				  const owner *ow, const char *file)
{
	scan_named_drivers(s, defs, text, n, ow, file, "struct platform_driver", "platform:%s",
			   KF_ALIAS_DRVNAME);
	static const char *const bus[] = {"struct pci_driver", "struct usb_driver",
					  "struct hid_driver", "struct platform_driver"};
	for (size_t k = 0; k < sizeof(bus) / sizeof(bus[0]); k++)
		scan_named_drivers(s, defs, text, n, ow, file, bus[k], "driver:%s",
				   KF_ALIAS_DRIVER);
}

/* module_cpu_feature_match(X, init): a cpu_feature table declared by the
 * macro ({ .feature = cpu_feature(X) }, exported as MODULE_DEVICE_TABLE(cpu)). */
static void scan_cpu_feature_calls(scan *s, const dcpp_defs *defs, const char *text, size_t n,
				   const owner *ow, const char *file)
{
	const char *w = "module_cpu_feature_match";
	size_t wl = strlen(w);
	for (const char *p = strstr(text, w); p; p = strstr(p + 1, w)) {
		size_t i = (size_t)(p - text);
		if ((i > 0 && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_')) ||
		    isalnum((unsigned char)text[i + wl]) || text[i + wl] == '_')
			continue;
		size_t q = i + wl;
		while (q < n && (text[q] == ' ' || text[q] == '\t'))
			q++;
		size_t e = q < n && text[q] == '(' ? match_brace(text, n, q, '(', ')') : 0;
		size_t ls = i;
		while (ls > 0 && text[ls - 1] != '\n')
			ls--;
		while (ls < i && (text[ls] == ' ' || text[ls] == '\t'))
			ls++;
		if (!e || text[ls] == '#')
			continue;
		bool dead;
		char *cond = cond_at(text, i, &dead);
		int line = line_at(text, i);
		dcpp_toks raw = {0}, ex = {0};
		dcpp_tokenize(text + i, e - i, line, &raw);
		dcpp_expand(defs, &raw, 0, raw.n, &ex);
		for (size_t k = 0; !dead && k + 3 < ex.n; k++) {
			if (!is_punct(&ex.v[k], ".") || strcmp(ex.v[k + 1].s, "feature") ||
			    !is_punct(&ex.v[k + 2], "="))
				continue;
			size_t z = k + 3;
			int depth = 0;
			while (z < ex.n && !(depth == 0 && (is_punct(&ex.v[z], "}") || is_punct(&ex.v[z], ",")))) {
				if (is_punct(&ex.v[z], "("))
					depth++;
				else if (is_punct(&ex.v[z], ")"))
					depth--;
				z++;
			}
			long long v;
			if (dcpp_eval_int(&ex, k + 3, z, &v)) {
				char a[40];
				snprintf(a, sizeof(a), "cpu:type:*:feature:*%04llX*", (unsigned long long)v & 0xffff);
				add_owned(s, ow, a, file, line, KF_ALIAS_SOURCE, cond);
			} else {
				s->failed_entries++;
			}
			break;
		}
		free(cond);
		dcpp_toks_release(&raw);
		dcpp_toks_release(&ex);
	}
}

/* A header an ID table file includes: its tables are searched too. */
typedef struct hdrtext {
	char *rel;   /* tree-relative path */
	char *text;  /* comment-stripped text */
	size_t len;  /* its length */
} hdrtext;

typedef struct incctx {
	scan *s;          /* the scan */
	dcpp_defs *defs;  /* where the header's macros go */
	char *dir;        /* directory of the including file (absolute) */
	int depth;        /* nesting */
	hdrtext *hdrs;    /* headers read, for their tables */
	size_t nhdrs;     /* how many */
	size_t ahdrs;     /* capacity */
	const char *cdir; /* tree-relative directory of the .c file ("drivers/x/") */
} incctx;

/* <angle> headers worth reading: ID lists (linux/usb/r8152.h,
 * drm/i915_pciids.h, linux/input/elan-i2c-ids.h), not the common ones. */
static bool angle_wanted(const char *name)
{
	int slashes = 0;
	for (const char *p = name; *p; p++)
		slashes += *p == '/';
	size_t n = strlen(name);
	/* and PHY ID headers (linux/micrel_phy.h, marvell_phy.h, brcmphy.h),
	   the framebuffer drivers' chip lists (video/trident.h) */
	return slashes >= 2 || strstr(name, "ids") || strstr(name, "_id") ||
	       (n > 5 && !strcmp(name + n - 5, "phy.h")) || !strncmp(name, "video/", 6);
}

/* name in the -I directories of the .c file's Makefile (ccflags-y):
 * the absolute path, or NULL. */
static char *find_in_incdirs(const incctx *ic, const char *name)
{
	for (size_t k = 0; k < ic->s->nincs; k++) {
		const struct incdir *id = &ic->s->incs[k];
		if (strcmp(id->dir, ic->cdir) &&
		    !(id->subdir && !strncmp(ic->cdir, id->dir, strlen(id->dir))))
			continue;
		char *p2 = join_path(id->path, name, strlen(name));
		char *abs = kf_xasprintf("%s/%s", ic->s->tree, p2);
		bool ok = !strstr(p2, "../") && kf_exists(abs) && !kf_is_dir(abs);
		free(p2);
		if (ok)
			return abs;
		free(abs);
	}
	return NULL;
}

static void on_include(const char *name, bool angle, size_t pos, void *ctx)
{
	incctx *ic = ctx;
	if (ic->depth >= 4 || (angle && strstr(name, "..")))
		return;
	if (angle && !angle_wanted(name))
		return;
	char *path;
	if (angle) {
		/* as the kernel's -I order: include, arch include, and their uapi */
		static const char *const dirs[] = {"include/", "arch/%s/include/", "include/uapi/",
						   "arch/%s/include/uapi/"};
		path = NULL;
		for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
			free(path);
			char *dir = kf_xasprintf(dirs[k], ic->s->arch);
			path = kf_xasprintf("%s/%s%s", ic->s->tree, dir, name);
			free(dir);
			if (kf_exists(path))
				break;
		}
	} else {
		/* "../usb.h" (rtlwifi's drivers), as long as it stays in the tree */
		char *dir = kf_xasprintf("%s/", ic->dir);
		path = join_path(dir, name, strlen(name));
		free(dir);
		size_t tl = strlen(ic->s->tree);
		if (strncmp(path, ic->s->tree, tl) || path[tl] != '/' || strstr(path, "/../")) {
			free(path);
			return;
		}
	}
	/* else the -I directories of the .c file's Makefile ccflags */
	if (!kf_exists(path)) {
		char *found = find_in_incdirs(ic, name);
		if (found) {
			free(path);
			path = found;
		}
	}
	for (size_t i = 0; i < ic->nhdrs; i++)
		if (!strcmp(ic->hdrs[i].rel, path + strlen(ic->s->tree) + 1)) {
			free(path);
			return; /* include guards */
		}
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_diags ignore = KF_DIAGS_INIT;
	if (kf_exists(path) && !kf_is_dir(path) && kf_read_file(path, &sb, &ignore) == 0 && sb.buf) {
		dcpp_strip_comments(sb.buf, sb.len);
		incctx sub = *ic;
		sub.depth++;
		char *sl = strrchr(path, '/');
		sub.dir = kf_xstrndup(path, (size_t)(sl - path));
		size_t old = dcpp_defs_set_pos_base(ic->defs, pos);
		KF_GROW(ic->hdrs, ic->nhdrs + 1, ic->ahdrs);
		size_t len = sb.len;
		ic->hdrs[ic->nhdrs].rel = kf_xstrdup(path + strlen(ic->s->tree) + 1);
		ic->hdrs[ic->nhdrs].text = kf_strbuf_detach(&sb);
		ic->hdrs[ic->nhdrs].len = len;
		ic->nhdrs++;
		const char *text = ic->hdrs[ic->nhdrs - 1].text;
		sub.hdrs = ic->hdrs;
		sub.nhdrs = ic->nhdrs;
		sub.ahdrs = ic->ahdrs;
		dcpp_collect(ic->defs, text, len, on_include, &sub);
		ic->hdrs = sub.hdrs;
		ic->nhdrs = sub.nhdrs;
		ic->ahdrs = sub.ahdrs;
		dcpp_defs_set_pos_base(ic->defs, old);
		free(sub.dir);
	}
	kf_strbuf_release(&sb);
	kf_diags_release(&ignore);
	free(path);
}

/* True when the text has MODULE_DEVICE_TABLE(type, name); the type word
 * goes to type (tsz bytes). */
static bool devtable_named(const char *text, const char *name, char *type, size_t tsz)
{
	size_t nl = strlen(name);
	if (!nl)
		return false;
	for (const char *p = strstr(text, "MODULE_DEVICE_TABLE"); p;
	     p = strstr(p + 1, "MODULE_DEVICE_TABLE")) {
		const char *c = strchr(p, ',');
		const char *e = strchr(p, ')');
		if (!c || !e || c > e)
			continue;
		c++;
		while (*c == ' ' || *c == '\t' || *c == '\n')
			c++;
		if (!strncmp(c, name, nl) && !(isalnum((unsigned char)c[nl]) || c[nl] == '_')) {
			const char *a = p + strlen("MODULE_DEVICE_TABLE");
			while (*a == ' ' || *a == '\t' || *a == '(')
				a++;
			size_t k = 0;
			while (k + 1 < tsz && (isalnum((unsigned char)a[k]) || a[k] == '_')) {
				type[k] = a[k];
				k++;
			}
			type[k] = 0;
			return true;
		}
	}
	return false;
}

/* True when p sits in the initializer of a struct pci_driver, usb_driver
 * or hid_driver (not a vDPA parent's list of the devices it offers). */
static bool in_bus_driver(const char *text, const char *p)
{
	static const char *const w[] = {"struct pci_driver", "struct usb_driver",
					"struct hid_driver"};
	const char *best = NULL;
	for (size_t k = 0; k < sizeof(w) / sizeof(w[0]); k++)
		for (const char *q = strstr(text, w[k]); q && q < p; q = strstr(q + 1, w[k]))
			if (!best || q > best)
				best = q;
	if (!best)
		return false;
	for (const char *q = best; q < p; q++)
		if (*q == ';')
			return false;
	return true;
}

/* True when text names the table as a PCI, USB or HID driver's
 * ".id_table = name" (a built-in driver without MODULE_DEVICE_TABLE still
 * binds by it). */
static bool is_id_table(const char *text, const char *name)
{
	size_t nl = strlen(name);
	for (const char *p = strstr(text, ".id_table"); p; p = strstr(p + 1, ".id_table")) {
		if (!in_bus_driver(text, p))
			continue;
		const char *c = p + strlen(".id_table");
		while (*c == ' ' || *c == '\t' || *c == '\n')
			c++;
		if (*c != '=')
			continue;
		c++;
		while (*c == ' ' || *c == '\t' || *c == '\n')
			c++;
		if (!strncmp(c, name, nl) && !(isalnum((unsigned char)c[nl]) || c[nl] == '_'))
			return true;
	}
	return false;
}

/* An exported table whose declaration is the body of a macro (cxgb4's
 * CH_PCI_DEVICE_ID_TABLE_DEFINE_BEGIN), read where the macro is used. */
typedef struct macro_table {
	const table_type *tt; /* its type */
	char devtype[32];     /* MODULE_DEVICE_TABLE's type word */
	char *name;           /* the table's name */
	char *macro;          /* the macro whose body declares it */
} macro_table;

typedef struct macro_tables {
	macro_table *v; /* found */
	size_t n, a;    /* count, capacity */
} macro_tables;

/* When text[pos] sits in a #define (continuation lines included): the
 * macro's name (malloc'd); "" for another directive; NULL otherwise. */
static char *defining_macro(const char *text, size_t pos)
{
	size_t ls = pos;
	for (;;) {
		while (ls > 0 && text[ls - 1] != '\n')
			ls--;
		if (ls >= 2 && text[ls - 2] == '\\') {
			ls--;
			continue;
		}
		break;
	}
	const char *p = text + ls;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '#')
		return NULL;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "define", 6) || (p[6] != ' ' && p[6] != '\t'))
		return kf_xstrdup("");
	p += 6;
	while (*p == ' ' || *p == '\t')
		p++;
	const char *e = p;
	while (isalnum((unsigned char)*e) || *e == '_')
		e++;
	return kf_xstrndup(p, (size_t)(e - p));
}

/* Where text uses macro as a statement of its own (not in a directive):
 * the offset, or SIZE_MAX. */
static size_t macro_use(const char *text, size_t n, const char *macro)
{
	size_t ml = strlen(macro);
	for (const char *p = strstr(text, macro); p; p = strstr(p + 1, macro)) {
		size_t i = (size_t)(p - text);
		if ((i > 0 && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_')) ||
		    (i + ml < n && (isalnum((unsigned char)text[i + ml]) || text[i + ml] == '_')))
			continue;
		char *dm = defining_macro(text, i);
		bool directive = dm != NULL;
		free(dm);
		if (!directive)
			return i;
	}
	return SIZE_MAX;
}

/* A macro-declared table: expand from the macro's use in text to the end
 * of text and read the table NAME[] = { ... } found there. */
static bool scan_macro_table(scan *s, const dcpp_defs *defs, const macro_table *mt,
			     const char *text, size_t n, size_t use, const owner *ow,
			     const char *file, const char *dir)
{
	bool dead;
	char *outer = cond_at(text, use, &dead);
	if (dead) {
		free(outer);
		return false;
	}
	int line = line_at(text, use);
	condlines cl;
	memset(&cl, 0, sizeof(cl));
	kf_strbuf sb = KF_STRBUF_INIT;
	splice_region(&sb, text + use, n - use, dir, 0, &cl);
	dcpp_toks raw = {0}, ex = {0};
	dcpp_tokenize(kf_strbuf_str(&sb), sb.len, line, &raw);
	kf_strbuf_release(&sb);
	dcpp_expand(defs, &raw, 0, raw.n, &ex);
	bool found = false;
	for (size_t k = 0; k + 4 < ex.n && !found; k++) {
		if (ex.v[k].kind != DCPP_ID || strcmp(ex.v[k].s, mt->name) || !is_punct(&ex.v[k + 1], "["))
			continue;
		size_t q = k + 2;
		while (q < ex.n && !is_punct(&ex.v[q], "]"))
			q++;
		if (q + 2 >= ex.n || !is_punct(&ex.v[q + 1], "=") || !is_punct(&ex.v[q + 2], "{"))
			continue;
		size_t open = q + 2, close = open;
		int depth = 0;
		for (; close < ex.n; close++) {
			if (is_punct(&ex.v[close], "{"))
				depth++;
			else if (is_punct(&ex.v[close], "}") && --depth == 0)
				break;
		}
		if (close >= ex.n)
			break;
		scan_elems(s, mt->tt, mt->devtype, &ex, open + 1, close, line, &cl, outer, ow, file);
		found = true;
	}
	free(outer);
	condlines_release(&cl);
	dcpp_toks_release(&raw);
	dcpp_toks_release(&ex);
	return found;
}

/* The exported ID tables in text (a .c file or a header it includes;
 * devtext is the .c file, where MODULE_DEVICE_TABLE is); declarations in
 * a macro's body go to mts for scan_macro_table. */
static bool scan_tables_in(scan *s, dcpp_defs *defs, const char *text, size_t n,
			   const char *devtext, const owner *ow, const char *file,
			   const char *dir, bool limit, macro_tables *mts)
{
	bool any = false;
	for (size_t k = 0; k < sizeof(table_types) / sizeof(table_types[0]); k++) {
		const table_type *tt = &table_types[k];
		char *w = kf_xasprintf("struct %s", tt->type);
		for (const char *p = strstr(text, w); p; p = strstr(p + 1, w)) {
			size_t i = (size_t)(p - text) + strlen(w);
			if (isalnum((unsigned char)text[i]) || text[i] == '_')
				continue;
			/* NAME[...] = { */
			size_t q = i;
			while (q < n && text[q] != ';' && text[q] != '=' && text[q] != '(' &&
			       text[q] != ')' && text[q] != '{')
				q++;
			if (q >= n || text[q] != '=')
				continue;
			q++;
			while (q < n && (text[q] == ' ' || text[q] == '\t' || text[q] == '\n'))
				q++;
			if (q >= n || text[q] != '{')
				continue;
			/* a plain struct (not an array) holds one element */
			const char *br = memchr(text + i, '[', q - i);
			if (!br)
				continue;
			/* only exported tables: MODULE_DEVICE_TABLE(type, NAME), as modpost */
			const char *ne = br;
			while (ne > text + i && (ne[-1] == ' ' || ne[-1] == '\t'))
				ne--;
			const char *nb = ne;
			while (nb > text + i && (isalnum((unsigned char)nb[-1]) || nb[-1] == '_'))
				nb--;
			char *tname = kf_xstrndup(nb, (size_t)(ne - nb));
			char devtype[32];
			/* MODULE_DEVICE_TABLE in the .c file, or beside the table in a
			   header (sisfb's sis_main.h) */
			bool exported = devtable_named(devtext, tname, devtype, sizeof(devtype)) ||
					(text != devtext &&
					 devtable_named(text, tname, devtype, sizeof(devtype)));
			/* not exported but a driver's own .id_table: the bus
			   matches it (built-in bus and port drivers) */
			bool bus = !exported && is_id_table(devtext, tname);
			if (!exported && !bus) {
				free(tname);
				continue;
			}
			if (bus)
				devtype[0] = 0;
			char *macro = defining_macro(text, (size_t)(p - text));
			if (macro) {
				if (*macro) {
					KF_GROW(mts->v, mts->n + 1, mts->a);
					macro_table *mt = &mts->v[mts->n++];
					mt->tt = tt;
					memcpy(mt->devtype, devtype, sizeof(devtype));
					mt->name = tname;
					mt->macro = macro;
				} else {
					free(tname);
					free(macro);
				}
				continue;
			}
			free(tname);
			size_t close = match_brace(text, n, q, '{', '}');
			bool pp = close && memchr(text + q, '#', close - q);
			if (!limit)
				dcpp_defs_set_limit(defs, SIZE_MAX, SIZE_MAX);
			else if (pp)
				dcpp_defs_set_limit(defs, close, q);
			else
				dcpp_defs_set_limit(defs, q, q);
			s->table_origin = bus ? KF_ALIAS_BUSTABLE : KF_ALIAS_SOURCE;
			scan_table(s, defs, tt, devtype, text, n, q, ow, file, dir);
			s->table_origin = KF_ALIAS_SOURCE;
			dcpp_defs_set_limit(defs, SIZE_MAX, SIZE_MAX);
			any = true;
		}
		free(w);
	}
	return any;
}

static void scan_cfile(scan *s, const char *rel)
{
	char *abs = kf_xasprintf("%s/%s", s->tree, rel);
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_diags ignore = KF_DIAGS_INIT;
	if (kf_read_file(abs, &sb, &ignore) < 0 || !sb.buf)
		goto out;
	if (!strstr(sb.buf, "_device_id") && !strstr(sb.buf, "MODULE_ALIAS") &&
	    !strstr(sb.buf, "MODULE_FIRMWARE") && !strstr(sb.buf, "x86_cpu_id") &&
	    !strstr(sb.buf, "dmi_system_id") && !strstr(sb.buf, "module_cpu_feature_match") &&
	    !strstr(sb.buf, "struct platform_driver") && !strstr(sb.buf, "struct pci_driver") &&
	    !strstr(sb.buf, "struct usb_driver") && !strstr(sb.buf, "struct hid_driver"))
		goto out;
	char *text = sb.buf;
	size_t n = sb.len;
	dcpp_strip_comments(text, n);
	owner ow;
	find_owner(s, rel, &ow);
	kf_modinfo *mi = kf_aliasdb_module_get(s->db, ow.module);
	if (!mi->object) {
		mi->object = kf_arena_strdup(s->db->arena, ow.object);
		mi->symbol = ow.symbol ? kf_arena_strdup(s->db->arena, ow.symbol) : NULL;
		mi->makefile = ow.makefile ? kf_arena_strdup(s->db->arena, ow.makefile) : NULL;
		mi->line = ow.line;
	}
	dcpp_defs *defs = dcpp_defs_new(s->global);
	char *km = kf_xasprintf("#define KBUILD_MODNAME \"%s\"\n", ow.module);
	dcpp_collect(defs, km, strlen(km), NULL, NULL);
	free(km);
	char *cdir = kf_xstrdup(rel);
	*(strrchr(cdir, '/') + 1) = 0;
	incctx ic = {s, defs, NULL, 0, NULL, 0, 0, cdir};
	char *sl = strrchr(abs, '/');
	ic.dir = kf_xstrndup(abs, (size_t)(sl - abs));
	dcpp_collect(defs, text, n, on_include, &ic);
	macro_tables mts = {NULL, 0, 0};
	bool any = scan_tables_in(s, defs, text, n, text, &ow, rel, ic.dir, true, &mts);
	for (size_t h = 0; h < ic.nhdrs; h++) {
		char *hd = kf_xasprintf("%s/%s", s->tree, ic.hdrs[h].rel);
		*strrchr(hd, '/') = 0;
		any |= scan_tables_in(s, defs, ic.hdrs[h].text, ic.hdrs[h].len, text, &ow,
				      ic.hdrs[h].rel, hd, false, &mts);
		free(hd);
	}
	/* tables declared by a macro: where the macro is used */
	dcpp_defs_set_limit(defs, SIZE_MAX, SIZE_MAX);
	for (size_t m = 0; m < mts.n; m++) {
		size_t use = macro_use(text, n, mts.v[m].macro);
		if (use != SIZE_MAX) {
			any |= scan_macro_table(s, defs, &mts.v[m], text, n, use, &ow, rel, ic.dir);
		} else {
			for (size_t h = 0; h < ic.nhdrs; h++) {
				use = macro_use(ic.hdrs[h].text, ic.hdrs[h].len, mts.v[m].macro);
				if (use == SIZE_MAX)
					continue;
				char *hd = kf_xasprintf("%s/%s", s->tree, ic.hdrs[h].rel);
				*strrchr(hd, '/') = 0;
				any |= scan_macro_table(s, defs, &mts.v[m], ic.hdrs[h].text,
							ic.hdrs[h].len, use, &ow, ic.hdrs[h].rel, hd);
				free(hd);
				break;
			}
		}
		free(mts.v[m].name);
		free(mts.v[m].macro);
	}
	free(mts.v);
	for (size_t h = 0; h < ic.nhdrs; h++) {
		free(ic.hdrs[h].rel);
		free(ic.hdrs[h].text);
	}
	free(ic.hdrs);
	free(ic.dir);
	free(cdir);
	scan_calls(s, defs, text, n, &ow, rel, mi);
	scan_platform_drivers(s, defs, text, n, &ow, rel);
	scan_cpu_feature_calls(s, defs, text, n, &ow, rel);
	if (any)
		s->db->nsources++;
	dcpp_defs_free(defs);
	owner_release(&ow);
out:
	kf_strbuf_release(&sb);
	kf_diags_release(&ignore);
	free(abs);
}

/* The kernel headers whose macros the tables use. */
static void load_global(scan *s)
{
	static const char *const hdrs[] = {
		"include/linux/stringify.h",
		"include/linux/mod_devicetable.h",
		"include/linux/pci_ids.h",
		"include/linux/pci.h",
		"include/uapi/linux/pci_regs.h",
		"include/uapi/linux/usb/ch9.h",
		"include/linux/usb.h",
		"include/linux/usb/cdc.h",
		"include/linux/usb_usual.h",
		"include/linux/usb/storage.h",
		"include/uapi/linux/usb/cdc.h",
		"include/uapi/linux/input.h",
		"include/uapi/linux/input-event-codes.h",
		"include/linux/hid.h",
		"include/uapi/linux/hid.h",
		"include/uapi/linux/virtio_ids.h",
		"include/uapi/linux/serio.h",
		"include/linux/serio.h",
		"include/linux/mmc/sdio_ids.h",
		"include/linux/mmc/sdio_func.h",
		"include/linux/socket.h",
		"include/linux/net.h",
		"include/linux/fs.h",
		"include/linux/device.h",
		"include/linux/miscdevice.h",
		"include/linux/blkdev.h",
		"include/linux/crypto.h",
		"include/crypto/algapi.h",
		"include/linux/nls.h",
		"include/linux/tty_ldisc.h",
		"include/linux/netdevice.h",
		"include/net/genetlink.h",
		"include/linux/genetlink.h",
		"include/linux/netfilter/nfnetlink.h",
		"include/uapi/linux/netfilter/nfnetlink.h",
		"include/uapi/linux/netlink.h",
		"include/net/rtnetlink.h",
		"include/net/tcp.h",
		"include/net/pkt_sched.h",
		"include/net/pkt_cls.h",
		"include/uapi/linux/pkt_cls.h",
		"include/net/act_api.h",
		"include/linux/if_team.h",
		"include/uapi/linux/tty.h",
		"include/uapi/linux/major.h",
		"include/linux/major.h",
		"include/linux/nd.h",
		"include/sound/hdaudio.h",
		"include/sound/hda_codec.h",
		"include/uapi/linux/uuid.h",
		"include/linux/uuid.h",
		"include/linux/hyperv.h",
		"include/linux/wmi.h",
		"include/acpi/acpi_drivers.h",
		"include/acpi/processor.h",
		"include/scsi/scsi_proto.h",
		"include/scsi/scsi_device.h",
		"include/linux/i2c.h",
		"include/linux/spi/spi.h",
		"include/linux/mdio.h",
		"include/linux/phy.h",
		"include/linux/input.h",
		"include/linux/cpufeature.h",
		"include/pcmcia/device_id.h",
		"include/linux/soundwire/sdw.h",
		"include/uapi/linux/const.h",
		"include/vdso/const.h",
		"include/linux/const.h",
		"include/uapi/linux/bits.h",
		"include/vdso/bits.h",
		"include/linux/bits.h",
		"arch/x86/include/asm/processor.h",
		"arch/x86/include/asm/cpufeatures.h",
		"arch/x86/include/asm/intel-family.h",
		"arch/x86/include/asm/cpu_device_id.h",
		"arch/x86/include/asm/vfio_pci.h",
	};
	s->global = dcpp_defs_new(NULL);
	for (size_t i = 0; i < sizeof(hdrs) / sizeof(hdrs[0]); i++) {
		char *p = kf_xasprintf("%s/%s", s->tree, hdrs[i]);
		kf_strbuf sb = KF_STRBUF_INIT;
		kf_diags ignore = KF_DIAGS_INIT;
		if (kf_exists(p) && kf_read_file(p, &sb, &ignore) == 0 && sb.buf) {
			dcpp_strip_comments(sb.buf, sb.len);
			dcpp_collect(s->global, sb.buf, sb.len, NULL, NULL);
		}
		kf_strbuf_release(&sb);
		kf_diags_release(&ignore);
		free(p);
	}
	/* the calls we look for must stay unexpanded */
	static const char keep[] = "#define MODULE_ALIAS MODULE_ALIAS\n"
				   "#define __MODULE_INFO __MODULE_INFO\n"
				   "#define MODULE_FIRMWARE MODULE_FIRMWARE\n"
				   /* compile-time checks that only make sense to gcc */
				   "#define GENMASK_INPUT_CHECK(h, l) 0\n"
				   "#define BUILD_BUG_ON_ZERO(e) 0\n"
				   "#define __BITS_PER_LONG 64\n"
				   "#define BITS_PER_LONG 64\n"
				   /* evaluated by dcpp_eval_int */
				   "#define const_ilog2(n) __kfit_ilog2(n)\n"
				   "#define ilog2(n) __kfit_ilog2(n)\n";
	/* cpu_feature(X) of the other architectures (arm64: KERNEL_HWCAP_X) */
	if (strcmp(s->arch, "x86")) {
		static const char *const ahdrs[] = {"arch/%s/include/uapi/asm/hwcap.h",
						    "arch/%s/include/asm/hwcap.h",
						    "arch/%s/include/asm/cpufeature.h"};
		for (size_t i = 0; i < sizeof(ahdrs) / sizeof(ahdrs[0]); i++) {
			char *rel = kf_xasprintf(ahdrs[i], s->arch);
			char *p = kf_xasprintf("%s/%s", s->tree, rel);
			kf_strbuf sb = KF_STRBUF_INIT;
			kf_diags ignore = KF_DIAGS_INIT;
			if (kf_exists(p) && kf_read_file(p, &sb, &ignore) == 0 && sb.buf) {
				dcpp_strip_comments(sb.buf, sb.len);
				dcpp_collect(s->global, sb.buf, sb.len, NULL, NULL);
			}
			kf_strbuf_release(&sb);
			kf_diags_release(&ignore);
			free(p);
			free(rel);
		}
	}
	dcpp_collect(s->global, keep, sizeof(keep) - 1, NULL, NULL);
	/* enum dmi_field's values, for dmi_system_id tables */
	for (size_t i = 0; i < sizeof(dmi_names) / sizeof(dmi_names[0]); i++) {
		dcpp_toks raw = {0}, ex = {0};
		long long v;
		dcpp_tokenize(dmi_names[i], strlen(dmi_names[i]), 1, &raw);
		dcpp_expand(s->global, &raw, 0, raw.n, &ex);
		s->dmi_slot[i] = dcpp_eval_int(&ex, 0, ex.n, &v) ? (int)v : -1;
		dcpp_toks_release(&raw);
		dcpp_toks_release(&ex);
	}
}

static void scan_release(scan *s)
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
	free(s->cfiles);
	for (size_t i = 0; i < s->nincs; i++) {
		free(s->incs[i].dir);
		free(s->incs[i].path);
	}
	free(s->incs);
	kf_strmap_release(&s->objmap);
	kf_strmap_release(&s->dirmap);
	dcpp_defs_free(s->global);
}

/* SRCARCH for what make's ARCH= or uname -m say (NULL: x86). */
static const char *srcarch(const char *arch)
{
	static const struct {
		const char *arch, *src;
	} map[] = {{"x86_64", "x86"},	 {"i386", "x86"},      {"i486", "x86"},	     {"i586", "x86"},
		   {"i686", "x86"},	 {"x86_32", "x86"},    {"amd64", "x86"},     {"aarch64", "arm64"},
		   {"sparc32", "sparc"}, {"sparc64", "sparc"}, {"parisc64", "parisc"}, {"sh64", "sh"},
		   {"riscv64", "riscv"}, {"riscv32", "riscv"}, {"ppc64le", "powerpc"}, {"ppc64", "powerpc"},
		   {"ppc", "powerpc"},	 {"s390x", "s390"},    {"mips64", "mips"},   {"loongarch64", "loongarch"}};
	if (!arch || !*arch)
		return "x86";
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(arch, map[i].arch))
			return map[i].src;
	if (!strncmp(arch, "armv", 4))
		return "arm";
	return arch;
}

/* ---- the .c files on several CPUs ---- */

/* Files per chunk.  The workers claim chunks in turn; each chunk's
 * findings go into a database of its own, merged into the result in file
 * order as soon as the chunks before it are in, so the result is the one
 * scanning the files one after another gives (scan_cfile reads the walked
 * tree and the global macros and writes only its database). */
#define SCAN_CHUNK 32

typedef struct scan_pool {
	scan *s;            /* the walked tree, read only while workers run */
	size_t nchunks;     /* chunks of s->cfiles */
	pthread_mutex_t mu; /* guards everything below */
	size_t next;        /* first file not claimed yet */
	size_t merged;      /* chunks merged into s->db so far */
	kf_aliasdb **done;  /* finished chunks waiting for the ones before */
	size_t failed;      /* failed_entries of the chunks */
} scan_pool;

static void *scan_worker(void *arg)
{
	scan_pool *p = arg;
	scan w = *p->s;
	for (;;) {
		pthread_mutex_lock(&p->mu);
		size_t from = p->next;
		if (from < w.ncfiles)
			p->next += SCAN_CHUNK;
		pthread_mutex_unlock(&p->mu);
		if (from >= w.ncfiles)
			break;
		size_t to = w.ncfiles - from > SCAN_CHUNK ? from + SCAN_CHUNK : w.ncfiles;
		w.db = kf_aliasdb_new();
		w.failed_entries = 0;
		for (size_t i = from; i < to; i++)
			scan_cfile(&w, w.cfiles[i]);
		pthread_mutex_lock(&p->mu);
		p->done[from / SCAN_CHUNK] = w.db;
		p->failed += w.failed_entries;
		while (p->merged < p->nchunks && p->done[p->merged]) {
			kf_aliasdb_merge(p->s->db, p->done[p->merged]);
			kf_aliasdb_free(p->done[p->merged]);
			p->done[p->merged++] = NULL;
		}
		pthread_mutex_unlock(&p->mu);
	}
	return NULL;
}

/* Threads for the scan: $KFIT_SCAN_JOBS (1: one file after another, in
 * this thread), else the CPUs online. */
static int scan_jobs(void)
{
	const char *e = getenv("KFIT_SCAN_JOBS");
	if (e && *e) {
		char *end;
		long n = strtol(e, &end, 10);
		if (!*end && n >= 1 && n <= 256)
			return (int)n;
	}
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

static void scan_cfiles(scan *s)
{
	int jobs = scan_jobs();
	if (jobs <= 1 || s->ncfiles <= SCAN_CHUNK) {
		for (size_t i = 0; i < s->ncfiles; i++)
			scan_cfile(s, s->cfiles[i]);
		return;
	}
	scan_pool p;
	memset(&p, 0, sizeof(p));
	p.s = s;
	p.nchunks = (s->ncfiles + SCAN_CHUNK - 1) / SCAN_CHUNK;
	p.done = kf_xcalloc(p.nchunks, sizeof(*p.done));
	pthread_mutex_init(&p.mu, NULL);
	pthread_t *thr = kf_xcalloc((size_t)jobs - 1, sizeof(*thr));
	int started = 0;
	/* this thread is a worker too; one that cannot start is not needed */
	while (started < jobs - 1 && pthread_create(&thr[started], NULL, scan_worker, &p) == 0)
		started++;
	scan_worker(&p);
	for (int i = 0; i < started; i++)
		pthread_join(thr[i], NULL);
	s->failed_entries += p.failed;
	pthread_mutex_destroy(&p.mu);
	free(thr);
	free(p.done);
}

/* Bumped whenever the scanner's output changes, so old caches are redone. */
#define SCANNER_VERSION 35

int kf_aliasdb_scan_tree(kf_aliasdb *db, const char *tree, const char *arch, bool use_cache,
			 kf_detect_progress_fn *progress, void *ctx, kf_diags *d)
{
	arch = srcarch(arch);
	char *ad = kf_xasprintf("%s/arch", tree), *sd = kf_xasprintf("%s/arch/%s", tree, arch);
	bool bad_arch = kf_is_dir(ad) && !kf_is_dir(sd);
	free(ad);
	free(sd);
	if (bad_arch) {
		kf_diag_add(d, KF_ERROR, NULL, 0, 0, "%s has no arch/%s: not an architecture of this tree",
			tree, arch);
		return -1;
	}
	char *kv = kf_tree_kernelversion(tree, d);
	if (!kv)
		return -1;
	struct stat st;
	char *mk = kf_xasprintf("%s/Makefile", tree);
	long long mt = stat(mk, &st) == 0 ? (long long)st.st_mtime : 0;
	free(mk);
	char *keytext = kf_xasprintf("%d:%s:%s:%s:%lld", SCANNER_VERSION, tree, kv, arch, mt);
	char *cache = use_cache ? kf_cache_dir(d) : NULL;
	char *cpath = NULL;
	if (cache) {
		char *dir = kf_xasprintf("%s/detect", cache);
		kf_mkdir_p(dir, 0755);
		cpath = kf_xasprintf("%s/aliases-%s-%08x.kc3", dir, kv, kf_hash_str(keytext));
		free(dir);
		int rc;
		/* an unusable entry (-2) is scanned again and rewritten */
		if (kf_exists(cpath) && (rc = kf_aliasdb_load(db, cpath, d)) != -2) {
			free(cpath);
			free(cache);
			free(keytext);
			free(kv);
			return rc;
		}
	}
	if (progress) {
		char *msg = kf_xasprintf("scanning the driver sources of %s (once per tree)", tree);
		progress(msg, ctx);
		free(msg);
	}
	scan s;
	memset(&s, 0, sizeof(s));
	s.tree = tree;
	s.arch = arch;
	s.db = db;
	db->tree = kf_arena_strdup(db->arena, tree);
	db->kernelversion = kf_arena_strdup(db->arena, kv);
	load_global(&s);
	walk(&s, "");
	scan_cfiles(&s);
	/* modules whose objects the Makefiles name but no scanned file did */
	for (size_t i = 0; i < s.nobjs; i++) {
		objent *o = &s.objs[i];
		if (!o->is_obj || o->composite)
			continue;
		char *name = modname_of(o->path);
		kf_modinfo *m = kf_aliasdb_module_get(db, name);
		if (!m->object) {
			m->object = kf_arena_strdup(db->arena, o->path);
			m->symbol = o->symbol ? kf_arena_strdup(db->arena, o->symbol) : NULL;
			m->makefile = kf_arena_strdup(db->arena, o->makefile);
			m->line = o->line;
		}
		free(name);
	}
	scan_release(&s);
	int rc = 0;
	if (cpath)
		rc = kf_aliasdb_save(db, cpath, d);
	free(cpath);
	free(cache);
	free(keytext);
	free(kv);
	return rc;
}

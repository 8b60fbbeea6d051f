/*
 * detect_alias.c - the alias database: modalias patterns with the module
 * that claims them, module -> Kconfig symbol facts, modules.alias and
 * modules.builtin.modinfo reading, matching as modprobe matches (fnmatch),
 * and the text cache of a tree's source-derived part.
 */
#include "detect_internal.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Matching looks at the patterns that can match only: a pattern's literal
 * prefix (up to its first wildcard) must be a prefix of the modalias.  The
 * index groups the aliases by that prefix in a hash table (each group's
 * aliases chained in database order); a modalias of length M asks for the
 * prefixes of each length 0..M (one lookup each, the hash extended by one
 * byte at a time), and the candidates are matched with fnmatch in
 * database order, as the whole list was.  A db has thousands of patterns
 * (a 6.12 tree about 90,000) and a machine hundreds of devices.
 */
struct kf_alias_index {
	size_t n;          /* aliases indexed */
	uint32_t *plen;    /* literal prefix length of each alias */
	uint32_t *next;    /* the next alias of its group, UINT32_MAX: none */
	uint32_t *first;   /* by group: its first alias */
	uint32_t *last;    /* by group: its last alias */
	size_t ngroups;    /* groups (distinct literal prefixes) */
	kf_hindex groups;  /* groups by prefix */
	uint32_t *cand;    /* scratch: candidates of one modalias */
	size_t acand;      /* its capacity */
	/* for the bound-driver questions (kf_aliasdb_module_drives,
	 * kf_aliasdb_bound_alias), asked for every device with a driver:
	 * made together, for the first naliases + 1 (0: not made) */
	size_t drv_of;
	kf_hindex drvfirst; /* a driver name: per module, its first alias
			       naming it, in alias order */
	kf_hindex moddrv;   /* module and driver name: an alias of the
			       module naming that driver */
	kf_hindex modbus;   /* module and bus ("pci:"): the module's first
			       alias of that bus */
	kf_hindex moddev;   /* module: its first alias that is not a
			       "driver:NAME" (one of a device or a bus) */
};

kf_aliasdb *kf_aliasdb_new(void)
{
	kf_aliasdb *db = kf_xcalloc(1, sizeof(*db));
	db->arena = kf_arena_new();
	db->index = kf_xcalloc(1, sizeof(*db->index));
	return db;
}

static void index_release(struct kf_alias_index *x)
{
	free(x->plen);
	free(x->next);
	free(x->first);
	free(x->last);
	kf_hindex_release(&x->groups);
	free(x->cand);
	kf_hindex_release(&x->drvfirst);
	kf_hindex_release(&x->moddrv);
	kf_hindex_release(&x->modbus);
	kf_hindex_release(&x->moddev);
	memset(x, 0, sizeof(*x));
}

void kf_aliasdb_free(kf_aliasdb *db)
{
	if (!db)
		return;
	for (size_t i = 0; i < db->nmods; i++)
		free(db->mods[i].firmware);
	free(db->mods);
	free(db->aliases);
	kf_hindex_release(&db->modindex);
	for (size_t i = 0; i < db->ntexts; i++)
		free(db->texts[i]);
	free(db->texts);
	if (db->index)
		index_release(db->index);
	free(db->index);
	kf_arena_free(db->arena);
	free(db);
}

/* Module names compare with '-' and '_' equal, as kmod does. */
static uint32_t modname_hash(const char *s)
{
	uint32_t h = KF_HASH_INIT;
	for (; *s; s++)
		h = kf_hash_step(h, (unsigned char)(*s == '-' ? '_' : *s));
	return h;
}

bool kf_modname_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;
		if (x != y)
			return false;
	}
	return !*a && !*b;
}

static bool mod_eq(const void *ctx, size_t i, const void *name)
{
	const kf_aliasdb *db = ctx;
	return kf_modname_eq(db->mods[i].name, name);
}

kf_modinfo *kf_aliasdb_module(const kf_aliasdb *db, const char *name)
{
	size_t i = kf_hindex_find(&db->modindex, modname_hash(name), mod_eq, db, name);
	return i == KF_HINDEX_NONE ? NULL : &db->mods[i];
}

/* Room for n more aliases and m more modules. */
static void aliasdb_reserve(kf_aliasdb *db, size_t n, size_t m)
{
	if (db->naliases + n > db->aalloc) {
		db->aalloc = db->naliases + n;
		db->aliases = kf_xrealloc(db->aliases, db->aalloc * sizeof(*db->aliases));
	}
	if (db->nmods + m > db->malloc_) {
		db->malloc_ = db->nmods + m;
		db->mods = kf_xrealloc(db->mods, db->malloc_ * sizeof(*db->mods));
	}
	kf_hindex_reserve(&db->modindex, db->nmods + m);
}

kf_modinfo *kf_aliasdb_module_get(kf_aliasdb *db, const char *name)
{
	kf_modinfo *m = kf_aliasdb_module(db, name);
	if (m)
		return m;
	KF_GROW(db->mods, db->nmods + 1, db->malloc_);
	m = &db->mods[db->nmods];
	memset(m, 0, sizeof(*m));
	char *n = kf_arena_strdup(db->arena, name);
	for (char *p = n; *p; p++)
		if (*p == '-')
			*p = '_';
	m->name = n;
	kf_hindex_add(&db->modindex, modname_hash(n), db->nmods++);
	return m;
}

void kf_modinfo_add_firmware(kf_aliasdb *db, kf_modinfo *m, const char *fw)
{
	for (size_t i = 0; i < m->nfirmware; i++)
		if (!strcmp(m->firmware[i], fw))
			return;
	KF_GROW(m->firmware, m->nfirmware + 1, m->fwalloc);
	m->firmware[m->nfirmware++] = kf_arena_strdup(db->arena, fw);
}

bool kf_alias_cond_holds(const kf_alias *a, const kf_dotconfig *cfg)
{
	const char *p = a->cond;
	while (p && *p) {
		const char *e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		bool neg = *p == '!';
		const char *sym = p + neg, *eq = memchr(sym, '=', (size_t)(e - sym));
		if (eq && eq + 1 < e) {
			char name[128];
			size_t n = (size_t)(eq - sym);
			if (n < sizeof(name)) {
				memcpy(name, sym, n);
				name[n] = 0;
				const char *v = kf_dotconfig_get(cfg, name);
				bool set = v && strcmp(v, "n"), mod = set && !strcmp(v, "m");
				bool on = eq[1] == 'm' ? mod : eq[1] == 'e' ? set : set && !mod;
				if (on == neg)
					return false;
			}
		}
		p = *e ? e + 1 : e;
	}
	return true;
}

/* kf_aliasdb_add with the strings kept, not copied: they live as long as
 * db (a table in db->texts). */
static kf_alias *add_kept(kf_aliasdb *db, const char *pattern, const char *module,
			  const char *part_symbol, const char *file, int line,
			  kf_alias_origin origin)
{
	KF_GROW(db->aliases, db->naliases + 1, db->aalloc);
	kf_alias *a = &db->aliases[db->naliases++];
	a->pattern = pattern;
	kf_modinfo *m = kf_aliasdb_module_get(db, module);
	a->module = m->name;
	a->part_symbol = part_symbol;
	a->file = file;
	a->line = line;
	a->origin = origin;
	a->symbol = NULL;
	a->makefile = NULL;
	a->mkline = 0;
	a->cond = NULL;
	return a;
}

kf_alias *kf_aliasdb_add(kf_aliasdb *db, const char *pattern, const char *module,
			 const char *part_symbol, const char *file, int line,
			 kf_alias_origin origin)
{
	return add_kept(db, kf_arena_strdup(db->arena, pattern), module,
			part_symbol ? kf_arena_strdup(db->arena, part_symbol) : NULL,
			file ? kf_arena_strdup(db->arena, file) : NULL, line, origin);
}

static const char *dup_or_null(kf_aliasdb *db, const char *s)
{
	return s ? kf_arena_strdup(db->arena, s) : NULL;
}

void kf_aliasdb_merge(kf_aliasdb *db, const kf_aliasdb *part)
{
	for (size_t i = 0; i < part->nmods; i++) {
		const kf_modinfo *pm = &part->mods[i];
		kf_modinfo *m = kf_aliasdb_module_get(db, pm->name);
		/* the scan sets these from a module's first file: the first
		   part that has them wins, as the first file did */
		if (!m->object && pm->object) {
			m->object = kf_arena_strdup(db->arena, pm->object);
			m->symbol = dup_or_null(db, pm->symbol);
			m->makefile = dup_or_null(db, pm->makefile);
			m->line = pm->line;
		}
		for (size_t k = 0; k < pm->nfirmware; k++)
			kf_modinfo_add_firmware(db, m, pm->firmware[k]);
		m->requests_firmware |= pm->requests_firmware;
	}
	for (size_t i = 0; i < part->naliases; i++) {
		const kf_alias *pa = &part->aliases[i];
		kf_alias *a = kf_aliasdb_add(db, pa->pattern, pa->module, pa->part_symbol, pa->file,
					     pa->line, pa->origin);
		a->symbol = dup_or_null(db, pa->symbol);
		a->makefile = dup_or_null(db, pa->makefile);
		a->mkline = pa->mkline;
		a->cond = dup_or_null(db, pa->cond);
	}
	db->nsources += part->nsources;
	db->nmakefiles += part->nmakefiles;
}

int kf_aliasdb_add_modules_alias(kf_aliasdb *db, const char *path, kf_diags *d)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	if (kf_read_file(path, &sb, d) < 0)
		return -1;
	char *s = sb.buf ? sb.buf : (char *)"";
	int line = 0;
	while (*s) {
		char *e = strchr(s, '\n');
		if (e)
			*e = 0;
		line++;
		if (!strncmp(s, "alias ", 6)) {
			char *pat = s + 6, *sp = strchr(pat, ' ');
			if (sp) {
				*sp = 0;
				kf_aliasdb_add(db, pat, sp + 1, NULL, path, line, KF_ALIAS_MODULES);
			}
		}
		if (!e)
			break;
		s = e + 1;
	}
	kf_strbuf_release(&sb);
	return 0;
}

int kf_aliasdb_add_builtin_modinfo(kf_aliasdb *db, const char *path, kf_diags *d)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	if (kf_read_file(path, &sb, d) < 0)
		return -1;
	/* NUL-separated "module.key=value" records */
	for (size_t i = 0; i < sb.len;) {
		const char *r = sb.buf + i;
		size_t n = strlen(r);
		const char *dot = strchr(r, '.');
		if (dot && !strncmp(dot, ".alias=", 7)) {
			char *mod = kf_xstrndup(r, (size_t)(dot - r));
			kf_aliasdb_add(db, dot + 7, mod, NULL, path, 0, KF_ALIAS_BUILTIN);
			free(mod);
		} else if (dot && !strncmp(dot, ".firmware=", 10)) {
			char *mod = kf_xstrndup(r, (size_t)(dot - r));
			kf_modinfo_add_firmware(db, kf_aliasdb_module_get(db, mod), dot + 10);
			free(mod);
		}
		i += n + 1;
	}
	kf_strbuf_release(&sb);
	return 0;
}

/* Length of a pattern's literal prefix (up to its first wildcard). */
static uint32_t literal_len(const char *p)
{
	uint32_t k = 0;
	while (p[k] && p[k] != '*' && p[k] != '?' && p[k] != '[' && p[k] != '\\')
		k++;
	return k;
}

/* A prefix to look up: k bytes at p. */
typedef struct {
	const char *p;
	uint32_t k;
} prefix_key;

static bool group_eq(const void *ctx, size_t g, const void *key)
{
	const kf_aliasdb *db = ctx;
	const prefix_key *q = key;
	uint32_t i = db->index->first[g];
	return db->index->plen[i] == q->k && !memcmp(db->aliases[i].pattern, q->p, q->k);
}

static int by_index(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	return i < j ? -1 : i > j;
}

static void index_build(const kf_aliasdb *db)
{
	struct kf_alias_index *x = db->index;
	index_release(x);
	size_t n = db->naliases, agroups = n ? n : 1;
	x->plen = kf_xmalloc((n ? n : 1) * sizeof(*x->plen));
	x->next = kf_xmalloc((n ? n : 1) * sizeof(*x->next));
	/* at most one group per alias: sized once (see kf_hindex_reserve) */
	x->first = kf_xmalloc(agroups * sizeof(*x->first));
	x->last = kf_xmalloc(agroups * sizeof(*x->last));
	kf_hindex_reserve(&x->groups, n);
	for (size_t i = 0; i < n; i++) {
		const char *p = db->aliases[i].pattern;
		uint32_t k = literal_len(p), h = KF_HASH_INIT;
		for (uint32_t j = 0; j < k; j++)
			h = kf_hash_step(h, (unsigned char)p[j]);
		x->plen[i] = k;
		x->next[i] = UINT32_MAX;
		prefix_key q = {p, k};
		size_t g = kf_hindex_find(&x->groups, h, group_eq, db, &q);
		if (g == KF_HINDEX_NONE) {
			g = x->ngroups++;
			x->first[g] = (uint32_t)i;
			kf_hindex_add(&x->groups, h, g);
		} else {
			x->next[x->last[g]] = (uint32_t)i;
		}
		x->last[g] = (uint32_t)i;
	}
	x->n = n;
}

size_t kf_aliasdb_match(const kf_aliasdb *db, const char *modalias, size_t *out, size_t max)
{
	size_t n = 0;
	struct kf_alias_index *x = db->index;
	if (!x || db->naliases > UINT32_MAX) { /* not made by kf_aliasdb_new */
		for (size_t i = 0; i < db->naliases; i++) {
			const char *p = db->aliases[i].pattern;
			uint32_t k = literal_len(p);
			if (strncmp(p, modalias, k) || fnmatch(p, modalias, 0))
				continue;
			if (n < max)
				out[n] = i;
			n++;
		}
		return n;
	}
	if (x->n != db->naliases)
		index_build(db);
	size_t ncand = 0;
	size_t m = strlen(modalias);
	uint32_t h = KF_HASH_INIT;
	for (size_t k = 0; k <= m; k++) {
		if (k)
			h = kf_hash_step(h, (unsigned char)modalias[k - 1]);
		prefix_key q = {modalias, (uint32_t)k};
		size_t g = kf_hindex_find(&x->groups, h, group_eq, db, &q);
		if (g == KF_HINDEX_NONE)
			continue;
		for (uint32_t i = x->first[g]; i != UINT32_MAX; i = x->next[i]) {
			KF_GROW(x->cand, ncand + 1, x->acand);
			x->cand[ncand++] = i;
		}
	}
	if (ncand > 1) /* qsort(NULL, 0) is undefined */
		qsort(x->cand, ncand, sizeof(*x->cand), by_index);
	for (size_t c = 0; c < ncand; c++) {
		if (fnmatch(db->aliases[x->cand[c]].pattern, modalias, 0))
			continue;
		if (n < max)
			out[n] = x->cand[c];
		n++;
	}
	return n;
}

/* The driver name an alias gives as its device's driver link shows it
 * ("driver:NAME" of PCI, USB and HID drivers, "platform:NAME"), or NULL. */
static const char *driver_name(const kf_alias *al)
{
	const char *p = al->pattern;
	if (al->origin == KF_ALIAS_DRIVER && !strncmp(p, "driver:", 7))
		return p + 7;
	if (al->origin == KF_ALIAS_DRVNAME && !strncmp(p, "platform:", 9))
		return p + 9;
	return NULL;
}

bool kf_alias_names_driver(const kf_alias *al, const char *bound)
{
	const char *n = driver_name(al);
	return n && kf_modname_eq(n, bound);
}

/* The length of a pattern's bus prefix ("pci:"), with its colon; 0 when
 * it has none. */
static size_t bus_len(const char *s)
{
	const char *c = strchr(s, ':');
	return c ? (size_t)(c - s) + 1 : 0;
}

/* A module or driver name's hash continued ('-' and '_' alike). */
static uint32_t modname_step(uint32_t h, const char *s)
{
	for (; *s; s++)
		h = kf_hash_step(h, (unsigned char)(*s == '-' ? '_' : *s));
	return kf_hash_step(h, 0);
}

static uint32_t mem_step(uint32_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = kf_hash_step(h, (unsigned char)s[i]);
	return h;
}

typedef struct drvkey {
	const kf_aliasdb *db;
	const char *module, *driver, *bus; /* what is asked; NULL: not part */
	size_t buslen;
	const struct kf_alias_index *x; /* drvfirst: the module must have an
					   alias of bus (NULL: any module) */
} drvkey;

static bool modbus_eq(const void *ctx, size_t i, const void *key);

/* Has module an alias whose pattern starts with bus ("pci:")? */
static bool module_on_bus(const struct kf_alias_index *x, const kf_aliasdb *db,
			  const char *module, const char *bus, size_t buslen)
{
	drvkey key = {db, module, NULL, bus, buslen, NULL};
	return kf_hindex_find(&x->modbus, mem_step(modname_step(KF_HASH_INIT, module), bus, buslen),
			      modbus_eq, NULL, &key) != KF_HINDEX_NONE;
}

static bool moddev_eq(const void *ctx, size_t i, const void *key)
{
	const drvkey *k = key;
	const kf_alias *al = &k->db->aliases[i];
	return al->origin != KF_ALIAS_DRIVER && !strcmp(al->module, k->module);
}

/* Can module drive a device of bus?  Not when it has aliases and none of
 * that bus (its bus is another); a module with none but driver names
 * (tables kfit cannot read) may. */
static bool module_may_be_on(const struct kf_alias_index *x, const kf_aliasdb *db,
			     const char *module, const char *bus, size_t buslen)
{
	drvkey key = {db, module, NULL, NULL, 0, NULL};
	return module_on_bus(x, db, module, bus, buslen) ||
	       kf_hindex_find(&x->moddev, kf_hash_str(module), moddev_eq, NULL, &key) ==
		       KF_HINDEX_NONE;
}

static bool drvfirst_eq(const void *ctx, size_t i, const void *key)
{
	const drvkey *k = key;
	const kf_alias *al = &k->db->aliases[i];
	if (!kf_alias_names_driver(al, k->driver))
		return false;
	return !k->x || (al->origin == KF_ALIAS_DRIVER &&
			 module_may_be_on(k->x, k->db, al->module, k->bus, k->buslen));
}

static bool moddrv_eq(const void *ctx, size_t i, const void *key)
{
	const drvkey *k = key;
	const kf_alias *al = &k->db->aliases[i];
	return !strcmp(al->module, k->module) && kf_alias_names_driver(al, k->driver);
}

static bool modbus_eq(const void *ctx, size_t i, const void *key)
{
	const drvkey *k = key;
	const kf_alias *al = &k->db->aliases[i];
	return bus_len(al->pattern) == k->buslen && !memcmp(al->pattern, k->bus, k->buslen) &&
	       kf_modname_eq(al->module, k->module);
}

/* Make the bound-driver maps for the aliases db has now. */
static void drv_index(const kf_aliasdb *db, struct kf_alias_index *x)
{
	if (x->drv_of == db->naliases + 1)
		return;
	kf_hindex_release(&x->drvfirst);
	kf_hindex_release(&x->moddrv);
	kf_hindex_release(&x->modbus);
	kf_hindex_release(&x->moddev);
	/* each map sized once for the aliases that can be in it */
	size_t ndrv = 0, nbus = 0;
	for (size_t k = 0; k < db->naliases; k++) {
		ndrv += driver_name(&db->aliases[k]) != NULL;
		nbus += bus_len(db->aliases[k].pattern) != 0;
	}
	kf_hindex_reserve(&x->drvfirst, ndrv);
	kf_hindex_reserve(&x->moddrv, ndrv);
	kf_hindex_reserve(&x->modbus, nbus);
	kf_hindex_reserve(&x->moddev, db->naliases);
	for (size_t k = 0; k < db->naliases; k++) {
		const kf_alias *al = &db->aliases[k];
		const char *drv = driver_name(al);
		drvkey key = {db, al->module, drv, al->pattern, bus_len(al->pattern), NULL};
		if (drv) {
			/* one entry per module: the first alias of each module
			   naming the driver */
			uint32_t h = modname_step(KF_HASH_INIT, drv);
			if (kf_hindex_find(&x->drvfirst, h, moddrv_eq, NULL, &key) ==
			    KF_HINDEX_NONE)
				kf_hindex_add(&x->drvfirst, h, k);
			h = modname_step(kf_hash_str(al->module), drv);
			if (kf_hindex_find(&x->moddrv, h, moddrv_eq, NULL, &key) == KF_HINDEX_NONE)
				kf_hindex_add(&x->moddrv, h, k);
		}
		if (key.buslen) {
			uint32_t h = mem_step(modname_step(KF_HASH_INIT, al->module), al->pattern,
					      key.buslen);
			if (kf_hindex_find(&x->modbus, h, modbus_eq, NULL, &key) == KF_HINDEX_NONE)
				kf_hindex_add(&x->modbus, h, k);
		}
		if (al->origin != KF_ALIAS_DRIVER &&
		    kf_hindex_find(&x->moddev, kf_hash_str(al->module), moddev_eq, NULL, &key) ==
			    KF_HINDEX_NONE)
			kf_hindex_add(&x->moddev, kf_hash_str(al->module), k);
	}
	x->drv_of = db->naliases + 1;
}

bool kf_aliasdb_module_drives(const kf_aliasdb *db, const char *module, const char *bound)
{
	struct kf_alias_index *x = db->index;
	if (!x) { /* not made by kf_aliasdb_new */
		for (size_t k = 0; k < db->naliases; k++)
			if (!strcmp(db->aliases[k].module, module) &&
			    kf_alias_names_driver(&db->aliases[k], bound))
				return true;
		return false;
	}
	drv_index(db, x);
	drvkey key = {db, module, bound, NULL, 0, NULL};
	return kf_hindex_find(&x->moddrv, modname_step(kf_hash_str(module), bound), moddrv_eq,
			      NULL, &key) != KF_HINDEX_NONE;
}

bool kf_alias_is_bound(const kf_alias *al, const char *bound, const char *modalias)
{
	if (kf_alias_names_driver(al, bound))
		return true;
	size_t bl = bus_len(modalias);
	return bl && !strncmp(al->pattern, modalias, bl) && kf_modname_eq(al->module, bound);
}

/* A bus whose drivers' names kfit reads from their bus's driver struct
 * (scan_platform_drivers): pci_driver, usb_driver, hid_driver. */
static bool hw_bus(const char *modalias)
{
	return !strncmp(modalias, "pci:", 4) || !strncmp(modalias, "usb:", 4) ||
	       !strncmp(modalias, "hid:", 4);
}

size_t kf_aliasdb_bound_alias(const kf_aliasdb *db, const char *bound, const char *modalias)
{
	struct kf_alias_index *x = db->index;
	if (!x) { /* not made by kf_aliasdb_new */
		bool strict = hw_bus(modalias);
		size_t bl = bus_len(modalias);
		for (size_t k = 0; k < db->naliases; k++) {
			const kf_alias *al = &db->aliases[k];
			if (!kf_alias_is_bound(al, bound, modalias))
				continue;
			if (!strict || !kf_alias_names_driver(al, bound))
				return k;
			if (al->origin != KF_ALIAS_DRIVER)
				continue;
			bool other = false;
			for (size_t j = 0; j < db->naliases; j++) {
				const kf_alias *b = &db->aliases[j];
				if (strcmp(b->module, al->module) || b->origin == KF_ALIAS_DRIVER)
					continue;
				if (!strncmp(b->pattern, modalias, bl))
					return k;
				other = true;
			}
			if (!other)
				return k;
		}
		return SIZE_MAX;
	}
	drv_index(db, x);
	drvkey key = {db, bound, bound, modalias, bus_len(modalias), NULL};
	/* a PCI, USB or HID device's driver registered on that bus: never a
	   module whose aliases are all of other buses (ahci on PCI is not
	   ahci_platform, whose platform driver is called "ahci" too) */
	if (hw_bus(modalias))
		key.x = x;
	size_t a = kf_hindex_find(&x->drvfirst, modname_step(KF_HASH_INIT, bound), drvfirst_eq,
				  NULL, &key);
	size_t b = KF_HINDEX_NONE;
	if (key.buslen)
		b = kf_hindex_find(&x->modbus,
				   mem_step(modname_step(KF_HASH_INIT, bound), modalias, key.buslen),
				   modbus_eq, NULL, &key);
	/* KF_HINDEX_NONE is SIZE_MAX: the smaller is the first */
	return a < b ? a : b;
}

/* ---- cache ---- */

#define CACHE_MAGIC "# kfit detect alias cache v2\n"
/* The table is a self-validating cache entry (kf_cache_write): a
 * truncated one loaded silently and detect lost devices. */
#define CACHE_KIND "aliases"
#define CACHE_VERSION 7

/* One file's part of the stamp: its path and what stat says (relative
 * paths from treefd, the tree's directory: a shorter lookup each).  Not
 * the ctime: a hard-linked copy of the tree (cp -al) changes every
 * file's, and nothing a file says. */
static uint32_t stamp_step(uint32_t h, int treefd, const char *path)
{
	struct stat st;
	long long v[4] = {0};
	if (fstatat(path[0] == '/' ? AT_FDCWD : treefd, *path ? path : ".", &st, 0) == 0) {
		v[0] = (long long)st.st_mtim.tv_sec;
		v[1] = st.st_mtim.tv_nsec;
		v[2] = (long long)st.st_size;
		v[3] = (long long)st.st_ino;
	}
	for (const char *p = path; *p; p++)
		h = kf_hash_step(h, (unsigned char)*p);
	const unsigned char *b = (const unsigned char *)v;
	for (size_t i = 0; i < sizeof(v); i++)
		h = kf_hash_step(h, b[i]);
	return h;
}

/* A share of the stamp's stat calls (stamp_hash). */
typedef struct stamp_job {
	int treefd;               /* the tree's directory */
	const char *const *paths; /* all paths */
	uint32_t *h;              /* each path's own hash */
	size_t from, to;          /* this share */
} stamp_job;

static void *stamp_run(void *arg)
{
	stamp_job *j = arg;
	for (size_t i = j->from; i < j->to; i++)
		j->h[i] = stamp_step(KF_HASH_INIT, j->treefd, j->paths[i]);
	return NULL;
}

/* The stamp of n paths: each path's hash (stat calls shared by the
 * workers: 6.12 has some 15,900 paths), then the hash of those. */
static uint32_t stamp_hash(const char *tree, const char *const *paths, size_t n)
{
	int fd = open(tree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	uint32_t *hs = kf_xcalloc(n + 1, sizeof(*hs));
	int jobs = n < 4096 ? 1 : kf_jobs("KFIT_SCAN_JOBS");
	stamp_job job[64];
	pthread_t thr[64];
	bool started[64] = {false};
	for (int k = 0; k < jobs; k++)
		job[k] = (stamp_job){fd, paths, hs, n * (size_t)k / (size_t)jobs,
				     n * (size_t)(k + 1) / (size_t)jobs};
	/* this thread takes the first share, and any a thread could not */
	for (int k = 1; k < jobs; k++)
		started[k] = pthread_create(&thr[k], NULL, stamp_run, &job[k]) == 0;
	stamp_run(&job[0]);
	for (int k = 1; k < jobs; k++) {
		if (started[k])
			pthread_join(thr[k], NULL);
		else
			stamp_run(&job[k]);
	}
	if (fd >= 0)
		close(fd);
	uint32_t h = KF_HASH_INIT;
	const unsigned char *b = (const unsigned char *)hs;
	for (size_t i = 0; i < n * sizeof(*hs); i++)
		h = kf_hash_step(h, b[i]);
	free(hs);
	return h;
}

void kf_aliasdb_stamps(const char *tree, char *const *paths, size_t n, kf_strbuf *out)
{
	uint32_t h = stamp_hash(tree, (const char *const *)paths, n);
	kf_strbuf_addf(out, "S\t%08x\t%zu\n", h, n);
	for (size_t i = 0; i < n; i++)
		kf_strbuf_addf(out, "F\t%s\n", paths[i]);
}

/* Do the files of text's stamp (its T, S and F lines) still stat as
 * when it was written?  No stamp: no. */
static bool stamps_hold(const char *text)
{
	const char *t = strstr(text, "\nT\t"), *s = strstr(text, "\nS\t");
	if (!t || !s)
		return false;
	const char *te = strchr(t + 3, '\t');
	if (!te)
		return false;
	char *tree = kf_xstrndup(t + 3, (size_t)(te - t - 3));
	unsigned long want = strtoul(s + 3, NULL, 16);
	char **paths = NULL;
	size_t n = 0, a = 0;
	for (const char *l = strchr(s + 1, '\n'); l && l[1] == 'F' && l[2] == '\t';
	     l = strchr(l + 1, '\n')) {
		const char *e = strchr(l + 3, '\n');
		KF_GROW(paths, n + 1, a);
		paths[n++] = kf_xstrndup(l + 3, e ? (size_t)(e - l - 3) : strlen(l + 3));
	}
	bool ok = stamp_hash(tree, (const char *const *)paths, n) == want;
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	free(tree);
	return ok;
}

int kf_aliasdb_save(const kf_aliasdb *db, const char *stamps, const char *path, kf_diags *d)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addstr(&sb, CACHE_MAGIC);
	kf_strbuf_addf(&sb, "T\t%s\t%s\t%zu\t%zu\n", db->tree ? db->tree : "-",
		       db->kernelversion ? db->kernelversion : "-", db->nsources, db->nmakefiles);
	if (stamps)
		kf_strbuf_addstr(&sb, stamps);
	for (size_t i = 0; i < db->nmods; i++) {
		const kf_modinfo *m = &db->mods[i];
		kf_strbuf_addf(&sb, "M\t%s\t%s\t%s\t%d\t%s\t", m->name, m->symbol ? m->symbol : "-",
			       m->makefile ? m->makefile : "-", m->line, m->object ? m->object : "-");
		for (size_t k = 0; k < m->nfirmware; k++)
			kf_strbuf_addf(&sb, "%s%s", k ? "\x1f" : "", m->firmware[k]);
		kf_strbuf_addstr(&sb, m->requests_firmware ? "\tF\n" : "\n");
	}
	for (size_t i = 0; i < db->naliases; i++) {
		const kf_alias *a = &db->aliases[i];
		if (a->origin != KF_ALIAS_SOURCE && a->origin != KF_ALIAS_DRVNAME &&
		    a->origin != KF_ALIAS_BUSTABLE && a->origin != KF_ALIAS_DRIVER)
			continue;
		kf_strbuf_addf(&sb, "A\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%d\t%s\n", a->pattern,
			       a->module, a->part_symbol ? a->part_symbol : "-",
			       a->file ? a->file : "-", a->line, (int)a->origin,
			       a->symbol ? a->symbol : "-", a->makefile ? a->makefile : "-",
			       a->mkline, a->cond ? a->cond : "-");
	}
	int rc = kf_cache_write(path, CACHE_KIND, CACHE_VERSION, sb.buf, sb.len, d);
	kf_strbuf_release(&sb);
	return rc;
}

/* Split s at tabs into at most max fields; returns how many. */
static int split_tabs(char *s, char **f, int max)
{
	int n = 0;
	while (n < max) {
		f[n++] = s;
		char *t = strchr(s, '\t');
		if (!t)
			break;
		*t = 0;
		s = t + 1;
	}
	return n;
}

/* A field of the table ("-": none); the table is kept, so is s. */
static const char *dash_null(const char *s)
{
	return strcmp(s, "-") ? s : NULL;
}

/* A decimal field (atoi without the locale and the long long). */
static int num(const char *s)
{
	bool neg = *s == '-';
	unsigned v = 0;
	for (s += neg; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (unsigned)(*s - '0');
	return neg ? -(int)v : (int)v;
}

int kf_aliasdb_load(kf_aliasdb *db, const char *path, kf_diags *d)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	char *why = NULL;
	int crc = kf_cache_read(path, CACHE_KIND, CACHE_VERSION, &sb, &why);
	free(why);
	if (crc != 0) {
		kf_strbuf_release(&sb);
		return crc > 0 ? -1 : -2;
	}
	if (!stamps_hold(kf_strbuf_str(&sb))) {
		kf_strbuf_release(&sb);
		return -2;
	}
	return kf_aliasdb_parse(db, &sb, path, d);
}

int kf_aliasdb_parse(kf_aliasdb *db, kf_strbuf *text, const char *path, kf_diags *d)
{
	kf_strbuf sb = *text;
	*text = (kf_strbuf)KF_STRBUF_INIT;
	if (!sb.buf || strncmp(sb.buf, CACHE_MAGIC, strlen(CACHE_MAGIC))) {
		kf_diag_add(d, KF_ERROR, path, 0, 0, "not a kfit alias cache");
		kf_strbuf_release(&sb);
		return -1;
	}
	/* the table stays: its fields, cut at the tabs and newlines, are the
	 * strings of the aliases and modules */
	char *tab = kf_strbuf_detach(&sb);
	db->texts = kf_xrealloc(db->texts, (db->ntexts + 1) * sizeof(*db->texts));
	db->texts[db->ntexts++] = tab;
	char *s = tab + strlen(CACHE_MAGIC);
	/* the lines of each kind first: the tables grow once, to their size
	 * (doubling from 8 cost ~1000 page faults on 7.3's 150,000 aliases) */
	size_t nal = 0, nmod = 0;
	for (const char *l = s; l && *l;) {
		nal += l[0] == 'A' && l[1] == '\t';
		nmod += l[0] == 'M' && l[1] == '\t';
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	aliasdb_reserve(db, nal, nmod);
	while (*s) {
		char *e = strchr(s, '\n');
		if (e)
			*e = 0;
		char *f[11];
		int n = split_tabs(s, f, 11);
		if (f[0][0] == 'T' && n >= 5) {
			db->tree = dash_null(f[1]);
			db->kernelversion = dash_null(f[2]);
			db->nsources = strtoul(f[3], NULL, 10);
			db->nmakefiles = strtoul(f[4], NULL, 10);
		} else if (f[0][0] == 'M' && n >= 7) {
			kf_modinfo *m = kf_aliasdb_module_get(db, f[1]);
			m->symbol = dash_null(f[2]);
			m->makefile = dash_null(f[3]);
			m->line = num(f[4]);
			m->object = dash_null(f[5]);
			m->requests_firmware = n >= 8 && !strcmp(f[7], "F");
			char *fw = f[6];
			while (*fw) {
				char *sep = strchr(fw, '\x1f');
				if (sep)
					*sep = 0;
				kf_modinfo_add_firmware(db, m, fw);
				if (!sep)
					break;
				fw = sep + 1;
			}
		} else if (f[0][0] == 'A' && n >= 10) {
			kf_alias *a = add_kept(db, f[1], f[2], dash_null(f[3]), dash_null(f[4]),
					       num(f[5]), (kf_alias_origin)num(f[6]));
			a->symbol = dash_null(f[7]);
			a->makefile = dash_null(f[8]);
			a->mkline = num(f[9]);
			if (n >= 11)
				a->cond = dash_null(f[10]);
		}
		if (!e)
			break;
		s = e + 1;
	}
	return 0;
}

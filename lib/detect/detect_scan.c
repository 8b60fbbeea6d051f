/*
 * detect_scan.c - derive the alias database from a kernel tree's own
 * sources, the way modpost's file2alias.c would from built objects: the
 * tree's Makefiles first (detect_kbuild.c), then every .c file with a
 * device table, MODULE_ALIAS*, MODULE_FIRMWARE, a named driver or
 * module_cpu_feature_match.  The tables are found here (in the file, in
 * the headers it includes, or in the macro that declares them) and
 * macro-expanded with the tree's own header macros (detect_cpp.c); each
 * element, under its #if condition (detect_cond.c), becomes the alias
 * file2alias.c prints (detect_idtable.c), owned by the module and the
 * symbol of the file's object.
 *
 * Not a C compiler: enum constants are not known, tables built at run
 * time are invisible.  docs/detect.md has the measured coverage against
 * a distro kernel's modules.alias.
 */
#include "detect_scan.h"
#include "kfit/kconfig.h"
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

/* ---- the headers the .c files include, read once ----
 *
 * Some 50,000 #includes of 10,000 headers on 6.12: each header is read,
 * stripped of comments and its path probed once per scan, and the workers
 * share the answers.  Entries are never changed once in, and their texts
 * stay where they are until the scan ends. */

enum { HDR_MISSING, HDR_FILE, HDR_DIR };

typedef struct hdr_entry {
	char *path;  /* absolute */
	int kind;    /* HDR_* (stat) */
	bool read;   /* text is the file's (comments stripped), or NULL: unreadable */
	char *text;
	size_t len;
} hdr_entry;

typedef struct hdr_cache {
	pthread_mutex_t mu; /* guards everything below */
	hdr_entry *v;
	size_t n, a;
	kf_hindex idx;      /* v by path */
	kf_arena *texts;    /* the texts kept, in 2 MB huge-page blocks: one
			       malloc each cost a page fault per 4 KB */
	size_t bytes;       /* their size */
} hdr_cache;

/* Texts kept at most: 6.12's included headers are 100 MB in all, and the
 * most included ones come early. */
#define HDR_CACHE_BYTES ((size_t)64 << 20)

static bool hdr_eq(const void *ctx, size_t i, const void *key)
{
	const hdr_cache *hc = ctx;
	return !strcmp(hc->v[i].path, key);
}

/* The entry of path (hc->mu held), or KF_HINDEX_NONE. */
static size_t hdr_find(hdr_cache *hc, const char *path, uint32_t h)
{
	return kf_hindex_find(&hc->idx, h, hdr_eq, hc, path);
}

/* A new entry for path (hc->mu held, path not in yet): its index. */
static size_t hdr_add(hdr_cache *hc, const char *path, uint32_t h, int kind)
{
	KF_GROW(hc->v, hc->n + 1, hc->a);
	hc->v[hc->n] = (hdr_entry){kf_xstrdup(path), kind, false, NULL, 0};
	kf_hindex_add(&hc->idx, h, hc->n);
	return hc->n++;
}

static int stat_kind(const char *path)
{
	struct stat st;
	return stat(path, &st) ? HDR_MISSING : S_ISDIR(st.st_mode) ? HDR_DIR : HDR_FILE;
}

/* What path is: HDR_MISSING, HDR_FILE or HDR_DIR (stat, once per path). */
static int hdr_kind(const scan *s, const char *path)
{
	hdr_cache *hc = s->hc;
	if (!hc)
		return stat_kind(path);
	uint32_t h = kf_hash_str(path);
	pthread_mutex_lock(&hc->mu);
	size_t i = hdr_find(hc, path, h);
	int kind = i == KF_HINDEX_NONE ? -1 : hc->v[i].kind;
	pthread_mutex_unlock(&hc->mu);
	if (kind >= 0)
		return kind;
	kind = stat_kind(path);
	pthread_mutex_lock(&hc->mu);
	if (hdr_find(hc, path, h) == KF_HINDEX_NONE)
		hdr_add(hc, path, h, kind);
	pthread_mutex_unlock(&hc->mu);
	return kind;
}

/* The comment-stripped text of the file at path into *text and *len:
 * true when *text is the cache's (the caller must not free it), false
 * when it is the caller's (the cache is full) or NULL (unreadable). */
static bool hdr_text(const scan *s, const char *path, char **text, size_t *len)
{
	hdr_cache *hc = s->hc;
	uint32_t h = kf_hash_str(path);
	if (hc) {
		pthread_mutex_lock(&hc->mu);
		size_t i = hdr_find(hc, path, h);
		if (i != KF_HINDEX_NONE && hc->v[i].read) {
			*text = hc->v[i].text;
			*len = hc->v[i].len;
			pthread_mutex_unlock(&hc->mu);
			return *text != NULL;
		}
		pthread_mutex_unlock(&hc->mu);
	}
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_diags ignore = KF_DIAGS_INIT;
	*text = NULL;
	*len = 0;
	if (kf_read_file(path, &sb, &ignore) == 0 && sb.buf) {
		dcpp_strip_comments(sb.buf, sb.len);
		*len = sb.len;
		*text = kf_strbuf_detach(&sb);
	}
	kf_strbuf_release(&sb);
	kf_diags_release(&ignore);
	if (!hc)
		return false;
	pthread_mutex_lock(&hc->mu);
	bool kept = false;
	size_t i = hdr_find(hc, path, h);
	if (i != KF_HINDEX_NONE && hc->v[i].read) {
		/* another worker read it meanwhile: its copy is the one kept */
		free(*text);
		*text = hc->v[i].text;
		*len = hc->v[i].len;
		kept = *text != NULL;
	} else if (!*text || hc->bytes + *len <= HDR_CACHE_BYTES) {
		if (i == KF_HINDEX_NONE)
			i = hdr_add(hc, path, h, HDR_FILE);
		if (*text) {
			char *keep = kf_arena_alloc(hc->texts, *len + 1);
			memcpy(keep, *text, *len + 1);
			free(*text);
			*text = keep;
		}
		hc->v[i].read = true;
		hc->v[i].text = *text;
		hc->v[i].len = *len;
		hc->bytes += *len;
		kept = *text != NULL;
	}
	pthread_mutex_unlock(&hc->mu);
	return kept;
}

static hdr_cache *hdr_cache_new(void)
{
	hdr_cache *hc = kf_xcalloc(1, sizeof(*hc));
	pthread_mutex_init(&hc->mu, NULL);
	hc->texts = kf_arena_new_large();
	return hc;
}

static void hdr_cache_free(hdr_cache *hc)
{
	if (!hc)
		return;
	for (size_t i = 0; i < hc->n; i++)
		free(hc->v[i].path);
	free(hc->v);
	kf_arena_free(hc->texts);
	kf_hindex_release(&hc->idx);
	pthread_mutex_destroy(&hc->mu);
	free(hc);
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

static void scan_elems(scan *s, const id_type *tt, const char *devtype, const dcpp_toks *ex,
		       size_t from, size_t to, int line, const condlines *cl, const char *outer,
		       const owner *ow, const char *file);

static void scan_table(scan *s, const dcpp_defs *defs, const id_type *tt, const char *devtype,
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
static void scan_elems(scan *s, const id_type *tt, const char *devtype, const dcpp_toks *ex,
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
		id_emit(&em, &e, tt);
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
					scan_add_owned(s, ow, str, file, line, KF_ALIAS_SOURCE, cond);
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
				scan_add_owned(s, ow, a, file, ex.v[k].line, origin, cond);
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

/* Platform drivers match devices by name; the drivers of other buses are
 * known by theirs in a device's driver link, which is often not the
 * module's name (sd_mod's SCSI driver is "sd", rtc_cmos's PNP driver
 * "rtc_cmos", virtio_blk's "virtio_blk"): a file of such a driver has a
 * device table or a MODULE_ALIAS, so the file filter lets it through. */
static void scan_platform_drivers(scan *s, const dcpp_defs *defs, const char *text, size_t n,
				  const owner *ow, const char *file)
{
	scan_named_drivers(s, defs, text, n, ow, file, "struct platform_driver", "platform:%s",
			   KF_ALIAS_DRVNAME);
	static const char *const bus[] = {
		"struct pci_driver",  "struct usb_driver",   "struct hid_driver",
		"struct platform_driver", "struct amba_driver", "struct scsi_driver",
		"struct acpi_driver", "struct serio_driver", "struct virtio_driver",
		"struct pnp_driver",  "struct sdio_driver",  "struct i2c_driver",
		"struct spi_driver"};
	for (size_t k = 0; k < sizeof(bus) / sizeof(bus[0]); k++)
		scan_named_drivers(s, defs, text, n, ow, file, bus[k], "driver:%s",
				   KF_ALIAS_DRIVER);
}

/* The call whose name starts at i and ends at *q: *q moved past the
 * blanks to its '(', and the end of its arguments (past the ')'); 0 when
 * no argument list follows or the line is a preprocessor line (#define). */
static size_t call_args(const char *text, size_t n, size_t i, size_t *q)
{
	while (*q < n && (text[*q] == ' ' || text[*q] == '\t'))
		(*q)++;
	size_t e = *q < n && text[*q] == '(' ? match_brace(text, n, *q, '(', ')') : 0;
	size_t ls = i;
	while (ls > 0 && text[ls - 1] != '\n')
		ls--;
	while (ls < i && (text[ls] == ' ' || text[ls] == '\t'))
		ls++;
	return text[ls] == '#' ? 0 : e;
}

/* faux_device_create(NAME, ...) and faux_device_create_with_groups(NAME,
 * ...): a device the code makes itself on the faux bus (6.16 on), where
 * older kernels registered a platform device and driver of that name (the
 * regulator dummy "reg-dummy"): "driver:NAME", so a machine seen on an
 * older kernel with that driver bound gets the code that makes it on this
 * one.  Not "platform:NAME": an unbound platform device of the name (6.1's
 * "regulatory" of cfg80211) asks for nothing. */
static void scan_faux_devices(scan *s, const dcpp_defs *defs, const char *text, size_t n,
			      const owner *ow, const char *file)
{
	const char *w = "faux_device_create";
	size_t wl = strlen(w);
	for (const char *p = strstr(text, w); p; p = strstr(p + 1, w)) {
		size_t i = (size_t)(p - text), q = i + wl;
		if (i > 0 && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_'))
			continue;
		if (!strncmp(text + q, "_with_groups", 12))
			q += 12;
		size_t e = call_args(text, n, i, &q);
		if (!e)
			continue;
		bool dead;
		char *cond = cond_at(text, i, &dead);
		int line = line_at(text, i);
		dcpp_toks raw = {0}, ex = {0};
		dcpp_tokenize(text + q + 1, e - q - 2, line, &raw);
		dcpp_expand(defs, &raw, 0, raw.n, &ex);
		size_t z = 0;
		for (int depth = 0; z < ex.n && !(depth == 0 && is_punct(&ex.v[z], ",")); z++)
			depth += is_punct(&ex.v[z], "(") - is_punct(&ex.v[z], ")");
		char *name = dead ? NULL : dcpp_eval_str(&ex, 0, z);
		if (name && *name) {
			char *a = kf_xasprintf("driver:%s", name);
			scan_add_owned(s, ow, a, file, line, KF_ALIAS_DRIVER, cond);
			free(a);
		}
		free(name);
		free(cond);
		dcpp_toks_release(&raw);
		dcpp_toks_release(&ex);
	}
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
		size_t e = call_args(text, n, i, &q);
		if (!e)
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
				scan_add_owned(s, ow, a, file, line, KF_ALIAS_SOURCE, cond);
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
	bool cached; /* text is the header cache's */
} hdrtext;

/* Macros every macro table of the scan has: the calls we look for stay
 * unexpanded, gcc's compile-time checks and a few evaluated here. */
static const char keep_macros[] = "#define MODULE_ALIAS MODULE_ALIAS\n"
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

/* The <angle> headers a driver includes itself (or through its own
 * "quoted" headers) that on_include does not read: their macros are read
 * when a table entry is not understood without them (7.3's acpi button
 * table is ACPI_BUTTON_HID_* of <acpi/button.h>). */
typedef struct skipped_hdrs {
	char **v;   /* the names as included ("acpi/button.h") */
	size_t n;   /* how many */
	size_t a;   /* capacity */
} skipped_hdrs;

typedef struct incctx {
	scan *s;          /* the scan */
	dcpp_defs *defs;  /* where the header's macros go */
	char *dir;        /* directory of the including file (absolute) */
	int depth;        /* nesting */
	hdrtext *hdrs;    /* headers read, for their tables */
	size_t nhdrs;     /* how many */
	size_t ahdrs;     /* capacity */
	const char *cdir; /* tree-relative directory of the .c file ("drivers/x/") */
	bool angled;      /* reached through an <angle> include */
	skipped_hdrs *skip; /* <angle> headers of the driver's own not read */
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
		char *p2 = kbuild_join_path(id->path, name, strlen(name));
		char *abs = kf_xasprintf("%s/%s", ic->s->tree, p2);
		bool ok = !strstr(p2, "../") && hdr_kind(ic->s, abs) == HDR_FILE;
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
	if (angle && !angle_wanted(name)) {
		if (ic->angled || !ic->skip)
			return;
		for (size_t i = 0; i < ic->skip->n; i++)
			if (!strcmp(ic->skip->v[i], name))
				return;
		KF_GROW(ic->skip->v, ic->skip->n + 1, ic->skip->a);
		ic->skip->v[ic->skip->n++] = kf_xstrdup(name);
		return;
	}
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
			if (hdr_kind(ic->s, path) != HDR_MISSING)
				break;
		}
	} else {
		/* "../usb.h" (rtlwifi's drivers), as long as it stays in the tree */
		char *dir = kf_xasprintf("%s/", ic->dir);
		path = kbuild_join_path(dir, name, strlen(name));
		free(dir);
		size_t tl = strlen(ic->s->tree);
		if (strncmp(path, ic->s->tree, tl) || path[tl] != '/' || strstr(path, "/../")) {
			free(path);
			return;
		}
	}
	/* else the -I directories of the .c file's Makefile ccflags */
	if (hdr_kind(ic->s, path) == HDR_MISSING) {
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
	char *htext;
	size_t len;
	bool cached;
	if (hdr_kind(ic->s, path) == HDR_FILE &&
	    ((cached = hdr_text(ic->s, path, &htext, &len)) || htext)) {
		incctx sub = *ic;
		sub.depth++;
		sub.angled = ic->angled || angle;
		char *sl = strrchr(path, '/');
		sub.dir = kf_xstrndup(path, (size_t)(sl - path));
		size_t old = dcpp_defs_set_pos_base(ic->defs, pos);
		KF_GROW(ic->hdrs, ic->nhdrs + 1, ic->ahdrs);
		ic->hdrs[ic->nhdrs].rel = kf_xstrdup(path + strlen(ic->s->tree) + 1);
		ic->hdrs[ic->nhdrs].text = htext;
		ic->hdrs[ic->nhdrs].len = len;
		ic->hdrs[ic->nhdrs].cached = cached;
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
	const id_type *tt; /* its type */
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
	/* every "struct TYPE" of an ID type in one pass over the text, then
	 * type by type in text order, as one search per type found them */
	typedef struct {
		size_t k;   /* id_types index */
		size_t pos; /* offset of "struct" */
		size_t end; /* offset after TYPE */
	} hit;
	hit *hits = NULL;
	size_t nhits = 0, ahits = 0;
	for (const char *p = strstr(text, "struct "); p; p = strstr(p + 7, "struct ")) {
		const char *id = p + 7;
		size_t len = 0;
		while (isalnum((unsigned char)id[len]) || id[len] == '_')
			len++;
		for (size_t k = 0; k < id_ntypes; k++)
			if (strlen(id_types[k].type) == len && !memcmp(id_types[k].type, id, len)) {
				KF_GROW(hits, nhits + 1, ahits);
				hits[nhits++] = (hit){k, (size_t)(p - text), (size_t)(id + len - text)};
				break;
			}
	}
	for (size_t k = 0; k < id_ntypes; k++) {
		const id_type *tt = &id_types[k];
		for (size_t h = 0; h < nhits; h++) {
			if (hits[h].k != k)
				continue;
			const char *p = text + hits[h].pos;
			size_t i = hits[h].end;
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
	}
	free(hits);
	return any;
}

/* Does text call request_firmware*() or firmware_request_*() outside
 * comments and #if blocks of CONFIG_ options (snd-hda-intel's patch
 * loader, only with CONFIG_SND_HDA_PATCH_LOADER and a patch= option)?
 * Blanks out the comments of text. */
static bool calls_request_firmware(char *text, size_t n)
{
	if (!strstr(text, "request_firmware") && !strstr(text, "firmware_request_"))
		return false;
	dcpp_strip_comments(text, n);
	static const char *const fns[] = {"request_firmware", "firmware_request_"};
	for (size_t k = 0; k < 2; k++)
		for (const char *p = strstr(text, fns[k]); p; p = strstr(p + 1, fns[k])) {
			if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
				continue;
			bool dead;
			char *cond = cond_at(text, (size_t)(p - text), &dead);
			bool plain = !cond && !dead;
			free(cond);
			if (plain)
				return true;
		}
	return false;
}

/* rel calls request_firmware but has nothing else to scan: its module
 * may request firmware. */
static void mark_requests_firmware(scan *s, const char *rel)
{
	owner ow;
	kbuild_find_owner(s, rel, &ow);
	kf_modinfo *mi = kf_aliasdb_module_get(s->db, ow.module);
	mi->requests_firmware = true;
	if (!mi->object) {
		mi->object = kf_arena_strdup(s->db->arena, ow.object);
		mi->symbol = ow.symbol ? kf_arena_strdup(s->db->arena, ow.symbol) : NULL;
		mi->makefile = ow.makefile ? kf_arena_strdup(s->db->arena, ow.makefile) : NULL;
		mi->line = ow.line;
	}
	owner_release(&ow);
}

/* The ID tables of a .c file and of the headers ic read for it. */
static bool scan_file_tables(scan *s, dcpp_defs *defs, const char *text, size_t n,
			     const owner *ow, const char *rel, const incctx *ic)
{
	macro_tables mts = {NULL, 0, 0};
	bool any = scan_tables_in(s, defs, text, n, text, ow, rel, ic->dir, true, &mts);
	for (size_t h = 0; h < ic->nhdrs; h++) {
		char *hd = kf_xasprintf("%s/%s", s->tree, ic->hdrs[h].rel);
		*strrchr(hd, '/') = 0;
		any |= scan_tables_in(s, defs, ic->hdrs[h].text, ic->hdrs[h].len, text, ow,
				      ic->hdrs[h].rel, hd, false, &mts);
		free(hd);
	}
	/* tables declared by a macro: where the macro is used */
	dcpp_defs_set_limit(defs, SIZE_MAX, SIZE_MAX);
	for (size_t m = 0; m < mts.n; m++) {
		size_t use = macro_use(text, n, mts.v[m].macro);
		if (use != SIZE_MAX) {
			any |= scan_macro_table(s, defs, &mts.v[m], text, n, use, ow, rel, ic->dir);
		} else {
			for (size_t h = 0; h < ic->nhdrs; h++) {
				use = macro_use(ic->hdrs[h].text, ic->hdrs[h].len, mts.v[m].macro);
				if (use == SIZE_MAX)
					continue;
				char *hd = kf_xasprintf("%s/%s", s->tree, ic->hdrs[h].rel);
				*strrchr(hd, '/') = 0;
				any |= scan_macro_table(s, defs, &mts.v[m], ic->hdrs[h].text,
							ic->hdrs[h].len, use, ow, ic->hdrs[h].rel, hd);
				free(hd);
				break;
			}
		}
		free(mts.v[m].name);
		free(mts.v[m].macro);
	}
	free(mts.v);
	return any;
}

/* A header beside which others are read, for their macros. */
typedef struct xhdr {
	scan *s;          /* the scan */
	dcpp_defs *defs;  /* where the macros go */
	const char *path; /* the header (absolute) */
	int depth;        /* quoted includes followed to reach it */
} xhdr;

static bool collect_more(scan *s, dcpp_defs *defs, const char *path, int depth);

/* A quoted #include of such a header: the one beside it, two levels deep
 * (as global_include). */
static void more_include(const char *name, bool angle, size_t pos, void *ctx)
{
	const xhdr *g = ctx;
	if (angle || g->depth >= 2 || strstr(name, ".."))
		return;
	const char *sl = strrchr(g->path, '/');
	char *path = kf_xasprintf("%.*s/%s", (int)(sl - g->path), g->path, name);
	collect_more(g->s, g->defs, path, g->depth + 1);
	free(path);
}

/* The #defines of the header at path into defs; false when it is not there. */
static bool collect_more(scan *s, dcpp_defs *defs, const char *path, int depth)
{
	char *text;
	size_t len;
	if (hdr_kind(s, path) != HDR_FILE)
		return false;
	bool cached = hdr_text(s, path, &text, &len);
	if (!text)
		return false;
	xhdr g = {s, defs, path, depth};
	dcpp_collect(defs, text, len, more_include, &g);
	if (!cached)
		free(text);
	return true;
}

/* The macros of the skipped <angle> headers (in the kernel's -I order, with
 * the headers beside them they include by quoted name) as a layer over
 * s->global, the calls the scan looks for kept unexpanded; NULL when none
 * of them is in the tree. */
static dcpp_defs *skipped_defs(scan *s, const skipped_hdrs *skip)
{
	static const char *const dirs[] = {"include/", "arch/%s/include/", "include/uapi/",
					   "arch/%s/include/uapi/"};
	dcpp_defs *more = dcpp_defs_new(s->global);
	bool found = false;
	for (size_t i = 0; i < skip->n; i++) {
		if (strstr(skip->v[i], ".."))
			continue;
		for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
			char *dir = kf_xasprintf(dirs[k], s->arch);
			char *path = kf_xasprintf("%s/%s%s", s->tree, dir, skip->v[i]);
			bool got = collect_more(s, more, path, 0);
			free(dir);
			free(path);
			if (got) {
				found = true;
				break;
			}
		}
	}
	if (!found) {
		dcpp_defs_free(more);
		return NULL;
	}
	dcpp_collect(more, keep_macros, sizeof(keep_macros) - 1, NULL, NULL);
	return more;
}

/* Scan one .c file; true when it names a device table, an alias or a
 * driver (what the first test looks for). */
static bool scan_cfile(scan *s, const char *rel)
{
	char *abs = kf_xasprintf("%s/%s", s->tree, rel);
	bool named = false;
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_diags ignore = KF_DIAGS_INIT;
	if (kf_read_file(abs, &sb, &ignore) < 0 || !sb.buf)
		goto out;
	/* a file that asks for firmware at run time, with names it computes
	 * (SOF's loader, nouveau's nvkm): its module may request firmware */
	bool reqfw = calls_request_firmware(sb.buf, sb.len);
	if (!strstr(sb.buf, "_device_id") && !strstr(sb.buf, "amba_id") &&
	    !strstr(sb.buf, "MODULE_ALIAS") &&
	    !strstr(sb.buf, "MODULE_FIRMWARE") && !strstr(sb.buf, "x86_cpu_id") &&
	    !strstr(sb.buf, "dmi_system_id") && !strstr(sb.buf, "module_cpu_feature_match") &&
	    !strstr(sb.buf, "struct platform_driver") && !strstr(sb.buf, "struct pci_driver") &&
	    !strstr(sb.buf, "struct usb_driver") && !strstr(sb.buf, "struct hid_driver") &&
	    !strstr(sb.buf, "struct amba_driver") && !strstr(sb.buf, "faux_device_create")) {
		if (reqfw) {
			/* its flag is in the cache: an edit must be seen */
			mark_requests_firmware(s, rel);
			named = true;
		}
		goto out;
	}
	named = true;
	char *text = sb.buf;
	size_t n = sb.len;
	dcpp_strip_comments(text, n);
	owner ow;
	kbuild_find_owner(s, rel, &ow);
	kf_modinfo *mi = kf_aliasdb_module_get(s->db, ow.module);
	mi->requests_firmware |= reqfw;
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
	incctx ic = {s, defs, NULL, 0, NULL, 0, 0, cdir, false, NULL};
	char *sl = strrchr(abs, '/');
	ic.dir = kf_xstrndup(abs, (size_t)(sl - abs));
	skipped_hdrs skip = {NULL, 0, 0};
	ic.skip = &skip;
	dcpp_collect(defs, text, n, on_include, &ic);
	size_t naliases = s->db->naliases, failed = s->failed_entries;
	bool any = scan_file_tables(s, defs, text, n, &ow, rel, &ic);
	/* entries not understood: again with the driver's other headers */
	dcpp_defs *more = s->failed_entries > failed ? skipped_defs(s, &skip) : NULL;
	if (more) {
		s->db->naliases = naliases;
		s->failed_entries = failed;
		dcpp_defs_set_parent(defs, more);
		any = scan_file_tables(s, defs, text, n, &ow, rel, &ic);
		dcpp_defs_set_parent(defs, s->global);
	}
	for (size_t i = 0; i < skip.n; i++)
		free(skip.v[i]);
	free(skip.v);
	for (size_t h = 0; h < ic.nhdrs; h++) {
		free(ic.hdrs[h].rel);
		if (!ic.hdrs[h].cached)
			free(ic.hdrs[h].text);
	}
	free(ic.hdrs);
	free(ic.dir);
	free(cdir);
	scan_calls(s, defs, text, n, &ow, rel, mi);
	scan_platform_drivers(s, defs, text, n, &ow, rel);
	scan_faux_devices(s, defs, text, n, &ow, rel);
	scan_cpu_feature_calls(s, defs, text, n, &ow, rel);
	if (any)
		s->db->nsources++;
	dcpp_defs_free(defs);
	dcpp_defs_free(more);
	owner_release(&ow);
out:
	kf_strbuf_release(&sb);
	kf_diags_release(&ignore);
	free(abs);
	return named;
}

/* A global header being read, for the headers it includes. */
typedef struct ghdr {
	scan *s;         /* the scan */
	const char *rel; /* the header, tree-relative */
	int depth;       /* quoted includes followed to reach it */
} ghdr;

static void collect_header_at(scan *s, const char *rel, int depth);

/* A quoted #include of a global header: the header beside it, two levels
 * deep (7.3's <linux/mod_devicetable.h> is only "device-id/pci.h" and
 * the like: PCI_ANY_ID and the other ids moved there). */
static void global_include(const char *name, bool angle, size_t pos, void *ctx)
{
	const ghdr *g = ctx;
	if (angle || g->depth >= 2 || strstr(name, ".."))
		return;
	const char *slash = strrchr(g->rel, '/');
	char *rel = kf_xasprintf("%.*s%s", slash ? (int)(slash - g->rel + 1) : 0, g->rel, name);
	collect_header_at(g->s, rel, g->depth + 1);
	free(rel);
}

static void collect_header_at(scan *s, const char *rel, int depth)
{
	char *p = kf_xasprintf("%s/%s", s->tree, rel);
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_diags ignore = KF_DIAGS_INIT;
	KF_GROW(s->read, s->nread + 1, s->aread);
	s->read[s->nread++] = kf_xstrdup(rel);
	if (kf_exists(p) && kf_read_file(p, &sb, &ignore) == 0 && sb.buf) {
		ghdr g = {s, rel, depth};
		dcpp_strip_comments(sb.buf, sb.len);
		dcpp_collect(s->global, sb.buf, sb.len, global_include, &g);
	}
	kf_strbuf_release(&sb);
	kf_diags_release(&ignore);
	free(p);
}

/* The #defines of tree-relative header rel (when it exists) into s->global,
 * with those of the headers it includes by quoted name. */
static void collect_header(scan *s, const char *rel)
{
	collect_header_at(s, rel, 0);
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
		"include/linux/acpi.h", /* 7.3's ACPI_CMOS_RTC_IDS (rtc-cmos) */
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
	for (size_t i = 0; i < sizeof(hdrs) / sizeof(hdrs[0]); i++)
		collect_header(s, hdrs[i]);
	/* cpu_feature(X) of the other architectures (arm64: KERNEL_HWCAP_X) */
	if (strcmp(s->arch, "x86")) {
		static const char *const ahdrs[] = {"arch/%s/include/uapi/asm/hwcap.h",
						    "arch/%s/include/asm/hwcap.h",
						    "arch/%s/include/asm/cpufeature.h"};
		for (size_t i = 0; i < sizeof(ahdrs) / sizeof(ahdrs[0]); i++) {
			char *rel = kf_xasprintf(ahdrs[i], s->arch);
			collect_header(s, rel);
			free(rel);
		}
	}
	dcpp_collect(s->global, keep_macros, sizeof(keep_macros) - 1, NULL, NULL);
	/* enum dmi_field's values, for dmi_system_id tables */
	for (size_t i = 0; i < sizeof(id_dmi_names) / sizeof(id_dmi_names[0]); i++) {
		dcpp_toks raw = {0}, ex = {0};
		long long v;
		dcpp_tokenize(id_dmi_names[i], strlen(id_dmi_names[i]), 1, &raw);
		dcpp_expand(s->global, &raw, 0, raw.n, &ex);
		s->dmi_slot[i] = dcpp_eval_int(&ex, 0, ex.n, &v) ? (int)v : -1;
		dcpp_toks_release(&raw);
		dcpp_toks_release(&ex);
	}
}

static void scan_release(scan *s)
{
	kbuild_release(s);
	dcpp_defs_free(s->global);
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
			w.cfile_named[i] = scan_cfile(&w, w.cfiles[i]);
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

static void scan_cfiles(scan *s)
{
	/* $KFIT_SCAN_JOBS (1: one file after another, in this thread) */
	int jobs = kf_jobs("KFIT_SCAN_JOBS");
	s->cfile_named = kf_xcalloc(s->ncfiles + 1, sizeof(*s->cfile_named));
	if (jobs <= 1 || s->ncfiles <= SCAN_CHUNK) {
		for (size_t i = 0; i < s->ncfiles; i++)
			s->cfile_named[i] = scan_cfile(s, s->cfiles[i]);
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

/* The stamp of everything the scan read (kf_aliasdb_stamps): the walked
 * directories with the Makefile read in each, the global headers, every
 * .c file that names a table, an alias or a driver (10,500 of 6.12's
 * 27,300: the stamp is checked on every warm run) and the directory of
 * every header the .c files' includes found.  What else changes is seen
 * through a stamped directory's mtime (a file added, removed or saved by
 * renaming, as git checkout and most editors do), not when it is
 * rewritten in place: another .c file that gains a table, an included
 * header. */
static void scan_stamps(scan *s, kf_strbuf *out)
{
	size_t tl = strlen(s->tree);
	size_t n = s->nread + s->ncfiles + s->hc->n;
	char **paths = kf_xcalloc(n + 1, sizeof(*paths));
	size_t k = 0, had;
	kf_strmap seen = {0}; /* the directories in paths (keys copied) */
	for (size_t i = 0; i < s->nread; i++) {
		paths[k++] = s->read[i];
		kf_strmap_put(&seen, s->read[i], i);
	}
	for (size_t i = 0; i < s->ncfiles; i++)
		if (s->cfile_named[i])
			paths[k++] = s->cfiles[i];
	/* a header's directory, not the header: 6.12's 10,500 headers are in
	 * 1,000 directories, and the stamp is checked on every warm run */
	for (size_t i = 0; i < s->hc->n; i++) {
		const char *p = s->hc->v[i].path;
		if (s->hc->v[i].kind != HDR_FILE)
			continue;
		if (!strncmp(p, s->tree, tl) && p[tl] == '/')
			p += tl + 1;
		const char *sl = strrchr(p, '/');
		char *d = kf_xstrndup(p, sl ? (size_t)(sl - p + 1) : 0);
		if (!kf_strmap_get(&seen, d, &had)) {
			kf_strmap_put(&seen, d, 0);
			paths[k++] = seen.keys[seen.n - 1];
		}
		free(d);
	}
	kf_aliasdb_stamps(s->tree, paths, k, out);
	kf_strmap_release(&seen);
	free(paths);
}

/* Bumped whenever the scanner's output changes, so old caches are redone. */
#define SCANNER_VERSION 43 /* 42 + driver names of SCSI, ACPI, serio, virtio, PNP, SDIO, I2C, SPI drivers */

int kf_aliasdb_scan_tree(kf_aliasdb *db, const char *tree, const char *arch, bool use_cache,
			 kf_detect_progress_fn *progress, void *ctx, kf_diags *d)
{
	arch = kc_arch_dir(arch);
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
		cpath = kf_xasprintf("%s/aliases-%s-%08x.kc4", dir, kv, kf_hash_str(keytext));
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
	kbuild_walk(&s, "");
	s.hc = hdr_cache_new();
	scan_cfiles(&s);
	kf_strbuf stamps = KF_STRBUF_INIT;
	if (cpath)
		scan_stamps(&s, &stamps);
	hdr_cache_free(s.hc);
	s.hc = NULL;
	/* modules whose objects the Makefiles name but no scanned file did */
	for (size_t i = 0; i < s.nobjs; i++) {
		objent *o = &s.objs[i];
		if (!o->is_obj || o->composite)
			continue;
		char *name = kbuild_modname(o->path);
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
		rc = kf_aliasdb_save(db, kf_strbuf_str(&stamps), cpath, d);
	kf_strbuf_release(&stamps);
	free(cpath);
	free(cache);
	free(keytext);
	free(kv);
	return rc;
}


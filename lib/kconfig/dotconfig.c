/*
 * dotconfig.c - read a kernel .config: `CONFIG_X=val` and
 * `# CONFIG_X is not set` lines, the `# Linux/<arch> X.Y.Z... Kernel
 * Configuration` header, and the architecture.  Values live in an arena;
 * lookups go through an open-addressing hash table.
 */
#include "kfit/dotconfig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dc_entry {
	const char *name;  /* symbol name without CONFIG_, NULL for a free slot */
	const char *value; /* "y", "m", "n", unquoted string or number */
	bool is_string;    /* value was written in double quotes */
} dc_entry;

struct kf_dotconfig {
	kf_arena *arena;        /* owns every string below */
	dc_entry *tab;          /* hash table, cap slots */
	size_t cap;             /* power of two */
	size_t n;               /* used slots */
	uint32_t kver;          /* header version, 0 when none */
	const char *kver_text;  /* header version as written, or NULL */
	const char *hdr_arch;   /* the word after "Linux/" in the header */
	const char *arch;       /* derived architecture, or NULL */
};

int kf_kver_parse_prefix(const char *s, uint32_t *out)
{
	unsigned long part[3] = {0, 0, 0};
	int np = 0;
	const char *p = s;
	while (np < 3) {
		if (!isdigit((unsigned char)*p))
			break;
		char *end;
		part[np] = strtoul(p, &end, 10);
		if (part[np] > 999 || end - p > 4)
			return -1;
		np++;
		p = end;
		if (*p != '.' || !isdigit((unsigned char)p[1]))
			break;
		p++;
	}
	if (np < 2)
		return -1;
	*out = KF_KVER(part[0], part[1], part[2]);
	return 0;
}

int kf_kver_parse(const char *s, uint32_t *out)
{
	int dots = 0;
	for (const char *p = s; *p; p++) {
		if (*p == '.')
			dots++;
		else if (!isdigit((unsigned char)*p))
			return -1;
	}
	if (dots != 2 || s[0] == '.' || strstr(s, "..") || s[strlen(s) - 1] == '.')
		return -1;
	return kf_kver_parse_prefix(s, out);
}

char *kf_kver_format(uint32_t v, char *buf)
{
	snprintf(buf, 16, "%u.%u.%u", v / 1000000u, (v / 1000u) % 1000u, v % 1000u);
	return buf;
}

static dc_entry *dc_slot(const kf_dotconfig *c, const char *name)
{
	size_t mask = c->cap - 1;
	for (size_t i = kf_hash_str(name) & mask;; i = (i + 1) & mask) {
		if (!c->tab[i].name || !strcmp(c->tab[i].name, name))
			return &c->tab[i];
	}
}

static void dc_put(kf_dotconfig *c, const char *name, size_t nlen,
		   const char *value, bool is_string)
{
	if ((c->n + 1) * 2 > c->cap) {
		dc_entry *old = c->tab;
		size_t ocap = c->cap;
		c->cap = ocap ? ocap * 2 : 1024;
		c->tab = kf_xcalloc(c->cap, sizeof(*c->tab));
		for (size_t i = 0; i < ocap; i++)
			if (old[i].name)
				*dc_slot(c, old[i].name) = old[i];
		free(old);
	}
	char *key = kf_arena_strndup(c->arena, name, nlen);
	dc_entry *e = dc_slot(c, key);
	if (!e->name) {
		e->name = key;
		c->n++;
	}
	/* the last assignment wins, as in the kernel's conf_read */
	e->value = value;
	e->is_string = is_string;
}

static bool is_sym_char(int ch)
{
	return isalnum(ch) || ch == '_';
}

/* Undo the kernel's string escaping (\" and \\) of a quoted value. */
static const char *dc_unquote(kf_arena *a, const char *p, const char *end)
{
	char *out = kf_arena_alloc(a, (size_t)(end - p) + 1);
	size_t n = 0;
	for (const char *q = p + 1; q < end; q++) {
		if (*q == '"')
			break;
		if (*q == '\\' && q + 1 < end)
			q++;
		out[n++] = *q;
	}
	out[n] = 0;
	return out;
}

static void dc_header(kf_dotconfig *c, const char *line, size_t len)
{
	/* "# Linux/x86 6.1.159 Kernel Configuration" */
	const char *p = line + 2;
	if (len < 8 || strncmp(p, "Linux/", 6) || c->kver)
		return;
	p += 6;
	const char *end = line + len;
	const char *sp = memchr(p, ' ', (size_t)(end - p));
	if (!sp)
		return;
	c->hdr_arch = kf_arena_strndup(c->arena, p, (size_t)(sp - p));
	const char *v = sp + 1;
	const char *vend = memchr(v, ' ', (size_t)(end - v));
	if (!vend)
		vend = end;
	char *vt = kf_arena_strndup(c->arena, v, (size_t)(vend - v));
	uint32_t kv;
	if (kf_kver_parse_prefix(vt, &kv) == 0) {
		c->kver = kv;
		c->kver_text = vt;
	}
}

static const char *dc_derive_arch(const kf_dotconfig *c)
{
	const char *v;
	if ((v = kf_dotconfig_get(c, "X86_64")) && !strcmp(v, "y"))
		return "x86_64";
	if ((v = kf_dotconfig_get(c, "X86_32")) && !strcmp(v, "y"))
		return "i386";
	if ((v = kf_dotconfig_get(c, "ARM64")) && !strcmp(v, "y"))
		return "arm64";
	if ((v = kf_dotconfig_get(c, "ARM")) && !strcmp(v, "y"))
		return "arm";
	if ((v = kf_dotconfig_get(c, "RISCV")) && !strcmp(v, "y"))
		return "riscv";
	if ((v = kf_dotconfig_get(c, "PPC")) && !strcmp(v, "y"))
		return "powerpc";
	if ((v = kf_dotconfig_get(c, "S390")) && !strcmp(v, "y"))
		return "s390";
	if (c->hdr_arch && !strcmp(c->hdr_arch, "x86_64"))
		return "x86_64";
	return NULL;
}

kf_dotconfig *kf_dotconfig_parse(const char *name, const char *text, size_t len,
				 kf_diags *d)
{
	kf_dotconfig *c = kf_xcalloc(1, sizeof(*c));
	c->arena = kf_arena_new();
	const char *p = text, *end = text + len;
	int lineno = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		size_t ll = (size_t)(le - p);
		if (ll && le[-1] == '\r')
			ll--;
		lineno++;
		if (ll >= 2 && p[0] == '#' && p[1] == ' ') {
			static const char ns[] = " is not set";
			const size_t nsl = sizeof(ns) - 1;
			if (ll > 9 + nsl && !strncmp(p + 2, "CONFIG_", 7) &&
			    !memcmp(p + ll - nsl, ns, nsl)) {
				const char *s = p + 9;
				size_t sl = ll - 9 - nsl;
				bool ok = sl > 0;
				for (size_t i = 0; i < sl; i++)
					ok = ok && is_sym_char((unsigned char)s[i]);
				if (ok)
					dc_put(c, s, sl, "n", false);
			} else {
				dc_header(c, p, ll);
			}
		} else if (ll > 7 && !strncmp(p, "CONFIG_", 7)) {
			const char *s = p + 7, *q = s;
			while (q < p + ll && is_sym_char((unsigned char)*q))
				q++;
			if (q == s || q >= p + ll || *q != '=') {
				kf_diag_add(d, KF_WARNING, name, lineno, 1,
					    "ignoring malformed line");
			} else {
				const char *v = q + 1, *ve = p + ll;
				if (v < ve && *v == '"')
					dc_put(c, s, (size_t)(q - s),
					       dc_unquote(c->arena, v, ve), true);
				else
					dc_put(c, s, (size_t)(q - s),
					       kf_arena_strndup(c->arena, v, (size_t)(ve - v)),
					       false);
			}
		}
		p = nl ? nl + 1 : end;
	}
	if (!c->tab) {
		c->cap = 16;
		c->tab = kf_xcalloc(c->cap, sizeof(*c->tab));
	}
	c->arch = dc_derive_arch(c);
	return c;
}

kf_dotconfig *kf_dotconfig_load(const char *path, kf_diags *d)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	if (kf_read_file(path, &sb, d) < 0) {
		kf_strbuf_release(&sb);
		return NULL;
	}
	kf_dotconfig *c = kf_dotconfig_parse(path, kf_strbuf_str(&sb), sb.len, d);
	kf_strbuf_release(&sb);
	return c;
}

void kf_dotconfig_free(kf_dotconfig *c)
{
	if (!c)
		return;
	free(c->tab);
	kf_arena_free(c->arena);
	free(c);
}

const char *kf_dotconfig_get(const kf_dotconfig *c, const char *sym)
{
	if (!c->cap)
		return NULL;
	dc_entry *e = dc_slot(c, sym);
	return e->name ? e->value : NULL;
}

bool kf_dotconfig_is_string(const kf_dotconfig *c, const char *sym)
{
	if (!c->cap)
		return false;
	dc_entry *e = dc_slot(c, sym);
	return e->name && e->is_string;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t kf_dotconfig_names(const kf_dotconfig *c, const char ***names)
{
	const char **v = kf_xcalloc(c->n + 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < c->cap; i++)
		if (c->tab[i].name)
			v[n++] = c->tab[i].name;
	qsort(v, n, sizeof(*v), cmp_names);
	*names = v;
	return n;
}

size_t kf_dotconfig_count(const kf_dotconfig *c)
{
	return c->n;
}

uint32_t kf_dotconfig_kver(const kf_dotconfig *c)
{
	return c->kver;
}

const char *kf_dotconfig_kver_text(const kf_dotconfig *c)
{
	return c->kver_text;
}

const char *kf_dotconfig_arch(const kf_dotconfig *c)
{
	return c->arch;
}

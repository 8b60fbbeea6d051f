/*
 * detect_idtable.c - a device table's elements and the aliases
 * scripts/mod/file2alias.c prints for them.  Each id struct is a row of
 * id_types: its member order and its alias format as data (a prefix and
 * fields: separator, member, hex width, when it is left open); one
 * emitter writes them all.  usb (bcdDevice ranges), of, dmi, vmbus and
 * amba keep code of their own.
 */
#include "detect_scan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* file2alias.c's dmi_fields: the DMI_ fields a dmi: alias names, in its
 * order, and their prefixes. */
const char *const id_dmi_names[14] = {
	"DMI_BIOS_VENDOR", "DMI_BIOS_VERSION", "DMI_BIOS_DATE", "DMI_BIOS_RELEASE",
	"DMI_EC_FIRMWARE_RELEASE", "DMI_SYS_VENDOR", "DMI_PRODUCT_NAME", "DMI_PRODUCT_VERSION",
	"DMI_BOARD_VENDOR", "DMI_BOARD_NAME", "DMI_BOARD_VERSION", "DMI_CHASSIS_VENDOR",
	"DMI_CHASSIS_TYPE", "DMI_CHASSIS_VERSION"};
static const char *const dmi_prefix[14] = {"bvn", "bvr", "bd", "br", "efr", "svn", "pn",
					    "pvr", "rvn", "rn", "rvr", "cvn", "ct", "cvr"};

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

/* The end of the item of a list that starts at t->v[i]: the next comma
 * outside brackets, or b. */
static size_t item_end(const dcpp_toks *t, size_t i, size_t b)
{
	int depth = 0;
	for (; i < b; i++) {
		if (is_punct(&t->v[i], "(") || is_punct(&t->v[i], "{") || is_punct(&t->v[i], "["))
			depth++;
		else if (is_punct(&t->v[i], ")") || is_punct(&t->v[i], "}") || is_punct(&t->v[i], "]"))
			depth--;
		else if (depth == 0 && is_punct(&t->v[i], ","))
			break;
	}
	return i;
}

/* Parse the inside of one braced element t->v[a..b) into fields. */
void elem_parse(elem *e, const dcpp_toks *t, size_t a, size_t b, const char *const *order)
{
	e->t = t;
	e->n = 0;
	e->bad = false;
	int pos = 0;
	size_t i = a;
	while (i < b) {
		/* one item up to a top-level comma */
		size_t st = i, en = item_end(t, i, b);
		i = en + 1;
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

bool elem_empty(const elem *e)
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

/* Add a source alias with the symbol of the file's own object. */
void scan_add_owned(scan *s, const owner *ow, const char *pattern, const char *file, int line,
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
	scan_add_owned(em->s, em->ow, alias, em->file, em->line, em->s->table_origin, em->cond);
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

/* ---- the formats with logic of their own ---- */

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

/* amba_id: "amba:d" and the 8 nibbles of id, each '?' where mask's
 * nibble is 0, the digit where it is F, else the digits it allows in
 * brackets (file2alias.c's do_amba_entry and append_nibble_mask; no '*':
 * a device's modalias is exactly "amba:d%08X" of its periphid) */
static void do_amba(emit *em, elem *e)
{
	unsigned long long id = fint(e, "id") & 0xffffffffULL, mask = fint(e, "mask") & 0xffffffffULL;
	if (e->bad || (id & mask) != id)
		return;
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addstr(&sb, "amba:d");
	for (int digit = 0; digit < 8; digit++) {
		unsigned nib = (unsigned)(id >> (4 * (7 - digit))) & 0xf;
		unsigned m = (unsigned)(mask >> (4 * (7 - digit))) & 0xf;
		if (m == 0) {
			kf_strbuf_addch(&sb, '?');
		} else if (m == 0xf) {
			kf_strbuf_addf(&sb, "%X", nib);
		} else {
			kf_strbuf_addch(&sb, '[');
			for (unsigned i = 0; i < 0x10; i++)
				if ((i & m) == nib)
					kf_strbuf_addf(&sb, "%X", i);
			kf_strbuf_addch(&sb, ']');
		}
	}
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
		size_t st = i, en = item_end(t, i, f->to);
		i = en + 1;
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


/* ---- the formats as data ---- */

/* How one field of an alias is written. */
typedef enum fd_kind {
	FD_END,    /* ends the list */
	FD_HEX,    /* SEP, then the value in WIDTH upper-case hex digits, or '*'
		      when open (file2alias.c's ADD()) */
	FD_HEXOPT, /* SEP, then the value in WIDTH hex digits and '*' only when
		      set (x86cpu's feature) */
	FD_BITS,   /* SEP, then WIDTH binary digits from the top, '?' where the
		      member MASK has the bit clear (mdio) */
	FD_BITMAP, /* SEP, then when set "N,*" for each bit N in LO..HI of a
		      bitmap member (input); a bitmap not understood: no alias */
	FD_STR,    /* SEP and the string member; empty (or not WIDTH long when
		      WIDTH is nonzero): no alias */
	FD_LIT,    /* SEP alone */
} fd_kind;

/* When a field is open (FD_HEX: '*'; FD_HEXOPT, FD_BITMAP: nothing). */
typedef enum fd_open {
	OPEN_ANY,   /* its value is ARG */
	OPEN_FLAG,  /* the format's match flags lack bit ARG */
	OPEN_MASK,  /* the byte at SHIFT of member MASK is 0; 0xff: set;
		       anything else: no alias (pci's class) */
	OPEN_NEVER, /* never */
} fd_open;

/* One field of an alias format. */
typedef struct id_field {
	fd_kind kind;           /* how it is written */
	const char *sep;        /* its letters: "v", "sd", ":feature:*" */
	const char *name;       /* the member of the id struct it shows */
	int index;              /* 1 + the element of an array member; 0: the member */
	int shift;              /* bits the value is shifted right by */
	int width;              /* digits (FD_HEX, FD_HEXOPT, FD_BITS), length (FD_STR) */
	fd_open open;           /* when it is left open */
	unsigned long long arg; /* OPEN_ANY: the value; OPEN_FLAG: the bit */
	const char *mask;       /* OPEN_MASK, FD_BITS: the mask member */
	unsigned lo, hi;        /* FD_BITMAP: the bits listed */
	bool upper;             /* FD_STR: in upper case */
} id_field;

/* An alias format: a prefix, the fields in alias order, maybe a '*'. */
typedef struct id_format {
	const char *prefix;   /* "hid:" */
	/* or the prefix chosen per element (NULL: no alias) */
	const char *(*prefix_of)(const emit *em, elem *e);
	const char *flags;    /* the member with the match flags (OPEN_FLAG), or NULL */
	bool wildcard;        /* '*' at the end unless one is there */
	id_field f[14];       /* ended by FD_END */
	const struct id_format *also; /* a second alias from the same element */
} id_format;

/* The value of a member, shifted and cut to bits; false when it is an
 * array element not understood (an unreadable scalar sets e->bad). */
static bool fd_value(elem *e, const char *name, int index, int shift, int bits,
		     unsigned long long *v)
{
	unsigned long long a[8];
	if (index) {
		if (!fbitmap(e, name, a, 8))
			return false;
		*v = a[index - 1];
	} else {
		*v = fint(e, name);
	}
	*v >>= shift;
	if (bits < 64)
		*v &= (1ULL << bits) - 1;
	return true;
}

/* The alias of one element in format fmt, or no alias. */
static void emit_format(emit *em, elem *e, const id_format *fmt)
{
	unsigned long long v[14] = {0}, m[14] = {0};
	char *str[14] = {NULL};
	bool ok = true;
	unsigned long long flags = fmt->flags ? fint(e, fmt->flags) : 0;
	int n = 0;
	for (; n < 14 && fmt->f[n].kind != FD_END; n++) {
		const id_field *f = &fmt->f[n];
		int bits = f->kind == FD_BITS ? f->width : f->open == OPEN_MASK ? 8 : f->width * 4;
		if (f->kind == FD_STR)
			ok &= (str[n] = fstr(e, f->name)) != NULL;
		else if (f->kind == FD_HEX || f->kind == FD_HEXOPT || f->kind == FD_BITS)
			ok &= fd_value(e, f->name, f->index, f->shift, bits, &v[n]);
		if (f->mask)
			fd_value(e, f->mask, 0, f->shift, bits, &m[n]);
	}
	kf_strbuf sb = KF_STRBUF_INIT;
	const char *prefix = ok && !e->bad && fmt->prefix_of ? fmt->prefix_of(em, e) : fmt->prefix;
	if (!ok || e->bad || !prefix)
		goto out;
	kf_strbuf_addstr(&sb, prefix);
	for (int i = 0; i < n; i++) {
		const id_field *f = &fmt->f[i];
		bool set = f->open == OPEN_NEVER ||
			   (f->open == OPEN_ANY && v[i] != f->arg) ||
			   (f->open == OPEN_FLAG && (flags & f->arg)) ||
			   (f->open == OPEN_MASK && m[i] == 0xff);
		if (f->open == OPEN_MASK && m[i] != 0 && m[i] != 0xff)
			goto out;
		switch (f->kind) {
		case FD_HEX:
			add_field(&sb, f->sep, set, v[i], f->width);
			break;
		case FD_HEXOPT:
			kf_strbuf_addstr(&sb, f->sep);
			if (set)
				kf_strbuf_addf(&sb, "%0*llX*", f->width, v[i]);
			break;
		case FD_BITS:
			kf_strbuf_addstr(&sb, f->sep);
			for (int b = f->width - 1; b >= 0; b--)
				kf_strbuf_addch(&sb, !((m[i] >> b) & 1) ? '?' : ((v[i] >> b) & 1) ? '1' : '0');
			break;
		case FD_BITMAP: {
			unsigned long long w[12];
			kf_strbuf_addstr(&sb, f->sep);
			if (!set)
				break;
			if (!fbitmap(e, f->name, w, 12))
				goto out;
			add_bits(&sb, w, f->lo, f->hi);
			break;
		}
		case FD_STR:
			if (!*str[i] || (f->width && strlen(str[i]) != (size_t)f->width))
				goto out;
			kf_strbuf_addstr(&sb, f->sep);
			for (const char *p = str[i]; *p; p++)
				kf_strbuf_addch(&sb, f->upper ? (char)toupper((unsigned char)*p) : *p);
			break;
		case FD_LIT:
			kf_strbuf_addstr(&sb, f->sep);
			break;
		case FD_END:
			break;
		}
	}
	if (fmt->wildcard)
		add_wildcard(&sb);
	add_alias(em, sb.buf);
out:
	kf_strbuf_release(&sb);
	for (int i = 0; i < n; i++)
		free(str[i]);
}

/* pci_device_id: override_only 0 is pci:, 1 (PCI_ID_F_VFIO_DRIVER_OVERRIDE)
 * vfio_pci:, anything else no alias */
static const char *pci_prefix(const emit *em, elem *e)
{
	unsigned long long oo = fint(e, "override_only");
	return oo == 0 ? "pci:" : oo == 1 ? "vfio_pci:" : NULL;
}

/* mhi_device_id: "mhi:", or "mhi_ep:" under MODULE_DEVICE_TABLE(mhi_ep, ...) */
static const char *mhi_prefix(const emit *em, elem *e)
{
	return !strcmp(em->devtype, "mhi_ep") ? "mhi_ep:" : "mhi:";
}

/* Fields, by kind: a hex value open when it is ANY, open unless match
 * flag BIT, or always set; a string; literal text. */
#define HEX(s, n, digits, any) {.kind = FD_HEX, .sep = s, .name = n, .width = digits, .open = OPEN_ANY, .arg = any}
#define HEXF(s, n, digits, bit) {.kind = FD_HEX, .sep = s, .name = n, .width = digits, .open = OPEN_FLAG, .arg = bit}
#define STR(s, n) {.kind = FD_STR, .sep = s, .name = n}
#define LIT(text) {.kind = FD_LIT, .sep = text}
#define ALL8 0xffULL
#define ALL16 0xffffULL
#define ALL32 0xffffffffULL

static const id_format pci_format = {.prefix_of = pci_prefix, .wildcard = true, .f = {
	HEX("v", "vendor", 8, ALL32), HEX("d", "device", 8, ALL32),
	HEX("sv", "subvendor", 8, ALL32), HEX("sd", "subdevice", 8, ALL32),
	{.kind = FD_HEX, .sep = "bc", .name = "class", .shift = 16, .width = 2, .open = OPEN_MASK, .mask = "class_mask"},
	{.kind = FD_HEX, .sep = "sc", .name = "class", .shift = 8, .width = 2, .open = OPEN_MASK, .mask = "class_mask"},
	{.kind = FD_HEX, .sep = "i", .name = "class", .shift = 0, .width = 2, .open = OPEN_MASK, .mask = "class_mask"}}};
static const id_format hid_format = {.prefix = "hid:", .f = {
	HEX("b", "bus", 4, ALL16), HEX("g", "group", 4, 0),
	HEX("v", "vendor", 8, ALL32), HEX("p", "product", 8, ALL32)}};
static const id_format virtio_format = {.prefix = "virtio:", .wildcard = true, .f = {
	HEX("d", "device", 8, ALL32), HEX("v", "vendor", 8, ALL32)}};
static const id_format serio_format = {.prefix = "serio:", .wildcard = true, .f = {
	HEX("ty", "type", 2, ALL8), HEX("pr", "proto", 2, ALL8),
	HEX("id", "id", 2, ALL8), HEX("ex", "extra", 2, ALL8)}};
static const id_format sdio_format = {.prefix = "sdio:", .wildcard = true, .f = {
	HEX("c", "class", 2, ALL8), HEX("v", "vendor", 4, ALL16),
	HEX("d", "device", 4, ALL16)}};
static const id_format ssb_format = {.prefix = "ssb:", .wildcard = true, .f = {
	HEX("v", "vendor", 4, ALL16), HEX("id", "coreid", 4, ALL16),
	HEX("rev", "revision", 2, ALL8)}};
static const id_format bcma_format = {.prefix = "bcma:", .wildcard = true, .f = {
	HEX("m", "manuf", 4, ALL16), HEX("id", "id", 4, ALL16),
	HEX("rev", "rev", 2, ALL8), HEX("cl", "class", 2, ALL8)}};
static const id_format sdw_format = {.prefix = "sdw:", .wildcard = true, .f = {
	HEX("m", "mfg_id", 4, 0), HEX("p", "part_id", 4, 0),
	HEX("v", "sdw_version", 2, 0), HEX("c", "class_id", 2, 0)}};
static const id_format ieee1394_format = {.prefix = "ieee1394:", .flags = "match_flags", .wildcard = true, .f = {
	HEXF("ven", "vendor_id", 8, 0x1), HEXF("mo", "model_id", 8, 0x2),
	HEXF("sp", "specifier_id", 8, 0x4), HEXF("ver", "version", 8, 0x8)}};
static const id_format hda_format = {.prefix = "hdaudio:", .wildcard = true, .f = {
	HEX("v", "vendor_id", 8, 0), HEX("r", "rev_id", 8, 0), HEX("a", "api_version", 2, 0)}};
static const id_format x86cpu_format = {.prefix = "cpu:type:x86,", .f = {
	HEX("ven", "vendor", 4, ALL16), HEX("fam", "family", 4, 0), HEX("mod", "model", 4, 0),
	{.kind = FD_HEXOPT, .sep = ":feature:*", .name = "feature", .width = 4, .open = OPEN_ANY, .arg = 0}}};
/* cpu_feature (module_cpu_feature_match: arm64, arm, powerpc, s390...) */
static const id_format cpufeat_format = {.prefix = "cpu:type:*:feature:*", .wildcard = true, .f = {
	{.kind = FD_HEX, .sep = "", .name = "feature", .width = 4, .open = OPEN_NEVER}}};
/* mdio_device_id: 32 bits, '?' where the mask is clear */
static const id_format mdio_format = {.prefix = "mdio:", .f = {
	{.kind = FD_BITS, .sep = "", .name = "phy_id", .width = 32, .mask = "phy_id_mask"}}};
#define BITMAP(s, n, bit, min, max) \
	{.kind = FD_BITMAP, .sep = s, .name = n, .open = OPEN_FLAG, .arg = bit, .lo = min, .hi = max}
static const id_format input_format = {.prefix = "input:", .flags = "flags", .f = {
	HEXF("b", "bustype", 4, 0x1), HEXF("v", "vendor", 4, 0x2),
	HEXF("p", "product", 4, 0x4), HEXF("e", "version", 4, 0x8),
	BITMAP("-e*", "evbit", 0x10, 0, 0x1f), BITMAP("k*", "keybit", 0x20, 0x71, 0x2ff),
	BITMAP("r*", "relbit", 0x40, 0, 0x0f), BITMAP("a*", "absbit", 0x80, 0, 0x3f),
	BITMAP("m*", "mscbit", 0x100, 0, 0x07), BITMAP("l*", "ledbit", 0x200, 0, 0x0f),
	BITMAP("s*", "sndbit", 0x400, 0, 0x07), BITMAP("f*", "ffbit", 0x800, 0, 0x7f),
	BITMAP("w*", "swbit", 0x1000, 0, 0x10)}};
/* pcmcia_device_id: the product-string hashes are literal in the table
 * (PCMCIA_DEVICE_PROD_ID12("3Com", "...", 0x41240e5b, ...)); the kernel
 * only checks them against crc32(0, string) at run time. */
#define HASH(s, i, bit) {.kind = FD_HEX, .sep = s, .name = "prod_id_hash", .index = i, .width = 8, .open = OPEN_FLAG, .arg = bit}
static const id_format pcmcia_format = {.prefix = "pcmcia:", .flags = "match_flags", .wildcard = true, .f = {
	HEXF("m", "manf_id", 4, 0x1), HEXF("c", "card_id", 4, 0x2),
	HEXF("f", "func_id", 2, 0x4), HEXF("fn", "function", 2, 0x8),
	HEXF("pfn", "device_no", 2, 0x100), HASH("pa", 1, 0x10), HASH("pb", 2, 0x20),
	HASH("pc", 3, 0x40), HASH("pd", 4, 0x80)}};
static const id_format acpi_format = {.prefix = "acpi*:", .f = {STR("", "id"), LIT(":*")}};
/* pnp_device_id: "pnp:dID*" and, for the ACPI companion, "acpi*:ID:*" */
static const id_format pnp_acpi_format = {.prefix = "acpi*:", .f = {
	{.kind = FD_STR, .sep = "", .name = "id", .upper = true}, LIT(":*")}};
static const id_format pnp_format = {.prefix = "pnp:d", .f = {STR("", "id"), LIT("*")},
				     .also = &pnp_acpi_format};
static const id_format platform_format = {.prefix = "platform:", .f = {STR("", "name")}};
static const id_format i2c_format = {.prefix = "i2c:", .f = {STR("", "name")}};
static const id_format spi_format = {.prefix = "spi:", .f = {STR("", "name")}};
static const id_format auxiliary_format = {.prefix = "auxiliary:", .f = {STR("", "name")}};
static const id_format wmi_format = {.prefix = "wmi:", .f = {
	{.kind = FD_STR, .sep = "", .name = "guid_string", .width = 36}}};
static const id_format mhi_format = {.prefix_of = mhi_prefix, .f = {STR("", "chan")}};

void id_emit(emit *em, elem *e, const id_type *tt)
{
	if (tt->hook) {
		tt->hook(em, e);
		return;
	}
	for (const id_format *f = tt->format; f; f = f->also)
		emit_format(em, e, f);
}

/* ---- the types ---- */

/* Member order of each id struct, for positional initializers. */
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
static const char *const amba_order[] = {"id", "mask", "data", NULL};

/* In the order tables are looked for (which orders the aliases). */
const id_type id_types[] = {
	{"mdio_device_id", mdio_order, &mdio_format, NULL},
	{"input_device_id", input_order, &input_format, NULL},
	{"pnp_device_id", pnp_order, &pnp_format, NULL},
	{"hda_device_id", hda_order, &hda_format, NULL},
	{"wmi_device_id", wmi_order, &wmi_format, NULL},
	{"hv_vmbus_device_id", vmbus_order, NULL, do_vmbus},
	{"pci_device_id", pci_order, &pci_format, NULL},
	{"usb_device_id", usb_order, NULL, do_usb},
	{"hid_device_id", hid_order, &hid_format, NULL},
	{"virtio_device_id", virtio_order, &virtio_format, NULL},
	{"acpi_device_id", acpi_order, &acpi_format, NULL},
	{"of_device_id", of_order, NULL, do_of},
	{"platform_device_id", named_order, &platform_format, NULL},
	{"i2c_device_id", named_order, &i2c_format, NULL},
	{"spi_device_id", named_order, &spi_format, NULL},
	{"serio_device_id", serio_order, &serio_format, NULL},
	{"sdio_device_id", sdio_order, &sdio_format, NULL},
	{"x86_cpu_id", x86_order, &x86cpu_format, NULL},
	{"pcmcia_device_id", pcmcia_order, &pcmcia_format, NULL},
	{"ieee1394_device_id", ieee1394_order, &ieee1394_format, NULL},
	{"ssb_device_id", ssb_order, &ssb_format, NULL},
	{"bcma_device_id", bcma_order, &bcma_format, NULL},
	{"sdw_device_id", sdw_order, &sdw_format, NULL},
	{"mhi_device_id", mhi_order, &mhi_format, NULL},
	{"auxiliary_device_id", named_order, &auxiliary_format, NULL},
	{"dmi_system_id", dmi_order, NULL, do_dmi},
	{"cpu_feature", cpufeat_order, &cpufeat_format, NULL},
	{"amba_id", amba_order, NULL, do_amba},
};
const size_t id_ntypes = sizeof(id_types) / sizeof(id_types[0]);

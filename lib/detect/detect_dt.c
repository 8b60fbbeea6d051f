/*
 * detect_dt.c - what a device-tree machine's firmware says beyond its
 * devices: the console the device tree names (chosen/stdout-path, through
 * aliases/) and the framebuffer the firmware left on the screen
 * (chosen/framebuffer*, simple-framebuffer).  Each node is matched as the
 * kernel would print its modalias; its driver is required with the
 * options that make it a console.
 */
#include "detect_run.h"
#include "kfit/rootfs.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DT "sys/firmware/devicetree/base"

/* A property's bytes (arena, NUL added), its length in *len; NULL when
 * absent. */
static char *dt_prop(dctx *c, const char *rel, size_t *len)
{
	char *p = det_path(c, rel);
	kf_strbuf sb = KF_STRBUF_INIT;
	char *res = NULL;
	if (kf_root_read(p, KF_ROOT_READ_MAX, &sb) == 0) {
		res = kf_arena_alloc(c->a, sb.len + 1);
		if (sb.len)
			memcpy(res, sb.buf, sb.len);
		*len = sb.len;
	}
	kf_strbuf_release(&sb);
	free(p);
	return res;
}

/* The modalias the kernel prints for the node at path (below DT, "/soc/
 * serial@7e215040"): "amba:d%08X" of a primecell with its periphid, else
 * of_modalias()'s "of:N<name>T(null)C<compatible>..."; NULL without a
 * compatible.  *compat gets the first compatible. */
static char *node_modalias(dctx *c, const char *path, const char **compat)
{
	char *rel = kf_arena_printf(c->a, DT "%s/compatible", path);
	size_t n = 0;
	char *cs = dt_prop(c, rel, &n);
	if (!cs || !n || !*cs)
		return NULL;
	*compat = cs;
	size_t pl = 0;
	char *pid = dt_prop(c, kf_arena_printf(c->a, DT "%s/arm,primecell-periphid", path), &pl);
	if (pid && pl == 4) {
		const unsigned char *b = (const unsigned char *)pid;
		return kf_arena_printf(c->a, "amba:d%02X%02X%02X%02X", b[0], b[1], b[2], b[3]);
	}
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addf(&sb, "of:N%.*sT(null)", (int)strcspn(base, "@"), base);
	for (size_t i = 0; i < n; i += strlen(cs + i) + 1)
		if (cs[i])
			kf_strbuf_addf(&sb, "C%s", cs + i);
	char *m = kf_arena_strdup(c->a, sb.buf);
	kf_strbuf_release(&sb);
	return m;
}

/* The driver of modalias: the most specific alias with a symbol, a DRM
 * driver before an fbdev one of the same specificity (simpledrm, not
 * simplefb, for a simple-framebuffer); NULL when none. */
static const kf_alias *node_driver(dctx *c, const char *modalias, const char **sym)
{
	kf_aliasdb *db = c->o->aliases;
	size_t idx[64];
	size_t n = kf_aliasdb_match(db, modalias, idx, 64);
	const kf_alias *best = NULL;
	int bscore = -1;
	for (size_t k = 0; k < n && k < 64; k++) {
		const kf_alias *al = &db->aliases[idx[k]];
		const kf_modinfo *mi = kf_aliasdb_module(db, al->module);
		const char *s = al->symbol ? al->symbol : mi ? mi->symbol : NULL;
		if (!s)
			continue;
		int score = 0;
		for (const char *p = al->pattern; *p; p++)
			score += *p != '*' && *p != '?';
		score = score * 2 + !strncmp(s, "DRM_", 4);
		if (score > bscore) {
			best = al;
			bscore = score;
			*sym = s;
		}
	}
	return best;
}

/* The options that make a driver's device a console. */
static const struct {
	const char *prefix; /* the driver's symbol starts so */
	const char *sym[3]; /* what it needs besides, built in */
} console_support[] = {
	{"SERIAL_8250", {"SERIAL_8250", "SERIAL_8250_CONSOLE"}},
	{"SERIAL_AMBA_PL011", {"SERIAL_AMBA_PL011_CONSOLE"}},
	{"DRM_", {"DRM_FBDEV_EMULATION", "FRAMEBUFFER_CONSOLE", "VT_CONSOLE"}},
	{"FB_", {"FRAMEBUFFER_CONSOLE", "VT_CONSOLE"}},
};

/* Require node's driver (built in when builtin) and its console options. */
static void node_console(dctx *c, const char *path, const char *what, bool builtin)
{
	const char *compat = NULL, *sym = NULL;
	char *m = node_modalias(c, path, &compat);
	const kf_alias *al = m ? node_driver(c, m, &sym) : NULL;
	if (!al)
		return;
	char *why = kf_arena_printf(c->a, "%s %s (%s) → %s → CONFIG_%s", what, path, compat,
				    al->module, sym);
	hw_add(c, sym, builtin ? KF_HW_BUILTIN : KF_HW_ENABLED, KF_HW_REQUIRE, false, why);
	for (size_t k = 0; k < sizeof(console_support) / sizeof(console_support[0]); k++) {
		if (strncmp(sym, console_support[k].prefix, strlen(console_support[k].prefix)))
			continue;
		for (size_t j = 0; j < 3 && console_support[k].sym[j]; j++)
			if (strcmp(console_support[k].sym[j], sym))
				hw_add(c, console_support[k].sym[j], KF_HW_BUILTIN, KF_HW_REQUIRE, false,
				       kf_arena_printf(c->a, "%s: a console on it", why));
		break;
	}
}

void detect_dt_consoles(dctx *c)
{
	if (!det_exists(c, DT) || !c->o->aliases)
		return;
	/* stdout-path "serial1:115200n8": an alias (or a path) and options */
	size_t n = 0;
	char *sp = dt_prop(c, DT "/chosen/stdout-path", &n);
	if (sp && *sp) {
		sp[strcspn(sp, ":")] = 0;
		const char *path = sp;
		if (*sp != '/') {
			char *al = dt_prop(c, kf_arena_printf(c->a, DT "/aliases/%s", sp), &n);
			path = al && *al == '/' ? al : NULL;
		}
		if (path)
			node_console(c, path,
				     kf_arena_printf(c->a, "the device tree's console (chosen/stdout-path %s)",
						     sp),
				     true);
	}
	/* the firmware's framebuffer: the screen's console */
	char *p = det_path(c, DT "/chosen");
	DIR *dh = opendir(p);
	free(p);
	if (!dh)
		return;
	char **names = NULL;
	size_t nn = 0, alloc = 0;
	struct dirent *de;
	while ((de = readdir(dh)) != NULL)
		if (!strncmp(de->d_name, "framebuffer", 11)) {
			KF_GROW(names, nn + 1, alloc);
			names[nn++] = kf_arena_strdup(c->a, de->d_name);
		}
	closedir(dh);
	for (size_t i = 1; i < nn; i++) /* in name order */
		for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char *t = names[j];
			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	for (size_t i = 0; i < nn; i++)
		node_console(c, kf_arena_printf(c->a, "/chosen/%s", names[i]),
			     "the firmware's framebuffer", false);
	free(names);
}

/*
 * kconfig_values.c - the Kconfig API's value helpers (declared in
 * include/kfit/kconfig.h): a symbol's value as the .config shows it,
 * answering a symbol as a user would, what `select` can set, the
 * reset of a distro config's settings that name its own build files, and
 * what loading the tree cost.
 * They sit outside lib/kc_*.c for now; they use only the engine's
 * calculation (kc_internal.h).
 */
#include "kfit/kconfig.h"

#include "kc_internal.h"

#include <string.h>

const char *kf_sym_shown(kc_tree *t, kc_sym *s)
{
	sym_calc_value(t, s);
	if (!(s->flags & SYMBOL_WRITE) || s->type == S_UNKNOWN)
		return NULL;
	return sym_get_string_value(t, s);
}

const char *kf_sym_value(kc_tree *t, const char *name)
{
	kc_sym *s = sym_find(t, name);
	if (!s || (s->flags & SYMBOL_CONST))
		return NULL;
	return kf_sym_shown(t, s);
}

int kf_sym_set(kc_tree *t, const char *name, const char *value)
{
	kc_sym *s = sym_find(t, name);
	if (!s || (s->flags & SYMBOL_CONST) || s->type == S_UNKNOWN)
		return -1;
	sym_calc_value(t, s);
	return sym_set_string_value(t, s, value) ? 0 : -1;
}

bool kf_sym_selectable(kc_tree *t, const char *name)
{
	kc_sym *s = sym_find(t, name);
	if (!s || (s->flags & SYMBOL_CONST) || sym_is_choice(s))
		return false;
	if (s->type != S_BOOLEAN && s->type != S_TRISTATE)
		return false;
	return !sym_is_choice_value(t, s);
}

bool kf_sym_is_string(kc_tree *t, const char *name)
{
	kc_sym *s = sym_find(t, name);
	return s && !(s->flags & SYMBOL_CONST) && s->type == S_STRING;
}

void kf_reset_distro_build_files(kc_tree *t, kf_diags *d)
{
	static const struct {
		const char *sym;   /* string symbol naming a build file */
		const char *value; /* what a user's build needs instead */
	} resets[] = {
		{"SYSTEM_TRUSTED_KEYS", ""},
		{"SYSTEM_REVOCATION_KEYS", ""},
		{"MODULE_SIG_KEY", "certs/signing_key.pem"},
		{"EXTRA_FIRMWARE", ""},
		{"SYSTEM_EXTRA_CERTIFICATE_SIZE", NULL},
		{"INITRAMFS_SOURCE", ""},
		{"MODULE_SIG_HASH", NULL},
	};
	for (size_t i = 0; i < sizeof(resets) / sizeof(resets[0]); i++) {
		if (!resets[i].value)
			continue;
		kc_sym *s = sym_find(t, resets[i].sym);
		if (!s || (s->flags & SYMBOL_CONST) || s->type != S_STRING)
			continue;
		const char *v = kf_sym_shown(t, s);
		if (!v || !strcmp(v, resets[i].value))
			continue;
		if (!strcmp(resets[i].sym, "MODULE_SIG_KEY") &&
		    !strcmp(v, "certs/signing_key.pem"))
			continue;
		kf_diag_add(d, KF_NOTE, NULL, 0, 0,
			    "reset CONFIG_%s=\"%s\" to \"%s\": it names a file of the distribution's own build",
			    resets[i].sym, v, resets[i].value);
		s->def[S_DEF_USER].val = kf_arena_strdup(t->arena, resets[i].value);
		s->flags |= SYMBOL_DEF_USER;
		sym_clear_all_valid(t);
	}
}


void kf_tree_load_stats(const kc_tree *t, kf_load_stats *st)
{
	st->arena_bytes = kf_arena_used(t->arena);
	st->symbols = t->nsyms;
	st->shell_runs = t->shell_runs;
	st->shell_hits = t->shell_hits;
}

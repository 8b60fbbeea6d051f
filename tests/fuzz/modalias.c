/*
 * modalias.c - fuzz target for the modalias matcher (lib/detect/detect_alias.c):
 * the input is read as a modules.alias file, as a modules.builtin.modinfo
 * file, as kfit's own alias cache file (the self-validating envelope) and
 * as the table inside one, and then every one of its
 * first 32 lines is matched as a modalias against what was loaded, and
 * the indexed matcher's answer must be the whole list's (fnmatch over
 * every pattern in database order), and so must the bound-driver answers
 * (each line's first word and the modules of the first aliases as the
 * bound driver): a difference aborts.
 */
#include <fnmatch.h>
#include "fuzz_common.h"
#include "detect_internal.h"
#include "kfit/detect.h"

static void match_both(const kf_aliasdb *db, const char *modalias)
{
	size_t out[8], ref[8], n = kf_aliasdb_match(db, modalias, out, 8), r = 0;
	for (size_t i = 0; i < db->naliases; i++)
		if (!fnmatch(db->aliases[i].pattern, modalias, 0)) {
			if (r < 8)
				ref[r] = i;
			r++;
		}
	if (n != r || memcmp(out, ref, (n < 8 ? n : 8) * sizeof(*out)))
		abort();
}

/* The bound-driver questions, indexed and by the whole list (a copy of
 * db without its index). */
static void bound_both(const kf_aliasdb *db, const char *bound, const char *modalias)
{
	kf_aliasdb lin = *db;
	lin.index = NULL;
	if (kf_aliasdb_bound_alias(db, bound, modalias) !=
	    kf_aliasdb_bound_alias(&lin, bound, modalias))
		abort();
	for (size_t i = 0; i < db->naliases && i < 4; i++)
		if (kf_aliasdb_module_drives(db, db->aliases[i].module, bound) !=
		    kf_aliasdb_module_drives(&lin, db->aliases[i].module, bound))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = fz_write("modules.alias", data, size);
	kf_diags d = KF_DIAGS_INIT;
	kf_aliasdb *db = kf_aliasdb_new();
	kf_aliasdb_add_modules_alias(db, path, &d);
	kf_aliasdb_add_builtin_modinfo(db, path, &d);
	kf_aliasdb *cache = kf_aliasdb_new();
	kf_aliasdb_load(cache, path, &d); /* as a cache entry: the envelope */
	kf_aliasdb *parsed = kf_aliasdb_new();
	kf_strbuf body = KF_STRBUF_INIT;
	kf_strbuf_add(&body, data, size);
	kf_aliasdb_parse(parsed, &body, path, &d); /* the table inside it */
	kf_aliasdb_free(parsed);

	char *text = kf_xstrndup((const char *)data, size);
	char *s = text;
	for (int i = 0; i < 32 && s; i++) {
		char *e = strchr(s, '\n');
		if (e)
			*e = 0;
		match_both(db, s);
		match_both(cache, s);
		/* the line's first word as the bound driver, and the modules
		   of the first aliases */
		char *word = kf_xstrndup(s, strcspn(s, " \t"));
		bound_both(db, word, s);
		bound_both(cache, word, s);
		for (size_t k = 0; k < db->naliases && k < 4; k++)
			bound_both(db, db->aliases[k].module, s);
		free(word);
		(void)kf_aliasdb_module(db, s);
		s = e ? e + 1 : NULL;
	}
	free(text);
	kf_aliasdb_free(cache);
	kf_aliasdb_free(db);
	kf_diags_release(&d);
	free(path);
	return 0;
}

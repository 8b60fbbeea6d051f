/*
 * profile.c - fuzz target for the profile language: parse the input as a
 * profile file, then resolve every profile it defined (alone and all
 * together: includes, inheritance, cycles, conflicts), check each set
 * against an empty .config and lint the little database.
 */
#include "fuzz_common.h"
#include "kfit/dotconfig.h"
#include "kfit/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kf_diags d = KF_DIAGS_INIT;
	prof_db *db = prof_db_new();
	if (prof_db_add_text(db, "fuzz.kfit", (const char *)data, size, &d) == 0) {
		size_t n = prof_db_count(db);
		if (n > 64)
			n = 64;
		const char **names = kf_xcalloc(n + 1, sizeof(char *));
		kf_dotconfig *cfg = kf_dotconfig_parse("empty", "", 0, &d);
		for (size_t i = 0; i < n; i++)
			names[i] = prof_db_get(db, i)->name;
		for (size_t i = 0; i <= n; i++) {
			/* i < n: one profile alone; i == n: all of them */
			const char *const *ask = i < n ? &names[i] : names;
			prof_set *s = prof_flatten(db, ask, i < n ? 1 : n, &d);
			if (!s)
				continue;
			prof_check_opts co = {.kver = KF_KVER(6, 1, 0), .arch = "x86_64"};
			prof_result *res = NULL;
			if (cfg)
				prof_check(db, s, cfg, &co, &res);
			free(res);
			prof_set_free(s);
		}
		long param;
		(void)prof_db_find(db, "systemd-256", &param, &d);
		(void)prof_db_find(db, "nosuch-1", &param, &d);
		prof_lint(db, NULL, 0, &d);
		kf_dotconfig_free(cfg);
		free(names);
	}
	kf_strbuf msg = KF_STRBUF_INIT;
	for (size_t i = 0; i < d.n; i++)
		kf_diag_format(&d.v[i], &msg);
	kf_strbuf_release(&msg);
	kf_diags_release(&d);
	prof_db_free(db);
	return 0;
}

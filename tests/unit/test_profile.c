/*
 * test_profile.c - unit tests of the profile library and the .config
 * reader: kernel version parsing, .config headers of real distributions,
 * parsing profiles from text, resolving (inheritance, slots, templates,
 * drops, overrides, conflicts, cycles), renames and checking a config.
 * Prints "ok NAME" / "not ok NAME" lines (tests/run.sh protocol).
 */
#include "kfit/dotconfig.h"
#include "kfit/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Test bookkeeping. */
typedef struct tstate {
	int failed; /* failed checks so far */
} tstate;

static void check(tstate *ts, bool cond, const char *name, const char *detail)
{
	if (cond) {
		printf("ok %s\n", name);
	} else {
		printf("not ok %s\n  %s\n", name, detail ? detail : "");
		ts->failed++;
	}
}

static void test_kver(tstate *ts)
{
	uint32_t v = 0;
	char b[16];
	check(ts, kf_kver_parse("6.1.159", &v) == 0 && v == KF_KVER(6, 1, 159), "kver/full", NULL);
	check(ts, kf_kver_parse("6.1", &v) < 0, "kver/needs-three-parts", NULL);
	check(ts, kf_kver_parse("6.1.0-rc1", &v) < 0, "kver/no-suffix", NULL);
	check(ts, kf_kver_parse("6..1", &v) < 0, "kver/empty-part", NULL);
	check(ts, kf_kver_parse_prefix("6.5.6-300.fc39.x86_64", &v) == 0 && v == KF_KVER(6, 5, 6),
	      "kver/prefix-fedora", NULL);
	check(ts, kf_kver_parse_prefix("6.8.9-arch1", &v) == 0 && v == KF_KVER(6, 8, 9), "kver/prefix-arch",
	      NULL);
	check(ts, kf_kver_parse_prefix("5.4.0-26-generic", &v) == 0 && v == KF_KVER(5, 4, 0),
	      "kver/prefix-ubuntu", NULL);
	check(ts, kf_kver_parse_prefix("6.12", &v) == 0 && v == KF_KVER(6, 12, 0), "kver/prefix-two-parts",
	      NULL);
	check(ts, !strcmp(kf_kver_format(KF_KVER(5, 10, 223), b), "5.10.223"), "kver/format", b);
	check(ts, KF_KVER(5, 10, 223) < KF_KVER(5, 12, 0) && KF_KVER(6, 12, 0) > KF_KVER(6, 6, 99),
	      "kver/order", NULL);
}

static void test_dotconfig(tstate *ts)
{
	static const struct {
		const char *header; /* the header line */
		uint32_t kver;      /* expected version */
		const char *arch;   /* expected arch */
	} h[] = {
		{"# Linux/x86 6.1.159 Kernel Configuration", KF_KVER(6, 1, 159), "x86_64"},
		{"# Linux/x86_64 6.5.6-300.fc39.x86_64 Kernel Configuration", KF_KVER(6, 5, 6), "x86_64"},
		{"# Linux/x86 6.8.9-arch1 Kernel Configuration", KF_KVER(6, 8, 9), "x86_64"},
		{"# Linux/x86 5.4.0-26-generic Kernel Configuration", KF_KVER(5, 4, 0), "x86_64"},
	};
	for (size_t i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
		char text[512];
		snprintf(text, sizeof(text),
			 "# leading comment\n#\n# Automatically generated file; DO NOT EDIT.\n%s\n#\n"
			 "CONFIG_X86_64=y\nCONFIG_A=m\n# CONFIG_B is not set\nCONFIG_S=\"a \\\"q\\\" b\"\n"
			 "CONFIG_N=0x10\nCONFIG_A=y\n",
			 h[i].header);
		kf_diags d = KF_DIAGS_INIT;
		kf_dotconfig *c = kf_dotconfig_parse("t", text, strlen(text), &d);
		char name[64];
		snprintf(name, sizeof(name), "dotconfig/header-%zu", i);
		check(ts, c && kf_dotconfig_kver(c) == h[i].kver && !strcmp(kf_dotconfig_arch(c), h[i].arch),
		      name, h[i].header);
		if (i == 0 && c) {
			check(ts, !strcmp(kf_dotconfig_get(c, "A"), "y"), "dotconfig/last-assignment-wins", NULL);
			check(ts, !strcmp(kf_dotconfig_get(c, "B"), "n"), "dotconfig/not-set", NULL);
			check(ts, !strcmp(kf_dotconfig_get(c, "S"), "a \"q\" b") && kf_dotconfig_is_string(c, "S"),
			      "dotconfig/string-unescaped", kf_dotconfig_get(c, "S"));
			check(ts, !strcmp(kf_dotconfig_get(c, "N"), "0x10"), "dotconfig/hex", NULL);
			check(ts, kf_dotconfig_get(c, "MISSING") == NULL, "dotconfig/absent", NULL);
			check(ts, kf_dotconfig_count(c) == 5, "dotconfig/count", NULL);
		}
		kf_dotconfig_free(c);
		kf_diags_release(&d);
	}
	kf_diags d = KF_DIAGS_INIT;
	kf_dotconfig *c = kf_dotconfig_parse("t", "CONFIG_A=y\n", 11, &d);
	check(ts, c && kf_dotconfig_kver(c) == 0 && kf_dotconfig_arch(c) == NULL, "dotconfig/no-header", NULL);
	kf_dotconfig_free(c);
	kf_diags_release(&d);
}

static const char db_text[] =
	"rename OLD_A NEW_A kernel>=4.18.0\n"
	"    reason renamed\n"
	"    source https://example.org/r\n"
	"profile tpl-N\n"
	"title template\n"
	"kind init\n"
	"versions >=100\n"
	"require T_ALL\n"
	"    reason all\n"
	"    source https://example.org/t\n"
	"require T_NEW tpl>=200\n"
	"    reason new\n"
	"    source https://example.org/t\n"
	"profile d-1\n"
	"title d1\n"
	"kind distro\n"
	"init tpl-150\n"
	"initramfs no\n"
	"kernel >=6.1.0 <6.2.0\n"
	"require ROOT boot\n"
	"    reason root\n"
	"    source https://example.org/d\n"
	"require OLD_A\n"
	"    reason a\n"
	"    source https://example.org/d\n"
	"require GONE=n\n"
	"    reason off\n"
	"    source https://example.org/d\n"
	"recommend STR=\"\"\n"
	"    reason empty\n"
	"    source https://example.org/d\n"
	"profile d-2\n"
	"title d2\n"
	"kind distro\n"
	"inherit d-1\n"
	"init tpl-250\n"
	"drop GONE\n"
	"    reason not any more\n"
	"profile clash\n"
	"title clash\n"
	"include d-1\n"
	"require GONE\n"
	"    reason wants it on\n"
	"    source https://example.org/c\n";

static size_t count_key(const prof_set *s, const char *key)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->reqs[i]->key, key))
			n++;
	return n;
}

static void test_resolve(tstate *ts)
{
	kf_diags d = KF_DIAGS_INIT;
	prof_db *db = prof_db_new();
	int rc = prof_db_add_text(db, "t.kfit", db_text, strlen(db_text), &d);
	check(ts, rc == 0 && d.nerr == 0 && prof_db_count(db) == 4 && prof_db_nrenames(db) == 1,
	      "resolve/parse", d.n ? d.v[0].msg : NULL);

	long param;
	const prof_profile *p = prof_db_find(db, "tpl-123", &param, NULL);
	check(ts, p && param == 123 && !strcmp(p->name, "tpl-N"), "resolve/template-find", NULL);
	check(ts, prof_db_find(db, "tpl-99", &param, NULL) == NULL, "resolve/template-range", NULL);

	const char *n1[] = {"d-1"};
	prof_set *s = prof_flatten(db, n1, 1, &d);
	check(ts, s && s->n == 5 && count_key(s, "T_ALL") == 1 && count_key(s, "T_NEW") == 0 &&
			  s->initramfs == PROF_INITRAMFS_NO && !strcmp(s->init, "tpl-150"),
	      "resolve/slot-template", NULL);
	if (s) {
		const prof_req *r = NULL;
		for (size_t i = 0; i < s->n; i++)
			if (!strcmp(s->reqs[i]->key, "NEW_A"))
				r = s->reqs[i];
		check(ts, r && !strcmp(r->alts[0].sym, "OLD_A") && r->nchain == 1 &&
				  !strcmp(r->chain[0], "d-1") && r->loc.line == 23 && r->loc.col == 1,
		      "resolve/origin-and-key", NULL);
		const prof_req *t = NULL;
		for (size_t i = 0; i < s->n; i++)
			if (!strcmp(s->reqs[i]->key, "T_ALL"))
				t = s->reqs[i];
		check(ts, t && t->nchain == 2 && !strcmp(t->chain[1], "tpl-150") &&
				  !strcmp(t->profile, "tpl-150"),
		      "resolve/chain-through-slot", NULL);
	}
	prof_set_free(s);

	const char *n2[] = {"d-2"};
	s = prof_flatten(db, n2, 1, &d);
	check(ts, s && count_key(s, "GONE") == 0 && count_key(s, "T_NEW") == 1 && count_key(s, "T_ALL") == 1 &&
			  !strcmp(s->init, "tpl-250"),
	      "resolve/inherit-drop-slot-replaced", NULL);
	prof_set_free(s);

	kf_diags cd = KF_DIAGS_INIT;
	const char *n3[] = {"clash"};
	s = prof_flatten(db, n3, 1, &cd);
	check(ts, !s && cd.nerr == 1 && strstr(cd.v[0].msg, "conflicts with") && cd.v[0].line == 42,
	      "resolve/conflict-names-both", cd.n ? cd.v[0].msg : NULL);
	kf_diags_release(&cd);

	check(ts, !strcmp(prof_sym_for_kver(db, "NEW_A", KF_KVER(4, 9, 0)), "OLD_A") &&
			  !strcmp(prof_sym_for_kver(db, "OLD_A", KF_KVER(6, 1, 0)), "NEW_A") &&
			  !strcmp(prof_sym_newest(db, "OLD_A"), "NEW_A"),
	      "resolve/renames", NULL);

	/* check: ROOT=m with initramfs no is unmet; OLD_A under its new name */
	const char cfg_text[] = "# Linux/x86 6.1.10 Kernel Configuration\nCONFIG_X86_64=y\n"
				"CONFIG_ROOT=m\nCONFIG_NEW_A=y\nCONFIG_T_ALL=y\n";
	kf_dotconfig *c = kf_dotconfig_parse("c", cfg_text, strlen(cfg_text), &d);
	s = prof_flatten(db, n1, 1, &d);
	if (s && c) {
		prof_result *res = NULL;
		prof_check_opts o = {kf_dotconfig_kver(c), kf_dotconfig_arch(c), PROF_INITRAMFS_UNKNOWN};
		size_t unmet = prof_check(db, s, c, &o, &res);
		size_t met = 0;
		for (size_t i = 0; i < s->n; i++)
			met += res[i].outcome == PROF_MET;
		check(ts, unmet == 1 && met == 4, "check/boot-without-initramfs", NULL);
		free(res);
		o.initramfs = PROF_INITRAMFS_YES;
		unmet = prof_check(db, s, c, &o, &res);
		check(ts, unmet == 0, "check/boot-with-initramfs", NULL);
		free(res);
	} else {
		check(ts, false, "check/setup", NULL);
	}
	prof_set_free(s);
	kf_dotconfig_free(c);

	/* a cycle */
	const char cyc[] = "profile a\ntitle a\ninclude b\nprofile b\ntitle b\ninclude a\n";
	prof_db *db2 = prof_db_new();
	kf_diags d2 = KF_DIAGS_INIT;
	prof_db_add_text(db2, "c.kfit", cyc, strlen(cyc), &d2);
	const char *na[] = {"a"};
	s = prof_flatten(db2, na, 1, &d2);
	check(ts, !s && d2.nerr == 1 && strstr(d2.v[0].msg, "include cycle: a -> b -> a") && d2.v[0].line == 6,
	      "resolve/cycle", d2.n ? d2.v[0].msg : NULL);
	prof_db_free(db2);
	kf_diags_release(&d2);

	prof_db_free(db);
	kf_diags_release(&d);
}

/* Group alternatives: how a line parses (its expression as printed, the
 * group of each alternative) and whether configs meet it. */
static void test_groups(tstate *ts)
{
	static const struct {
		const char *expr;    /* as written after `require` */
		const char *printed; /* prof_req_expr */
		const char *groups;  /* group of each alternative */
		const char *cfg;     /* CONFIG_ lines */
		prof_outcome want;   /* check's answer */
	} cases[] = {
		{"A || (B && C)", "A || (B && C)", "011", "CONFIG_A=y\n", PROF_MET},
		{"A || (B && C)", "A || (B && C)", "011", "CONFIG_B=y\nCONFIG_C=m\n", PROF_MET},
		{"A || (B && C)", "A || (B && C)", "011", "CONFIG_B=y\n", PROF_UNMET},
		{"A || B && C", "A || (B && C)", "011", "CONFIG_C=y\n", PROF_UNMET},
		{"(A && B) || (C && D)", "(A && B) || (C && D)", "0011", "CONFIG_A=y\nCONFIG_D=y\n", PROF_UNMET},
		{"(A && B) || (C && D)", "(A && B) || (C && D)", "0011", "CONFIG_C=y\nCONFIG_D=y\n", PROF_MET},
		{"A && B=n", "A && B=n", "00", "CONFIG_A=y\n", PROF_MET},
		{"A && B=n", "A && B=n", "00", "CONFIG_A=y\nCONFIG_B=y\n", PROF_UNMET},
		{"A || B", "A || B", "01", "CONFIG_B=m\n", PROF_MET},
		{"(A) || B", "A || B", "01", "CONFIG_A=y\n", PROF_MET},
		{"L contains x && A", "L contains x && A", "00", "CONFIG_L=\"y,x\"\nCONFIG_A=y\n", PROF_MET},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[512], cfg[256], name[64];
		snprintf(text, sizeof(text),
			 "profile g\ntitle g\nkind feature\nrequire %s\n    reason r\n"
			 "    source https://example.org/\n", cases[i].expr);
		snprintf(cfg, sizeof(cfg), "# Linux/x86 6.1.0 Kernel Configuration\n%s", cases[i].cfg);
		snprintf(name, sizeof(name), "groups/%zu %s", i, cases[i].expr);
		kf_diags d = KF_DIAGS_INIT;
		prof_db *db = prof_db_new();
		prof_db_add_text(db, "g.kfit", text, strlen(text), &d);
		const char *n[] = {"g"};
		prof_set *s = d.nerr ? NULL : prof_flatten(db, n, 1, &d);
		kf_dotconfig *c = kf_dotconfig_parse("c", cfg, strlen(cfg), &d);
		bool ok = s && c && s->n == 1;
		if (ok) {
			const prof_req *r = s->reqs[0];
			ok = !strcmp(prof_req_expr(s->arena, r), cases[i].printed) &&
			     r->nalts == strlen(cases[i].groups);
			for (size_t k = 0; ok && k < r->nalts; k++)
				ok = r->alts[k].group == (unsigned)(cases[i].groups[k] - '0');
			prof_result *res = NULL;
			prof_check_opts o = {KF_KVER(6, 1, 0), "x86_64", PROF_INITRAMFS_YES};
			prof_check(db, s, c, &o, &res);
			ok = ok && res[0].outcome == cases[i].want;
			free(res);
		}
		check(ts, ok, name, d.n ? d.v[0].msg : NULL);
		prof_set_free(s);
		kf_dotconfig_free(c);
		prof_db_free(db);
		kf_diags_release(&d);
	}
}

/* A tree for prof_lint: the symbols in ctx (a NULL-terminated list). */
static bool fake_exists(void *ctx, const char *sym)
{
	for (const char *const *p = ctx; *p; p++)
		if (!strcmp(*p, sym))
			return true;
	return false;
}

static void test_lint(tstate *ts)
{
	static const char text[] =
		"rename OLD_A NEW_A kernel>=4.18.0\n"
		"    reason renamed\n"
		"    source https://example.org/r\n"
		"profile f\n"
		"title f\n"
		"require NEW_A\n"
		"    reason a\n"
		"    source https://example.org/f\n"
		"require GONE=n\n"
		"    reason off\n"
		"    source https://example.org/f\n"
		"require ONLY_OLD kernel<5.0.0\n"
		"    reason old kernels\n"
		"    source https://example.org/f\n"
		"require NOWHERE\n"
		"    reason missing\n"
		"    source https://example.org/f\n";
	kf_diags d = KF_DIAGS_INIT;
	prof_db *db = prof_db_new();
	prof_db_add_text(db, "l.kfit", text, strlen(text), &d);
	const char *old_tree[] = {"OLD_A", "NOWHERE", "ONLY_OLD", NULL};
	const char *new_tree[] = {"NEW_A", NULL};
	prof_lint_tree trees[2] = {
		{"old", KF_KVER(4, 9, 0), "x86_64", fake_exists, old_tree, NULL, NULL},
		{"new", KF_KVER(6, 1, 0), "x86_64", fake_exists, new_tree, NULL, NULL},
	};
	size_t n = prof_lint(db, trees, 2, &d);
	/* only NOWHERE in the new tree: renames resolve, =n holds, ranges skip */
	check(ts, n == 1 && d.nerr == 1 && strstr(d.v[0].msg, "NOWHERE does not exist in new (6.1.0)"),
	      "lint/callback-trees", d.n ? d.v[0].msg : NULL);
	prof_db_free(db);
	kf_diags_release(&d);
}

int main(void)
{
	tstate ts = {0};
	test_kver(&ts);
	test_dotconfig(&ts);
	test_resolve(&ts);
	test_groups(&ts);
	test_lint(&ts);
	return ts.failed ? 1 : 0;
}

/*
 * solve.c - the resolver and the Kconfig engine on small synthetic trees,
 * as data: every case in tests/unit/solve.test and engine.test is a
 * Kconfig file, optional profiles, what to run and the exact output
 * expected (jq's .test files are the model).  No kernel tree is needed: each case's tree is written
 * into a scratch directory (a Kconfig and a Makefile with the version)
 * and goes through the same stages as `kfit generate`
 * (lib/generate/pipeline.c): tree, requirements, load, base, solve.
 *
 * A .test file is a list of cases.  Lines before the first case and
 * lines starting with "##" (anywhere) are comments.  A case:
 *
 *   %case NAME
 *   %version 6.12            kernel version of the tree (default 6.12;
 *                            before 6.11 the V1 semantics apply)
 *   %kconfig                 the Kconfig text follows
 *   %profiles                profile text follows (file "test.kfit")
 *   %config                  a .config follows (base=config starts from it)
 *   %run generate [base=B] [initramfs=yes|no] [profiles=A,B]
 *                            solve from base B (allnoconfig by default)
 *                            for the named profiles (default: all in
 *                            test.kfit); prints "exit N", then every
 *                            change as --explain does, every unmet
 *                            requirement and skipped recommendation
 *   %run values [base=B] SYM...
 *                            compute base B (allnoconfig, tinyconfig,
 *                            config: %config read as defconfig does) and
 *                            print SYM=value for each (value "absent"
 *                            when the .config does not write it)
 *   %expect                  the exact output follows, up to the next
 *                            %-line or the end
 *
 * Prints "ok NAME" / "not ok NAME" with a diff-like detail per case.
 */
#include "kfit/pipeline.h"
#include "kfit/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct tcase {
	char *name;          /* %case */
	char *version;       /* %version */
	kf_strbuf kconfig;   /* %kconfig text */
	kf_strbuf profiles;  /* %profiles text */
	kf_strbuf config;    /* %config text */
	char *run;           /* %run line */
	kf_strbuf expect;    /* %expect text */
	int line;            /* where %case is */
} tcase;

static void tcase_release(tcase *c)
{
	free(c->name);
	free(c->version);
	free(c->run);
	kf_strbuf_release(&c->kconfig);
	kf_strbuf_release(&c->profiles);
	kf_strbuf_release(&c->config);
	kf_strbuf_release(&c->expect);
	memset(c, 0, sizeof(*c));
}

static char *word_value(const char *run, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = run; (p = strstr(p, key)); p += n)
		if ((p == run || p[-1] == ' ') && p[n] == '=') {
			const char *v = p + n + 1;
			return kf_xstrndup(v, strcspn(v, " "));
		}
	return NULL;
}

static int write_tree(const char *dir, const tcase *c)
{
	unsigned major = 6, minor = 12;
	if (c->version && sscanf(c->version, "%u.%u", &major, &minor) != 2)
		return -1;
	kf_diags d = KF_DIAGS_INIT;
	char *mk = kf_xasprintf("VERSION = %u\nPATCHLEVEL = %u\nSUBLEVEL = 0\nEXTRAVERSION =\n",
				major, minor);
	char *p1 = kf_xasprintf("%s/Makefile", dir), *p2 = kf_xasprintf("%s/Kconfig", dir);
	char *sk = kf_xasprintf("%s/scripts/kconfig", dir);
	kf_mkdir_p(sk, 0755);
	char *p3 = kf_xasprintf("%s/base.config", dir);
	int rc = kf_write_file_atomic(p1, mk, strlen(mk), false, &d) |
		 kf_write_file_atomic(p2, kf_strbuf_str(&c->kconfig), c->kconfig.len, false, &d) |
		 kf_write_file_atomic(p3, kf_strbuf_str(&c->config), c->config.len, false, &d);
	free(p3);
	free(mk);
	free(p1);
	free(p2);
	free(sk);
	kf_diags_release(&d);
	return rc;
}

/* Errors only: the engine's warnings are conf's text, judged by the
 * compatibility suite against the kernel's own conf. */
static void diags_text(const kf_diags *d, kf_strbuf *out)
{
	for (size_t i = 0; i < d->n; i++) {
		if (d->v[i].sev != KF_ERROR)
			continue;
		kf_diag_format(&d->v[i], out);
		kf_strbuf_addch(out, '\n');
	}
}

/* Run one case into out; the scratch tree is dir. */
static void run_case(const tcase *c, const char *dir, kf_strbuf *out)
{
	kf_diags d = KF_DIAGS_INIT;
	prof_db *db = prof_db_new();
	const char **names = NULL;
	size_t nnames = 0;
	char *base = word_value(c->run, "base");
	char *ir = word_value(c->run, "initramfs");
	char *plist = word_value(c->run, "profiles");
	bool generate = !strncmp(c->run, "generate", 8);
	if (c->profiles.len &&
	    prof_db_add_text(db, "test.kfit", c->profiles.buf, c->profiles.len, &d) < 0)
		goto out;
	if (plist) {
		for (char *s = strtok(plist, ","); s; s = strtok(NULL, ","))
			names = kf_xrealloc(names, (nnames + 1) * sizeof(*names)),
			names[nnames++] = s;
	} else {
		nnames = prof_db_file_profiles(db, "test.kfit", &names);
		names = nnames ? names : NULL;
		if (nnames) {
			const char **copy = kf_xcalloc(nnames, sizeof(*copy));
			memcpy(copy, names, nnames * sizeof(*copy));
			names = copy;
		}
	}
	char *dest = kf_xasprintf("%s/.config", dir);
	char *basefile = kf_xasprintf("%s/base.config", dir);
	kf_pipeline_opts o = {
		.tree = dir,
		.arch = "x86_64",
		.db = db,
		.names = names,
		.nnames = nnames,
		.initramfs = !ir ? PROF_INITRAMFS_UNKNOWN
			     : !strcmp(ir, "yes") ? PROF_INITRAMFS_YES : PROF_INITRAMFS_NO,
		.base = !base ? "allnoconfig" : !strcmp(base, "config") ? basefile : base,
		.output = dest,
	};
	kf_pipeline p;
	kf_pipeline_init(&p, &o);
	if (kf_pipeline_tree(&p, &d) < 0 || kf_pipeline_requirements(&p, &d) < 0 ||
	    kf_pipeline_load(&p, &d) < 0 || kf_pipeline_base(&p, &d) < 0)
		goto done;
	if (generate) {
		int g = kf_pipeline_solve(&p, &d);
		kf_strbuf_addf(out, "exit %d\n", g);
		for (size_t i = 0; g >= 0 && i < p.res.nchanges; i++) {
			const kf_change *ch = &p.res.changes[i];
			kf_strbuf_addf(out, "CONFIG_%s: %s -> %s  [%s] %s\n", ch->sym, ch->from,
				       ch->to, ch->group, ch->why);
		}
		for (size_t i = 0; g >= 0 && i < p.res.nunmet; i++)
			kf_strbuf_addf(out, "unmet %s: %s\n",
				       prof_req_expr(p.set->arena, p.res.unmet[i].req),
				       p.res.unmet[i].chain);
		for (size_t i = 0; g >= 0 && i < p.res.nskipped; i++)
			kf_strbuf_addf(out, "skipped %s: %s\n",
				       prof_req_expr(p.set->arena, p.res.skipped[i].req),
				       p.res.skipped[i].why);
		if (g >= 0)
			kf_strbuf_addf(out, "held %zu, not applicable %zu\n", p.res.applied,
				       p.res.notapplicable);
	} else {
		/* values SYM...: the words after the options */
		const char *w = c->run + strlen("values");
		while (*w) {
			w += strspn(w, " ");
			size_t n = strcspn(w, " ");
			if (!n)
				break;
			char *sym = kf_xstrndup(w, n);
			if (!strchr(sym, '=')) {
				const char *v = kf_sym_value(p.t, sym);
				kf_strbuf_addf(out, "%s=%s\n", sym, v ? v : "absent");
			}
			free(sym);
			w += n;
		}
	}
done:
	kf_pipeline_release(&p);
	free(dest);
	free(basefile);
out:
	diags_text(&d, out);
	kf_diags_release(&d);
	prof_db_free(db);
	free(names);
	free(base);
	free(ir);
	free(plist);
}

/* Parse the file into cases and run each. */
static int run_file(const char *path, const char *dir, int *failed)
{
	kf_strbuf text = KF_STRBUF_INIT;
	kf_diags d = KF_DIAGS_INIT;
	if (kf_read_file(path, &text, &d) < 0) {
		printf("not ok %s\n  cannot read it\n", path);
		kf_diags_release(&d);
		(*failed)++;
		return -1;
	}
	tcase c;
	memset(&c, 0, sizeof(c));
	kf_strbuf *section = NULL;
	int lineno = 0;
	const char *p = kf_strbuf_str(&text);
	for (;;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		bool end = !*p;
		lineno++;
		if (end || !strncmp(p, "%case ", 6)) {
			if (c.name) {
				kf_strbuf got = KF_STRBUF_INIT;
				char *sub = kf_xasprintf("%s/%s", dir, c.name);
				kf_mkdir_p(sub, 0755);
				if (!c.run || write_tree(sub, &c) < 0)
					kf_strbuf_addstr(&got, "bad case: no %run or a bad %version\n");
				else
					run_case(&c, sub, &got);
				/* the blank lines that separate cases are not expected */
				while (c.expect.len >= 2 && c.expect.buf[c.expect.len - 1] == '\n' &&
				       c.expect.buf[c.expect.len - 2] == '\n')
					c.expect.buf[--c.expect.len] = 0;
				bool ok = !strcmp(kf_strbuf_str(&got), kf_strbuf_str(&c.expect));
				printf("%s %s\n", ok ? "ok" : "not ok", c.name);
				if (!ok) {
					printf("  %s:%d: expected:\n", path, c.line);
					for (const char *q = kf_strbuf_str(&c.expect); *q;) {
						size_t l = strcspn(q, "\n");
						printf("  | %.*s\n", (int)l, q);
						q += l + (q[l] == '\n');
					}
					printf("  got:\n");
					for (const char *q = kf_strbuf_str(&got); *q;) {
						size_t l = strcspn(q, "\n");
						printf("  | %.*s\n", (int)l, q);
						q += l + (q[l] == '\n');
					}
					(*failed)++;
				}
				kf_strbuf_release(&got);
				free(sub);
			}
			tcase_release(&c);
			if (end)
				break;
			c.name = kf_xstrndup(p + 6, len - 6);
			c.line = lineno;
			section = NULL;
		} else if (!strncmp(p, "##", 2)) {
			/* comment */
		} else if (c.name && !strncmp(p, "%version ", 9)) {
			c.version = kf_xstrndup(p + 9, len - 9);
		} else if (c.name && !strncmp(p, "%run ", 5)) {
			c.run = kf_xstrndup(p + 5, len - 5);
			section = NULL;
		} else if (c.name && len == 8 && !strncmp(p, "%kconfig", 8)) {
			section = &c.kconfig;
		} else if (c.name && len == 9 && !strncmp(p, "%profiles", 9)) {
			section = &c.profiles;
		} else if (c.name && len == 7 && !strncmp(p, "%config", 7)) {
			section = &c.config;
		} else if (c.name && len == 7 && !strncmp(p, "%expect", 7)) {
			section = &c.expect;
		} else if (section) {
			kf_strbuf_add(section, p, len);
			kf_strbuf_addch(section, '\n');
		}
		p += len + (nl != NULL);
	}
	kf_strbuf_release(&text);
	kf_diags_release(&d);
	return 0;
}

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/kfit-solve-test.XXXXXX";
	char *dir = mkdtemp(tmpl);
	if (!dir) {
		perror("mkdtemp");
		return 2;
	}
	/* nothing from an earlier run: a fresh cache in the scratch dir */
	char *cache = kf_xasprintf("%s/cache", dir);
	setenv("KFIT_CACHE_DIR", cache, 1);
	int failed = 0;
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			run_file(argv[i], dir, &failed);
	} else {
		run_file("tests/unit/solve.test", dir, &failed);
		run_file("tests/unit/engine.test", dir, &failed);
	}
	kf_remove_tree(dir);
	free(cache);
	return failed ? 1 : 0;
}

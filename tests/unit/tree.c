/*
 * tree.c - unit tests for lib/tree/tree.c: kernel tree resolution order, tarball
 * extraction into the cache, re-extraction on a new package, stale temp
 * dirs, the flock that makes two concurrent extractions safe, and
 * agreement with scripts/kernel-tree.sh on the cache layout.
 *
 * Prints "ok NAME" / "not ok NAME" (+ "  ..." detail lines) per case.
 */
#include "kfit/tree.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

/* What the test run shares: the scratch dir and the failure count. */
typedef struct tctx {
	char *root;     /* scratch directory, removed at the end */
	int failed;     /* cases that failed */
	int progressed; /* extractions reported since the last reset */
} tctx;

static void check(tctx *t, bool ok, const char *name, const char *fmt, ...)
	KF_PRINTF(4, 5);

static void check(tctx *t, bool ok, const char *name, const char *fmt, ...)
{
	printf("%s %s\n", ok ? "ok" : "not ok", name);
	if (!ok) {
		va_list ap;
		va_start(ap, fmt);
		fputs("  ", stdout);
		vprintf(fmt, ap);
		fputc('\n', stdout);
		va_end(ap);
		t->failed++;
	}
	fflush(stdout);
}

/* Counts extractions (a process that waits for another's lock says so
 * too: not counted). */
static void on_progress(const char *msg, void *ctx)
{
	tctx *t = ctx;
	if (!strncmp(msg, "extracting ", 11))
		t->progressed++;
}

static void sh(const char *fmt, ...) KF_PRINTF(1, 2);

/* Run a shell command for setting up fixtures; abort the test on failure. */
static void sh(const char *fmt, ...)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	kf_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	int rc = system(kf_strbuf_str(&sb));
	if (rc != 0) {
		printf("not ok setup\n  command failed (%d): %s\n", rc,
		       kf_strbuf_str(&sb));
		exit(1);
	}
	kf_strbuf_release(&sb);
}

/* Make a fake kernel tree at path with the given version numbers. */
static void fake_tree(const char *path, const char *ver, const char *pl,
		      const char *sl, const char *extra)
{
	sh("mkdir -p '%s/scripts/kconfig' && : > '%s/Kconfig' && "
	   "printf '# SPDX\\nVERSION = %s\\nPATCHLEVEL = %s\\nSUBLEVEL = %s\\n"
	   "EXTRAVERSION =%s\\nNAME = Test\\n' > '%s/Makefile'",
	   path, path, ver, pl, sl, extra, path);
}

static const char *last_msg(const kf_diags *d)
{
	return d->n ? d->v[d->n - 1].msg : "(no diagnostic)";
}

static bool str_eq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static void test_kernelversion(tctx *t)
{
	kf_diags d = KF_DIAGS_INIT;
	char *p = kf_xasprintf("%s/kv1", t->root);
	fake_tree(p, "6", "1", "192", "");
	char *v = kf_tree_kernelversion(p, &d);
	check(t, str_eq(v, "6.1.192"), "kernelversion-release", "got '%s'",
	      v ? v : "(null)");
	free(v);
	free(p);

	p = kf_xasprintf("%s/kv2", t->root);
	fake_tree(p, "6", "12", "0", " -rc3");
	v = kf_tree_kernelversion(p, &d);
	check(t, str_eq(v, "6.12.0-rc3"), "kernelversion-extraversion",
	      "got '%s'", v ? v : "(null)");
	free(v);
	free(p);

	p = kf_xasprintf("%s/kv3", t->root);
	sh("mkdir -p '%s' && echo 'all:' > '%s/Makefile'", p, p);
	v = kf_tree_kernelversion(p, &d);
	check(t, !v && d.nerr == 1 && strstr(last_msg(&d), "no VERSION"),
	      "kernelversion-not-kernel", "got '%s' / %s", v ? v : "(null)",
	      last_msg(&d));
	free(v);
	free(p);
	kf_diags_release(&d);
}

static void test_versions(tctx *t)
{
	check(t, kf_version_cmp("6.12", "6.1") > 0, "version-cmp-numeric",
	      "6.12 should be newer than 6.1");
	check(t, kf_version_cmp("6.1", "6.1") == 0, "version-cmp-equal", "6.1 should equal 6.1");
	check(t, kf_version_cmp("5.10", "5.9") > 0 &&
			 kf_version_cmp("6.1", "6.1.5") < 0 &&
			 kf_version_cmp("10.0", "9.99") > 0,
	      "version-cmp-misc", "ordering wrong");

	char *src = kf_xasprintf("%s/src", t->root);
	sh("mkdir -p '%s' && cd '%s' && : > linux-source-6.1.tar.xz && "
	   ": > linux-source-6.12.tar.xz && : > linux-source-5.10.tar.bz2 && "
	   ": > linux-source-6.9.tar.gz && : > linux-source-6.12.tar && "
	   ": > linux-headers-9.0.tar.xz && : > linux-source-notes.txt",
	   src, src);
	char *n = kf_tree_newest_tarball(src);
	char *want = kf_xasprintf("%s/linux-source-6.12.tar.xz", src);
	check(t, str_eq(n, want), "newest-tarball", "got '%s', want '%s'",
	      n ? n : "(null)", want);
	free(n);
	free(want);
	n = kf_tree_newest_tarball("/nonexistent/dir");
	check(t, n == NULL, "newest-tarball-nodir", "got '%s'", n);
	free(n);

	/* a second directory (CACHE/debs/usr/src): 7.3 beats 6.12; the same
	 * version in both is taken from the first; missing dirs are skipped */
	char *debs = kf_xasprintf("%s/debs", t->root);
	sh("mkdir -p '%s' && cd '%s' && : > linux-source-5.10.tar.xz && "
	   ": > linux-source-6.12.tar.xz",
	   debs, debs);
	const char *dirs[] = {src, "/nonexistent/dir", debs, NULL};
	n = kf_tree_newest_tarball_in(dirs);
	want = kf_xasprintf("%s/linux-source-6.12.tar.xz", src);
	check(t, str_eq(n, want), "newest-tarball-tie-first-dir",
	      "got '%s', want '%s'", n ? n : "(null)", want);
	free(n);
	free(want);
	sh("cd '%s' && : > linux-source-7.3.tar.xz", debs);
	n = kf_tree_newest_tarball_in(dirs);
	want = kf_xasprintf("%s/linux-source-7.3.tar.xz", debs);
	check(t, str_eq(n, want), "newest-tarball-second-dir",
	      "got '%s', want '%s'", n ? n : "(null)", want);
	free(n);
	free(want);
	check(t, kf_version_cmp("7.3", "6.12") > 0 &&
			 kf_version_cmp("6.12", "6.1") > 0 &&
			 kf_version_cmp("6.1", "5.10") > 0,
	      "version-cmp-7.3-6.12-6.1-5.10", "ordering wrong");
	free(debs);
	free(src);
}

/* Build srcdir/NAME.tar.gz holding NAME/ as a fake kernel tree. */
static char *fake_tarball(tctx *t, const char *srcdir, const char *name,
			  const char *pl)
{
	char *stage = kf_xasprintf("%s/stage-%s", t->root, name);
	char *top = kf_xasprintf("%s/%s", stage, name);
	fake_tree(top, "6", pl, "7", "");
	sh("mkdir -p '%s' && tar -czf '%s/%s.tar.gz' -C '%s' '%s'", srcdir, srcdir,
	   name, stage, name);
	free(top);
	free(stage);
	return kf_xasprintf("%s/%s.tar.gz", srcdir, name);
}

static void test_resolution(tctx *t)
{
	kf_diags d = KF_DIAGS_INIT;
	char *cache = kf_xasprintf("%s/cache", t->root);
	char *src = kf_xasprintf("%s/usr-src", t->root);
	char *ktree = kf_xasprintf("%s/k", t->root);
	char *cwdtree = kf_xasprintf("%s/cwd", t->root);
	char *envtree = kf_xasprintf("%s/env", t->root);
	char *plain = kf_xasprintf("%s/plain", t->root);
	fake_tree(ktree, "6", "1", "1", "");
	fake_tree(cwdtree, "6", "1", "2", "");
	fake_tree(envtree, "6", "1", "3", "");
	sh("mkdir -p '%s'", plain);
	char *tar61 = fake_tarball(t, src, "linux-source-6.1", "1");
	char *tar612 = fake_tarball(t, src, "linux-source-6.12", "12");

	kf_tree_search s = {.explicit_path = ktree,
			    .cwd = cwdtree,
			    .env_kernel = envtree,
			    .src_dirs = {src},
			    .cache_dir = cache,
			    .progress = on_progress,
			    .ctx = t};
	char *r = kf_tree_find(&s, &d);
	check(t, str_eq(r, ktree), "resolve-explicit-first", "got '%s'",
	      r ? r : last_msg(&d));
	free(r);

	s.explicit_path = NULL;
	r = kf_tree_find(&s, &d);
	check(t, str_eq(r, cwdtree), "resolve-cwd-second", "got '%s'",
	      r ? r : last_msg(&d));
	free(r);

	s.cwd = plain;
	r = kf_tree_find(&s, &d);
	check(t, str_eq(r, envtree), "resolve-env-third", "got '%s'",
	      r ? r : last_msg(&d));
	free(r);

	s.env_kernel = NULL;
	t->progressed = 0;
	r = kf_tree_find(&s, &d);
	char *kv = r ? kf_tree_kernelversion(r, &d) : NULL;
	check(t, r && strstr(r, "/trees/linux-source-6.12-") &&
			 str_eq(strrchr(r, '/'), "/linux-source-6.12") &&
			 str_eq(kv, "6.12.7") && t->progressed == 1,
	      "resolve-newest-usr-src", "got '%s' version '%s' progress %d",
	      r ? r : last_msg(&d), kv ? kv : "(null)", t->progressed);
	free(kv);

	/* the second time it comes from the cache, without extracting */
	t->progressed = 0;
	char *r2 = kf_tree_find(&s, &d);
	check(t, str_eq(r, r2) && t->progressed == 0, "resolve-cached",
	      "got '%s' then '%s', progress %d", r, r2, t->progressed);
	free(r2);

	/* a new package version (new mtime) is extracted afresh */
	struct timeval tv[2] = {{1000000000, 0}, {1000000000, 0}};
	utimes(tar612, tv);
	t->progressed = 0;
	r2 = kf_tree_find(&s, &d);
	check(t, r2 && !str_eq(r, r2) && t->progressed == 1,
	      "resolve-new-package-reextracts", "got '%s' then '%s', progress %d",
	      r, r2 ? r2 : last_msg(&d), t->progressed);
	free(r2);
	free(r);

	/* a stale temp dir from a killed run is removed */
	utimes(tar61, tv);
	s.env_kernel = tar61;
	struct stat st;
	stat(tar61, &st);
	char *id = kf_xasprintf("%lld:%lld:%llu", (long long)st.st_size,
				(long long)st.st_mtime,
				(unsigned long long)st.st_ino);
	char *tmp = kf_xasprintf("%s/trees/linux-source-6.1-%08x.tmp", cache,
				 kf_hash_str(id));
	sh("mkdir -p '%s/junk/deeper' && chmod 555 '%s/junk'", tmp, tmp);
	r = kf_tree_find(&s, &d);
	check(t, r && strstr(r, "/trees/linux-source-6.1-") && !kf_exists(tmp) &&
			 kf_tree_is_kernel(r),
	      "resolve-env-tarball-stale-tmp", "got '%s', tmp %s",
	      r ? r : last_msg(&d), kf_exists(tmp) ? "left" : "gone");
	free(r);
	free(tmp);
	free(id);

	/* the same layout as scripts/kernel-tree.sh */
	if (kf_exists("scripts/kernel-tree.sh")) {
		s.env_kernel = NULL;
		r = kf_tree_find(&s, &d);
		char *cmd = kf_xasprintf("KFIT_CACHE_DIR='%s' scripts/kernel-tree.sh '%s'",
					 cache, tar612);
		FILE *f = popen(cmd, "r");
		char line[4096] = "";
		if (f) {
			if (!fgets(line, sizeof(line), f))
				line[0] = 0;
			pclose(f);
		}
		line[strcspn(line, "\n")] = 0;
		check(t, str_eq(r, line), "same-layout-as-kernel-tree-sh",
		      "lib: '%s', script: '%s'", r ? r : last_msg(&d), line);
		free(cmd);
		free(r);
	}

	/* errors */
	kf_diags_release(&d);
	s.explicit_path = plain;
	r = kf_tree_find(&s, &d);
	check(t, !r && d.nerr == 1 && strstr(last_msg(&d), "-k: not a kernel tree"),
	      "resolve-explicit-not-tree", "got '%s' / %s", r, last_msg(&d));
	free(r);

	kf_diags_release(&d);
	s.explicit_path = NULL;
	s.env_kernel = "/nonexistent/kernel";
	r = kf_tree_find(&s, &d);
	check(t, !r && d.nerr == 1 && strstr(last_msg(&d), "KFIT_KERNEL: cannot access"),
	      "resolve-env-missing", "got '%s' / %s", r, last_msg(&d));
	free(r);

	kf_diags_release(&d);
	char *bad = kf_xasprintf("%s/bad.tar.gz", t->root);
	sh("echo garbage > '%s'", bad);
	s.env_kernel = bad;
	r = kf_tree_find(&s, &d);
	check(t, !r && d.nerr == 1 && strstr(last_msg(&d), "cannot extract"),
	      "resolve-corrupt-tarball", "got '%s' / %s", r, last_msg(&d));
	free(r);
	free(bad);

	kf_diags_release(&d);
	s.env_kernel = NULL;
	s.src_dirs[0] = plain;
	r = kf_tree_find(&s, &d);
	check(t, !r && d.nerr == 1 &&
			 str_eq(last_msg(&d),
				"no kernel tree: give -k DIR, run inside a kernel tree, "
				"set KFIT_KERNEL, or install one with 'apt-get install "
				"linux-source-6.12'"),
	      "resolve-none-error", "got '%s' / %s", r, last_msg(&d));
	free(r);

	kf_diags_release(&d);
	free(cache);
	free(src);
	free(ktree);
	free(cwdtree);
	free(envtree);
	free(plain);
	free(tar61);
	free(tar612);
}

/*
 * Two processes extract the same tarball at once.  A slow tar (a wrapper
 * first in PATH) keeps the first one inside the lock long enough that the
 * second must wait; it must then use the finished tree, not extract again.
 */
static void test_concurrent(tctx *t)
{
	char *cache = kf_xasprintf("%s/cache-conc", t->root);
	char *src = kf_xasprintf("%s/src-conc", t->root);
	char *bin = kf_xasprintf("%s/slowbin", t->root);
	char *tarball = fake_tarball(t, src, "linux-source-6.3", "3");
	sh("mkdir -p '%s' && printf '#!/bin/sh\\nsleep 1\\nexec %s \"$@\"\\n' > "
	   "'%s/tar' && chmod +x '%s/tar'",
	   bin, "/bin/tar", bin, bin);
	char *path = kf_xasprintf("%s:%s", bin, getenv("PATH") ? getenv("PATH") : "");

	int pipes[2][2];
	pid_t pids[2];
	fflush(stdout);
	for (int i = 0; i < 2; i++) {
		if (pipe(pipes[i]) < 0)
			abort();
		pids[i] = fork();
		if (pids[i] == 0) {
			close(pipes[i][0]);
			setenv("PATH", path, 1);
			tctx mine = *t;
			mine.progressed = 0;
			kf_diags d = KF_DIAGS_INIT;
			char *r = kf_tree_extract(tarball, cache, on_progress, &mine, &d);
			dprintf(pipes[i][1], "%d %s\n", mine.progressed,
				r ? r : last_msg(&d));
			_exit(r ? 0 : 1);
		}
		close(pipes[i][1]);
	}
	char out[2][4096];
	int ok = 1;
	for (int i = 0; i < 2; i++) {
		FILE *f = fdopen(pipes[i][0], "r");
		if (!f || !fgets(out[i], sizeof(out[i]), f))
			strcpy(out[i], "(nothing)\n");
		if (f)
			fclose(f);
		out[i][strcspn(out[i], "\n")] = 0;
		int status;
		waitpid(pids[i], &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			ok = 0;
	}
	int p0 = atoi(out[0]), p1 = atoi(out[1]);
	const char *r0 = strchr(out[0], ' ') ? strchr(out[0], ' ') + 1 : "";
	const char *r1 = strchr(out[1], ' ') ? strchr(out[1], ' ') + 1 : "";
	check(t, ok && p0 + p1 == 1 && str_eq(r0, r1) && kf_tree_is_kernel(r0),
	      "concurrent-extraction-locked",
	      "process 1: '%s', process 2: '%s' (want one extraction, same tree)",
	      out[0], out[1]);

	free(cache);
	free(src);
	free(bin);
	free(tarball);
	free(path);
}

int main(void)
{
	tctx t = {0};
	char tmpl[] = "/tmp/kfit-tree-test.XXXXXX";
	const char *base = getenv("TMPDIR");
	char *dir = base && *base ? kf_xasprintf("%s/kfit-tree-test.XXXXXX", base)
				  : kf_xstrdup(tmpl);
	if (!mkdtemp(dir)) {
		printf("not ok setup\n  mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	t.root = dir;
	test_kernelversion(&t);
	test_versions(&t);
	test_resolution(&t);
	test_concurrent(&t);
	sh("chmod -R u+rwx '%s' && rm -rf '%s'", t.root, t.root);
	free(dir);
	return t.failed ? 1 : 0;
}

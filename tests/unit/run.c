/*
 * run.c - unit tests for lib/util/run.c: kf_run captures standard output and
 * error apart or together, returns the exit status, 127 for a missing
 * program, 128 + SIGKILL with an error after a time limit (killing what
 * the command started too), honours cwd and env, stops reading (and so
 * ends an endless writer) at the byte limit when asked, reports the signal
 * that ended a command; kf_remove_tree removes a
 * tree without following a symbolic link out of it.
 *
 * Prints "ok NAME" / "not ok NAME" (+ "  ..." detail lines) per case.
 */
#include "kfit/run.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failed;

static void check(bool ok, const char *name, const char *detail)
{
	printf("%s %s\n", ok ? "ok" : "not ok", name);
	if (!ok) {
		printf("  %s\n", detail ? detail : "");
		failed++;
	}
}

static int sh(const char *script, kf_strbuf *out, kf_strbuf *err, int timeout_ms,
	      kf_diags *d)
{
	const char *argv[] = {"/bin/sh", "-c", script, NULL};
	kf_run_opts o = {.argv = argv, .out = out, .err = err, .timeout_ms = timeout_ms};
	return kf_run(&o, d);
}

/* line_fn: collect "[line]" per call */
static void collect_line(const char *line, void *ctx)
{
	kf_strbuf_addf((kf_strbuf *)ctx, "[%s]", line);
}

int main(void)
{
	kf_strbuf out = KF_STRBUF_INIT, err = KF_STRBUF_INIT;
	kf_diags d = KF_DIAGS_INIT;

	int rc = sh("echo out; echo err >&2; exit 3", &out, &err, 0, &d);
	check(rc == 3 && !strcmp(kf_strbuf_str(&out), "out\n") &&
		      !strcmp(kf_strbuf_str(&err), "err\n") && !d.n,
	      "status-and-streams-apart", kf_strbuf_str(&out));

	kf_strbuf_reset(&out);
	rc = sh("echo a; echo b >&2; echo c", &out, &out, 0, &d);
	check(rc == 0 && !strcmp(kf_strbuf_str(&out), "a\nb\nc\n"), "streams-together",
	      kf_strbuf_str(&out));

	kf_strbuf_reset(&out);
	rc = sh("head -c 100000 /dev/zero; echo tail >&2", &out, &err, 0, &d);
	check(rc == 0 && out.len == 100000, "large-output", NULL);

	kf_strbuf_reset(&out);
	const char *argv1[] = {"/bin/sh", "-c", "head -c 100000 /dev/zero", NULL};
	kf_run_opts lim = {.argv = argv1, .out = &out, .max = 10};
	rc = kf_run(&lim, &d);
	check(rc == 0 && out.len == 10, "max-kept", NULL);

	/* stop_at_max: a command writing forever ends (SIGPIPE, as under
	 * popen() + fread() + pclose()) instead of being drained forever */
	kf_strbuf_reset(&out);
	const char *argv_yes[] = {"yes", NULL};
	int sig = -1;
	bool timed_out = true;
	kf_run_opts cap = {.argv = argv_yes, .out = &out, .max = 4096,
			   .stop_at_max = true, .termsig = &sig, .timed_out = &timed_out};
	rc = kf_run(&cap, &d);
	check(out.len == 4096 && sig == SIGPIPE && !timed_out && rc == 128 + SIGPIPE,
	      "stop-at-max-ends-endless-output", NULL);

	const char *argv_kill[] = {"/bin/sh", "-c", "echo part; kill -9 $$", NULL};
	kf_strbuf_reset(&out);
	kf_run_opts killed = {.argv = argv_kill, .out = &out, .termsig = &sig};
	rc = kf_run(&killed, &d);
	check(sig == SIGKILL && !strcmp(kf_strbuf_str(&out), "part\n"), "termsig-reported",
	      kf_strbuf_str(&out));

	const char *argv2[] = {"kfit-no-such-program-here", NULL};
	kf_run_opts miss = {.argv = argv2};
	check(kf_run(&miss, &d) == 127, "missing-program-127", NULL);

	kf_strbuf_reset(&out);
	kf_diags_release(&d);
	/* the sleep is a child of the shell: the kill must reach it, or the
	 * pipe it holds would keep kf_run waiting for 30 s */
	rc = sh("sleep 30; echo late", &out, NULL, 200, &d);
	check(rc == 128 + 9 && d.nerr == 1 && !out.len, "timeout-kills-group", NULL);
	kf_diags_release(&d);

	rc = sh("exit 0", NULL, NULL, 5000, &d);
	check(rc == 0 && !d.n, "timeout-not-reached", NULL);

	char tmpl[] = "/tmp/kfit-run-test.XXXXXX";
	char *dir = mkdtemp(tmpl);
	kf_strbuf_reset(&out);
	const char *argv3[] = {"/bin/sh", "-c", "pwd; echo $KFIT_RUN_TEST", NULL};
	char *env[] = {"KFIT_RUN_TEST=x", "PATH=/usr/bin:/bin", NULL};
	kf_run_opts cw = {.argv = argv3, .cwd = dir, .env = env, .out = &out};
	rc = kf_run(&cw, &d);
	char *want = kf_xasprintf("%s\nx\n", dir);
	check(rc == 0 && !strcmp(kf_strbuf_str(&out), want), "cwd-and-env",
	      kf_strbuf_str(&out));
	free(want);

	/* a tree with a link out of it: the target must survive */
	char *outside = kf_xasprintf("%s-outside", dir);
	mkdir(outside, 0755);
	char *keep = kf_xasprintf("%s/keep", outside);
	FILE *f = fopen(keep, "w");
	if (f)
		fclose(f);
	char *sub = kf_xasprintf("%s/a/b", dir);
	kf_mkdir_p(sub, 0755);
	char *file = kf_xasprintf("%s/file", sub);
	f = fopen(file, "w");
	if (f)
		fclose(f);
	char *link = kf_xasprintf("%s/a/link", dir);
	if (symlink(outside, link) < 0)
		perror("symlink");
	rc = kf_remove_tree(dir);
	check(rc == 0 && !kf_exists(dir) && kf_exists(keep), "remove-tree", NULL);
	check(kf_remove_tree(dir) == 0, "remove-tree-missing", NULL);
	unlink(keep);
	rmdir(outside);
	free(outside);
	free(keep);
	free(sub);
	free(file);
	free(link);

	kf_strbuf_release(&out);
	kf_strbuf_release(&err);
	kf_diags_release(&d);
	/* line_fn sees every line of stdout as it comes, the last one
	 * without a newline too, also when out is NULL; stderr is apart */
	{
		kf_strbuf lines = KF_STRBUF_INIT;
		const char *argv[] = {"/bin/sh", "-c",
				      "printf 'a\\nbb\\n'; printf x >&2; sleep 0.1; printf 'c\\n\\nd'",
				      NULL};
		kf_run_opts o = {.argv = argv, .line_fn = collect_line, .line_ctx = &lines};
		rc = kf_run(&o, &d);
		check(rc == 0 && !strcmp(kf_strbuf_str(&lines), "[a][bb][c][][d]"), "line-fn",
		      kf_strbuf_str(&lines));
		kf_strbuf_release(&lines);
	}
	return failed ? 1 : 0;
}

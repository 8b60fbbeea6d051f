/*
 * kc_shell.c - $(shell,...) for the Kconfig preprocessor, with a result
 * cache.  A command runs under /bin/sh -c in a scratch directory (never in
 * the source tree: cc-option creates .tmp_$$ directories in the current
 * directory), with exactly the environment the kernel's make would give
 * it.  Results are cached in <cache>/shell/ keyed on the command text, the
 * whole environment, and the identity (path, size, mtime, inode) of every
 * executable the command names (found on PATH or by absolute path), so a
 * new compiler, a changed script or a changed environment never serves a
 * stale value.  Cache files are written atomically, so concurrent kfit
 * processes share them safely, and carry their length, an end marker and
 * a checksum (kf_cache_write): a truncated or corrupted one is a miss,
 * run again and rewritten.  Output is read as conf reads it (4096 bytes,
 * then the pipe is closed); a command killed by a signal is never cached.
 */
#include "kc_internal.h"
#include "kfit/run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static uint64_t fnv64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

struct key {
	uint64_t a; /* FNV-1a 64 */
	uint64_t b; /* FNV-1a 64 with another basis over reversed parts */
};

static void key_add(struct key *k, const void *p, size_t n)
{
	k->a = fnv64(k->a, p, n);
	k->a = fnv64(k->a, "\0", 1);
	k->b = fnv64(k->b ^ 0x9e3779b97f4a7c15ULL, p, n);
	k->b = fnv64(k->b, "\x01", 1);
}

/* Add the identity of every word of cmd that names an executable. */
static void key_add_binaries(kc_tree *t, struct key *k, const char *cmd)
{
	const char *path = pp_getenv(t, "PATH");
	const char *p = cmd;
	while (*p) {
		while (*p && strchr(" \t\n;|&(){}<>'\"`=", *p))
			p++;
		const char *s = p;
		while (*p && !strchr(" \t\n;|&(){}<>'\"`=", *p))
			p++;
		size_t n = (size_t)(p - s);
		if (!n || n > 4000)
			continue;
		char word[4096];
		memcpy(word, s, n);
		word[n] = 0;
		struct stat st;
		if (word[0] == '/') {
			if (stat(word, &st) == 0 && S_ISREG(st.st_mode)) {
				char id[5000];
				snprintf(id, sizeof(id), "%s:%lld:%lld.%09ld:%llu", word,
					 (long long)st.st_size,
					 (long long)st.st_mtim.tv_sec,
					 st.st_mtim.tv_nsec,
					 (unsigned long long)st.st_ino);
				key_add(k, id, strlen(id));
			}
			continue;
		}
		if (strchr(word, '/') || !path)
			continue;
		/* first match on PATH, as the shell would run it */
		const char *d = path;
		while (*d) {
			const char *e = strchr(d, ':');
			size_t dl = e ? (size_t)(e - d) : strlen(d);
			char full[8192];
			if (dl + n + 2 < sizeof(full)) {
				memcpy(full, d, dl);
				full[dl] = '/';
				memcpy(full + dl + 1, word, n + 1);
				if (stat(full, &st) == 0 && S_ISREG(st.st_mode) &&
				    (st.st_mode & 0111)) {
					char id[9000];
					snprintf(id, sizeof(id),
						 "%s:%lld:%lld.%09ld:%llu", full,
						 (long long)st.st_size,
						 (long long)st.st_mtim.tv_sec,
						 st.st_mtim.tv_nsec,
						 (unsigned long long)st.st_ino);
					key_add(k, id, strlen(id));
					break;
				}
			}
			if (!e)
				break;
			d = e + 1;
		}
	}
}

/* Variables that change with the shell session but cannot change what a
 * Kconfig command prints; leaving them out of the key lets runs from
 * different directories share results. */
static bool volatile_var(const char *e)
{
	static const char *const names[] = {"PWD=", "OLDPWD=", "SHLVL=", "_=",
					    "TERM=", "LS_COLORS=", "COLUMNS=",
					    "LINES=", "KFIT_", "SSH_", "XDG_SESSION",
					    "WINDOWID=", "DISPLAY=", "MAIL="};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(e, names[i], strlen(names[i])))
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *cache_path(kc_tree *t, const char *cmd)
{
	struct key k = {1469598103934665603ULL, 14695981039346656037ULL ^ 7};
	key_add(&k, "kfit-shell-v2", 13);
	key_add(&k, cmd, strlen(cmd));
	char **env = kf_xmalloc((t->nenv + 1) * sizeof(char *));
	memcpy(env, t->env, t->nenv * sizeof(char *));
	qsort(env, t->nenv, sizeof(char *), cmp_str);
	for (size_t i = 0; i < t->nenv; i++)
		if (!volatile_var(env[i]))
			key_add(&k, env[i], strlen(env[i]));
	free(env);
	key_add_binaries(t, &k, cmd);
	return kf_xasprintf("%s/shell/%016llx%016llx", t->cache_dir,
			    (unsigned long long)k.a, (unsigned long long)k.b);
}

/* What conf keeps of a command's output: one fread() of 4096 bytes. */
#define SHELL_READ 4096
/* Version of the cache entries (kf_cache_read/write "shell" kind). */
#define SHELL_CACHE_VERSION 2

/*
 * Scratch directories are "kfit-sh.PID.XXXXXX" in /tmp.  A kfit killed
 * while a command runs leaves one; the first command of a later run
 * removes those of this user whose process is gone and that are over 10
 * seconds old.
 */
static void sweep_scratch(void)
{
	DIR *dh = opendir("/tmp");
	if (!dh)
		return;
	time_t now = time(NULL);
	struct dirent *de;
	while ((de = readdir(dh))) {
		if (strncmp(de->d_name, "kfit-sh.", 8))
			continue;
		char *end;
		long pid = strtol(de->d_name + 8, &end, 10);
		if (end == de->d_name + 8 || *end != '.' || pid <= 0 ||
		    pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		struct stat st;
		if (fstatat(dirfd(dh), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
		    now - st.st_mtime < 10)
			continue;
		char *path = kf_xasprintf("/tmp/%s", de->d_name);
		kf_remove_tree(path);
		free(path);
	}
	closedir(dh);
}

/* How a command ended. */
enum shell_end {
	SHELL_EXITED,    /* exited by itself (any status): cacheable */
	SHELL_KILLED,    /* killed by a signal: output used, never cached */
	SHELL_TIMED_OUT, /* killed after --shell-timeout: an error */
	SHELL_FAILED,    /* could not run at all */
};

/*
 * Run cmd as conf's popen() would: /bin/sh -c, stdin from /dev/null,
 * stderr where ours goes, in a scratch directory (cc-option creates
 * .tmp_$$ directories in the current one), at most SHELL_READ bytes read,
 * then the pipe is closed (a command writing forever ends with SIGPIPE,
 * as under conf).  Returns the raw bytes read; *sig is the signal that
 * ended it (or that its shell reports with 128 + N).
 */
static enum shell_end run(kc_tree *t, const char *cmd, kf_strbuf *out, int *sig)
{
	if (!t->shell_swept) {
		sweep_scratch();
		t->shell_swept = true;
	}
	char *tmpl = kf_xasprintf("/tmp/kfit-sh.%ld.XXXXXX", (long)getpid());
	char *dir = mkdtemp(tmpl);
	const char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	bool timed_out = false;
	*sig = 0;
	kf_run_opts ro = {
		.argv = argv,
		.env = t->env,
		.cwd = dir,
		.out = out,
		.max = SHELL_READ,
		.stop_at_max = true,
		.inherit_err = true,
		.timeout_ms = t->shell_timeout_ms,
		.termsig = sig,
		.timed_out = &timed_out,
	};
	kf_diags tmp = KF_DIAGS_INIT;
	int st = kf_run(&ro, &tmp);
	kf_diags_release(&tmp);
	if (dir)
		kf_remove_tree(dir); /* what the command left behind */
	free(tmpl);
	if (st < 0)
		return SHELL_FAILED;
	if (timed_out)
		return SHELL_TIMED_OUT;
	/* the shell reports a command killed by signal N as status 128 + N */
	if (!*sig && st > 128 && st <= 128 + 64)
		*sig = st - 128;
	/* SIGPIPE after conf's 4096 bytes: we closed the pipe, as conf does */
	if (*sig == SIGPIPE && out->len >= SHELL_READ)
		*sig = 0;
	return *sig ? SHELL_KILLED : SHELL_EXITED;
}

/* conf's do_shell() on what fread() returned: the last byte of a full
 * buffer dropped, trailing newlines removed, the others made spaces, the
 * result ending at the first NUL. */
static char *conf_text(const char *buf, size_t n)
{
	char *s = kf_xmalloc(n + 1);
	memcpy(s, buf, n);
	if (n == SHELL_READ)
		n--;
	while (n > 0 && s[n - 1] == '\n')
		n--;
	s[n] = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\n')
			s[i] = ' ';
	return s;
}

char *kc_shell_run(kc_tree *t, const char *cmd)
{
	char *path = NULL;
	if (t->shell_fn) {
		char *raw = t->shell_fn(t->shell_ctx, cmd);
		t->shell_runs++;
		if (!raw) {
			kc_pp_error(t, "%s: %s", cmd, strerror(errno));
			return kf_xstrdup("");
		}
		char *r = conf_text(raw, strlen(raw) < SHELL_READ ? strlen(raw) : SHELL_READ);
		free(raw);
		return r;
	}
	if (t->cache_dir && !t->no_cache) {
		path = cache_path(t, cmd);
		kf_strbuf sb = KF_STRBUF_INIT;
		char *why = NULL;
		int rc = kf_cache_read(path, "shell", SHELL_CACHE_VERSION, &sb, &why);
		if (rc == 0 && !memchr(sb.buf, 0, sb.len)) {
			free(path);
			t->shell_hits++;
			return kf_strbuf_detach(&sb);
		}
		if (rc < 0 && t->verbose)
			kf_diag_add(t->diags, KF_NOTE, path, 0, 0,
				    "cached result of $(shell,%s) not used: %s; run again, "
				    "entry rewritten",
				    cmd, why ? why : "contains a NUL byte");
		free(why);
		kf_strbuf_release(&sb);
	}
	if (t->no_shell) {
		kc_pp_error(t, "--no-shell: no cached result for $(shell,%s)", cmd);
		free(path);
		return kf_xstrdup("");
	}
	kf_strbuf out = KF_STRBUF_INIT;
	int sig = 0;
	enum shell_end how = run(t, cmd, &out, &sig);
	t->shell_runs++;
	if (how == SHELL_FAILED) {
		kc_pp_error(t, "%s: %s", cmd, strerror(errno));
		free(path);
		kf_strbuf_release(&out);
		return kf_xstrdup("");
	}
	if (how == SHELL_TIMED_OUT) {
		kc_pp_error(t, "$(shell,%s): no result within --shell-timeout (%g s): killed",
			    cmd, t->shell_timeout_ms / 1000.0);
		free(path);
		kf_strbuf_release(&out);
		return kf_xstrdup("");
	}
	char *res = conf_text(kf_strbuf_str(&out), out.len);
	kf_strbuf_release(&out);
	if (how == SHELL_KILLED) {
		/* conf would use what it printed; so does kfit, but a killed
		 * compiler (OOM, a timeout outside kfit) must not decide every
		 * later run: never cached */
		kf_diag_add(t->diags, KF_WARNING, kc_cur_file(t), kc_cur_lineno(t), 0,
			    "$(shell,%s) was killed by signal %d (%s): its output is used "
			    "as conf would use it, but not cached",
			    cmd, sig, strsignal(sig));
	} else if (path) {
		char *dir = kf_xasprintf("%s/shell", t->cache_dir);
		kf_mkdir_p(dir, 0700);
		free(dir);
		kf_diags tmp = KF_DIAGS_INIT;
		kf_cache_write(path, "shell", SHELL_CACHE_VERSION, res, strlen(res), &tmp);
		kf_diags_release(&tmp);
	}
	free(path);
	return res;
}

char *kc_which(kc_tree *t, const char *name)
{
	struct stat st;
	if (strchr(name, '/'))
		return stat(name, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111)
			       ? kf_xstrdup(name)
			       : NULL;
	const char *d = pp_getenv(t, "PATH");
	while (d && *d) {
		const char *e = strchr(d, ':');
		size_t dl = e ? (size_t)(e - d) : strlen(d);
		char *full = kf_xasprintf("%.*s/%s", (int)dl, d, name);
		if (dl && stat(full, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111))
			return full;
		free(full);
		if (!e)
			break;
		d = e + 1;
	}
	return NULL;
}

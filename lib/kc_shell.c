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
 * processes share them safely.
 */
#include "kc_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
	key_add(&k, "kfit-shell-v1", 13);
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

static char *run(kc_tree *t, const char *cmd, bool *ok)
{
	int pfd[2];
	*ok = false;
	if (pipe(pfd) < 0)
		return NULL;
	char scratch[] = "/tmp/kfit-sh.XXXXXX";
	char *dir = mkdtemp(scratch);
	pid_t pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		if (dir)
			rmdir(dir);
		return NULL;
	}
	if (pid == 0) {
		close(pfd[0]);
		dup2(pfd[1], 1);
		close(pfd[1]);
		int nul = open("/dev/null", O_RDONLY);
		if (nul >= 0) {
			dup2(nul, 0);
			close(nul);
		}
		if (dir && chdir(dir) < 0)
			_exit(127);
		signal(SIGPIPE, SIG_DFL);
		execle("/bin/sh", "sh", "-c", cmd, (char *)NULL, t->env);
		_exit(127);
	}
	close(pfd[1]);
	kf_strbuf out = KF_STRBUF_INIT;
	char buf[4096];
	for (;;) {
		ssize_t r = read(pfd[0], buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (out.len < 4095)
			kf_strbuf_add(&out, buf,
				      (size_t)r < 4095 - out.len ? (size_t)r
								 : 4095 - out.len);
	}
	close(pfd[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (dir) {
		/* remove what the command left (cc-option cleans up itself) */
		char *rm = kf_xasprintf("%s", dir);
		rmdir(rm);
		free(rm);
	}
	*ok = true;
	return kf_strbuf_detach(&out);
}

char *kc_shell_run(kc_tree *t, const char *cmd)
{
	char *path = NULL;
	bool ok;
	char *raw;
	if (t->shell_fn) {
		raw = t->shell_fn(t->shell_ctx, cmd);
		ok = raw != NULL;
		goto ran;
	}
	if (t->cache_dir && !t->no_cache) {
		path = cache_path(t, cmd);
		kf_strbuf sb = KF_STRBUF_INIT;
		kf_diags tmp = KF_DIAGS_INIT;
		if (kf_exists(path) && kf_read_file(path, &sb, &tmp) == 0) {
			kf_diags_release(&tmp);
			free(path);
			t->shell_hits++;
			return kf_strbuf_detach(&sb);
		}
		kf_diags_release(&tmp);
		kf_strbuf_release(&sb);
	}
	if (t->no_shell) {
		kc_pp_error(t, "--no-shell: no cached result for $(shell,%s)", cmd);
		free(path);
		return kf_xstrdup("");
	}
	raw = run(t, cmd, &ok);
ran:
	t->shell_runs++;
	if (!ok) {
		kc_pp_error(t, "%s: %s", cmd, strerror(errno));
		free(path);
		free(raw);
		return kf_xstrdup("");
	}
	/* remove trailing newlines, replace the others with spaces */
	size_t n = strlen(raw);
	while (n > 0 && raw[n - 1] == '\n')
		raw[--n] = 0;
	for (size_t i = 0; i < n; i++)
		if (raw[i] == '\n')
			raw[i] = ' ';
	if (path) {
		char *dir = kf_xasprintf("%s/shell", t->cache_dir);
		kf_mkdir_p(dir, 0755);
		free(dir);
		kf_diags tmp = KF_DIAGS_INIT;
		kf_write_file_atomic(path, raw, n, false, &tmp);
		kf_diags_release(&tmp);
		free(path);
	}
	return raw;
}

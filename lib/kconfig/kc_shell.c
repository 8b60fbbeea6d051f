/*
 * kc_shell.c - $(shell,...) for the Kconfig preprocessor, with a result
 * cache.  A command runs under /bin/sh -c in a scratch directory (never in
 * the source tree: cc-option creates .tmp_$$ directories in the current
 * directory), with exactly the environment the kernel's make would give
 * it.  Results are cached in <cache>/shell/ keyed on the command text, the
 * whole environment, and the identity (path, size, mtime, inode) of every
 * executable the command names (found on PATH or by absolute path), so a
 * new compiler, a changed script or a changed environment never serves a
 * stale value; a command that runs a script is also keyed on what the
 * script can find by itself (key_add_script_view): a program installed
 * in a PATH directory, Rust's library source.  Cache files are written atomically, so concurrent kfit
 * processes share them safely, and carry their length, an end marker and
 * a checksum (kf_cache_write): a truncated or corrupted one is a miss,
 * run again and rewritten.  Output is read as conf reads it (4096 bytes,
 * then the pipe is closed); a command killed by a signal is never cached.
 */
#include "kc_internal.h"
#include "kfit/hashmap.h"
#include "kfit/run.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
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

/* Does the file start with "#!" (a script, which may look for programs
 * and files itself)? */
static bool is_script(const char *file)
{
	char head[2] = {0, 0};
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	bool yes = read(fd, head, 2) == 2 && head[0] == '#' && head[1] == '!';
	close(fd);
	return yes;
}

/* The identity of the executable word runs ("PATH:size:mtime:inode", with
 * " script" after it for a script), or NULL when it names none: an
 * absolute path, else the first match on PATH, as the shell would run
 * it. */
static char *binary_of(const char *word, size_t n, const char *path)
{
	struct stat st;
	if (word[0] == '/') {
		if (stat(word, &st) == 0 && S_ISREG(st.st_mode))
			return kf_xasprintf("%s:%lld:%lld.%09ld:%llu%s", word, (long long)st.st_size,
					    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
					    (unsigned long long)st.st_ino,
					    is_script(word) ? " script" : "");
		return NULL;
	}
	if (strchr(word, '/') || !path)
		return NULL;
	const char *d = path;
	while (*d) {
		const char *e = strchr(d, ':');
		size_t dl = e ? (size_t)(e - d) : strlen(d);
		char full[8192];
		if (dl + n + 2 < sizeof(full)) {
			memcpy(full, d, dl);
			full[dl] = '/';
			memcpy(full + dl + 1, word, n + 1);
			if (stat(full, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111))
				return kf_xasprintf("%s:%lld:%lld.%09ld:%llu%s", full,
						    (long long)st.st_size,
						    (long long)st.st_mtim.tv_sec,
						    st.st_mtim.tv_nsec,
						    (unsigned long long)st.st_ino,
						    is_script(full) ? " script" : "");
		}
		if (!e)
			break;
		d = e + 1;
	}
	return NULL;
}

/* The state of a directory ("DIR:mtime:inode", or "DIR:-"), added to k. */
static void key_add_dir(struct key *k, const char *dir, size_t n)
{
	char buf[8192];
	struct stat st;
	if (n >= 4096)
		return;
	int l = snprintf(buf, sizeof(buf), "%.*s", (int)n, dir);
	if (stat(buf, &st) == 0)
		snprintf(buf + l, sizeof(buf) - (size_t)l, ":%lld.%09ld:%llu",
			 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
			 (unsigned long long)st.st_ino);
	else
		snprintf(buf + l, sizeof(buf) - (size_t)l, ":-");
	key_add(k, buf, strlen(buf));
}

/*
 * What a script can see beyond the programs its command names: it may
 * look programs up itself (`command -v`, programs named by environment
 * variables such as $BINDGEN), so the state of every PATH directory
 * (installing or removing a program changes it); and
 * scripts/rust_is_available.sh tests for the Rust standard library's
 * source in rustc's sysroot, which for a rustc in PREFIX/bin is
 * PREFIX/lib/rustlib/src/rust/library (Debian's rust-src), so that
 * directory's state for each PATH directory's parent.
 */
static void key_add_script_view(struct key *k, const char *path)
{
	static const char *const probes[] = {"/../lib/rustlib/src/rust/library"};
	for (const char *d = path; d && *d;) {
		const char *e = strchr(d, ':');
		size_t dl = e ? (size_t)(e - d) : strlen(d);
		key_add_dir(k, d, dl);
		for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
			char *p = kf_xasprintf("%.*s%s", (int)dl, d, probes[i]);
			key_add_dir(k, p, strlen(p));
			free(p);
		}
		d = e ? e + 1 : NULL;
	}
}

/* Add the identity of every word of cmd that names an executable, and
 * when one is a script, what it can see (key_add_script_view).  Each
 * word is looked up once per tree (the ~90 commands of a kernel repeat
 * gcc, -Werror, -c, /dev/null...: 15000 failing stat() calls a load
 * before). */
static void key_add_binaries(kc_tree *t, struct key *k, const char *cmd)
{
	bool script = false;
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
		size_t i;
		if (!kf_strmap_get(&t->bin_seen, word, &i)) {
			KF_GROW(t->bin_id, t->nbin_id + 1, t->abin_id);
			i = t->nbin_id++;
			t->bin_id[i] = binary_of(word, n, path);
			kf_strmap_put(&t->bin_seen, word, i);
		}
		if (t->bin_id[i]) {
			key_add(k, t->bin_id[i], strlen(t->bin_id[i]));
			size_t l = strlen(t->bin_id[i]);
			script = script || (l > 7 && !strcmp(t->bin_id[i] + l - 7, " script"));
		}
	}
	if (script)
		key_add_script_view(k, path);
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

/* The cache key of cmd run with the tree's environment now (hex). */
static char *shell_key(kc_tree *t, const char *cmd)
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
	return kf_xasprintf("%016llx%016llx", (unsigned long long)k.a,
			    (unsigned long long)k.b);
}

static char *cache_path(kc_tree *t, const char *key)
{
	return kf_xasprintf("%s/shell/%s", t->cache_dir, key);
}

/* What conf keeps of a command's output: one fread() of 4096 bytes. */
#define SHELL_READ 4096
/* Version of the cache entries (kf_cache_read/write "shell" kind); 3:
 * the result, then a NUL and the command's standard error when it wrote
 * any (conf prints it on every expansion, so does kfit from the cache). */
#define SHELL_CACHE_VERSION 3

/* Write a cache entry: res, and err after a NUL when there is any. */
static void cache_put(const char *path, const char *res, const kf_strbuf *err)
{
	kf_strbuf p = KF_STRBUF_INIT;
	kf_strbuf_addstr(&p, res);
	if (err && err->len) {
		kf_strbuf_add(&p, "", 1);
		kf_strbuf_add(&p, err->buf, err->len);
	}
	kf_diags tmp = KF_DIAGS_INIT;
	kf_cache_write(path, "shell", SHELL_CACHE_VERSION, p.buf, p.len, &tmp);
	kf_diags_release(&tmp);
	kf_strbuf_release(&p);
}

/* Read a cache entry: 0 with *res (caller owns) and err appended; -1 on
 * a miss (*why: why an entry there was not used, or NULL). */
static int cache_get(const char *path, char **res, kf_strbuf *err, char **why)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	if (kf_cache_read(path, "shell", SHELL_CACHE_VERSION, &sb, why) != 0) {
		kf_strbuf_release(&sb);
		return -1;
	}
	size_t n = strlen(kf_strbuf_str(&sb));
	if (n < sb.len)
		kf_strbuf_add(err, sb.buf + n + 1, sb.len - n - 1);
	*res = kf_xstrdup(kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
	return 0;
}

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

/* $KFIT_SHELL_LOG: append "MS<tab>COMMAND" for each command run (not
 * those the cache answered), one write per line, so that a run's commands
 * can be timed or run again without kfit (bench/olddefconfig.sh's floor).
 * Kconfig commands are single lines; a newline in one is written as \n. */
static void shell_log(const char *cmd, const struct timespec *t0)
{
	const char *path = getenv("KFIT_SHELL_LOG");
	if (!path || !*path)
		return;
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ms = (double)(t1.tv_sec - t0->tv_sec) * 1e3 +
		    (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
	kf_strbuf line = KF_STRBUF_INIT;
	kf_strbuf_addf(&line, "%.1f\t", ms);
	for (const char *c = cmd; *c; c++)
		if (*c == '\n')
			kf_strbuf_addstr(&line, "\\n");
		else
			kf_strbuf_add(&line, c, 1);
	kf_strbuf_addstr(&line, "\n");
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		ssize_t w = write(fd, line.buf, line.len);
		(void)w; /* a diagnostic aid: a short log loses nothing else */
		close(fd);
	}
	kf_strbuf_release(&line);
}

/*
 * Run cmd as conf's popen() would: /bin/sh -c, stdin from /dev/null,
 * stderr where ours goes (err NULL) or into err, in a scratch directory
 * (cc-option creates .tmp_$$ directories in the current one), at most
 * SHELL_READ bytes read, then the pipe is closed (a command writing
 * forever ends with SIGPIPE, as under conf).  Returns the raw bytes read;
 * *sig is the signal that ended it (or that its shell reports with
 * 128 + N), *errnum errno when it could not run.  Safe in any thread.
 */
static enum shell_end run_sh(char *const *env, int timeout_ms, const char *cmd,
			     kf_strbuf *out, kf_strbuf *err, int *sig, int *errnum)
{
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	char *tmpl = kf_xasprintf("/tmp/kfit-sh.%ld.XXXXXX", (long)getpid());
	char *dir = mkdtemp(tmpl);
	/* popen(): execl("/bin/sh", "sh", "-c", cmd): a failing command's
	 * messages say "sh: 1: ..." */
	const char *argv[] = {"sh", "-c", cmd, NULL};
	bool timed_out = false;
	*sig = 0;
	kf_run_opts ro = {
		.argv = argv,
		.path = "/bin/sh",
		.env = env,
		.cwd = dir,
		.out = out,
		.err = err,
		.max = SHELL_READ,
		.max_err = (size_t)1 << 20,
		.stop_at_max = true,
		.inherit_err = !err,
		.timeout_ms = timeout_ms,
		.termsig = sig,
		.timed_out = &timed_out,
	};
	kf_diags tmp = KF_DIAGS_INIT;
	int st = kf_run(&ro, &tmp);
	*errnum = errno;
	kf_diags_release(&tmp);
	if (dir)
		kf_remove_tree(dir); /* what the command left behind */
	free(tmpl);
	shell_log(cmd, &t0);
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

/* Write what a command printed on standard error where it would have gone
 * had it run at this point (the speculative pass captured it; the cache
 * kept it).  kfit conf: among the parser's messages, in their order. */
static void replay_err(kc_tree *t, const kf_strbuf *err)
{
	if (!err->len)
		return;
	if (t->conf_errors) {
		size_t n = err->len;
		if (err->buf[n - 1] == '\n')
			n--;
		kf_diag_raw(t->diags, KF_NOTE, "%.*s", (int)n, err->buf);
		return;
	}
	size_t off = 0;
	while (off < err->len) {
		ssize_t w = write(2, err->buf + off, err->len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
}

/*
 * Running ahead (a cold cache): the first $(shell,...) that misses the
 * cache starts a speculative pass over the tree's Kconfig files
 * (kc_tree_spec_parse: a scratch tree, its messages and $(info) dropped)
 * in which each $(shell,...) is queued to a pool of workers (as many as
 * shell_jobs) and stands for its result as KC_SPEC_MARK + its number.
 * A value that decides something at once (a command's text, a variable's
 * name, $(error-if)'s condition, the environment) waits for the results
 * it holds (kc_spec_resolve); a command that failed or timed out stops
 * the pass, as it stops the real evaluation: nothing runs ahead that
 * conf would not run.  The real evaluation then takes each result in
 * conf's order (waiting for it when needed): the same text, the same
 * messages, each command's standard error written at the point where
 * conf runs it.  What the pass did not run (the same command a second
 * time, one after a failure) runs as before, one at a time.
 */
typedef struct pf_entry {
	char *key;          /* shell_key */
	char *path;         /* cache file, or NULL: nothing written */
	char *cmd;          /* the command */
	char **env;         /* its environment (copied), NULL-terminated */
	char *why;          /* why a cached entry was not used, or NULL */
	bool hit;           /* answered from the cache, not run */
	bool queued;        /* a worker took it */
	bool done;          /* result there */
	bool used;          /* taken by the real evaluation */
	char *res;          /* conf's text of its output */
	kf_strbuf err;      /* its standard error */
	enum shell_end how; /* how it ended */
	int sig;            /* the signal that ended it */
	int errnum;         /* errno when it could not run */
} pf_entry;

struct kc_prefetch {
	pthread_mutex_t mu;   /* guards everything below */
	pthread_cond_t work;  /* a job was queued, or quit */
	pthread_cond_t idle;  /* a job finished */
	pf_entry **e;         /* entries in the order they were found */
	size_t n;             /* count */
	size_t a;             /* capacity */
	kf_strmap idx;        /* key -> index in e */
	size_t *q;            /* entries to run (indices), in order */
	size_t qn;            /* queued */
	size_t qa;            /* capacity */
	size_t qnext;         /* next to take */
	size_t busy;          /* taken, not done */
	bool quit;            /* workers stop when the queue is empty */
	int timeout_ms;       /* --shell-timeout */
	pthread_t *thr;       /* workers */
	int nthr;             /* how many started */
};

static void pf_run_entry(kc_prefetch *pf, pf_entry *e)
{
	kf_strbuf out = KF_STRBUF_INIT;
	e->how = run_sh(e->env, pf->timeout_ms, e->cmd, &out, &e->err, &e->sig,
			&e->errnum);
	e->res = conf_text(kf_strbuf_str(&out), out.len);
	kf_strbuf_release(&out);
	if (e->how == SHELL_EXITED && e->path) {
		char *dir = kf_xstrdup(e->path);
		*strrchr(dir, '/') = 0;
		kf_mkdir_p(dir, 0700);
		free(dir);
		cache_put(e->path, e->res, &e->err);
	}
}

static void *pf_worker(void *arg)
{
	kc_prefetch *pf = arg;
	pthread_mutex_lock(&pf->mu);
	for (;;) {
		while (!pf->quit && pf->qnext == pf->qn)
			pthread_cond_wait(&pf->work, &pf->mu);
		if (pf->quit)
			break;
		pf_entry *e = pf->e[pf->q[pf->qnext++]];
		pf->busy++;
		pthread_mutex_unlock(&pf->mu);
		pf_run_entry(pf, e);
		pthread_mutex_lock(&pf->mu);
		e->done = true;
		pf->busy--;
		pthread_cond_broadcast(&pf->idle);
	}
	pthread_mutex_unlock(&pf->mu);
	return NULL;
}

/* Entry of key, or NULL (pf->mu held). */
static pf_entry *pf_find(kc_prefetch *pf, const char *key)
{
	size_t i;
	return kf_strmap_get(&pf->idx, key, &i) ? pf->e[i] : NULL;
}

static pf_entry *pf_add(kc_prefetch *pf, kc_tree *t, char *key, const char *cmd)
{
	pf_entry *e = kf_xcalloc(1, sizeof(*e));
	e->key = key;
	e->cmd = kf_xstrdup(cmd);
	KF_GROW(pf->e, pf->n + 1, pf->a);
	kf_strmap_put(&pf->idx, key, pf->n);
	pf->e[pf->n++] = e;
	(void)t;
	return e;
}

/* Move entry i to the head of the queue when no worker has it yet: the
 * speculative pass waits for it (pf->mu held). */
static void pf_hurry(kc_prefetch *pf, size_t i)
{
	for (size_t j = pf->qnext; j < pf->qn; j++)
		if (pf->q[j] == i) {
			memmove(pf->q + pf->qnext + 1, pf->q + pf->qnext,
				(j - pf->qnext) * sizeof(*pf->q));
			pf->q[pf->qnext] = i;
			return;
		}
}

char *kc_spec_resolve(kc_tree *t, const char *s)
{
	kc_prefetch *pf = t->spec;
	size_t ml = strlen(KC_SPEC_MARK);
	kf_strbuf out = KF_STRBUF_INIT;
	kf_strbuf_addstr(&out, "");
	const char *p;
	while ((p = strstr(s, KC_SPEC_MARK))) {
		kf_strbuf_add(&out, s, (size_t)(p - s));
		char *end;
		unsigned long i = strtoul(p + ml, &end, 10);
		pthread_mutex_lock(&pf->mu);
		if (*end != '\001' || i >= pf->n) {
			pthread_mutex_unlock(&pf->mu);
			kf_strbuf_release(&out);
			return NULL;
		}
		pf_entry *e = pf->e[i];
		pf_hurry(pf, i);
		while (!e->done)
			pthread_cond_wait(&pf->idle, &pf->mu);
		bool ok = e->how == SHELL_EXITED || e->how == SHELL_KILLED;
		if (ok)
			kf_strbuf_addstr(&out, e->res);
		pthread_mutex_unlock(&pf->mu);
		if (!ok) {
			kf_strbuf_release(&out);
			return NULL;
		}
		s = end + 1;
	}
	kf_strbuf_addstr(&out, s);
	return kf_strbuf_detach(&out);
}

/* $(shell,...) in a speculative pass (see above). */
static char *spec_shell(kc_tree *t, const char *cmd_in)
{
	kc_prefetch *pf = t->spec;
	char *cmd = kc_spec_resolve(t, cmd_in);
	if (!cmd) { /* the real evaluation stops at an error before this */
		kc_pp_error(t, "not known");
		return kf_xstrdup("");
	}
	char *key = shell_key(t, cmd);
	pthread_mutex_lock(&pf->mu);
	pf_entry *e = pf_find(pf, key);
	if (e) {
		size_t i = 0;
		kf_strmap_get(&pf->idx, key, &i);
		pthread_mutex_unlock(&pf->mu);
		free(key);
		free(cmd);
		return kf_xasprintf(KC_SPEC_MARK "%zu\001", i);
	}
	pthread_mutex_unlock(&pf->mu);
	char *path = NULL, *why = NULL;
	if (t->cache_dir && !t->no_cache) {
		path = cache_path(t, key);
		char *res = NULL;
		kf_strbuf err = KF_STRBUF_INIT;
		if (cache_get(path, &res, &err, &why) == 0) {
			pthread_mutex_lock(&pf->mu);
			e = pf_add(pf, t, key, cmd);
			e->hit = e->done = true;
			e->res = res;
			kf_strbuf_add(&e->err, err.buf ? err.buf : "", err.len);
			kf_strbuf_release(&err);
			char *r = kf_xstrdup(e->res);
			pthread_mutex_unlock(&pf->mu);
			free(path);
			free(why);
			free(cmd);
			return r;
		}
		kf_strbuf_release(&err);
	}
	char **env = kf_xmalloc((t->nenv + 1) * sizeof(char *));
	for (size_t i = 0; i < t->nenv; i++)
		env[i] = kf_xstrdup(t->env[i]);
	env[t->nenv] = NULL;
	pthread_mutex_lock(&pf->mu);
	e = pf_add(pf, t, key, cmd);
	e->path = path;
	e->why = why;
	e->env = env;
	e->queued = true;
	KF_GROW(pf->q, pf->qn + 1, pf->qa);
	pf->q[pf->qn++] = pf->n - 1;
	char *r = kf_xasprintf(KC_SPEC_MARK "%zu\001", pf->n - 1);
	pthread_cond_signal(&pf->work);
	pthread_mutex_unlock(&pf->mu);
	free(cmd);
	return r;
}

static kc_prefetch *prefetch(kc_tree *t)
{
	kc_prefetch *pf = kf_xcalloc(1, sizeof(*pf));
	pthread_mutex_init(&pf->mu, NULL);
	pthread_cond_init(&pf->work, NULL);
	pthread_cond_init(&pf->idle, NULL);
	pf->timeout_ms = t->shell_timeout_ms;
	if (!t->shell_swept) {
		sweep_scratch();
		t->shell_swept = true;
	}
	pf->thr = kf_xcalloc((size_t)t->shell_jobs, sizeof(pthread_t));
	for (int i = 0; i < t->shell_jobs; i++)
		if (pthread_create(&pf->thr[pf->nthr], NULL, pf_worker, pf) == 0)
			pf->nthr++;
	if (!pf->nthr) { /* no threads: everything one at a time */
		kc_prefetch_free(pf);
		return NULL;
	}
	/* the workers go on while the real evaluation takes the results
	 * (pf_take waits for each) */
	kc_tree_spec_parse(t->lopts, pf);
	return pf;
}

/* Stop the workers: what no worker has taken yet is dropped (the
 * evaluation is over, or stopped at an error). */
static void pf_stop(kc_prefetch *pf)
{
	pthread_mutex_lock(&pf->mu);
	pf->quit = true;
	pf->qnext = pf->qn;
	pthread_cond_broadcast(&pf->work);
	pthread_mutex_unlock(&pf->mu);
	for (int i = 0; i < pf->nthr; i++)
		pthread_join(pf->thr[i], NULL);
	pf->nthr = 0;
}

void kc_prefetch_free(kc_prefetch *pf)
{
	if (!pf)
		return;
	pf_stop(pf);
	for (size_t i = 0; i < pf->n; i++) {
		pf_entry *e = pf->e[i];
		free(e->key);
		free(e->path);
		free(e->cmd);
		if (e->env)
			for (char **p = e->env; *p; p++)
				free(*p);
		free(e->env);
		free(e->why);
		free(e->res);
		kf_strbuf_release(&e->err);
		free(e);
	}
	free(pf->e);
	free(pf->q);
	free(pf->thr);
	kf_strmap_release(&pf->idx);
	pthread_mutex_destroy(&pf->mu);
	pthread_cond_destroy(&pf->work);
	pthread_cond_destroy(&pf->idle);
	free(pf);
}

/* The result run ahead for key, once (NULL: run it now). */
static pf_entry *pf_take(kc_tree *t, const char *key)
{
	kc_prefetch *pf = t->pf;
	if (!pf)
		return NULL;
	size_t i;
	pthread_mutex_lock(&pf->mu);
	pf_entry *e = kf_strmap_get(&pf->idx, key, &i) ? pf->e[i] : NULL;
	if (e && !e->hit && !e->used && e->queued) {
		pf_hurry(pf, i);
		while (!e->done && pf->nthr)
			pthread_cond_wait(&pf->idle, &pf->mu);
	}
	if (!e || e->hit || !e->done || e->used) {
		pthread_mutex_unlock(&pf->mu);
		return NULL;
	}
	e->used = true;
	pthread_mutex_unlock(&pf->mu);
	return e;
}

/* What a command's end means at the point of the evaluation that used it:
 * the result, the messages conf's run gives, the cache entry written
 * (path, when a cache is used and it was not written already). */
static char *shell_result(kc_tree *t, const char *cmd, const char *path,
			  enum shell_end how, int sig, int errnum, char *res,
			  const kf_strbuf *err)
{
	if (how == SHELL_FAILED) {
		kc_pp_error(t, "%s: %s", cmd, strerror(errnum));
		free(res);
		return kf_xstrdup("");
	}
	if (how == SHELL_TIMED_OUT) {
		kc_pp_error(t, "$(shell,%s): no result within --shell-timeout (%g s): killed",
			    cmd, t->shell_timeout_ms / 1000.0);
		free(res);
		return kf_xstrdup("");
	}
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
		cache_put(path, res, err);
	}
	return res;
}

static void note_unused(kc_tree *t, const char *path, const char *cmd, const char *why)
{
	if (t->verbose)
		kf_diag_add(t->diags, KF_NOTE, path, 0, 0,
			    "cached result of $(shell,%s) not used: %s; run again, "
			    "entry rewritten",
			    cmd, why);
}

/* Take a result run ahead as if it ran now. */
static char *use_ahead(kc_tree *t, pf_entry *e)
{
	t->shell_runs++;
	if (e->why)
		note_unused(t, e->path, e->cmd, e->why);
	replay_err(t, &e->err);
	/* the worker wrote the cache entry already */
	return shell_result(t, e->cmd, NULL, e->how, e->sig, e->errnum,
			    kf_xstrdup(e->res), NULL);
}

char *kc_shell_run(kc_tree *t, const char *cmd)
{
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
	if (t->spec)
		return spec_shell(t, cmd);
	bool use_cache = t->cache_dir && !t->no_cache;
	bool ahead = !t->no_shell && t->shell_jobs > 1 && t->lopts;
	char *key = use_cache || ahead ? shell_key(t, cmd) : NULL;
	pf_entry *e = key ? pf_take(t, key) : NULL;
	if (e) {
		free(key);
		return use_ahead(t, e);
	}
	char *path = use_cache ? cache_path(t, key) : NULL;
	char *why = NULL;
	if (path) {
		char *res = NULL;
		kf_strbuf err = KF_STRBUF_INIT;
		if (cache_get(path, &res, &err, &why) == 0) {
			replay_err(t, &err);
			kf_strbuf_release(&err);
			free(path);
			free(key);
			free(why);
			t->shell_hits++;
			return res;
		}
		kf_strbuf_release(&err);
	}
	if (!t->no_shell && ahead && !t->pf_tried) {
		t->pf_tried = true;
		t->pf = prefetch(t);
		if ((e = pf_take(t, key))) {
			free(path);
			free(key);
			free(why);
			return use_ahead(t, e);
		}
	}
	free(key);
	if (why)
		note_unused(t, path, cmd, why);
	free(why);
	if (t->no_shell) {
		kc_pp_error(t, "--no-shell: no cached result for $(shell,%s)", cmd);
		free(path);
		return kf_xstrdup("");
	}
	if (!t->shell_swept) {
		sweep_scratch();
		t->shell_swept = true;
	}
	kf_strbuf out = KF_STRBUF_INIT, err = KF_STRBUF_INIT;
	int sig = 0, errnum = 0;
	enum shell_end how = run_sh(t->env, t->shell_timeout_ms, cmd, &out, &err,
				    &sig, &errnum);
	t->shell_runs++;
	replay_err(t, &err); /* as it went, and kept for the cache */
	char *res = conf_text(kf_strbuf_str(&out), out.len);
	kf_strbuf_release(&out);
	res = shell_result(t, cmd, path, how, sig, errnum, res, &err);
	kf_strbuf_release(&err);
	free(path);
	return res;
}

/* A value kc_shell_run gave, with the results it stands for (a
 * speculative pass waits for them). */
static char *shell_known(kc_tree *t, char *r)
{
	if (!t->spec || !strstr(r, KC_SPEC_MARK))
		return r;
	char *known = kc_spec_resolve(t, r);
	free(r);
	if (!known)
		kc_pp_error(t, "not known");
	return known ? known : kf_xstrdup("");
}

char *kc_shell_now(kc_tree *t, const char *cmd)
{
	return shell_known(t, kc_shell_run(t, cmd));
}

void kc_shell_now_all(kc_tree *t, const char *const *cmds, size_t n, char **res)
{
	for (size_t i = 0; i < n; i++)
		res[i] = kc_shell_run(t, cmds[i]);
	for (size_t i = 0; i < n; i++)
		res[i] = shell_known(t, res[i]);
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

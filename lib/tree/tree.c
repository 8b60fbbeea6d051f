/*
 * tree.c - resolve the kernel tree a command works on and extract Debian's
 * linux-source tarballs into the cache, once, safely when several kfit
 * processes race.  See include/kfit/tree.h for the order and the layout;
 * scripts/kernel-tree.sh implements the same layout in shell.
 */
#include "kfit/tree.h"
#include "kfit/run.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Try the lock for half a second before saying anything: a kfit that was
 * just killed lets go of it within moments (its tar dies with it).  True
 * when it is still held by another. */
static bool lock_wait_quietly(int fd)
{
	for (int i = 0; i < 20; i++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return false;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return false;
		struct timespec ts = {0, 25 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	return flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK;
}

static const char no_tree_msg[] =
	"no kernel tree: give -k DIR, run inside a kernel tree, set KFIT_KERNEL, "
	"or install one with 'apt-get install linux-source-6.12'";

/* Tarball suffixes, longest first, with the tar flag for each. */
static const struct tar_kind {
	const char *suffix; /* end of the file name */
	const char *flag;   /* tar's decompression flag, or NULL */
} tar_kinds[] = {
	{".tar.xz", "-J"},
	{".tar.gz", "-z"},
	{".tgz", "-z"},
	{".tar.bz2", "-j"},
	{".tar", NULL},
};

static const struct tar_kind *tar_kind_of(const char *path)
{
	size_t n = strlen(path);
	for (size_t i = 0; i < sizeof(tar_kinds) / sizeof(tar_kinds[0]); i++) {
		size_t m = strlen(tar_kinds[i].suffix);
		if (n > m && !strcmp(path + n - m, tar_kinds[i].suffix))
			return &tar_kinds[i];
	}
	return NULL;
}

bool kf_tree_is_tarball_name(const char *path)
{
	return tar_kind_of(path) != NULL;
}

static bool is_reg(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool kf_tree_is_kernel(const char *dir)
{
	char *k = kf_xasprintf("%s/Kconfig", dir);
	char *m = kf_xasprintf("%s/Makefile", dir);
	char *s = kf_xasprintf("%s/scripts/kconfig", dir);
	bool r = is_reg(k) && is_reg(m) && kf_is_dir(s);
	free(k);
	free(m);
	free(s);
	return r;
}

/* ---------------- versions ---------------- */

int kf_version_cmp(const char *a, const char *b)
{
	while (*a || *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			/* compare digit runs as numbers of any length */
			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			size_t na = 0, nb = 0;
			while (isdigit((unsigned char)a[na]))
				na++;
			while (isdigit((unsigned char)b[nb]))
				nb++;
			if (na != nb)
				return na < nb ? -1 : 1;
			int c = strncmp(a, b, na);
			if (c)
				return c < 0 ? -1 : 1;
			a += na;
			b += nb;
			continue;
		}
		/* "6.1" < "6.1.5": the shorter one is older */
		if (!*a)
			return -1;
		if (!*b)
			return 1;
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return 0;
}

/* Rank of a suffix when one version ships several: lower is preferred. */
static size_t tar_kind_rank(const char *path)
{
	const struct tar_kind *k = tar_kind_of(path);
	return k ? (size_t)(k - tar_kinds) : (size_t)-1;
}

/* The newest tarball so far: its path and version text. */
typedef struct newest {
	char *path;
	char *ver;
	size_t rank;
} newest;

/* Consider every linux-source-VERSION.tar.* in dir; a tie keeps *b. */
static void newest_in(const char *dir, newest *b)
{
	static const char prefix[] = "linux-source-";
	DIR *dh = opendir(dir);
	if (!dh)
		return;
	struct dirent *de;
	while ((de = readdir(dh))) {
		const char *n = de->d_name;
		const struct tar_kind *k = tar_kind_of(n);
		if (!k || strncmp(n, prefix, sizeof(prefix) - 1))
			continue;
		size_t vlen = strlen(n) - (sizeof(prefix) - 1) - strlen(k->suffix);
		if (vlen == 0 || !isdigit((unsigned char)n[sizeof(prefix) - 1]))
			continue;
		char *path = kf_xasprintf("%s/%s", dir, n);
		if (!is_reg(path)) {
			free(path);
			continue;
		}
		char *ver = kf_xstrndup(n + sizeof(prefix) - 1, vlen);
		int c = b->path ? kf_version_cmp(ver, b->ver) : 1;
		size_t rank = tar_kind_rank(n);
		/* several suffixes of one version in one dir: the preferred one */
		bool same_dir = b->path && !strncmp(b->path, path, strlen(dir) + 1);
		if (c > 0 || (c == 0 && same_dir && rank < b->rank)) {
			free(b->path);
			free(b->ver);
			b->path = path;
			b->ver = ver;
			b->rank = rank;
		} else {
			free(path);
			free(ver);
		}
	}
	closedir(dh);
}

char *kf_tree_newest_tarball_in(const char *const *dirs)
{
	newest b = {NULL, NULL, 0};
	for (; *dirs; dirs++)
		newest_in(*dirs, &b);
	free(b.ver);
	return b.path;
}

char *kf_tree_newest_tarball(const char *dir)
{
	const char *dirs[] = {dir, NULL};
	return kf_tree_newest_tarball_in(dirs);
}

/* ---------------- extraction ---------------- */

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) < 0 && errno != ENOENT ? -1 : 0;
	return unlink(path) < 0 && errno != ENOENT ? -1 : 0;
}

/* extracted trees may hold read-only directories: make each one ours to
 * empty before the removal walk */
static int open_dir(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)ftw;
	if (flag == FTW_D && (st->st_mode & 0700) != 0700)
		chmod(path, (st->st_mode & 07777) | 0700);
	return 0;
}

/* rm -rf path; 0 or -1 (errno set).  A missing path is fine. */
static int remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	nftw(path, open_dir, 32, FTW_PHYS);
	return nftw(path, rm_entry, 32, FTW_DEPTH | FTW_PHYS);
}

/*
 * Run tar to extract tarball into dir.  tar's stderr is collected and
 * returned in d on failure; nothing reaches the terminal.  tar (and the
 * decompressor it starts) inherit lock_fd, so the extraction lock is held
 * until they are gone, and tar is killed when kfit dies: a killed kfit
 * never leaves a tar writing into a directory the next run cleans up.
 */
static int run_tar(const char *tarball, const char *flag, const char *dir,
		   int lock_fd, kf_diags *d)
{
	const char *argv[9];
	size_t n = 0;
	argv[n++] = "tar";
	argv[n++] = "-x";
	if (flag)
		argv[n++] = flag;
	argv[n++] = "--no-same-owner";
	argv[n++] = "-f";
	argv[n++] = tarball;
	argv[n++] = "-C";
	argv[n++] = dir;
	argv[n] = NULL;

	kf_strbuf err = KF_STRBUF_INIT;
	int sig = 0;
	kf_run_opts ro = {
		.argv = argv,
		.err = &err,
		.max = 16384,
		.die_with_parent = true,
		.termsig = &sig,
	};
	kf_diags tmp = KF_DIAGS_INIT;
	int fl = fcntl(lock_fd, F_GETFD);
	fcntl(lock_fd, F_SETFD, fl & ~FD_CLOEXEC);
	int status = kf_run(&ro, &tmp);
	fcntl(lock_fd, F_SETFD, fl);
	int rc = 0;
	if (status < 0) {
		kf_diag_add(d, KF_ERROR, tarball, 0, 0, "cannot run tar: %s",
			    tmp.n ? tmp.v[0].msg : "");
		rc = -1;
	} else if (status != 0) {
		/* tar's complaint (it may start with a blank line), on one line */
		kf_strbuf why = KF_STRBUF_INIT;
		for (const char *e = kf_strbuf_str(&err); *e;) {
			size_t ln = strcspn(e, "\n");
			if (ln && why.len < 400) {
				if (why.len)
					kf_strbuf_addstr(&why, "; ");
				kf_strbuf_add(&why, e, ln);
			}
			e += ln;
			if (*e)
				e++;
		}
		const char *e = kf_strbuf_str(&why);
		size_t len = why.len;
		if (sig)
			kf_diag_add(d, KF_ERROR, tarball, 0, 0,
				    "tar killed by signal %d while extracting", sig);
		else
			kf_diag_add(d, KF_ERROR, tarball, 0, 0,
				    "cannot extract (tar exit %d)%s%.*s", status,
				    len ? ": " : "", (int)len, e);
		rc = -1;
		kf_strbuf_release(&why);
	}
	kf_diags_release(&tmp);
	kf_strbuf_release(&err);
	return rc;
}

/*
 * Make what tar wrote durable before the rename publishes it: a crash
 * right after the rename must not leave a published tree with empty or
 * missing files.  syncfs() writes back the file system holding dir (one
 * call instead of ~80000 fsyncs).
 */
static int sync_tree(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = syncfs(fd);
	close(fd);
	return rc;
}

/*
 * Writing back while tar writes.  The kernel starts writing dirty pages
 * only when they are 30 s old or a tenth of memory: after a 15-20 s
 * extraction nearly all 1.5 GB are still in memory and sync_tree waited
 * for all of it at once (4-10 s at this machine's disk speed).  A thread
 * calls syncfs() over and over while tar runs, so the disk works at the
 * same time as the CPUs and sync_tree finds little left.
 */
typedef struct writeback {
	pthread_t thr;       /* the syncing thread */
	int fd;              /* the directory tar writes into */
	pthread_mutex_t mu;  /* guards stop */
	pthread_cond_t wake; /* stop was set */
	bool stop;           /* tar is done */
} writeback;

static void *writeback_run(void *arg)
{
	writeback *w = arg;
	pthread_mutex_lock(&w->mu);
	while (!w->stop) {
		pthread_mutex_unlock(&w->mu);
		syncfs(w->fd);
		pthread_mutex_lock(&w->mu);
		/* a pause, so that a disk that keeps up is not flushed
		   continually */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 250 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		while (!w->stop && pthread_cond_timedwait(&w->wake, &w->mu, &ts) == 0)
			;
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* Start writing back what lands in dir; false when it cannot (then
 * sync_tree does it all). */
static bool writeback_start(writeback *w, const char *dir)
{
	memset(w, 0, sizeof(*w));
	w->fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w->fd < 0)
		return false;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->wake, NULL);
	if (pthread_create(&w->thr, NULL, writeback_run, w) != 0) {
		pthread_mutex_destroy(&w->mu);
		pthread_cond_destroy(&w->wake);
		close(w->fd);
		return false;
	}
	return true;
}

static void writeback_stop(writeback *w)
{
	pthread_mutex_lock(&w->mu);
	w->stop = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thr, NULL);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->wake);
	close(w->fd);
}

/* fsync a directory: its new entry (the rename) is on disk. */
static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* The archive's single top directory inside dir, else dir itself. */
static char *tree_inside(const char *dir)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return kf_xstrdup(dir);
	char *only = NULL;
	size_t count = 0;
	struct dirent *de;
	while ((de = readdir(dh))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (count++ == 0)
			only = kf_xstrdup(de->d_name);
	}
	closedir(dh);
	char *r = NULL;
	if (count == 1) {
		/* a directory, not a link to one: the tree stays in the cache */
		char *p = kf_xasprintf("%s/%s", dir, only);
		struct stat st;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			r = p;
		else
			free(p);
	}
	free(only);
	return r ? r : kf_xstrdup(dir);
}

char *kf_tree_extract(const char *tarball, const char *cache_dir,
		      kf_tree_progress_fn *progress, void *ctx, kf_diags *d)
{
	const struct tar_kind *kind = tar_kind_of(tarball);
	if (!kind) {
		kf_diag_add(d, KF_ERROR, tarball, 0, 0,
			    "not a tarball (want .tar.xz, .tar.gz, .tar.bz2 or .tar)");
		return NULL;
	}
	char *abs_tar = realpath(tarball, NULL);
	struct stat st;
	if (!abs_tar || stat(abs_tar, &st) < 0) {
		kf_diag_add(d, KF_ERROR, tarball, 0, 0, "cannot access: %s",
			    strerror(errno));
		free(abs_tar);
		return NULL;
	}
	char *cache = cache_dir ? kf_xstrdup(cache_dir) : kf_cache_dir(d);
	if (!cache) {
		free(abs_tar);
		return NULL;
	}

	/* NAME-KEY: the key changes with a new package version */
	const char *base = strrchr(abs_tar, '/') + 1;
	char *name = kf_xstrndup(base, strlen(base) - strlen(kind->suffix));
	char *id = kf_xasprintf("%lld:%lld:%llu", (long long)st.st_size,
				(long long)st.st_mtime,
				(unsigned long long)st.st_ino);
	char *trees = kf_xasprintf("%s/trees", cache);
	char *dir = kf_xasprintf("%s/%s-%08x", trees, name, kf_hash_str(id));
	char *lock = kf_xasprintf("%s.lock", dir);
	char *tmp = kf_xasprintf("%s.tmp", dir);
	char *result = NULL;
	int lfd = -1;

	/* the cache dir is ours (kf_cache_dir); what is inside must be too:
	 * a tree found here is configured, its $(shell,...) run */
	if (kf_cache_trust(trees, d) < 0 || kf_cache_trust(dir, d) < 0 ||
	    kf_cache_trust(lock, d) < 0)
		goto fail;
	if (kf_is_dir(dir))
		goto done;
	if (kf_mkdir_p(trees, 0700) < 0) {
		kf_diag_add(d, KF_ERROR, trees, 0, 0, "cannot create: %s",
			    strerror(errno));
		goto fail;
	}
	lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
	if (lfd < 0) {
		kf_diag_add(d, KF_ERROR, lock, 0, 0, "cannot open lock file: %s",
			    strerror(errno));
		goto fail;
	}
	if (lock_wait_quietly(lfd) && progress) {
		/* a stopped or slow kfit holds it: say what is awaited */
		char *msg = kf_xasprintf("waiting for another kfit to finish extracting %s "
					 "into %s (it holds %s)", abs_tar, dir, lock);
		progress(msg, ctx);
		free(msg);
	}
	while (flock(lfd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			kf_diag_add(d, KF_ERROR, lock, 0, 0, "cannot lock: %s",
				    strerror(errno));
			goto fail;
		}
	}
	/* another process may have finished while we waited */
	if (kf_cache_trust(dir, d) < 0)
		goto fail;
	if (kf_is_dir(dir))
		goto done;
	/* we hold the lock, and a tar holds it as long as it runs: any temp
	 * dir is left from a killed run.  What cannot be removed is moved
	 * aside, so a stale extraction never blocks a new one. */
	if (remove_tree(tmp) < 0) {
		char *aside = kf_xasprintf("%s.stale-%ld", tmp, (long)getpid());
		if (rename(tmp, aside) < 0) {
			kf_diag_add(d, KF_ERROR, tmp, 0, 0,
				    "cannot remove a stale extraction: %s", strerror(errno));
			free(aside);
			goto fail;
		}
		remove_tree(aside);
		free(aside);
	}
	if (mkdir(tmp, 0700) < 0) {
		kf_diag_add(d, KF_ERROR, tmp, 0, 0, "cannot create: %s",
			    strerror(errno));
		goto fail;
	}
	if (progress) {
		char *msg = kf_xasprintf("extracting %s into %s ...", abs_tar, dir);
		progress(msg, ctx);
		free(msg);
	}
	writeback wb;
	bool wb_on = writeback_start(&wb, tmp);
	int trc = run_tar(abs_tar, kind->flag, tmp, lfd, d);
	if (wb_on)
		writeback_stop(&wb);
	if (trc < 0) {
		remove_tree(tmp);
		goto fail;
	}
	if (sync_tree(tmp) < 0) {
		kf_diag_add(d, KF_ERROR, tmp, 0, 0, "cannot write the extraction to disk: %s",
			    strerror(errno));
		remove_tree(tmp);
		goto fail;
	}
	if (rename(tmp, dir) < 0) {
		kf_diag_add(d, KF_ERROR, dir, 0, 0, "cannot rename into place: %s",
			    strerror(errno));
		remove_tree(tmp);
		goto fail;
	}
	sync_dir(trees);
done:
	result = tree_inside(dir);
fail:
	if (lfd >= 0)
		close(lfd); /* releases the lock */
	free(abs_tar);
	free(cache);
	free(name);
	free(id);
	free(trees);
	free(dir);
	free(lock);
	free(tmp);
	return result;
}

/* ---------------- resolution ---------------- */

/*
 * A tree from a user-given place (-k or $KFIT_KERNEL): a kernel directory
 * or a tarball.  what names the place in error messages.
 */
static char *tree_from(const char *path, const char *what,
		       const kf_tree_search *s, kf_diags *d)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		kf_diag_add(d, KF_ERROR, path, 0, 0, "%s: cannot access: %s", what,
			    strerror(errno));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		if (!kf_tree_is_kernel(path)) {
			kf_diag_add(d, KF_ERROR, path, 0, 0,
				    "%s: not a kernel tree (want Kconfig, Makefile and scripts/kconfig/)",
				    what);
			return NULL;
		}
		char *r = realpath(path, NULL);
		if (!r)
			kf_diag_add(d, KF_ERROR, path, 0, 0, "%s: cannot resolve: %s",
				    what, strerror(errno));
		return r;
	}
	if (!kf_tree_is_tarball_name(path)) {
		kf_diag_add(d, KF_ERROR, path, 0, 0,
			    "%s: neither a kernel tree nor a tarball (.tar.xz, .tar.gz, .tar.bz2, .tar)",
			    what);
		return NULL;
	}
	char *r = kf_tree_extract(path, s->cache_dir, s->progress, s->ctx, d);
	if (r && !kf_tree_is_kernel(r)) {
		kf_diag_add(d, KF_ERROR, path, 0, 0,
			    "%s: the tarball holds no kernel tree (want Kconfig, Makefile and scripts/kconfig/)",
			    what);
		free(r);
		return NULL;
	}
	return r;
}

char *kf_tree_find(const kf_tree_search *s, kf_diags *d)
{
	if (s->explicit_path && *s->explicit_path)
		return tree_from(s->explicit_path, "-k", s, d);
	if (s->cwd && kf_tree_is_kernel(s->cwd)) {
		char *r = realpath(s->cwd, NULL);
		if (r)
			return r;
	}
	if (s->env_kernel && *s->env_kernel)
		return tree_from(s->env_kernel, "KFIT_KERNEL", s, d);
	if (s->src_dirs[0]) {
		char *tar = kf_tree_newest_tarball_in(s->src_dirs);
		if (tar) {
			char *r = tree_from(tar, "linux-source", s, d);
			free(tar);
			return r;
		}
	}
	kf_diag_add(d, KF_ERROR, NULL, 0, 0, "%s", no_tree_msg);
	return NULL;
}

char *kf_tree_find_default(const char *explicit_path, kf_tree_progress_fn *progress,
			   void *ctx, kf_diags *d)
{
	char *cwd = getcwd(NULL, 0);
	/* scripts/fetch-kernel-debs.sh unpacks Debian packages here */
	kf_diags quiet = KF_DIAGS_INIT;
	char *cache = kf_cache_dir(&quiet);
	char *debs = cache ? kf_xasprintf("%s/debs/usr/src", cache) : NULL;
	kf_diags_release(&quiet);
	kf_tree_search s = {
		.explicit_path = explicit_path,
		.cwd = cwd,
		.env_kernel = getenv("KFIT_KERNEL"),
		.src_dirs = {"/usr/src", debs, NULL},
		.cache_dir = NULL,
		.progress = progress,
		.ctx = ctx,
	};
	char *r = kf_tree_find(&s, d);
	free(cwd);
	free(cache);
	free(debs);
	return r;
}

/* ---------------- KERNELVERSION ---------------- */

/*
 * The value of a simple top-level "NAME = value" line in a Makefile, or
 * NULL when there is none.  Trailing blanks and comments are dropped.
 */
static char *make_var(const char *text, const char *name)
{
	size_t nlen = strlen(name);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		if (strncmp(p, name, nlen))
			continue;
		const char *q = p + nlen;
		while (*q == ' ' || *q == '\t')
			q++;
		if (q[0] == ':' && q[1] == '=')
			q++;
		if (*q != '=')
			continue;
		q++;
		while (*q == ' ' || *q == '\t')
			q++;
		size_t len = strcspn(q, "#\n");
		while (len && (q[len - 1] == ' ' || q[len - 1] == '\t' ||
			       q[len - 1] == '\r'))
			len--;
		return kf_xstrndup(q, len);
	}
	return NULL;
}

char *kf_tree_kernelversion(const char *srctree, kf_diags *d)
{
	char *path = kf_xasprintf("%s/Makefile", srctree);
	kf_strbuf mk = KF_STRBUF_INIT;
	if (kf_read_file(path, &mk, d) < 0) {
		free(path);
		return NULL;
	}
	const char *text = kf_strbuf_str(&mk);
	char *v = make_var(text, "VERSION");
	char *pl = make_var(text, "PATCHLEVEL");
	char *sl = make_var(text, "SUBLEVEL");
	char *ev = make_var(text, "EXTRAVERSION");
	char *r = NULL;
	if (!v || !*v) {
		kf_diag_add(d, KF_ERROR, path, 0, 0,
			    "no VERSION line: not a kernel Makefile");
	} else {
		/* $(VERSION)$(if $(PATCHLEVEL),.$(PATCHLEVEL)$(if $(SUBLEVEL),
		 * .$(SUBLEVEL)))$(EXTRAVERSION), as the top Makefile says */
		kf_strbuf sb = KF_STRBUF_INIT;
		kf_strbuf_addstr(&sb, v);
		if (pl && *pl) {
			kf_strbuf_addf(&sb, ".%s", pl);
			if (sl && *sl)
				kf_strbuf_addf(&sb, ".%s", sl);
		}
		if (ev)
			kf_strbuf_addstr(&sb, ev);
		r = kf_strbuf_detach(&sb);
	}
	free(v);
	free(pl);
	free(sl);
	free(ev);
	free(path);
	kf_strbuf_release(&mk);
	return r;
}

bool kf_tree_is_extracted(const char *tree)
{
	char *dir = kf_xstrdup(tree);
	char *sl = strrchr(dir, '/');
	bool yes = false;
	if (sl && sl != dir) {
		*sl = 0; /* CACHE/trees/NAME-KEY */
		char *lock = kf_xasprintf("%s.lock", dir);
		char *up = strrchr(dir, '/');
		yes = up && up - dir >= 6 && !strncmp(up - 6, "/trees", 6) && kf_exists(lock);
		free(lock);
	}
	free(dir);
	return yes;
}

/*
 * util.h - the small pieces every part of libkfit shares: an arena, a
 * growable string buffer, a diagnostics list, hashing and file I/O that
 * understands compressed configs and writes atomically.
 *
 * Nothing here prints or exits.  Allocation failure ends the program (as
 * git's xmalloc does): there is no sensible recovery from it in a config
 * tool; the front end's handler says so, else abort().
 */
#ifndef KFIT_UTIL_H
#define KFIT_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define KF_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define KF_PRINTF(a, b)
#endif

/* What a failed allocation of n bytes calls; it must not return (nor
 * allocate).  Process-wide, set once by the program before anything else;
 * unset: abort(). */
typedef void kf_oom_fn(size_t n);
void kf_set_oom_handler(kf_oom_fn *fn);

void *kf_xmalloc(size_t n);
void *kf_xcalloc(size_t n, size_t sz);
void *kf_xrealloc(void *p, size_t n);
char *kf_xstrdup(const char *s);
char *kf_xstrndup(const char *s, size_t n);
char *kf_xasprintf(const char *fmt, ...) KF_PRINTF(1, 2);

/* Grow a vector: *v holds *alloc elements of size sz; make room for need. */
#define KF_GROW(v, need, alloc)                                                  \
	do {                                                                     \
		if ((size_t)(need) > (alloc)) {                                  \
			size_t kf_na_ = (alloc) ? (alloc) * 2 : 8;               \
			while (kf_na_ < (size_t)(need))                          \
				kf_na_ *= 2;                                     \
			(v) = kf_xrealloc((v), kf_na_ * sizeof(*(v)));           \
			(alloc) = kf_na_;                                        \
		}                                                                \
	} while (0)

/* ---- arena: many small allocations freed at once ---- */
typedef struct kf_arena kf_arena;

kf_arena *kf_arena_new(void);
/* An arena that will be large (a parsed kernel tree: ~25 MB): 2 MB blocks
 * in huge pages from the first allocation on. */
kf_arena *kf_arena_new_large(void);
void kf_arena_free(kf_arena *a);
void *kf_arena_alloc(kf_arena *a, size_t n); /* zeroed, 8-byte aligned */
char *kf_arena_strdup(kf_arena *a, const char *s);
char *kf_arena_strndup(kf_arena *a, const char *s, size_t n);
char *kf_arena_printf(kf_arena *a, const char *fmt, ...) KF_PRINTF(2, 3);
size_t kf_arena_used(const kf_arena *a); /* bytes handed out so far */

/* ---- strbuf: growable, always NUL-terminated once used ---- */
typedef struct kf_strbuf {
	char *buf;    /* the bytes; NULL until something is added */
	size_t len;   /* bytes used, not counting the NUL */
	size_t alloc; /* bytes allocated */
} kf_strbuf;

#define KF_STRBUF_INIT {NULL, 0, 0}

void kf_strbuf_grow(kf_strbuf *sb, size_t extra);
void kf_strbuf_add(kf_strbuf *sb, const void *data, size_t n);
void kf_strbuf_addstr(kf_strbuf *sb, const char *s);
void kf_strbuf_addch(kf_strbuf *sb, int c);
void kf_strbuf_addf(kf_strbuf *sb, const char *fmt, ...) KF_PRINTF(2, 3);
void kf_strbuf_vaddf(kf_strbuf *sb, const char *fmt, va_list ap);
void kf_strbuf_reset(kf_strbuf *sb);   /* len = 0, keep memory */
void kf_strbuf_release(kf_strbuf *sb); /* free memory */
char *kf_strbuf_detach(kf_strbuf *sb); /* caller owns the string */
const char *kf_strbuf_str(const kf_strbuf *sb); /* "" when empty */

/* ---- diagnostics: returned by the library, printed by src/ ---- */
typedef enum kf_severity {
	KF_NOTE,
	KF_WARNING,
	KF_ERROR,
} kf_severity;

typedef struct kf_diag {
	kf_severity sev; /* how bad */
	char *file;      /* file the problem is in, or NULL */
	int line;        /* 1-based line, 0 when unknown */
	int col;         /* 1-based column, 0 when unknown */
	char *msg;       /* lower-case message without trailing full stop */
	char *raw;       /* when set: print exactly this (kernel-format text) */
} kf_diag;

typedef struct kf_diags {
	kf_diag *v;   /* the diagnostics in the order they happened */
	size_t n;     /* how many */
	size_t alloc; /* capacity of v */
	size_t nerr;  /* how many have KF_ERROR */
} kf_diags;

#define KF_DIAGS_INIT {NULL, 0, 0, 0}

void kf_diag_add(kf_diags *d, kf_severity sev, const char *file, int line,
		 int col, const char *fmt, ...) KF_PRINTF(6, 7);
void kf_diag_vadd(kf_diags *d, kf_severity sev, const char *file, int line,
		  int col, const char *fmt, va_list ap);
/* A message whose text must match another tool's output exactly. */
void kf_diag_raw(kf_diags *d, kf_severity sev, const char *fmt, ...)
	KF_PRINTF(3, 4);
void kf_diags_release(kf_diags *d);
/* Append from's diagnostics to d in their order; from is left empty. */
void kf_diags_move(kf_diags *d, kf_diags *from);
/* Format one diagnostic as "file:line:col: severity: msg" (or raw). */
void kf_diag_format(const kf_diag *dg, kf_strbuf *out);

/* ---- hashing: FNV-1a, 32 bits ---- */
#define KF_HASH_INIT 2166136261u
/* One byte more of a hash started at KF_HASH_INIT (for keys that are
 * normalized while hashed). */
static inline uint32_t kf_hash_step(uint32_t h, unsigned char c)
{
	return (h ^ c) * 16777619u;
}
uint32_t kf_hash_str(const char *s);
uint32_t kf_hash_mem(const void *p, size_t n);

/* ---- files ---- */
/*
 * Read a whole file.  Gzip and xz content (by magic bytes) is decompressed.
 * At most 64 MiB are read (or decompressed): more is an error.  On an
 * error out is left as it was (nothing to release when it was empty).
 * Returns 0, or -1 with an error added to d.
 */
int kf_read_file(const char *path, kf_strbuf *out, kf_diags *d);

/*
 * Write data to path without ever leaving path missing or half-written:
 * write a temp file (mkstemp) beside it, fsync, keep the previous content
 * as "<path>.old" when keep_old, rename the temp over path.  A path that
 * exists and is not a regular file (a device, a FIFO, /dev/full, a link to
 * one) or that leads through /proc (/proc/self/fd/N, /dev/stdout: an open
 * file) is written in place, never replaced; this process's own
 * descriptor is written at its offset.  Returns 0, or -1 with an error
 * added to d.
 */
int kf_write_file_atomic(const char *path, const void *data, size_t len,
			 bool keep_old, kf_diags *d);
/* True when kf_write_file_atomic writes path in place (see above). */
bool kf_output_in_place(const char *path);
/*
 * True when path is a regular file (not through /proc) whose bytes on
 * disk are exactly data: never reads a FIFO, a device or a pipe, and
 * compares raw bytes (a compressed file never equals its text).
 */
bool kf_file_same(const char *path, const void *data, size_t len);

/* True when path exists and names a directory. */
bool kf_is_dir(const char *path);
/* True when path exists (any type). */
bool kf_exists(const char *path);
/* The per-user cache dir ($KFIT_CACHE_DIR, $XDG_CACHE_HOME/kfit,
 * $HOME/.cache/kfit), created when missing; NULL with an error in d. */
char *kf_cache_dir(kf_diags *d);
/*
 * The cache dir is created 0700 and refused (NULL, with a message saying
 * why and what to do) when it is owned by another user or writable by
 * group or others: a tree or a $(shell,...) result planted there would be
 * trusted.  kf_cache_trust checks one entry inside it the same way (and
 * refuses a symbolic link); 0 when path is missing or trusted, else -1
 * with an error in d.
 */
int kf_cache_trust(const char *path, kf_diags *d);

/*
 * Self-validating cache entries: a header with KIND, VERSION, the data's
 * length and CRC-32, the data, an end marker.  kf_cache_read returns 0 and
 * the data, 1 when there is no entry, -1 when the entry cannot be used
 * (*why, malloc'd: truncated, corrupted, another version, not owned by
 * this user or writable by others, not a regular file...): a miss the
 * caller repairs by writing it again.  kf_cache_write writes one
 * atomically with mode 0600.
 */
int kf_cache_read(const char *path, const char *kind, unsigned version,
		  kf_strbuf *data, char **why);
int kf_cache_write(const char *path, const char *kind, unsigned version,
		   const void *data, size_t len, kf_diags *d);
/* The envelope alone (fuzzing, tests): seal appends it to out; unseal
 * points *data at the data inside buf, or returns -1 with a static *why. */
void kf_cache_seal(kf_strbuf *out, const char *kind, unsigned version,
		   const void *data, size_t len);
int kf_cache_unseal(const char *buf, size_t n, const char *kind,
		    unsigned version, const char **data, size_t *len,
		    const char **why);
/* mkdir -p; returns 0 or -1 (errno set). */
int kf_mkdir_p(const char *path, unsigned mode);

/* How many workers to run at once: $env_var when it is a whole number
 * from 1 to 256, else the CPUs online (1 to 64). */
int kf_jobs(const char *env_var);

#endif

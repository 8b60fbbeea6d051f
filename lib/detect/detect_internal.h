/*
 * detect_internal.h - what the detect_*.c files share and nobody else
 * needs: the small C preprocessor of detect_cpp.c (tokens, #defines,
 * expansion, expression evaluation) and the alias database helpers.
 */
#ifndef KFIT_DETECT_INTERNAL_H
#define KFIT_DETECT_INTERNAL_H

#include "kfit/detect.h"
#include "kfit/util.h"

#include <stdbool.h>
#include <stddef.h>

/* Kind of a C token. */
typedef enum dcpp_kind {
	DCPP_ID,    /* identifier or keyword */
	DCPP_NUM,   /* number literal */
	DCPP_STR,   /* string literal, quotes kept */
	DCPP_CHR,   /* character literal, quotes kept */
	DCPP_PUNCT, /* punctuator */
	DCPP_HASH,  /* # */
	DCPP_PASTE, /* ## */
} dcpp_kind;

typedef struct dcpp_tok {
	dcpp_kind kind; /* what it is */
	char *s;        /* its text (malloc'd) */
	int line;       /* 1-based line it starts on */
} dcpp_tok;

typedef struct dcpp_toks {
	dcpp_tok *v;  /* tokens */
	size_t n;     /* how many */
	size_t alloc; /* capacity */
} dcpp_toks;

typedef struct dcpp_defs dcpp_defs;

/* Tokenize s (comments already stripped); line is the first line number. */
void dcpp_tokenize(const char *s, size_t n, int line, dcpp_toks *out);
void dcpp_toks_release(dcpp_toks *t);
/* Blank out comments in place, keeping newlines (line numbers stay). */
void dcpp_strip_comments(char *s, size_t n);

/* A macro table; lookups fall back to parent. */
dcpp_defs *dcpp_defs_new(const dcpp_defs *parent);
/* Make lookups in d fall back to parent from now on. */
void dcpp_defs_set_parent(dcpp_defs *d, const dcpp_defs *parent);
void dcpp_defs_free(dcpp_defs *d);
/* Add the #defines (and #undefs) of comment-stripped text in order, each
 * at its offset; inc hears #includes ("quoted" or <angle>) with the offset
 * of the directive. */
void dcpp_collect(dcpp_defs *d, const char *s, size_t n,
		  void (*inc)(const char *name, bool angle, size_t pos, void *ctx),
		  void *ctx);
/* Lookups in d see only definitions at offsets below limit and #undefs
 * below undef_limit (SIZE_MAX: all). */
void dcpp_defs_set_limit(dcpp_defs *d, size_t limit, size_t undef_limit);
/* Definitions added from now on count as written at pos (an #include's
 * place); SIZE_MAX: their own offsets. Returns the previous value. */
size_t dcpp_defs_set_pos_base(dcpp_defs *d, size_t pos);
/* Macro-expand in->v[from..to) onto out. */
void dcpp_expand(const dcpp_defs *d, const dcpp_toks *in, size_t from,
		 size_t to, dcpp_toks *out);
/* Evaluate an integer constant expression; false when not understood. */
bool dcpp_eval_int(const dcpp_toks *t, size_t from, size_t to, long long *v);
/* Concatenated string literals (parentheses allowed), malloc'd, or NULL. */
char *dcpp_eval_str(const dcpp_toks *t, size_t from, size_t to);

/* alias database helpers (detect_alias.c) */
kf_alias *kf_aliasdb_add(kf_aliasdb *db, const char *pattern, const char *module,
			 const char *part_symbol, const char *file, int line,
			 kf_alias_origin origin);
/* The module entry for name, created when missing. */
kf_modinfo *kf_aliasdb_module_get(kf_aliasdb *db, const char *name);
void kf_modinfo_add_firmware(kf_aliasdb *db, kf_modinfo *m, const char *fw);
/* Append what part found to db, as if db had found it next: modules in
 * part's order (a module's object, symbol and Makefile line only when db
 * has none yet), firmware and aliases in order, the counts added.  The
 * parallel scan merges its chunks with it, in file order. */
void kf_aliasdb_merge(kf_aliasdb *db, const kf_aliasdb *part);
/* Module and driver names compare with '-' and '_' equal, as kmod does. */
bool kf_modname_eq(const char *a, const char *b);
/* Does al name the driver bound ("driver:NAME" of a PCI, USB or HID
 * driver, "platform:NAME" of a platform driver)? */
bool kf_alias_names_driver(const kf_alias *al, const char *bound);
/* Does one of module's aliases name the driver bound?  (The aliases are
 * indexed by driver, module and bus on first use.) */
bool kf_aliasdb_module_drives(const kf_aliasdb *db, const char *module, const char *bound);
/* Does alias al point at the driver bound to a device of this modalias:
 * it names the driver, or it is the driver's module's alias on the
 * device's bus ("pci:")? */
bool kf_alias_is_bound(const kf_alias *al, const char *bound, const char *modalias);
/* The first alias (in database order) kf_alias_is_bound for a device,
 * or SIZE_MAX. */
size_t kf_aliasdb_bound_alias(const kf_aliasdb *db, const char *bound, const char *modalias);
/* The alias cache's stamp of the files a scan read (paths relative to
 * tree, or absolute) into out: an "S" line with a hash of every path's
 * mtime, size and inode (or its absence), then an "F" line per
 * path.  kf_aliasdb_load stats them again: any change, and the cache
 * entry is not used. */
void kf_aliasdb_stamps(const char *tree, char *const *paths, size_t n, kf_strbuf *out);
/* Cache I/O: write/read db's source part as text, with stamps (the text
 * of kf_aliasdb_stamps, or NULL). */
int kf_aliasdb_save(const kf_aliasdb *db, const char *stamps, const char *path, kf_diags *d);
/* 0 loaded; -2 the cache entry is unusable (truncated, corrupted, another
 * version, not ours, or a file its stamp covers changed: nothing loaded,
 * scan again); -1 missing or an error. */
int kf_aliasdb_load(kf_aliasdb *db, const char *path, kf_diags *d);
/* The table's text, without the cache envelope (fuzzing); takes text. */
int kf_aliasdb_parse(kf_aliasdb *db, kf_strbuf *text, const char *path, kf_diags *d);

#endif

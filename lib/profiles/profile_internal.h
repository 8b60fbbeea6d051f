/*
 * profile_internal.h - what the profile parser, resolver and checker share
 * and nobody else needs: statements of a profile and the database layout.
 */
#ifndef KFIT_PROFILE_INTERNAL_H
#define KFIT_PROFILE_INTERNAL_H

#include "kfit/profile.h"

/* What a line of a profile does. */
typedef enum prof_stmt_kind {
	PROF_ST_REQ,     /* require / recommend / override */
	PROF_ST_DROP,    /* drop SYMBOL */
	PROF_ST_INCLUDE, /* include NAME */
	PROF_ST_ABSENT,  /* absent SYMBOL: the release's kernel lacks it */
} prof_stmt_kind;

struct prof_stmt {
	prof_stmt_kind kind;  /* which statement */
	prof_req *req;        /* PROF_ST_REQ: the requirement as written */
	const char *name;     /* drop, absent: the symbol; include: the profile */
	const char *reason;   /* drop/absent/include: why (drop, absent:
				 mandatory) */
	const char **sources; /* drop/absent/include: documents (absent:
				 mandatory) */
	size_t nsources;      /* how many sources */
	prof_cond cond;       /* drop: kernel range etc. it is limited to */
	prof_loc loc;         /* the statement's first column */
	prof_loc name_loc;    /* where name is written */
};

/* Which profiles a file defined. */
typedef struct prof_file {
	const char *path;    /* as given */
	const char **names;  /* profile names in order */
	size_t n;            /* how many */
	size_t alloc;        /* capacity of names */
} prof_file;

/* Where a Kconfig symbol is known to exist (profiles/symbols.kfit): from
 * `first` (exact, or the oldest release found to have it) up to `gone`
 * (the first release without it, exact or the first not known to have
 * it); a symbol may have several spans. */
typedef struct prof_symspan {
	const char *sym;      /* the symbol, without CONFIG_ */
	uint32_t first;       /* first kernel version with it (KF_KVER) */
	bool first_exact;     /* first=: the release that added it; first<=:
				 found in that release, may be older */
	uint32_t gone;        /* first version without it, 0: still there */
	bool gone_exact;      /* gone=: removed there; gone>=: not known to
				 exist from there on */
	const char *reason;   /* optional: the evidence in words */
	const char **sources; /* optional: documents */
	size_t nsources;      /* how many sources */
	prof_loc loc;         /* where the statement is written */
} prof_symspan;

struct prof_db {
	kf_arena *arena;       /* every string and struct of the database */
	prof_profile **profs;  /* profiles in load order */
	size_t n;              /* how many */
	size_t alloc;          /* capacity of profs */
	prof_rename *renames;  /* renames in load order */
	size_t nren;           /* how many */
	size_t renalloc;       /* capacity of renames */
	prof_symspan *spans;   /* symbol history, in load order */
	size_t nspans;         /* how many */
	size_t spanalloc;      /* capacity of spans */
	prof_file *files;      /* files loaded */
	size_t nfiles;         /* how many */
	size_t filesalloc;     /* capacity of files */
	const char *root;      /* first directory added, or NULL */
};

/* Append to sb the names (up to three) spelled nearest to name, a typo
 * away (at most a third of it wrong): "debian-12" for "debain-12"; how
 * many (0: none is that near). */
size_t prof_db_similar(const prof_db *db, const char *name, kf_strbuf *sb);

/* Append to an arena-less vector of pointers (malloc'd). */
#define PROF_PUSH(v, n, alloc, x)                                                \
	do {                                                                     \
		KF_GROW((v), (n) + 1, (alloc));                                  \
		(v)[(n)++] = (x);                                                \
	} while (0)

#endif

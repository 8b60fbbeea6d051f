/*
 * solve.h - the resolver: make a profile set's requirements land in a
 * kernel tree's configuration, minimally, with an explanation for every
 * change and a named chain for every requirement that cannot be met.
 *
 * It searches with the Kconfig engine's own evaluator: to turn a symbol on
 * it satisfies one of its prompts' conditions (recursively, trying every
 * alternative of an `||` and keeping the one that changes least), or one of
 * the symbols that select it; to turn a symbol off it turns off whatever
 * selects it and then the symbol itself.  Symbols that requirements pin are
 * never moved against them.  Every step is re-evaluated by the exact engine.
 */
#ifndef KFIT_SOLVE_H
#define KFIT_SOLVE_H

#include "kfit/kconfig.h"
#include "kfit/profile.h"
#include "kfit/util.h"

/* One symbol whose value differs from the base. */
typedef struct kf_change {
	const char *sym;    /* symbol name */
	const char *from;   /* value in the base ("n", "y", "\"x\"", "absent") */
	const char *to;     /* value in the result */
	const char *why;    /* one line: requirement or how it followed */
	const prof_req *req; /* the requirement behind it, or NULL */
	const char *path;   /* dependency path from the requirement, or NULL */
	const char *group;  /* distro, init, platform, feature, hardware,
			       dependencies, base */
} kf_change;

/* A requirement that could not be met. */
typedef struct kf_unmet {
	const prof_req *req; /* the requirement */
	const char *chain;   /* what blocks it, with places */
} kf_unmet;

/* A recommendation that was not applied. */
typedef struct kf_skipped {
	const prof_req *req; /* the recommendation */
	const char *why;     /* what it conflicts with */
} kf_skipped;

typedef struct kf_gen_opts {
	kc_tree *tree;        /* the loaded tree (its base already computed) */
	prof_db *db;          /* profile database (renames, lookups) */
	prof_set *set;        /* requirements to apply */
	const char *arch;     /* ARCH, for arch conditions */
	int initramfs;        /* PROF_INITRAMFS_*: UNKNOWN follows the set */
	bool minimize;        /* put back every change no requirement needs */
	bool check_minimal;   /* afterwards, list changes that could go back */
} kf_gen_opts;

typedef struct kf_gen_result {
	kf_change *changes;   /* every symbol that differs from the base */
	size_t nchanges;      /* how many */
	kf_unmet *unmet;      /* requirements that cannot be met */
	size_t nunmet;        /* how many */
	kf_skipped *skipped;  /* recommendations left out */
	size_t nskipped;      /* how many */
	size_t applied;       /* requirements that hold in the result */
	size_t notapplicable; /* requirements for other versions/arches */
	int evaluations;      /* engine re-evaluations the search made */
	const char **not_minimal; /* check_minimal: changes no requirement needs */
	size_t nnot_minimal;  /* how many (0 when minimal) */
	kf_arena *arena;      /* owns the strings above */
} kf_gen_result;

/* Snapshot the base values (call right after computing the base). */
typedef struct kf_base kf_base;
kf_base *kf_base_snapshot(kc_tree *t);
/* Put every answer back as it was in the snapshot. */
void kf_base_restore(kc_tree *t, const kf_base *b);
void kf_base_free(kf_base *b);

/*
 * Apply the requirements to the tree's current values.  Returns 0 when
 * every applicable `require` holds, 1 when some cannot be met (the best
 * partial result stays in the tree), -1 on an internal error.
 */
int kf_generate(const kf_gen_opts *o, const kf_base *base, kf_gen_result *res,
		kf_diags *d);
void kf_gen_result_release(kf_gen_result *res);

/*
 * The profiles' side of `kfit why SYMBOL -p NAME...`, for the tree's
 * current configuration: the applicable requirements that name SYMBOL
 * (and whether each holds), the answers the resolver would make to turn
 * it off (on when it is off), and which requirements that hold now would
 * break then ("needed by").  Nothing is changed.  Returns -1 when the tree
 * has no such symbol.  Uses o->tree, o->db, o->set, o->arch, o->initramfs.
 */
int kf_why_profiles(const kf_gen_opts *o, const char *sym, kf_strbuf *out);

#endif

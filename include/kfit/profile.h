/*
 * profile.h - the profile language and database: what a distro, an init
 * system, a feature or a platform needs from the kernel, and why.
 *
 * A database is a directory of *.kfit files (docs/profiles.md describes the
 * language) plus local files a user adds.  Loading only parses text: a
 * profile never runs anything.  Resolving a list of profile names gives a
 * flat list of requirements (prof_set), each with its reason, its sources,
 * where it was written and the include chain that brought it in; this is
 * what `kfit check` tests a .config against and what the resolver turns
 * into a .config.  Nothing here prints or exits; problems go to kf_diags.
 */
#ifndef KFIT_PROFILE_H
#define KFIT_PROFILE_H

#include "kfit/util.h"
#include "kfit/dotconfig.h"

#include <stdint.h>

/* What a profile describes. */
typedef enum prof_kind {
	PROF_KIND_DISTRO,   /* a distribution release: debian-12, arch */
	PROF_KIND_INIT,     /* an init system: systemd-N, openrc */
	PROF_KIND_FEATURE,  /* something the user runs: docker, btrfs */
	PROF_KIND_PLATFORM, /* where the kernel runs: kvm-guest, laptop */
	PROF_KIND_BASE,     /* a building block other profiles include */
} prof_kind;

/* How much a requirement matters. */
typedef enum prof_level {
	PROF_REQUIRE,   /* the named userspace breaks without it */
	PROF_RECOMMEND, /* wanted, but something still works without it */
} prof_level;

/* The value a requirement wants for one symbol. */
typedef enum prof_want {
	PROF_WANT_ENABLED, /* y or m (written SYMBOL) */
	PROF_WANT_BUILTIN, /* y (written SYMBOL=y) */
	PROF_WANT_OFF,     /* n, "is not set", or absent (SYMBOL=n) */
	PROF_WANT_STRING,  /* exactly this string; "" also holds when absent */
	PROF_WANT_NUMBER,  /* this int or hex value, compared as a number */
	PROF_WANT_AT_LEAST, /* an int value at least this one (detection:
			       NR_CPUS >= the CPUs; no profile syntax) */
	PROF_WANT_CONTAINS, /* a comma-separated list (CONFIG_LSM) that has
			       this item (written SYM contains ITEM) */
	PROF_WANT_LACKS,    /* a list without this item; absent holds
			       (written SYM does not contain ITEM) */
} prof_want;

/* Whether the distro boots through an initramfs. */
typedef enum prof_initramfs {
	PROF_INITRAMFS_UNKNOWN = -1, /* no profile says */
	PROF_INITRAMFS_NO = 0,       /* boots the root filesystem directly */
	PROF_INITRAMFS_YES = 1,      /* loads modules from an initramfs */
} prof_initramfs;

/* A place in a profile file. */
typedef struct prof_loc {
	const char *file; /* path as given when loading, NULL when none */
	int line;         /* 1-based line */
	int col;          /* 1-based column */
} prof_loc;

/* One symbol and value; a requirement holds when any of its alts holds. */
typedef struct prof_alt {
	const char *sym;   /* symbol as written, without CONFIG_ */
	prof_want want;    /* the value kind wanted */
	const char *value; /* STRING/NUMBER: the value (strings unquoted);
			      CONTAINS/LACKS: the list item */
	const char *before; /* CONTAINS: an item the list may hold only after
			       value (`LSM contains apparmor before selinux`:
			       the first major LSM listed is the one the
			       kernel activates), or NULL */
	prof_loc loc;      /* where the symbol is written */
	bool literal;      /* checked under this name in every kernel (the
			      requirement is `literal`), no rename applied */
	unsigned group;    /* alternatives with one group number are adjacent
			      and must all hold (`A && B || C`: A and B are
			      group 0, C group 1); numbered from 0 */
} prof_alt;

/* When a requirement applies. */
typedef struct prof_cond {
	uint32_t kmin;       /* from this kernel version on (KF_KVER), 0: any */
	uint32_t kmax;       /* below this kernel version, 0: any */
	const char **arch;   /* architectures ("x86" covers x86_64 and i386) */
	size_t narch;        /* 0: every architecture */
	const char *if_sym;  /* only when this symbol has if_alt's value
				(`if SYM`: y or m), or NULL */
	const prof_alt *if_alt; /* the whole condition (`if SYM`, `if SYM=n`,
				   `if SYM="text"`, `if SYM contains X`),
				   NULL when if_sym is */
	long pmin;           /* template profiles: from this N on, -1: any */
	long pmax;           /* template profiles: below this N, -1: any */
} prof_cond;

/* One requirement (or recommendation). */
typedef struct prof_req {
	prof_alt *alts;        /* alternatives, at least one */
	size_t nalts;          /* how many */
	prof_level level;      /* require or recommend */
	bool boot;             /* boot-critical: y without initramfs, y/m with */
	bool override;         /* written as `override`: replaces inherited ones */
	bool literal;          /* `literal`: the source tests the names as
				  written, so no rename applies to them
				  (each alternative's literal says it too) */
	prof_cond cond;        /* kernel range, arch, if-symbol */
	const char *reason;    /* who needs it and what breaks without it; one
				  paragraph per `reason` line, separated by
				  '\n' (prof_reason_oneline joins them) */
	const prof_loc *reason_locs; /* where each reason paragraph's text
					starts (lint points into it) */
	size_t nreason_locs;   /* how many: one per `reason` line */
	const char **sources;  /* documents backing the reason */
	size_t nsources;       /* how many sources */
	const char *unverified; /* `unverified TEXT`: what was not checked
				   against the sources (a flag with its own
				   report, never a level); NULL: none */
	const char *reviewed;  /* `reviewed TEXT`: why the reason's words do
				  not contradict the level (silences lint's
				  keyword rule); NULL: none */
	prof_loc loc;          /* where the statement starts */
	const char *profile;   /* profile that states it ("systemd-256") */
	const char **chain;    /* resolved: profile names from the one asked for
				  down to `profile`, with "init:"/"lsm:"/
				  "firewall:" marking slots */
	size_t nchain;         /* length of chain */
	const char *key;       /* newest name of alts[0].sym (renames applied) */
	const struct prof_req *shadowed_by; /* a recommend a require contradicts */
	bool soft;             /* a driver for a device no driver was bound to
				  on the machine: when it cannot be met it is
				  a note (rtc-efi on x86), not a failure */
	bool module;           /* policy: answered m where the symbol can be a
				  module (a driver that loads firmware, on a
				  kernel that boots with an initramfs) */
} prof_req;

/* A symbol rename across kernel versions (profiles/renames.kfit). */
typedef struct prof_rename {
	const char *old_name; /* name before `since` */
	const char *new_name; /* name from `since` on */
	uint32_t since;       /* first kernel version with the new name */
	uint32_t old_gone;    /* first version without the old name, 0: kept */
	const char *reason;   /* what happened */
	const char **sources; /* commits or docs */
	size_t nsources;      /* how many sources */
	prof_loc loc;         /* where the rename is written */
} prof_rename;

typedef struct prof_stmt prof_stmt;

/* One profile as written (templates such as systemd-N not instantiated). */
typedef struct prof_profile {
	const char *name;       /* "debian-12", or "systemd-N" for a template */
	const char *title;      /* one line for listings */
	prof_kind kind;         /* distro, init, feature, platform, base */
	const char *stem;       /* template: "systemd"; NULL otherwise */
	long vmin;              /* template: smallest N accepted */
	long vmax;              /* template: first N not accepted, -1: none */
	const char *inherit;    /* profile whose everything this one starts from */
	prof_loc inherit_loc;   /* where `inherit` is written */
	const char *init;       /* init slot: profile name, "none", or NULL */
	const char *lsm;        /* LSM slot: profile name, "none", or NULL */
	const char *firewall;   /* firewall slot: profile name, "none", or NULL */
	prof_loc slot_loc[3];   /* where init, lsm, firewall are written */
	int initramfs;          /* prof_initramfs; UNKNOWN when not written */
	uint32_t kmin;          /* distro: first kernel it ships, 0: unknown */
	uint32_t kmax;          /* distro: first kernel it no longer ships */
	const char **arch;      /* distro: architectures it ships */
	size_t narch;           /* how many */
	const char **sources;   /* documents about the profile as a whole */
	size_t nsources;        /* how many */
	prof_stmt *stmts;       /* includes, requirements, drops, in order */
	size_t nstmts;          /* how many */
	prof_loc loc;           /* where `profile` is written */
	bool local;             /* from a user's local file (--local) */
} prof_profile;

typedef struct prof_db prof_db;

/* A symbol a distro release's own kernels lack although mainline has it
 * at their version: `absent SYM` (a backport removed or replaced it, as
 * CentOS Stream 9's 5.14 took 6.6's single microcode loader and has no
 * MICROCODE_AMD).  Checking a config of that release's kernel range, a
 * requirement every alternative of which names such a symbol does not
 * apply; a kernel tree (generate) says itself what it has. */
typedef struct prof_absent {
	const char *sym;      /* the symbol, as written */
	const char *newest;   /* its newest name (renames applied) */
	const char *profile;  /* the release that says so */
	const char *reason;   /* why: the backport */
	const char **sources; /* documents: the release's config, the change */
	size_t nsources;      /* how many */
	prof_loc loc;         /* where `absent` is written */
} prof_absent;

/* A resolved list of requirements for one or more profiles. */
typedef struct prof_set {
	prof_req **reqs;        /* requirements in a stable order */
	size_t n;               /* how many */
	const char **names;     /* the profiles asked for, as resolved */
	size_t nnames;          /* how many */
	int initramfs;          /* habit of the distro profiles, prof_initramfs */
	uint32_t kmin;          /* kernel range a distro profile ships, 0: any */
	uint32_t kmax;          /* first version past that range, 0: any */
	const char *init;       /* effective init slot of the distro, or NULL */
	const char *lsm;        /* effective LSM slot, or NULL */
	const char *firewall;   /* effective firewall slot, or NULL */
	const prof_absent *absent; /* the distro release's `absent` symbols,
				      its own and inherited ones */
	size_t nabsent;         /* how many */
	kf_arena *arena;        /* owns the copies above */
} prof_set;

/* ---- the database ---- */
prof_db *prof_db_new(void);
void prof_db_free(prof_db *db);
/* Parse one file; errors (file:line:col) go to d.  Returns 0 or -1. */
int prof_db_add_file(prof_db *db, const char *path, kf_diags *d);
/* The same for a user's local file (--local): a requirement, drop or
 * rename without a source is a warning there, not an error. */
int prof_db_add_local(prof_db *db, const char *path, kf_diags *d);
/* Parse text as if read from name (tests, stdin). */
int prof_db_add_text(prof_db *db, const char *name, const char *text,
		     size_t len, kf_diags *d);
/* Add every *.kfit under dir (sorted, recursively).  Returns 0 or -1.
 * The first directory added is the database's root (prof_db_relpath). */
int prof_db_add_dir(prof_db *db, const char *dir, kf_diags *d);
/* FILE relative to the database's root ("init/systemd.kfit") when it is
 * below it, else FILE itself: locations for text others read. */
const char *prof_db_relpath(const prof_db *db, const char *file);
/* A reason on one line: its paragraphs joined with "; ", appended to sb. */
void prof_reason_oneline(const char *reason, kf_strbuf *sb);
/* Profiles in load order. */
size_t prof_db_count(const prof_db *db);
const prof_profile *prof_db_get(const prof_db *db, size_t i);
/* Renames. */
size_t prof_db_nrenames(const prof_db *db);
const prof_rename *prof_db_rename(const prof_db *db, size_t i);
/* The profiles a file defined, by name (for `-p file.kfit`). */
size_t prof_db_file_profiles(const prof_db *db, const char *path,
			     const char ***names);

/*
 * Look a name up: an exact profile, or a template instance ("systemd-256"
 * via "systemd-N").  On failure adds an error listing the known names of
 * the same family to d (when d is not NULL) and returns NULL.  *param gets
 * the template's N, or -1.
 */
const prof_profile *prof_db_find(const prof_db *db, const char *name,
				 long *param, kf_diags *d);

/*
 * The distro release of the same family nearest to NAME ("fedora-46"):
 * the newest one older than it (older true) or the oldest one newer than
 * it; NULL when there is none or NAME is not FAMILY-VERSION.
 */
const char *prof_db_nearest(const prof_db *db, const char *name, bool older);

/*
 * The newest release the database knows of FAMILY ("ubuntu" ->
 * "ubuntu-26.04"), or for a template's stem the newest version a profile
 * names ("systemd" -> the newest systemd-N a distribution uses); NULL when
 * FAMILY is neither.
 */
const char *prof_db_newest(const prof_db *db, const char *family);

/* A copy of s that lives as long as the database. */
const char *prof_db_intern(prof_db *db, const char *s);

/* ---- flattening ---- */
/*
 * Flatten profiles into one requirement list: inheritance, slots, includes,
 * drops and overrides applied; conflicts and cycles are errors naming both
 * places.  NULL when any error was added to d.
 */
prof_set *prof_flatten(prof_db *db, const char *const *names, size_t n,
		       kf_diags *d);
void prof_set_free(prof_set *s);

/* The newest name of a symbol (renames applied forwards). */
const char *prof_sym_newest(const prof_db *db, const char *sym);
/*
 * A hard requirement: a require that is not soft.  generate fails
 * (exit 1) when one cannot be met and pins its symbol; check counts it
 * as unmet.  Everything else (recommends, soft requires) is given up
 * with a note.  docs/generate.md, "What each level does".
 */
bool prof_req_is_hard(const prof_req *r);

/* The name a symbol has in kernel version kver (0: newest). */
const char *prof_sym_for_kver(const prof_db *db, const char *sym, uint32_t kver);
/* An alternative's symbol as kernel kver names it: as written when its
 * requirement is `literal`, else prof_sym_for_kver. */
const char *prof_alt_sym(const prof_db *db, const prof_alt *a, uint32_t kver);

/*
 * Whether a requirement applies to kernel version kver (0: any) and arch
 * (NULL: any), ignoring its if-symbol.
 */
bool prof_req_applies(const prof_req *r, uint32_t kver, const char *arch);
/* True when arch ("x86_64") is one of list ("x86" covers x86_64, i386). */
bool prof_arch_match(const char *const *list, size_t n, const char *arch);

/* ---- checking a .config ---- */
typedef enum prof_outcome {
	PROF_MET,       /* the requirement holds */
	PROF_UNMET,     /* it does not */
	PROF_NOT_APPLICABLE, /* kernel range, arch or if-symbol exclude it */
	PROF_SHADOWED,  /* a recommend a require contradicts */
} prof_outcome;

typedef struct prof_result {
	const prof_req *req;   /* the requirement */
	prof_outcome outcome;  /* met or not */
	const char *checked;   /* the symbol(s) looked at, renames applied */
	const char *wanted;    /* "y", "y or m", "n", "\"\"", "4096", ... */
	const char *found;     /* "y", "m", "n", "absent", or "A=y, B=absent" */
	const prof_absent *absent; /* NOT_APPLICABLE because the release's
				      kernel lacks the symbol(s): the first
				      `absent` that says so; NULL otherwise */
} prof_result;

typedef struct prof_check_opts {
	uint32_t kver;         /* the config's kernel version */
	const char *arch;      /* the config's architecture, NULL: unknown */
	int initramfs;         /* prof_initramfs: UNKNOWN means the set's habit */
} prof_check_opts;

/* Does the value v of alt's symbol (NULL: absent from the .config)
 * satisfy alt?  Boot-critical wants are built in without an initramfs. */
bool prof_alt_holds(const prof_alt *alt, const char *v, bool boot, int initramfs);

/*
 * Test every requirement of s against cfg.  Fills *out (malloc'd array of
 * s->n results, strings in s->arena) and returns the number of unmet
 * `require`s.
 */
size_t prof_check(const prof_db *db, prof_set *s, const kf_dotconfig *cfg,
		  const prof_check_opts *o, prof_result **out);

/* ---- linting the database ---- */
/* Does a tree have this symbol?  ctx is the caller's (a kc_tree). */
typedef bool (*prof_sym_exists_fn)(void *ctx, const char *sym);

/* One kernel tree to check symbol names against. */
typedef struct prof_lint_tree {
	const char *name;         /* for messages: the tree's path */
	uint32_t kver;            /* its kernel version */
	const char *arch;         /* its architecture ("x86_64") */
	prof_sym_exists_fn exists; /* symbol lookup */
	void *ctx;                /* passed to exists and depends */
	/* does sym depend on `on` directly (NULL: not checked)?  In `A || B`
	 * a B that depends on A never holds without A: the requirement is
	 * met by A alone (I2C_HID, a menu, for I2C_HID_ACPI, its driver) */
	bool (*depends)(void *ctx, const char *sym, const char *on);
	/* is sym a string option (NULL: not checked)?  `contains` and `does
	 * not contain` read a comma-separated string */
	bool (*is_string)(void *ctx, const char *sym);
} prof_lint_tree;

/*
 * Check the whole database: every profile resolves (no unknown names, no
 * cycles, no conflicts), distro profiles name their init, LSM, firewall,
 * initramfs habit and kernel range, sources are URLs or document paths,
 * and, for each tree, every symbol a requirement names where its range
 * says it applies exists (renames resolved).  Returns the number of
 * errors added to d.
 */
size_t prof_lint(prof_db *db, const prof_lint_tree *trees, size_t ntrees, kf_diags *d);

/* ---- text helpers shared by the commands ---- */
const char *prof_kind_name(prof_kind k);
const char *prof_level_name(prof_level l);
/* Is item one of the comma-separated list's entries (the kernel splits
 * CONFIG_LSM and lsm= at ',' and compares whole names)? */
bool prof_list_has(const char *list, const char *item);
/* Does b, if list holds it, come after a (a first, or b absent)? */
bool prof_list_before(const char *list, const char *a, const char *b);
/* "y or m", "y", "n", "\"str\"", "123", "a list with bpf": what an alt
 * wants, in words. */
const char *prof_alt_wanted(kf_arena *a, const prof_alt *alt, bool boot,
			    int initramfs);
/* "DEVTMPFS", "EFIVAR_FS || EFI_VARS", "SYSFS_DEPRECATED=n",
 * "LSM contains bpf". */
const char *prof_req_expr(kf_arena *a, const prof_req *r);
/* The end (one past) of the group of alternatives that starts at k:
 * `for (size_t k = 0, e; k < r->nalts; k = e) { e = prof_group_end(r, k); ... }`. */
size_t prof_group_end(const prof_req *r, size_t k);
/* Does r have a group of more than one symbol (`A && B || C`)? */
bool prof_req_has_groups(const prof_req *r);
/* v in double quotes with " and \ escaped: "say \"hi\"". */
const char *prof_quote(kf_arena *a, const char *v);
/* One alternative as written: "LSM contains bpf", "HZ=250". */
const char *prof_alt_expr(kf_arena *a, const prof_alt *alt);
/* "kernel>=5.12.0 arch=x86_64 if BTRFS_FS", "" when unconditional. */
const char *prof_cond_text(kf_arena *a, const prof_cond *c);

#endif

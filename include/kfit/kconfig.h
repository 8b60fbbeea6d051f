/*
 * kconfig.h - the Kconfig engine: load a kernel tree's Kconfig (with its
 * preprocessor and $(shell,...) cache), evaluate symbols exactly as the
 * kernel's scripts/kconfig does, read and write .config files, and run the
 * configuration modes of `conf`.
 *
 * One kc_tree owns everything loaded from one tree (one arena); several
 * trees may be loaded in one process.  Nothing here prints or exits:
 * problems are returned in a kf_diags list.
 */
#ifndef KFIT_KCONFIG_H
#define KFIT_KCONFIG_H

#include "kfit/util.h"

typedef struct kc_tree kc_tree;
typedef struct kc_sym kc_sym;

typedef struct kc_load_opts {
	const char *srctree;   /* kernel source tree (absolute path) */
	const char *arch;      /* ARCH as make takes it: x86, x86_64, arm64... */
	const char *cache_dir; /* where $(shell,...) results are cached, or NULL */
	bool no_cache;         /* run every $(shell,...) afresh */
	bool no_shell;         /* never run a command: cached values only */
	int shell_timeout_ms;  /* a $(shell,...) still running after this
				  long is killed and the load fails, 0:
				  no limit (as conf) */
	bool verbose;          /* notes about cache entries not used */
	int shell_jobs;        /* $(shell,...) commands run at once when the
				  cache misses (results used in conf's
				  order), 0: $KFIT_SHELL_JOBS or the CPUs
				  online, 1: one at a time */
	/* When set, $(shell,...) calls this instead of running /bin/sh and
	 * bypasses the cache (fuzzing, tests): returns the command's raw
	 * output as a malloc'd string, or NULL when the command cannot run. */
	char *(*shell_fn)(void *ctx, const char *cmd);
	void *shell_ctx;       /* passed to shell_fn */
	/* conf's own command line (kfit conf): */
	const char *kconfig;   /* top-level Kconfig file, relative to srctree
				  or absolute (NULL: "Kconfig") */
	const char *version;   /* "VERSION.PATCHLEVEL[.SUBLEVEL]" when srctree
				  has no top Makefile to read it from */
	bool conf_errors;      /* syntax errors as conf prints them: bison's
				  "syntax error" line, then its recovery
				  ("invalid statement", ...) */
	bool plain_env;        /* the environment as it is: nothing derived
				  as the top Makefile would export it */
	bool seed_first;       /* conf's --randconfig: the KCONFIG_SEED
				  line first, before the Kconfig is read
				  (printed even when that fails); the
				  tree's randconfig then uses that seed */
	const char *seed;      /* with seed_first: KCONFIG_SEED, or NULL */
	kf_strbuf *failed_out; /* when set and the load fails: what
				  $(info,...) printed until then (conf
				  prints it at its exit) */
} kc_load_opts;

/* Load and parse the tree's Kconfig.  NULL on a fatal error (in d). */
kc_tree *kc_tree_load(const kc_load_opts *o, kf_diags *d);
void kc_tree_free(kc_tree *t);
/* Where the tree reports from now on (a tree loaded into a list of its
 * own, e.g. in another thread, joins the caller's). */
void kc_tree_set_diags(kc_tree *t, kf_diags *d);
/* The resolver's index of dependents (what a changed answer makes
 * recalculate), built ahead instead of on first use.  kc_tree_index_begin
 * keeps the little it reads of what calculating values writes (the
 * symbols' flags); kc_tree_index_build then reads only what loading made,
 * so it may run in a thread of its own while another thread calculates
 * values, as long as that one reads no configuration (reading one can
 * reorder a choice's members) and creates no symbol. */
void kc_tree_index_begin(kc_tree *t);
void kc_tree_index_build(kc_tree *t);

/* The arch/ directory a name means (lib/kconfig/kc_arch.c, one table):
 * kc_subarch: for what `uname -m` prints, as the top Makefile's SUBARCH
 * ("aarch64" -> "arm64", "armv7l" -> "arm"; a machine it does not know:
 * "x86"); kc_srcarch: for make's ARCH=, as its SRCARCH ("x86_64" -> "x86",
 * "sparc64" -> "sparc", any other name itself); kc_arch_dir: for either,
 * as detection takes -a or the machine (NULL or "": "x86", "armv*": "arm",
 * also "amd64", "x86_32", "riscv32", "ppc"). */
const char *kc_subarch(const char *machine);
const char *kc_srcarch(const char *arch);
const char *kc_arch_dir(const char *name);

/* Symbol by name (without CONFIG_ prefix), or NULL when the tree has none. */
kc_sym *kc_sym_find(kc_tree *t, const char *name);

/* Does SYM depend directly on ON (its `depends on`, an enclosing `if` or
 * menu's dependency has ON as an && operand)?  False when either is not
 * defined. */
bool kc_sym_depends_on(kc_tree *t, const char *sym, const char *on);

/*
 * The tool the kernel's top Makefile names for TOOL ("CC", "LD", "AR",
 * "NM", "OBJCOPY", "HOSTCC") from the variables a user sets: the
 * variable itself (cc, for TOOL; NULL or "" when unset), else with llvm
 * (LLVM; NULL or "": unset) the LLVM tool, named $(LLVM)clang for
 * LLVM=/path/ and clang$(LLVM) for LLVM=-N when the Makefile takes those
 * affixes (llvm_affixes: it mentions LLVM_SUFFIX, 5.12 on; before, any
 * LLVM value means the plain names), else CROSS_COMPILE (cross) and the
 * GNU tool (HOSTCC: gcc, without the prefix).  NULL for an unknown TOOL;
 * malloc'd otherwise.
 */
char *kc_make_tool(const char *tool, const char *user, const char *llvm, bool llvm_affixes,
		   const char *cross);
/* Whether the top Makefile of the tree at srctree takes LLVM=/path/ and
 * LLVM=-N (it mentions LLVM_SUFFIX); false when it cannot be read. */
bool kc_srctree_llvm_affixes(const char *srctree);

/* KERNELVERSION of the tree, e.g. "6.1.192". */
const char *kc_tree_kernelversion(const kc_tree *t);

/* The configuration modes of the kernel's conf. */
typedef enum kc_mode {
	KC_MODE_OLDDEFCONFIG,
	KC_MODE_ALLDEFCONFIG,
	KC_MODE_ALLNOCONFIG,
	KC_MODE_ALLYESCONFIG,
	KC_MODE_ALLMODCONFIG,
	KC_MODE_RANDCONFIG,
	KC_MODE_DEFCONFIG,
	KC_MODE_SAVEDEFCONFIG,
	KC_MODE_LISTNEWCONFIG,
	KC_MODE_TINYCONFIG,
	KC_MODE_OLDASKCONFIG,  /* ask every visible symbol (kc_run_opts.io) */
	KC_MODE_OLDCONFIG,     /* ask the symbols the .config does not set */
	KC_MODE_SYNCCONFIG,    /* oldconfig as the build runs it */
	KC_MODE_HELPNEWCONFIG, /* the help of every new symbol */
	KC_MODE_YES2MODCONFIG, /* tristates at y become m where possible */
	KC_MODE_MOD2YESCONFIG, /* m becomes y */
	KC_MODE_MOD2NOCONFIG,  /* m becomes n */
} kc_mode;

/* Where the interactive modes read answers, as conf reads its stdin. */
typedef struct kc_io {
	/* One line of input, at most max bytes, with its newline when it
	 * had one, appended to line; false at the end of input. */
	bool (*read_line)(void *ctx, kf_strbuf *line, size_t max);
	/* Called before each read with what conf has printed so far (and
	 * with the diagnostics added since the last call): the callee
	 * prints it and empties out. */
	void (*flush)(void *ctx, kf_strbuf *out);
	void *ctx;  /* passed to both */
	bool echo;  /* print each answer after its prompt, as conf does
		       when stdin and stdout are not both terminals */
} kc_io;

typedef struct kc_run_opts {
	kc_mode mode;              /* what to do */
	const char *config;        /* the .config read and written */
	const char *file;          /* defconfig input / savedefconfig output */
	const char *allconfig;     /* KCONFIG_ALLCONFIG, or NULL when unset */
	const char *defconfig_list; /* starting configs when config is missing */
	bool warn_unknown;         /* KCONFIG_WARN_UNKNOWN_SYMBOLS */
	bool werror;               /* KCONFIG_WERROR */
	bool overwrite;            /* KCONFIG_OVERWRITECONFIG: write in place */
	bool warn_changed_input;   /* KCONFIG_WARN_CHANGED_INPUT (7.x conf) */
	const char *seed;          /* KCONFIG_SEED, or NULL */
	const char *probability;   /* KCONFIG_PROBABILITY, or NULL */
	const kc_io *io;           /* answers for oldaskconfig, oldconfig,
				      syncconfig; NULL: end of input */
} kc_run_opts;

/*
 * Run a mode as `make MODE` runs conf: read, compute, write the .config
 * (or the savedefconfig file).  Text conf prints on stdout is appended to
 * out; warnings go to the diagnostics.  Returns 0, 1 when the kernel's
 * conf would fail (e.g. a missing defconfig), or -1 on an I/O error or
 * a dependency chain too deep to follow (reported).
 */
int kc_run(kc_tree *t, const kc_run_opts *o, kf_strbuf *out);

/* kc_run without the final write: the values stay in the tree for the
 * caller (the resolver) to change, print or write. */
int kc_compute(kc_tree *t, const kc_run_opts *o, kf_strbuf *out);
/* The .config text of the tree's current values. */
void kc_config_text(kc_tree *t, kf_strbuf *out);
/* Write the current values to path as conf does: nothing when unchanged,
 * else temp file, path.old, rename.  0, or -1 with an error. */
int kc_config_write(kc_tree *t, const char *path, bool overwrite);

/* What conf writes for the build besides the .config (6.1 and later). */
typedef struct kc_autoconf_opts {
	const char *autoconfig; /* include/config/auto.conf (KCONFIG_AUTOCONFIG) */
	const char *autoheader; /* include/generated/autoconf.h (KCONFIG_AUTOHEADER) */
	const char *rustccfg;   /* include/generated/rustc_cfg (KCONFIG_RUSTCCFG) */
	bool overwrite;         /* syncconfig: write even when auto.conf exists */
} kc_autoconf_opts;
/* conf_write_autoconf(): auto.conf, its .cmd, autoconf.h, rustc_cfg and
 * the include/config/SYMBOL files of changed options.  0, 1 when a
 * dependency file cannot be touched, -1 on a write error (in diags). */
int kc_write_autoconf(kc_tree *t, const kc_autoconf_opts *o);

/* The default defconfig of the tree's ARCH (as `make defconfig` uses). */
char *kc_default_defconfig(kc_tree *t);
/* KCONFIG_DEFCONFIG_LIST as scripts/kconfig/Makefile builds it. */
char *kc_default_defconfig_list(kc_tree *t);
/* Text printed by the preprocessor ($(info), ...) while loading. */
const char *kc_tree_output(const kc_tree *t);
/* How many $(shell) commands ran and how many came from the cache. */
void kc_tree_shell_stats(const kc_tree *t, int *runs, int *hits);

/* ---- values, as a .config shows them and as a user answers them
 * (lib/kconfig/kconfig_values.c) ---- */

/* The value as the .config shows it ("y", "m", "64", a string without
 * quotes), NULL when it is not written. */
const char *kf_sym_shown(kc_tree *t, kc_sym *s);
/* Can `select` set it: a bool or tristate that is no choice member. */
bool kf_sym_selectable(kc_tree *t, const char *sym);
/* True for string symbols (their .config values are quoted). */
bool kf_sym_is_string(kc_tree *t, const char *sym);

/* Answer a symbol as a user would (visible symbols only); 0 or -1. */
int kf_sym_set(kc_tree *t, const char *sym, const char *value);

/* kf_sym_shown by name; NULL also when the tree has no such symbol. */
const char *kf_sym_value(kc_tree *t, const char *sym);

/*
 * Reset the settings of a distro config that name files of the distro's
 * own build (trusted keys, signing key, ...), so a user's build does not
 * stop at a missing certificate.  Appends one note per reset to d.
 */
void kf_reset_distro_build_files(kc_tree *t, kf_diags *d);

/* What loading a tree cost (KFIT_DEBUG_MEM=1 kfit kconfig prints it). */
typedef struct kf_load_stats {
	size_t arena_bytes; /* bytes the tree's arena handed out */
	unsigned symbols;   /* symbols created */
	int shell_runs;     /* $(shell,...) commands evaluated */
	int shell_hits;     /* of those, answered from the cache */
} kf_load_stats;
void kf_tree_load_stats(const kc_tree *t, kf_load_stats *st);

#endif

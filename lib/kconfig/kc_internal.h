/*
 * kc_internal.h - data structures shared by the phases of the Kconfig
 * engine: lexer/parser (kc_parse.c), preprocessor (kc_preproc.c),
 * expressions (kc_expr.c), menu finalization (kc_menu.c), symbol
 * evaluation (kc_sym.c), .config I/O and conf's modes (kc_conf.c).
 *
 * The model follows the kernel's scripts/kconfig closely on purpose: the
 * output must match it byte for byte, including the order in which
 * symbols are evaluated (the hash table iteration order decides which
 * warning comes first).  Two generations of semantics are implemented:
 * KC_SEM_V1 (choices are symbols, tristate and optional choices; kernels
 * up to 6.10) and KC_SEM_V2 (choices hold an ordered member list; 6.11+).
 * Smaller changes are flags of kc_tree set from the tree's own
 * scripts/kconfig sources or its version (5.10's, 7.x's).
 * See docs/semantics.md.
 */
#ifndef KC_INTERNAL_H
#define KC_INTERNAL_H

#include "kfit/hashmap.h"
#include "kfit/kconfig.h"
#include "kfit/util.h"

#include <stdint.h>
#include <stdio.h>

typedef enum kc_tri { KC_NO, KC_MOD, KC_YES } kc_tri;

#define TRI_AND(a, b) ((a) < (b) ? (a) : (b))
#define TRI_OR(a, b) ((a) > (b) ? (a) : (b))
#define TRI_NOT(a) (2 - (a))

/* The forms of "option" a tree's parser.y takes (kc_tree.opt_forms). */
enum {
	KC_OPT_LIST = 1,           /* any "option NAME[=ARG]" (before 5.0) */
	KC_OPT_MODULES = 2,        /* "option modules" (until 5.14) */
	KC_OPT_DEFCONFIG_LIST = 4, /* "option defconfig_list" (until 5.12) */
	KC_OPT_ALLNOCONFIG_Y = 8,  /* "option allnoconfig_y" (until 5.12) */
};

enum kc_sem {
	KC_SEM_V1 = 1, /* kernels before 6.11 */
	KC_SEM_V2 = 2, /* 6.11 and later: new choice model */
};

enum kc_expr_type {
	E_NONE,
	E_OR,
	E_AND,
	E_NOT,
	E_EQUAL,
	E_UNEQUAL,
	E_LTH,
	E_LEQ,
	E_GTH,
	E_GEQ,
	E_LIST,
	E_SYMBOL,
	E_RANGE,
};

typedef struct kc_expr kc_expr;
typedef struct kc_prop kc_prop;
typedef struct kc_menu kc_menu;

union kc_expr_data {
	kc_expr *expr; /* sub-expression */
	kc_sym *sym;   /* symbol operand */
};

struct kc_expr {
	enum kc_expr_type type;  /* operator */
	union kc_expr_data left; /* left operand (or the only one) */
	union kc_expr_data right; /* right operand */
};

enum kc_sym_type { S_UNKNOWN, S_BOOLEAN, S_TRISTATE, S_INT, S_HEX, S_STRING };

enum { S_DEF_USER, S_DEF_AUTO, S_DEF_COUNT = 4 };

typedef struct kc_value {
	void *val;  /* string value, or (V1 choices) the chosen kc_sym */
	kc_tri tri; /* tristate value */
} kc_value;

typedef struct kc_expr_value {
	kc_expr *expr; /* the expression */
	kc_tri tri;    /* its last computed value */
} kc_expr_value;

#define SYMBOL_CONST 0x0001
#define SYMBOL_CHECK 0x0008
#define SYMBOL_CHOICE 0x0010
#define SYMBOL_CHOICEVAL 0x0020
#define SYMBOL_VALID 0x0080
#define SYMBOL_OPTIONAL 0x0100
#define SYMBOL_WRITE 0x0200
#define SYMBOL_CHANGED 0x0400
#define SYMBOL_WRITTEN 0x0800
#define SYMBOL_NO_WRITE 0x1000
#define SYMBOL_CHECKED 0x2000
#define SYMBOL_WARNED 0x8000
#define SYMBOL_DEF 0x10000
#define SYMBOL_DEF_USER 0x10000
#define SYMBOL_DEF_AUTO 0x20000
#define SYMBOL_NEED_SET_CHOICE_VALUES 0x100000
#define SYMBOL_ALLNOCONFIG_Y 0x200000 /* "option allnoconfig_y" (before 5.13) */
#define SYMBOL_TRANS 0x400000 /* 6.18+ "transitional": read, never written */

struct kc_sym {
	kc_sym *next;            /* next symbol in the same hash bucket */
	char *name;              /* name without CONFIG_, NULL for choices */
	enum kc_sym_type type;   /* bool, tristate, ... */
	kc_value curr;           /* calculated value (valid with SYMBOL_VALID) */
	kc_value def[S_DEF_COUNT]; /* values from outside (.config = USER) */
	kc_tri visible;          /* upper bound from prompt visibility */
	unsigned flags;          /* SYMBOL_* */
	kc_prop *prop;           /* properties in definition order */
	kc_expr_value dir_dep;   /* dependencies of the definitions */
	kc_expr_value rev_dep;   /* reverse dependencies (select) */
	kc_expr_value implied;   /* weak reverse dependencies (imply) */
	kc_menu **menus;         /* V2: menu nodes defining this symbol */
	size_t nmenus;           /* V2: count of menus */
	size_t amenus;           /* V2: capacity of menus */
	kc_menu *choice;         /* V2: the choice whose member list holds us */
	unsigned seq;            /* creation order, for stable sorting */
	unsigned gen;            /* value generation curr was computed in */
	size_t jtag;             /* journal tag of its last journal entry */
	size_t jidx;             /* index of that entry */
};

enum kc_prop_type {
	P_UNKNOWN,
	P_PROMPT,
	P_COMMENT,
	P_MENU,
	P_DEFAULT,
	P_CHOICE,
	P_SELECT,
	P_IMPLY,
	P_RANGE,
	P_SYMBOL,
};

struct kc_prop {
	kc_prop *next;          /* next property of the same symbol */
	enum kc_prop_type type; /* kind */
	const char *text;       /* prompt text for P_PROMPT/P_MENU/P_COMMENT */
	kc_expr_value visible;  /* condition ("if ...") plus inherited deps */
	kc_expr *expr;          /* the value/target/range expression */
	kc_menu *menu;          /* the menu node the property belongs to */
	const char *file;       /* where it was defined */
	int lineno;             /* line of the statement */
};

#define MENU_CHANGED 0x0001
#define MENU_ROOT 0x0002

/* An answer as it was before the calculation changed it. */
typedef struct kc_edit {
	kc_sym *sym;             /* symbol */
	kc_value def;            /* its user value */
	unsigned flags;          /* its flags */
} kc_edit;

/* Answers the calculation changed, oldest first. */
typedef struct kc_edits {
	kc_edit *v;              /* records */
	size_t n, a;             /* count, capacity */
} kc_edits;

/* A symbol's calculated state (not its answer) before the calculation
 * changed it; or (prop set) a property's visibility; or (neither) the
 * tree's generation and "modules" value. */
typedef struct kc_jentry {
	kc_sym *sym;             /* symbol, or NULL */
	kc_prop *prop;           /* property, or NULL */
	size_t tag;              /* journal tag when recorded */
	kc_value curr;           /* curr */
	unsigned flags;          /* flags (answer bits are not put back) */
	unsigned gen;            /* gen, or the tree's gen */
	kc_tri visible;          /* visible, the property's visible.tri, or
				    the tree's modules_val */
	kc_tri dir, rev, impl;   /* dir_dep, rev_dep, implied values */
	size_t pjtag, pjidx;     /* the symbol's jtag and jidx before: an
				    entry taken off gives them back, so
				    jidx names its newest entry left */
} kc_jentry;

/* What sym_calc_value() and invalidation changed since tags (marks) of a
 * search: kc_journal_undo() puts back everything after a mark, so that a
 * trial taken back costs no recalculation. */
typedef struct kc_journal {
	kc_jentry *v;            /* entries, tags non-decreasing */
	size_t n, a;             /* count, capacity */
} kc_journal;

void sym_journal(kc_tree *t, kc_sym *sym);
void kc_journal_undo(kc_tree *t, size_t mark);
void kc_journal_drop(kc_tree *t, size_t mark);
/* Has the journal an entry for sym (recalculated or invalidated since
 * the journal was last emptied)?  A valid symbol without one has the
 * calculated state it had then. */
bool kc_journal_touched(const kc_tree *t, const kc_sym *sym);

struct kc_menu {
	kc_menu *next;        /* next node at the same level */
	kc_menu *parent;      /* enclosing node */
	kc_menu *list;        /* first child */
	kc_sym *sym;          /* symbol (or choice) of this node, or NULL */
	kc_prop *prompt;      /* prompt, menu title or comment text */
	kc_expr *visibility;  /* "visible if" conditions */
	kc_expr *dep;         /* "depends on" and "if" conditions */
	unsigned flags;       /* MENU_* */
	char *help;           /* help text */
	const char *file;     /* location */
	int lineno;           /* location */
	kc_sym **members;     /* V2 choices: member list in priority order */
	size_t nmembers;      /* V2 choices: count */
	size_t amembers;      /* V2 choices: capacity */
};

/* A variable of the Kconfig preprocessor. */
enum kc_var_flavor { VAR_SIMPLE, VAR_RECURSIVE, VAR_APPEND };

typedef struct kc_var {
	struct kc_var *next;      /* list in definition order */
	char *name;               /* variable name */
	char *value;              /* raw (recursive) or expanded (simple) */
	enum kc_var_flavor flavor; /* how it expands */
	int exp_count;            /* recursion guard */
} kc_var;

/* An environment variable the tree's Kconfig read (for the shell cache). */
typedef struct kc_env {
	struct kc_env *next; /* next */
	char *name;          /* variable */
	char *value;         /* value */
} kc_env;

struct kc_lexer; /* kc_lex.h */

struct kc_tree {
	kf_arena *arena;         /* owns everything below */
	kf_diags *diags;         /* where problems go */
	enum kc_sem sem;         /* which generation of semantics */
	char *srctree;           /* absolute tree path */
	char *arch;              /* ARCH */
	char *srcarch;           /* SRCARCH */
	char *kernelversion;     /* KERNELVERSION */
	int kver[3];             /* parsed version */
	kc_sym **hash;           /* symbol hash table */
	unsigned hashsize;       /* its size (9973 or 16384) */
	unsigned nsyms;          /* symbols created */
	kc_sym sym_yes;          /* constant y */
	kc_sym sym_mod;          /* constant m */
	kc_sym sym_no;           /* constant n */
	kc_sym sym_empty;        /* constant "" (V1 default value holder) */
	kc_sym *modules_sym;     /* the symbol with "modules" */
	kc_tri modules_val;      /* cached value of modules_sym */
	kc_menu rootmenu;        /* root of the menu tree */
	int sym_warnings;        /* unmet dependency warnings printed */
	int conf_warnings;       /* warnings while reading a .config */
	bool conf_changed;       /* conf_set_changed state */
	int nerrors;             /* parse errors */
	int trans_count;         /* simplifications made by an expr pass */
	unsigned gen;            /* value generation: sym_clear_all_valid()
				    bumps it instead of touching every symbol */
	kc_expr *expr_free;      /* recycled expression nodes */
	/* dependents index (sym_invalidate), built on first use */
	unsigned rdep_nsyms;     /* symbols it covers (seq below), 0: none */
	unsigned *rdep_start;    /* by seq: first of its dependents in rdep,
				    rdep_nsyms + 1 entries */
	kc_sym **rdep;           /* symbols whose value can read a symbol */
	unsigned *rdep_mark;     /* by seq: last pass that invalidated it */
	unsigned char *rdep_group; /* by seq: in a choice's group (a choice
				    or a member): read without being valid */
	unsigned rdep_pass;      /* invalidation passes made */
	unsigned char *rdep_kind; /* by seq: RK_* bits of its flags, kept
				     before the build (kc_tree_index_begin,
				     which sets rdep_nsyms) */
	unsigned long calc_edits; /* answers the calculation itself changed
				    (choices, transitional symbols) */
	struct kc_edits *edit_log; /* where to keep what those were, or NULL */
	struct kc_journal *journal; /* calculated state to put back, or NULL */
	size_t jtag;             /* tag of what is journaled now (the
				    search's undo log length) */
	uintptr_t stack_base;    /* kc_stack_call: where the engine's
				    recursion entered this slice's stack,
				    0: outside the engine */
	unsigned stack_slices;   /* kc_stack_call: new slices in use */
	bool too_deep;           /* a recursion went past the last slice
				    of stack (reported): the result is
				    an error */
	bool calc_lazy;          /* expr_calc_value stops at the operand
				    that decides an && or ||: the same
				    values, but symbols the other operand
				    reads are calculated later, so warnings
				    come in another order (the generate
				    search, whose warnings are not kept) */
	/* preprocessor */
	kc_var *vars;            /* variables */
	kc_env *envs;            /* environment variables referenced */
	char **files;            /* Kconfig files read, in first-read order */
	size_t nfiles;           /* count of files */
	size_t afiles;           /* capacity of files */
	char **env;              /* environment given to the tree (NAME=VALUE) */
	size_t nenv;             /* count of env */
	size_t aenv;             /* capacity of env */
	/* parser state */
	struct kc_lexer *lx;     /* lexer while parsing */
	kc_menu *current_menu;   /* parser: enclosing menu */
	kc_menu *current_entry;  /* parser: entry being defined */
	kc_menu *current_choice; /* parser (V2): choice being defined */
	kc_menu **last_entry_ptr; /* parser: where the next entry links */
	/* shell cache */
	const char *cache_dir;   /* where $(shell) results are cached */
	bool no_cache;           /* ignore the cache */
	bool no_shell;           /* never run commands */
	char *(*shell_fn)(void *ctx, const char *cmd); /* replaces /bin/sh */
	void *shell_ctx;         /* passed to shell_fn */
	int shell_runs;          /* commands actually run */
	int shell_hits;          /* commands served from the cache */
	int shell_timeout_ms;    /* kill a command after this long, 0: never */
	bool shell_swept;        /* stale scratch dirs removed this run */
	kf_strmap bin_seen;      /* shell_key: word -> index in bin_id */
	char **bin_id;           /* the executable a word runs (path, size,
				    mtime, inode), or NULL: none */
	size_t nbin_id, abin_id; /* count, capacity */
	int shell_jobs;          /* commands run at once on a cache miss */
	const struct kc_load_opts *lopts; /* while loading: how (for the
				    speculative passes) */
	struct kc_prefetch *pf;  /* results run ahead, or NULL */
	bool pf_tried;           /* ran ahead already (once per tree) */
	struct kc_prefetch *spec; /* a speculative pass: where its
				    commands go (kc_shell.c) */
	bool verbose;            /* notes about cache entries not used */
	/* output collected for the front end */
	kf_strbuf out;           /* text conf prints on stdout ($(info), ...) */
	/* random numbers for randconfig (glibc-compatible rand()) */
	int32_t rand_r[344 + 32]; /* state */
	int rand_i;              /* position */
	bool rand_seeded;        /* seeded yet */
	/* older trees (docs/semantics.md, "5.10's generation") */
	kc_sym *defconfig_list_sym; /* "option defconfig_list" (before 5.13) */
	bool has_warn_unknown;   /* conf knows KCONFIG_WARN_UNKNOWN_SYMBOLS */
	bool has_werror;         /* conf knows KCONFIG_WERROR */
	bool old_end_of;         /* "# end of" only when leaving a menu's last
				    child (no line for an empty menu) */
	bool old_conf_read;      /* "#?CONFIG_X is not set" accepted, ignored
				    for non-bool symbols */
	bool seed_to_stderr;     /* randconfig prints KCONFIG_SEED on stderr */
	bool seed_done;          /* the KCONFIG_SEED line is printed, seed
				    is randconfig's */
	unsigned seed;           /* with seed_done: the seed */
	/* newer trees (docs/semantics.md, "7.x"): from the tree's own
	 * scripts/kconfig sources, else from its version */
	bool has_transitional;   /* "transitional" symbols (6.18) */
	bool has_depends_if;     /* "depends on X if Y" */
	bool parse_errors_7x;    /* menuconfig without prompt, two or blank
				    help texts are errors */
	bool choice_rules_7x;    /* no "bool" prompt on choices, a member's
				    prompt in another entry is an error */
	bool has_repeated_inc;   /* a file sourced twice is an error */
	bool has_neg_submenu;    /* a negative dependency ends a submenu */
	bool has_warn_changed;   /* KCONFIG_WARN_CHANGED_INPUT */
	bool expr_dups_612;      /* 6.12's expr_eliminate_dups (hashed
				    expressions): operands first, y and n
				    always taken out */
	bool conf_errors;        /* kc_load_opts.conf_errors */
	bool yyerror_next_line;  /* conf's yyerror says the lookahead's line
				    + 1, and "<none>" at the end of input
				    (its parser.y before cur_lineno) */
	uint64_t kw_off;         /* keywords the tree's lexer does not
				  * know (kc_lex_keywords) */
	unsigned opt_forms;      /* KC_OPT_*: the tree's "option" rules */
	bool modules_attr;       /* "modules" is an attribute (5.15) */
	bool eof_eol;            /* the top file's end without a newline is
				  * a T_EOL first (5.10, 6.1: lexer.l's
				  * "if (current_file)" at <<EOF>>) */
	/* the other version differences (kc_tree_version_flags, the one
	 * place that compares versions; docs/semantics.md, "Version flags") */
	bool conf_61;            /* conf, its scripts and the Makefile are
				    6.1's or newer (6.1+, or no version) */
	bool rustc_version_text; /* the Makefile exports RUSTC_VERSION_TEXT */
	bool clang_werror_ignored_opt; /* -Werror=ignored-optimization-argument */
	bool clang_werror_option_ignored; /* -Werror=option-ignored */
	bool clang_werror_unused_arg; /* -Werror=unused-command-line-argument */
	bool defconfig_list_opt; /* "option defconfig_list" names the starting
				    configs, KBUILD_DEFCONFIG exported */
	bool kw_defconfig_list;  /* without lexer.l: "defconfig_list" and
				    "allnoconfig_y" are keywords */
	bool kw_option;          /* without lexer.l: "option" is a keyword */
	bool help_dashes;        /* "---help---" is "help" */
	bool source_glob;        /* "source" takes a glob pattern */
	bool ext_help_parent;    /* menu_get_ext_help's Location starts at the
				    prompt's parent menu */
	bool ask_eof_stops;      /* conf stops at the end of input (an int,
				    hex or string question left unanswered:
				    an error, not asked again) */
	bool autoconf_61;        /* auto.conf/autoconf.h as 6.1 writes them */
	bool newer_than_kfit;    /* newer than the newest kernel kfit knows */
};

/* `which NAME` on the tree's PATH (malloc'ed), or NULL (kc_shell.c). */
char *kc_which(kc_tree *t, const char *name);

/* The newest kernel kfit is checked against (VERSION * 100 + PATCHLEVEL):
 * a tree newer than it is read with the newest rules, and its syntax
 * errors say that the tree is newer than kfit. */
#define KC_VER_NEWEST 703

/* ---- kc_expr.c ---- */
kc_expr *expr_alloc_symbol(kc_tree *t, kc_sym *sym);
kc_expr *expr_alloc_one(kc_tree *t, enum kc_expr_type type, kc_expr *ce);
kc_expr *expr_alloc_two(kc_tree *t, enum kc_expr_type type, kc_expr *e1,
			kc_expr *e2);
kc_expr *expr_alloc_comp(kc_tree *t, enum kc_expr_type type, kc_sym *s1,
			 kc_sym *s2);
kc_expr *expr_alloc_and(kc_tree *t, kc_expr *e1, kc_expr *e2);
kc_expr *expr_alloc_or(kc_tree *t, kc_expr *e1, kc_expr *e2);
kc_expr *expr_copy(kc_tree *t, const kc_expr *org);
/* Recycle a tree no one else references (where the kernel frees). */
void expr_free(kc_tree *t, kc_expr *e);
void expr_eliminate_eq(kc_tree *t, kc_expr **ep1, kc_expr **ep2);
int expr_eq(kc_tree *t, kc_expr *e1, kc_expr *e2);
kc_tri expr_calc_value(kc_tree *t, kc_expr *e);
kc_expr *expr_eliminate_dups(kc_tree *t, kc_expr *e);
kc_expr *expr_transform(kc_tree *t, kc_expr *e);
int expr_contains_symbol(kc_expr *dep, kc_sym *sym);
/* Call fn for every symbol e reads (operands of comparisons included,
 * constants too), left operand before right, a choice's member list in
 * its order: the one walk of the dependents index (kc_sym.c) and of
 * explain's owners (explain.c). */
void kc_expr_for_each_sym(kc_expr *e, void (*fn)(kc_sym *sym, void *ctx), void *ctx);
bool expr_depends_symbol(kc_tree *t, kc_expr *dep, kc_sym *sym);
bool expr_contains_symbol_negated(kc_tree *t, kc_expr *dep, kc_sym *sym);
kc_expr *expr_trans_compare(kc_tree *t, kc_expr *e, enum kc_expr_type type,
			    kc_sym *sym);
/* Print e as the kernel's expr_gstr_print does (with " [=val]"). */
void expr_gstr_print(kc_tree *t, kc_expr *e, kf_strbuf *out);
void expr_gstr_print_revdep(kc_tree *t, kc_expr *e, kf_strbuf *out,
			    kc_tri pr_type, const char *title);
/* Print without values (for docs/debugging). */
void expr_print_plain(kc_expr *e, kf_strbuf *out);

static inline int expr_is_yes(kc_tree *t, kc_expr *e)
{
	return !e || (e->type == E_SYMBOL && e->left.sym == &t->sym_yes);
}
static inline int expr_is_no(kc_tree *t, kc_expr *e)
{
	return e && (e->type == E_SYMBOL && e->left.sym == &t->sym_no);
}

/* ---- kc_conf.c ---- */
/* randconfig's seed from KCONFIG_SEED (env) or the clock, its line
 * printed (on out, or stderr as 5.10's conf does): sets seed_done. */
void kc_seed_first(kc_tree *t, const char *env, kf_strbuf *out);

/* ---- kc_stack.c ---- */
/* Slices of stack a recursion may use (kc_stack_call): 256 KiB each,
 * 128 MiB in all, a select chain of about 270,000 symbols (6.12's conf
 * follows about 50,000 of its own: 8 MiB of stack). */
#define KC_STACK_SLICES 512
#define KC_STACK_SLICE (256 * 1024)
/* Run fn(arg) on this stack, or on a new one when the engine's recursion
 * has used a slice of it; false (fn not run) past KC_STACK_SLICES or
 * when no thread can be made. */
bool kc_stack_call(kc_tree *t, void (*fn)(void *arg), void *arg);

/* ---- kc_sym.c ---- */
kc_sym *sym_lookup(kc_tree *t, const char *name, unsigned flags);
kc_sym *sym_find(kc_tree *t, const char *name);
void sym_calc_value(kc_tree *t, kc_sym *sym);
/* A step on sym's behalf could not be run (kc_stack_call): report the
 * first, give sym a value.  The caller's result is then an error. */
void kc_too_deep(kc_tree *t, kc_sym *sym);
/* The same for a menu entry at file:line (the first one is reported). */
void kc_too_deep_at(kc_tree *t, const char *file, int line, const char *name);
void sym_calc_visibility(kc_tree *t, kc_sym *sym);
enum kc_sym_type sym_get_type(kc_tree *t, kc_sym *sym);
const char *sym_type_name(enum kc_sym_type type);
const char *sym_get_string_value(kc_tree *t, kc_sym *sym);
const char *sym_get_string_default(kc_tree *t, kc_sym *sym);
bool sym_string_valid(kc_sym *sym, const char *str);
bool sym_string_within_range(kc_tree *t, kc_sym *sym, const char *str);
bool sym_tristate_within_range(kc_tree *t, kc_sym *sym, kc_tri val);
bool sym_set_tristate_value(kc_tree *t, kc_sym *sym, kc_tri val);
bool sym_set_string_value(kc_tree *t, kc_sym *sym, const char *newval);
bool sym_is_changeable(kc_tree *t, kc_sym *sym);
void sym_clear_all_valid(kc_tree *t);
void sym_invalidate(kc_tree *t, kc_sym *const *syms, size_t n);
void sym_rdep_free(kc_tree *t);
void sym_set_changed(kc_tree *t, kc_sym *sym);
kc_prop *sym_get_choice_prop(kc_sym *sym);
kc_prop *sym_get_range_prop(kc_tree *t, kc_sym *sym);
kc_sym *prop_get_symbol(kc_prop *prop);
const char *prop_get_type_name(enum kc_prop_type type);
kc_sym *sym_choice_default_v1(kc_tree *t, kc_sym *sym);
kc_sym *sym_choice_default_v2(kc_tree *t, kc_menu *choice);
kc_sym *sym_calc_choice_v2(kc_tree *t, kc_menu *choice);
kc_menu *sym_get_choice_menu(kc_tree *t, kc_sym *sym);
kc_sym *sym_check_deps(kc_tree *t, kc_sym *sym);
void set_all_choice_values(kc_tree *t, kc_sym *csym);
void choice_member_move_front(kc_menu *choice, kc_sym *sym);
void choice_member_move_tail(kc_menu *choice, kc_sym *sym);

static inline kc_tri sym_get_tristate_value(kc_sym *sym)
{
	return sym->curr.tri;
}
static inline bool sym_is_choice(kc_sym *sym)
{
	return sym->flags & SYMBOL_CHOICE ? true : false;
}
static inline bool sym_is_choice_value_v1(kc_sym *sym)
{
	return sym->flags & SYMBOL_CHOICEVAL ? true : false;
}
static inline bool sym_is_choice_value(kc_tree *t, kc_sym *sym)
{
	if (t->sem == KC_SEM_V2)
		return sym->choice != NULL;
	return sym->flags & SYMBOL_CHOICEVAL ? true : false;
}
static inline bool sym_is_optional(kc_sym *sym)
{
	return sym->flags & SYMBOL_OPTIONAL ? true : false;
}
/* SYMBOL_VALID of the current generation (constants are always valid). */
static inline bool sym_is_valid(const kc_tree *t, const kc_sym *sym)
{
	return (sym->flags & SYMBOL_VALID) &&
	       (sym->gen == t->gen || (sym->flags & SYMBOL_CONST));
}
static inline void sym_mark_valid(const kc_tree *t, kc_sym *sym)
{
	sym->flags |= SYMBOL_VALID;
	sym->gen = t->gen;
}

static inline bool sym_has_value(kc_sym *sym)
{
	return sym->flags & SYMBOL_DEF_USER ? true : false;
}

/* Iterate over all symbols in the kernel's hash table order. */
#define for_all_symbols(t, i, s)                                                \
	for ((i) = 0; (i) < (t)->hashsize; (i)++)                            \
		for ((s) = (t)->hash[(i)]; (s); (s) = (s)->next)

#define for_all_properties(sym, st, tok)                                         \
	for (st = (sym)->prop; st; st = st->next)                             \
		if (st->type == (tok))
#define for_all_defaults(sym, st) for_all_properties(sym, st, P_DEFAULT)
#define for_all_prompts(sym, st)                                                 \
	for (st = (sym)->prop; st; st = st->next)                             \
		if (st->text)

/* ---- kc_menu.c ---- */
void menu_init(kc_tree *t);
void menu_add_entry(kc_tree *t, kc_sym *sym, const char *file, int lineno);
kc_menu *menu_add_menu(kc_tree *t);
void menu_end_menu(kc_tree *t);
void menu_add_dep(kc_tree *t, kc_expr *dep, kc_expr *cond);
void menu_add_visibility(kc_tree *t, kc_expr *dep);
kc_prop *menu_add_prompt(kc_tree *t, enum kc_prop_type type, const char *prompt,
			 kc_expr *dep, const char *file, int lineno);
void menu_add_expr(kc_tree *t, enum kc_prop_type type, kc_expr *expr,
		   kc_expr *dep, const char *file, int lineno);
void menu_add_symbol(kc_tree *t, enum kc_prop_type type, kc_sym *sym,
		     kc_expr *dep, const char *file, int lineno);
void menu_set_type(kc_tree *t, int type);
void menu_finalize(kc_tree *t);
bool menu_is_visible(kc_tree *t, kc_menu *menu);
const char *menu_get_prompt(kc_menu *menu);
kc_menu *menu_next(kc_menu *menu, kc_menu *root);
void menu_warn(kc_tree *t, kc_menu *menu, const char *fmt, ...) KF_PRINTF(3, 4);
void prop_warn(kc_tree *t, kc_prop *prop, const char *fmt, ...) KF_PRINTF(3, 4);

/* ---- kc_preproc.c ---- */
char *pp_expand_dollar(kc_tree *t, const char **str);
char *pp_expand_one_token(kc_tree *t, const char **str);
char *pp_expand_string(kc_tree *t, const char *in);
void pp_variable_add(kc_tree *t, const char *name, const char *value,
		     enum kc_var_flavor flavor);
const char *pp_getenv(kc_tree *t, const char *name);
void pp_setenv(kc_tree *t, const char *name, const char *value);
/* Set up the variables the kernel's Makefile exports (kc_env.c). */
int kc_env_setup(kc_tree *t, const char *version, bool plain, kf_diags *d);

/* ---- kc_parse.c ---- */
int kc_parse(kc_tree *t, const char *file);
/* Which keywords the tree's lexer knows (kc_lex.c): each of kfit's is one
 * when the tree's scripts/kconfig/lexer.l lists it (lexer_l: its text),
 * else by the tree's version (docs/semantics.md). */
void kc_lex_keywords(kc_tree *t, const char *lexer_l);

/* ---- kc_diag.c: where the reader is, for messages ---- */
const char *kc_cur_file(kc_tree *t);
int kc_cur_lineno(kc_tree *t);
int kc_lex_lineno(kc_tree *t);
/* Report a fatal preprocessor error at the current position. */
void kc_pp_error(kc_tree *t, const char *fmt, ...) KF_PRINTF(2, 3);
bool kc_pp_failed(kc_tree *t);

/* ---- kc_shell.c ---- */
char *kc_shell_run(kc_tree *t, const char *cmd);
/* The same for a value needed at once (the environment conf gets): a
 * speculative pass waits for it. */
char *kc_shell_now(kc_tree *t, const char *cmd);
/* kc_shell_now of n independent commands into res[0..n-1]: each is run
 * (a speculative pass queues each) before any result is waited for. */
void kc_shell_now_all(kc_tree *t, const char *const *cmds, size_t n, char **res);
/* A speculative pass's value of a $(shell,...) whose result is not known
 * yet: KC_SPEC_MARK, the command's number, \001 (kc_shell.c). */
#define KC_SPEC_MARK "\001kfit:"
/* s with every such value replaced by the command's result (waiting for
 * it), or NULL when one failed: the real evaluation stops there. */
char *kc_spec_resolve(kc_tree *t, const char *s);
typedef struct kc_prefetch kc_prefetch;
void kc_prefetch_free(kc_prefetch *pf);
/* Read the tree's Kconfig files as kc_tree_load would, for their
 * $(shell,...) commands only (kc_tree.c). */
void kc_tree_spec_parse(const struct kc_load_opts *o, kc_prefetch *pf);

/* ---- kc_conf.c ---- */
/* A string value as .config and auto.conf write it: in double quotes,
 * '"' and '\\' escaped with a backslash. */
void kc_escape_string_value(const char *in, kf_strbuf *out);
/* check_conf()'s test: a visible menu's symbol without a value that conf
 * asks about (listnewconfig, helpnewconfig, oldconfig's restarts); the
 * caller checks the menu's visibility.  False for NULL. */
bool kc_sym_is_new(kc_tree *t, kc_sym *sym);

/* ---- kc_ask.c: conf's line-oriented modes ---- */
int kc_ask_run(kc_tree *t, const kc_run_opts *o, kf_strbuf *out);

/* ---- kc_autoconf.c ---- */
/* Record a Kconfig file read (auto.conf.cmd lists them). */
void kc_file_seen(kc_tree *t, const char *name);

/* ---- kc_rand.c: glibc-compatible srand()/rand() ---- */
void kc_srand(kc_tree *t, unsigned seed);
int kc_rand(kc_tree *t);

/* Messages the kernel prints to stderr (exact text). */
void kc_warn_raw(kc_tree *t, const char *fmt, ...) KF_PRINTF(2, 3);

#endif

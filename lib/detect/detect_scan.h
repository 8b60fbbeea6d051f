/*
 * detect_scan.h - what the files of the source scan share: the scan's
 * state (Makefile facts, the files found), which module a file belongs
 * to (detect_kbuild.c), #if conditions (detect_cond.c), a table element
 * and the file2alias.c formats as data (detect_idtable.c).  Only
 * detect_scan.c and those three include it.
 */
#ifndef KFIT_DETECT_SCAN_H
#define KFIT_DETECT_SCAN_H

#include "detect_internal.h"
#include "kfit/hashmap.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* ---- the scan's state (detect_kbuild.c fills the Makefile facts) ---- */

/* An object named in a Makefile. */
typedef struct objent {
	char *path;      /* tree-relative: "drivers/net/virtio_net.o" */
	char *symbol;    /* CONFIG_ symbol (without prefix) of its obj- line */
	char *makefile;  /* tree-relative Makefile */
	int line;        /* line of the statement */
	bool is_obj;     /* named in obj-* (a module or built-in object) */
	char *composite; /* the composite object it is part of, or NULL */
	char *part_sym;  /* symbol of a foo-$(CONFIG_X) part line */
} objent;

/* A directory named in its parent's Makefile (obj-$(CONFIG_X) += dir/). */
typedef struct dirent_gate {
	char *path;     /* "drivers/net/ethernet/intel/" */
	char *symbol;   /* gate symbol, NULL for obj-y */
	char *makefile; /* where */
	int line;       /* line */
	char *parent;   /* the directory whose Makefile names it */
} dir_gate;

struct hdr_cache;

typedef struct scan {
	const char *tree;       /* tree root */
	struct hdr_cache *hc;   /* headers read so far (shared by the workers) */
	const char *arch;       /* SRCARCH */
	kf_aliasdb *db;         /* the result */
	objent *objs;           /* objects */
	size_t nobjs, aobjs;    /* count, capacity */
	kf_strmap objmap;            /* path -> objs index */
	dir_gate *dirs;         /* gated directories */
	size_t ndirs, adirs;    /* count, capacity */
	kf_strmap dirmap;            /* path -> dirs index */
	char **cfiles;          /* tree-relative .c files */
	size_t ncfiles, acfiles;/* count, capacity */
	bool *cfile_named;      /* by cfiles index: it names a device table,
				   an alias or a driver (scan_cfile read on):
				   in the cache's stamp */
	char **read;            /* other files and directories the scan read
				   (tree-relative): walked directories, their
				   Kbuild and Makefile, the global headers;
				   the cache's stamp (kf_aliasdb_stamps) */
	size_t nread, aread;    /* count, capacity */
	dcpp_defs *global;      /* macros of the kernel's headers */
	size_t failed_entries;  /* table entries not understood */
	int dmi_slot[14];       /* enum dmi_field values of dmi_names[] */
	struct incdir {
		char *dir;      /* the Makefile's directory: "drivers/scsi/csiostor/" */
		char *path;     /* a -I directory of its ccflags: "drivers/net/.../cxgb4/" */
		bool subdir;    /* subdir-ccflags: for the directories below too */
	} *incs;                /* -I directories from the Makefiles */
	size_t nincs, aincs;    /* count, capacity */
	kf_alias_origin table_origin; /* of the table being read: SOURCE, or
					 BUSTABLE for a driver's own table */
} scan;

/* Which module (and symbol) a source file belongs to. */
typedef struct owner {
	char *module;     /* module name with '_' */
	char *symbol;     /* symbol, or NULL (always built) */
	char *makefile;   /* where the symbol is named */
	int line;         /* its line */
	char *part_sym;   /* part symbol of a composite, or NULL */
	char *object;     /* the object path */
} owner;

/* Read the Makefiles below tree-relative directory rel ("" for the top)
 * into s's objects and gates, and list the .c files. */
void kbuild_walk(scan *s, const char *rel);
/* The owner of tree-relative cfile; release with owner_release. */
void kbuild_find_owner(scan *s, const char *cfile, owner *ow);
void owner_release(owner *o);
/* The module name of an object path: "drivers/a/foo-bar.o" -> "foo_bar". */
char *kbuild_modname(const char *objpath);
/* dir followed by rel[0..n), "x/../" and "/./" folded (malloc'd). */
char *kbuild_join_path(const char *dir, const char *rel, size_t n);
/* Free what kbuild_walk put into s. */
void kbuild_release(scan *s);

/* ---- #if conditions over CONFIG_ symbols (detect_cond.c) ---- */

/* One literal of a condition: CONFIG_SYM defined (kind 'y': =y),
 * CONFIG_SYM_MODULE defined ('m': =m), or IS_ENABLED ('e': y or m);
 * neg: its negation. */
typedef struct condlit {
	char sym[80]; /* without CONFIG_ */
	char kind;    /* 'y', 'm' or 'e' */
	bool neg;     /* negated */
} condlit;

/* One #if level: what its branch is known to need. */
typedef struct condframe {
	condlit lit[4]; /* a conjunction */
	int n;          /* how many */
	bool known;     /* lit is the whole condition (so #else negates it) */
	bool dead;      /* #if 0 */
} condframe;

typedef struct condstack {
	condframe f[16]; /* open levels */
	int depth;       /* how many are open (may exceed 16: not tracked) */
} condstack;

/* The condition of each line a table region becomes (splice_region). */
typedef struct condline {
	char *cond; /* as cond_string, or NULL */
	bool dead;  /* under #if 0 */
} condline;

typedef struct condlines {
	condstack cs;  /* the region's own #if levels */
	condline *v;   /* per output line */
	size_t n, a;   /* count, capacity */
} condlines;

/* Apply one directive line (text after '#', up to e). */
void cond_directive(condstack *cs, const char *p, const char *e);
/* The condition at offset pos of t: "SYM=y,!SYM2=e" (malloc'd) or NULL
 * when none; *dead when some level is #if 0. */
char *cond_at(const char *t, size_t pos, bool *dead);
/* Two conditions joined (either may be NULL); malloc'd or NULL. */
char *cond_join(const char *a, const char *b);
/* Record the condition in effect for the next line (cl may be NULL). */
void condlines_push(condlines *cl);
void condlines_release(condlines *cl);

/* ---- table elements and their aliases (detect_idtable.c) ---- */

/* Fields of one initializer element. */
typedef struct field {
	const char *name; /* field name */
	size_t from, to;  /* token range of the value */
} field;

typedef struct elem {
	const dcpp_toks *t; /* expanded tokens */
	field f[24];        /* the fields written */
	int n;              /* how many */
	bool bad;           /* a value was not understood */
} elem;

typedef struct emit {
	scan *s;          /* the scan */
	const owner *ow;  /* module of the file */
	const char *file; /* tree-relative source */
	int line;         /* line of the element */
	const char *devtype; /* MODULE_DEVICE_TABLE's type word ("mhi_ep") */
	const char *cond; /* the element's #if condition, or NULL */
} emit;

/* A device-id struct: how its initializers are laid out and how
 * file2alias.c prints its alias. */
typedef struct id_type {
	const char *type;                 /* struct name: "pci_device_id" */
	const char *const *order;         /* member order, for positional initializers */
	const struct id_format *format;   /* the alias as fields (detect_idtable.c) */
	void (*hook)(emit *em, elem *e);  /* or, for the few with logic of their
					     own (usb, of, dmi, vmbus), code */
} id_type;

/* The device-id types, in the order tables are looked for. */
extern const id_type id_types[];
extern const size_t id_ntypes;
/* file2alias.c's dmi_fields: the DMI_ names a dmi: alias orders its
 * matches by (their enum values are the tree's: scan.dmi_slot). */
extern const char *const id_dmi_names[14];

/* Parse the inside of one braced element t->v[a..b) into fields. */
void elem_parse(elem *e, const dcpp_toks *t, size_t a, size_t b, const char *const *order);
/* Every field written is 0, "" or NULL. */
bool elem_empty(const elem *e);
/* The aliases of one element of a table of type tt. */
void id_emit(emit *em, elem *e, const id_type *tt);
/* Add a source alias with the symbol of the file's own object. */
void scan_add_owned(scan *s, const owner *ow, const char *pattern, const char *file, int line,
		    kf_alias_origin origin, const char *cond);

static inline bool is_punct(const dcpp_tok *t, const char *p)
{
	return t->kind == DCPP_PUNCT && !strcmp(t->s, p);
}

#endif

/*
 * profcli.h - what the profile-using commands share: finding and loading
 * the profile database, -p arguments that name files.
 */
#ifndef KFIT_PROFCLI_H
#define KFIT_PROFCLI_H

#include "kfit/profile.h"
#include "kfit/util.h"

/* What the options of a profile-using command collect (-p, --local,
 * --profiles: src/options.h's CLI_OPT_PROFILE, _LOCAL, _PROFILES). */
typedef struct profcli_opts {
	const char *dir;      /* --profiles DIR, or NULL for the default */
	const char **locals;  /* --local FILE and -p FILE.kfit */
	size_t nlocals;       /* how many */
	size_t localloc;      /* capacity of locals */
	const char **names;   /* -p NAME in order (files expanded at load) */
	size_t nnames;        /* how many */
	size_t namealloc;     /* capacity of names */
	const char *root;     /* where a bare family name (-p systemd) looks
				 for the machine's own version: --root DIR,
				 or NULL for "/" */
} profcli_opts;

/* Load the database (default directory, plus locals); names that are .kfit
 * files become the profiles those files define.  NULL after printing the
 * errors. */
prof_db *profcli_load(profcli_opts *o);
void profcli_release(profcli_opts *o);

/* An `absent` statement as a JSON object (check's results, profiles
 * show's ships_kernel: docs/schema/). */
struct kf_json;
void profcli_json_absent(struct kf_json *j, const prof_absent *ab);

/* `profiles` helpers that read kernel trees (src/profiles_tree.c). */
int profiles_tree_kver(const char *tree, uint32_t *kver);
int profiles_lint_trees(prof_db *db, const char **trees, size_t ntrees, const char *arch);

#endif

/*
 * profcli.c - profile database loading shared by the commands that read
 * profiles (their options: src/options.h).  The database directory is, in order:
 * --profiles DIR, $KFIT_PROFILES, <binary>/../profiles (the source tree),
 * <binary>/../share/kfit/profiles (installed).
 */
#include "profcli.h"
#include "cli.h"
#include "kfit/detect.h"
#include "kfit/json.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A profile names a profile; a file is given as a path: with a '/' and
 * ending in .kfit (or with --local FILE).  Anything else with a '/' or a
 * .kfit (-p ../../etc/passwd, -p local.kfit) is refused, never read. */
static bool ends_kfit(const char *n)
{
	size_t l = strlen(n);
	return l > 5 && !strcmp(n + l - 5, ".kfit");
}

static bool names_file(const char *n)
{
	return strchr(n, '/') && ends_kfit(n);
}

static bool looks_like_path(const char *n)
{
	return strchr(n, '/') || ends_kfit(n);
}

/* A name that is one of the --local files (the same string: generate
 * applies its profiles), loaded with the others. */
static bool is_local(const profcli_opts *o, const char *n)
{
	for (size_t i = 0; i < o->nlocals; i++)
		if (o->locals[i] == n)
			return true;
	return false;
}

/* The default database directory, malloc'd, or NULL; *installed is set
 * when it is the installed one (BINDIR/../share/kfit/profiles). */
static char *default_dir(bool *installed)
{
	*installed = false;
	const char *env = getenv("KFIT_PROFILES");
	if (env && *env)
		return kf_xstrdup(env);
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	static const char *const rel[] = {"/../profiles", "/../share/kfit/profiles"};
	for (size_t i = 0; i < 2; i++) {
		char *p = kf_xasprintf("%s%s", exe, rel[i]);
		if (kf_is_dir(p)) {
			*installed = i == 1;
			return p;
		}
		free(p);
	}
	return NULL;
}

/*
 * -p FAMILY without a version ("systemd", "ubuntu"): the machine's own
 * release when it runs that family (detected under root), else the newest
 * the database knows, said on stderr.  Any other name is returned as it
 * is.  The detection runs once, without devices, and is kept in *det.
 */
static const char *family_release(prof_db *db, const char *name, const char *root,
				  kf_detect **det)
{
	long param;
	const char *newest;
	if (prof_db_find(db, name, &param, NULL) || !(newest = prof_db_newest(db, name)))
		return name;
	if (!*det) {
		kf_diags dd = KF_DIAGS_INIT;
		kf_detect_opts dop = {.root = root ? root : "/", .db = db};
		*det = kf_detect_run(&dop, &dd);
		kf_diags_release(&dd);
	}
	const char *mine = kf_detect_family_release(*det, db, name);
	const char *pick = mine ? prof_db_intern(db, mine) : newest;
	fprintf(stderr, "kfit: -p %s means %s (%s); name a version to choose another\n", name,
		pick, mine ? root ? "detected in the snapshot" : "detected on this machine"
			   : "the newest kfit knows");
	return pick;
}

prof_db *profcli_load(profcli_opts *o)
{
	kf_diags d = KF_DIAGS_INIT;
	prof_db *db = prof_db_new();
	bool installed = false;
	char *dir = o->dir ? kf_xstrdup(o->dir) : default_dir(&installed);
	if (!dir) {
		cli_error("cannot find the profile database (use --profiles DIR or set KFIT_PROFILES)");
		prof_db_free(db);
		return NULL;
	}
	/* name files relative to the current directory when they are below it,
	 * so messages read "profiles/init/systemd.kfit:12:1"; an installed
	 * database by where it is installed (/usr/share/kfit/profiles/...),
	 * wherever the user stands */
	char *real = realpath(dir, NULL);
	char cwd[PATH_MAX];
	const char *shown = real ? real : dir;
	if (real && !installed && getcwd(cwd, sizeof(cwd))) {
		size_t cl = strlen(cwd);
		if (!strncmp(real, cwd, cl) && real[cl] == '/')
			shown = real + cl + 1;
		else if (!strcmp(real, cwd))
			shown = ".";
	}
	prof_db_add_dir(db, shown, &d);
	free(real);
	free(dir);
	for (size_t i = 0; i < o->nlocals; i++)
		prof_db_add_local(db, o->locals[i], &d);
	/* -p FILE: load it and use every profile it defines */
	kf_detect *det = NULL;
	const char **names = NULL;
	size_t n = 0, alloc = 0;
	for (size_t i = 0; i < o->nnames; i++) {
		bool local = is_local(o, o->names[i]);
		if (!local && !names_file(o->names[i]) && looks_like_path(o->names[i])) {
			kf_diag_add(&d, KF_ERROR, NULL, 0, 0,
				    "-p %s: not a profile name, and not read as a file: a "
				    "profile file is a path with a '/' ending in .kfit "
				    "(./FILE.kfit), or --local FILE",
				    o->names[i]);
			continue;
		}
		if (!local && !names_file(o->names[i])) {
			KF_GROW(names, n + 1, alloc);
			names[n++] = family_release(db, o->names[i], o->root, &det);
			continue;
		}
		if (!local && prof_db_add_local(db, o->names[i], &d) < 0)
			continue;
		const char **fn;
		size_t nf = prof_db_file_profiles(db, o->names[i], &fn);
		if (!nf) {
			/* a --local file that did not load has said why */
			if (!local || !d.nerr)
				kf_diag_add(&d, KF_ERROR, o->names[i], 0, 0, "file defines no profile");
			continue;
		}
		for (size_t k = 0; k < nf; k++) {
			KF_GROW(names, n + 1, alloc);
			names[n++] = fn[k];
		}
	}
	free(o->names);
	o->names = names;
	o->nnames = n;
	o->namealloc = alloc;
	cli_print_diags(&d);
	size_t nerr = d.nerr;
	kf_diags_release(&d);
	kf_detect_free(det);
	if (nerr) {
		prof_db_free(db);
		return NULL;
	}
	return db;
}

void profcli_release(profcli_opts *o)
{
	free(o->locals);
	free(o->names);
	memset(o, 0, sizeof(*o));
}

void profcli_json_absent(kf_json *j, const prof_absent *ab)
{
	kf_json_begin_object(j);
	kf_json_kstr(j, "symbol", ab->sym);
	kf_json_kstr(j, "profile", ab->profile);
	kf_strbuf rsn = KF_STRBUF_INIT;
	prof_reason_oneline(ab->reason, &rsn);
	kf_json_kstr(j, "reason", kf_strbuf_str(&rsn));
	kf_strbuf_release(&rsn);
	kf_json_kstrs(j, "sources", ab->sources, ab->nsources);
	kf_json_kstr(j, "file", ab->loc.file);
	kf_json_kint(j, "line", ab->loc.line);
	kf_json_end_object(j);
}

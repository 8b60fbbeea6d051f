/*
 * profile_near.c - the releases nearest to a name the database does not
 * have: "fedora-46" -> fedora-44 (the nearest older release of the same
 * family), for detection on a release newer than the data and for the
 * did-you-mean of an unknown name.  A family is the part before the last
 * dash; a release is a dotted number after it ("24.10", "3.23", "15").
 */
#include "profile_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Split "fedora-44" into the family length and the version; false when
 * the part after the last dash is not a dotted number. */
static bool split_release(const char *name, size_t *famlen, const char **ver)
{
	const char *dash = strrchr(name, '-');
	if (!dash || dash == name || !isdigit((unsigned char)dash[1]))
		return false;
	for (const char *p = dash + 1; *p; p++)
		if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
			return false;
	*famlen = (size_t)(dash - name);
	*ver = dash + 1;
	return true;
}

/* <0, 0, >0 as dotted version a is below, equal to, above b. */
static int vercmp(const char *a, const char *b)
{
	while (*a || *b) {
		char *ea, *eb;
		long x = strtol(a, &ea, 10), y = strtol(b, &eb, 10);
		if (x != y)
			return x < y ? -1 : 1;
		a = *ea == '.' ? ea + 1 : ea;
		b = *eb == '.' ? eb + 1 : eb;
	}
	return 0;
}

const char *prof_db_nearest(const prof_db *db, const char *name, bool older)
{
	size_t fl;
	const char *ver;
	if (!split_release(name, &fl, &ver))
		return NULL;
	const char *best = NULL, *bestver = NULL;
	for (size_t i = 0; i < db->n; i++) {
		const prof_profile *p = db->profs[i];
		size_t pfl;
		const char *pver;
		if (p->stem || p->kind != PROF_KIND_DISTRO || !split_release(p->name, &pfl, &pver) ||
		    pfl != fl || strncmp(p->name, name, fl))
			continue;
		int c = vercmp(pver, ver);
		if (older ? c >= 0 : c <= 0)
			continue;
		if (!best || (older ? vercmp(pver, bestver) > 0 : vercmp(pver, bestver) < 0)) {
			best = p->name;
			bestver = pver;
		}
	}
	return best;
}

const char *prof_db_newest(const prof_db *db, const char *family)
{
	size_t fl = strlen(family);
	const char *best = NULL, *bestver = NULL;
	for (size_t i = 0; i < db->n; i++) {
		const prof_profile *p = db->profs[i];
		size_t pfl;
		const char *pver;
		/* a release of the family, or (a template's family) a
		 * version some profile names in its init slot */
		const char *cands[2] = {p->stem ? NULL : p->name, p->init};
		for (size_t c = 0; c < 2; c++) {
			if (!cands[c] || !split_release(cands[c], &pfl, &pver) || pfl != fl ||
			    strncmp(cands[c], family, fl))
				continue;
			if (c == 0 && p->kind != PROF_KIND_DISTRO)
				continue;
			if (!best || vercmp(pver, bestver) > 0) {
				best = cands[c];
				bestver = pver;
			}
		}
	}
	return best;
}

const char *prof_db_intern(prof_db *db, const char *s)
{
	return kf_arena_strdup(db->arena, s);
}

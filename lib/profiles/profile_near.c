/*
 * profile_near.c - the releases nearest to a name the database does not
 * have: "fedora-46" -> fedora-44 (the nearest older release of the same
 * family), for detection on a release newer than the data and for the
 * did-you-mean of an unknown name.  A family is the part before the last
 * dash; a release is a dotted number after it ("24.10", "3.23", "15").
 * And the names nearest in spelling to a mistyped one ("debain-12" ->
 * debian-12), for the did-you-mean of every command that takes -p.
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

/* Optimal string alignment distance: Levenshtein's with a swap of two
 * neighbours counted as one edit ("debain" -> "debian" is 1); -1 (the
 * largest size_t) for names longer than 64. */
static size_t spelling_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return (size_t)-1;
	size_t rows[3][65], *pp = rows[0], *prev = rows[1], *cur = rows[2];
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);
			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    pp[j - 2] + 1 < best)
				best = pp[j - 2] + 1;
			cur[j] = best;
		}
		size_t *t = pp;
		pp = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

size_t prof_db_similar(const prof_db *db, const char *name, kf_strbuf *sb)
{
	/* a typo: at most a third of the name wrong (1 for short names), as
	 * for the did-you-mean of options */
	size_t len = strlen(name), limit = len < 6 ? 1 : len / 3, best = limit + 1;
	const char *dash = strrchr(name, '-'), *num = NULL;
	/* "-256": a template "systemd-N" is tried as systemd-256 */
	if (dash && dash[1] && strspn(dash + 1, "0123456789") == strlen(dash + 1))
		num = dash;
	const char *cands[3];
	char *made[3] = {NULL, NULL, NULL};
	size_t n = 0;
	for (size_t i = 0; i < db->n; i++) {
		const prof_profile *p = db->profs[i];
		if (p->stem && !num)
			continue; /* "systemd-N" is no name to type */
		char *inst = p->stem ? kf_xasprintf("%s%s", p->stem, num) : NULL;
		const char *c = inst ? inst : p->name;
		size_t dist = spelling_distance(name, c);
		bool dup = false;
		for (size_t k = 0; k < n && dist == best; k++)
			dup = dup || !strcmp(cands[k], c);
		if (dist < best || (dist == best && n < 3 && !dup)) {
			if (dist < best) {
				for (size_t k = 0; k < n; k++)
					free(made[k]);
				n = 0;
				best = dist;
			}
			cands[n] = c;
			made[n++] = inst;
			inst = NULL;
		}
		free(inst);
	}
	for (size_t k = 0; k < n; k++) {
		kf_strbuf_addstr(sb, k == 0 ? "" : k + 1 == n ? " or " : ", ");
		kf_strbuf_addstr(sb, cands[k]);
		free(made[k]);
	}
	return n;
}

const char *prof_db_intern(prof_db *db, const char *s)
{
	return kf_arena_strdup(db->arena, s);
}

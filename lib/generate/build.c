/*
 * build.c - what building a kernel needs (include/kfit/build.h): the
 * package format of the target distribution, the build prerequisites of a
 * tree and a configuration checked on this machine, an estimate of the
 * objects a configuration compiles, and the build plan: where a build
 * goes, its commands and package format.
 */
#include "kfit/build.h"

#include "kfit/detect.h"
#include "kfit/kconfig.h"
#include "kfit/run.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- package formats ---- */

const char *kf_pkg_format_name(kf_pkg_format f)
{
	switch (f) {
	case KF_PKG_DEB: return "deb";
	case KF_PKG_RPM: return "rpm";
	case KF_PKG_PLAIN: return "plain";
	case KF_PKG_AUTO: break;
	}
	return "auto";
}

int kf_pkg_format_parse(const char *s, kf_pkg_format *f)
{
	static const kf_pkg_format all[] = {KF_PKG_AUTO, KF_PKG_DEB, KF_PKG_RPM, KF_PKG_PLAIN};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(s, kf_pkg_format_name(all[i]))) {
			*f = all[i];
			return 0;
		}
	return -1;
}

/* os-release IDs (and the profile names that start with them) by the
 * package format their kernels come in. */
static const struct {
	const char *id;
	kf_pkg_format format;
} os_formats[] = {
	{"debian", KF_PKG_DEB},     {"ubuntu", KF_PKG_DEB},   {"linuxmint", KF_PKG_DEB},
	{"pop", KF_PKG_DEB},        {"elementary", KF_PKG_DEB}, {"zorin", KF_PKG_DEB},
	{"raspbian", KF_PKG_DEB},   {"kali", KF_PKG_DEB},     {"devuan", KF_PKG_DEB},
	{"fedora", KF_PKG_RPM},     {"rhel", KF_PKG_RPM},     {"centos", KF_PKG_RPM},
	{"centos-stream", KF_PKG_RPM}, {"rocky", KF_PKG_RPM}, {"almalinux", KF_PKG_RPM},
	{"ol", KF_PKG_RPM},         {"opensuse", KF_PKG_RPM}, {"opensuse-leap", KF_PKG_RPM},
	{"opensuse-tumbleweed", KF_PKG_RPM}, {"suse", KF_PKG_RPM}, {"sles", KF_PKG_RPM},
	{"arch", KF_PKG_PLAIN},     {"gentoo", KF_PKG_PLAIN}, {"alpine", KF_PKG_PLAIN},
	{"nixos", KF_PKG_PLAIN},
};

static kf_pkg_format format_of_id(const char *id, size_t len)
{
	for (size_t i = 0; i < sizeof(os_formats) / sizeof(os_formats[0]); i++)
		if (strlen(os_formats[i].id) == len && !strncmp(os_formats[i].id, id, len))
			return os_formats[i].format;
	return KF_PKG_AUTO;
}

kf_pkg_format kf_pkg_format_for_os(const char *id, const char *id_like)
{
	kf_pkg_format f = id ? format_of_id(id, strlen(id)) : KF_PKG_AUTO;
	/* ID_LIKE is a space-separated list, closest first */
	for (const char *p = id_like; f == KF_PKG_AUTO && p && *p;) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		if (n)
			f = format_of_id(p, n);
		p += n;
	}
	return f == KF_PKG_AUTO ? KF_PKG_PLAIN : f;
}

kf_pkg_format kf_pkg_format_for_profile(const char *name)
{
	/* "debian-12", "centos-stream-10", "opensuse-leap-15.6", "arch":
	 * the longest known ID that is the name or its prefix before '-' */
	kf_pkg_format best = KF_PKG_AUTO;
	size_t bestlen = 0;
	for (size_t i = 0; i < sizeof(os_formats) / sizeof(os_formats[0]); i++) {
		size_t n = strlen(os_formats[i].id);
		if (!strncmp(name, os_formats[i].id, n) && (name[n] == 0 || name[n] == '-') &&
		    n > bestlen) {
			best = os_formats[i].format;
			bestlen = n;
		}
	}
	return best;
}

/* ---- this machine ---- */

bool kf_have_program(const char *prog)
{
	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	bool found = false;
	kf_strbuf sb = KF_STRBUF_INIT;
	for (const char *p = path; !found;) {
		size_t n = strcspn(p, ":");
		kf_strbuf_reset(&sb);
		if (n)
			kf_strbuf_add(&sb, p, n);
		else
			kf_strbuf_addch(&sb, '.');
		kf_strbuf_addf(&sb, "/%s", prog);
		struct stat st;
		found = stat(kf_strbuf_str(&sb), &st) == 0 && S_ISREG(st.st_mode) &&
			access(kf_strbuf_str(&sb), X_OK) == 0;
		if (!p[n])
			break;
		p += n + 1;
	}
	kf_strbuf_release(&sb);
	return found;
}

/* Whether a C header is installed: /usr/include/H or a multiarch
 * /usr/include/TRIPLET/H. */
static bool have_header(const char *h)
{
	char *p = kf_xasprintf("/usr/include/%s", h);
	bool ok = kf_exists(p);
	free(p);
	static const char *const triplets[] = {
		"x86_64-linux-gnu", "i386-linux-gnu", "aarch64-linux-gnu",
		"arm-linux-gnueabihf", "riscv64-linux-gnu", "powerpc64le-linux-gnu",
		"s390x-linux-gnu",
	};
	for (size_t i = 0; !ok && i < sizeof(triplets) / sizeof(triplets[0]); i++) {
		p = kf_xasprintf("/usr/include/%s/%s", triplets[i], h);
		ok = kf_exists(p);
		free(p);
	}
	return ok;
}

kf_host_family kf_build_host_family(void)
{
	if (kf_have_program("dpkg-query") && kf_exists("/var/lib/dpkg/status"))
		return KF_HOST_DEB;
	if (kf_have_program("rpm") && (kf_exists("/var/lib/rpm") || kf_exists("/usr/lib/sysimage/rpm")))
		return KF_HOST_RPM;
	return KF_HOST_OTHER;
}

/* dpkg-query's answer for an installed package: its version (malloc'd),
 * or NULL when it is not installed. */
static char *dpkg_installed_version(const char *pkg)
{
	const char *argv[] = {"dpkg-query", "-W", "-f=${db:Status-Abbrev} ${Version}", pkg, NULL};
	kf_strbuf out = KF_STRBUF_INIT;
	kf_diags d = KF_DIAGS_INIT;
	kf_run_opts o = {.argv = argv, .out = &out, .max = 4096, .timeout_ms = 30000};
	int rc = kf_run(&o, &d);
	kf_diags_release(&d);
	char *v = NULL;
	const char *s = kf_strbuf_str(&out);
	/* "ii  1.2.3" (the abbreviation is three columns wide) */
	if (rc == 0 && s[0] == 'i' && s[1] == 'i') {
		const char *sp = strrchr(s, ' ');
		if (sp && sp[1])
			v = kf_xstrdup(sp + 1);
	}
	kf_strbuf_release(&out);
	return v;
}

/* dpkg --compare-versions a op b */
static bool dpkg_version_holds(const char *a, const char *op, const char *b)
{
	static const struct {
		const char *rel, *dpkg;
	} ops[] = {{">=", "ge"}, {"<=", "le"}, {"=", "eq"}, {">>", "gt"}, {"<<", "lt"}};
	const char *dop = NULL;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(op, ops[i].rel))
			dop = ops[i].dpkg;
	if (!dop)
		return false;
	const char *argv[] = {"dpkg", "--compare-versions", a, dop, b, NULL};
	kf_diags d = KF_DIAGS_INIT;
	kf_run_opts o = {.argv = argv, .timeout_ms = 30000};
	int rc = kf_run(&o, &d);
	kf_diags_release(&d);
	return rc == 0;
}

/* Whether an installed package Provides pkg (a virtual package: Debian
 * 12's gcc provides gcc-x86-64-linux-gnu, the gcc-${host_gnu} of 6.12's
 * mkdebian), at a version for which "op ver" holds when op is given; as
 * dpkg-checkbuilddeps counts it. */
static bool dpkg_provided(const char *pkg, const char *op, const char *ver)
{
	const char *argv[] = {"dpkg-query", "-W", "-f=${db:Status-Abbrev}${Provides}\n", NULL};
	kf_strbuf out = KF_STRBUF_INIT;
	kf_diags d = KF_DIAGS_INIT;
	kf_run_opts o = {.argv = argv, .out = &out, .max = 16 << 20, .timeout_ms = 30000};
	int rc = kf_run(&o, &d);
	kf_diags_release(&d);
	bool ok = false;
	char *text = kf_strbuf_detach(&out);
	if (rc != 0 || !text) {
		free(text);
		return false;
	}
	for (char *s1 = NULL, *l = strtok_r(text, "\n", &s1); l && !ok;
	     l = strtok_r(NULL, "\n", &s1)) {
		if (strncmp(l, "ii ", 3))
			continue;
		/* "gcc-x86-64-linux-gnu (= 4:12.2.0-3), c-compiler" */
		for (char *s2 = NULL, *e = strtok_r(l + 3, ",", &s2); e && !ok;
		     e = strtok_r(NULL, ",", &s2)) {
			char name[128] = "", pver[64] = "";
			if (sscanf(e, " %127[^ (:]", name) != 1 || strcmp(name, pkg))
				continue;
			const char *eq = strstr(e, "(=");
			if (eq)
				sscanf(eq + 2, " %63[^) ]", pver);
			ok = !op[0] || (pver[0] && dpkg_version_holds(pver, op, ver));
		}
	}
	free(text);
	return ok;
}

/* ---- build needs ---- */

static bool config_on(const kf_dotconfig *c, const char *sym)
{
	const char *v = c ? kf_dotconfig_get(c, sym) : NULL;
	return v && (!strcmp(v, "y") || !strcmp(v, "m"));
}

static kf_build_need *need_find(kf_build_needs *n, const char *package, const char *what)
{
	for (size_t i = 0; i < n->n; i++)
		if ((package && n->v[i].package && !strcmp(n->v[i].package, package)) ||
		    !strcmp(n->v[i].what, what))
			return &n->v[i];
	return NULL;
}

static void need_add(kf_build_needs *n, const char *what, const char *package,
		     const char *why, bool present)
{
	kf_build_need *old = need_find(n, package, what);
	if (old) {
		/* one line per package: a missing relation wins */
		if (old->present && !present) {
			old->present = false;
			n->nmissing++;
			free(old->what);
			old->what = kf_xstrdup(what);
			free(old->why);
			old->why = kf_xstrdup(why);
		}
		return;
	}
	if (n->n == n->alloc) {
		n->alloc = n->alloc ? 2 * n->alloc : 16;
		n->v = kf_xrealloc(n->v, n->alloc * sizeof(*n->v));
	}
	n->v[n->n++] = (kf_build_need){
		.what = kf_xstrdup(what),
		.package = package ? kf_xstrdup(package) : NULL,
		.why = kf_xstrdup(why),
		.present = present,
	};
	if (!present)
		n->nmissing++;
}

void kf_build_needs_release(kf_build_needs *n)
{
	for (size_t i = 0; i < n->n; i++) {
		free(n->v[i].what);
		free(n->v[i].package);
		free(n->v[i].why);
	}
	free(n->v);
	memset(n, 0, sizeof(*n));
}

enum probe { PROBE_PROGRAM, PROBE_HEADER };

/* What a build may need, when, and the package that has it per host. */
static const struct build_need_rule {
	enum probe probe;   /* how to tell it is here */
	const char *what;   /* program or header */
	const char *deb;    /* Debian package */
	const char *rpm;    /* Fedora package (openSUSE differs in places) */
	const char *when[4];/* any of these options y/m; none: always */
	int formats;        /* 1 << kf_pkg_format it applies to; 0: all */
	const char *why;    /* what needs it */
} rules[] = {
	{PROBE_PROGRAM, "make", "make", "make", {0}, 0, "kbuild runs make"},
	{PROBE_PROGRAM, "flex", "flex", "flex", {0}, 0, "scripts/kconfig and dtc's lexers"},
	{PROBE_PROGRAM, "bison", "bison", "bison", {0}, 0, "scripts/kconfig and dtc's parsers"},
	{PROBE_PROGRAM, "bc", "bc", "bc", {0}, 0, "kernel/time/timeconst.bc"},
	{PROBE_PROGRAM, "perl", "perl", "perl", {0}, 0, "kbuild's helper scripts"},
	{PROBE_PROGRAM, "cpio", "cpio", "cpio", {"IKHEADERS"}, 0,
	 "CONFIG_IKHEADERS: kernel/gen_kheaders.sh archives the headers with cpio"},
	{PROBE_HEADER, "gelf.h", "libelf-dev", "elfutils-libelf-devel",
	 {"OBJTOOL", "STACK_VALIDATION", "UNWINDER_ORC", "DEBUG_INFO_BTF"}, 0,
	 "objtool (CONFIG_OBJTOOL, CONFIG_UNWINDER_ORC) and resolve_btfids read ELF objects with libelf"},
	{PROBE_HEADER, "openssl/opensslv.h", "libssl-dev", "openssl-devel",
	 {"MODULE_SIG_FORMAT", "SYSTEM_TRUSTED_KEYRING", "MODULE_SIG"}, 0,
	 "scripts/sign-file and certs/extract-cert (module signing, trusted keys) use OpenSSL"},
	{PROBE_PROGRAM, "openssl", "openssl", "openssl", {"MODULE_SIG"}, 0,
	 "CONFIG_MODULE_SIG with the default CONFIG_MODULE_SIG_KEY: certs/Makefile makes the "
	 "signing key with 'openssl req'"},
	{PROBE_PROGRAM, "pahole", "dwarves", "dwarves", {"DEBUG_INFO_BTF"}, 0,
	 "CONFIG_DEBUG_INFO_BTF: pahole turns DWARF into BTF"},
	{PROBE_PROGRAM, "depmod", "kmod", "kmod", {"MODULES"}, 0,
	 "CONFIG_MODULES: modules_install runs depmod"},
	{PROBE_PROGRAM, "rsync", "rsync", "rsync", {0}, 1 << KF_PKG_DEB | 1 << KF_PKG_RPM,
	 "the packaging copies the headers with rsync"},
	{PROBE_PROGRAM, "dpkg-buildpackage", "dpkg-dev", "dpkg-dev", {0}, 1 << KF_PKG_DEB,
	 "make bindeb-pkg runs dpkg-buildpackage"},
	{PROBE_PROGRAM, "rpmbuild", "rpm", "rpm-build", {0}, 1 << KF_PKG_RPM,
	 "make binrpm-pkg runs rpmbuild"},
};

static const char *rule_package(const struct build_need_rule *r, kf_host_family host)
{
	return host == KF_HOST_RPM ? r->rpm : host == KF_HOST_DEB ? r->deb : NULL;
}

/* Whether the tree's scripts/Makefile.package runs dpkg-buildpackage
 * under fakeroot by default (up to 6.2: KBUILD_PKG_ROOTCMD ?="fakeroot -u"). */
static bool tree_needs_fakeroot(const char *tree)
{
	char *p = kf_xasprintf("%s/scripts/Makefile.package", tree);
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_diags d = KF_DIAGS_INIT;
	bool yes = kf_read_file(p, &sb, &d) == 0 &&
		   strstr(kf_strbuf_str(&sb), "ROOTCMD ?=\"fakeroot");
	kf_diags_release(&d);
	kf_strbuf_release(&sb);
	free(p);
	return yes;
}

/* The Debian host triplet as mkdebian spells it for gcc-${host_gnu}:
 * x86-64-linux-gnu; a cross build's is its CROSS_COMPILE's (mkdebian asks
 * dpkg-architecture -a for the target's). */
static char *deb_host_gnu(const char *cross)
{
	if (cross && *cross) {
		const char *base = strrchr(cross, '/') ? strrchr(cross, '/') + 1 : cross;
		char *s = kf_xstrdup(base);
		size_t n = strlen(s);
		if (n && s[n - 1] == '-')
			s[n - 1] = 0;
		for (char *p = s; *p; p++)
			if (*p == '_')
				*p = '-';
		return s;
	}
	const char *argv[] = {"dpkg-architecture", "-q", "DEB_HOST_GNU_TYPE", NULL};
	kf_strbuf out = KF_STRBUF_INIT;
	kf_diags d = KF_DIAGS_INIT;
	kf_run_opts o = {.argv = argv, .out = &out, .max = 256, .timeout_ms = 30000};
	int rc = kf_run(&o, &d);
	kf_diags_release(&d);
	char *s = NULL;
	if (rc == 0 && out.len) {
		s = kf_strbuf_detach(&out);
		s[strcspn(s, "\n")] = 0;
		for (char *p = s; *p; p++)
			if (*p == '_')
				*p = '-';
	}
	kf_strbuf_release(&out);
	return s;
}

/* Check one Debian relation ("flex | flex:native", "debhelper-compat (= 12)",
 * "libssl-dev <!pkg.linux-upstream.nokernelheaders>") against dpkg. */
static void deb_relation(kf_build_needs *n, char *rel, const char *host_gnu, const char *why)
{
	char *alts[8];
	size_t nalt = 0;
	for (char *save = NULL, *a = strtok_r(rel, "|", &save); a && nalt < 8;
	     a = strtok_r(NULL, "|", &save))
		alts[nalt++] = a;
	kf_strbuf shown = KF_STRBUF_INIT;
	char *first_pkg = NULL;
	bool ok = false;
	for (size_t i = 0; i < nalt; i++) {
		char *a = alts[i];
		char *lt = strchr(a, '<'); /* build profiles: the default build has none */
		if (lt)
			*lt = 0;
		char name[128] = "", op[4] = "", ver[64] = "";
		char *paren = strchr(a, '(');
		if (paren) {
			*paren = 0;
			sscanf(paren + 1, " %3[<>=] %63[^) ]", op, ver);
		}
		if (sscanf(a, " %127s", name) != 1)
			continue;
		char *colon = strchr(name, ':'); /* :native, :any */
		if (colon)
			*colon = 0;
		/* ${host_gnu} in gcc-${host_gnu} */
		char *var = strstr(name, "${host_gnu}");
		char *pkg;
		if (var) {
			*var = 0;
			pkg = kf_xasprintf("%s%s", name, host_gnu ? host_gnu : "");
		} else
			pkg = kf_xstrdup(name);
		/* debhelper-compat (= N) is provided by debhelper >= N */
		if (!strcmp(pkg, "debhelper-compat") && ver[0]) {
			free(pkg);
			pkg = kf_xstrdup("debhelper");
			strcpy(op, ">=");
		}
		if (shown.len)
			kf_strbuf_addstr(&shown, " | ");
		kf_strbuf_addstr(&shown, pkg);
		if (op[0])
			kf_strbuf_addf(&shown, " (%s %s)", op, ver);
		char *inst = dpkg_installed_version(pkg);
		if (inst && (!op[0] || dpkg_version_holds(inst, op, ver)))
			ok = true;
		else if (!inst)
			ok = dpkg_provided(pkg, op, ver);
		free(inst);
		if (!first_pkg)
			first_pkg = pkg;
		else
			free(pkg);
		if (ok)
			break;
	}
	if (first_pkg)
		need_add(n, kf_strbuf_str(&shown), first_pkg, why, ok);
	free(first_pkg);
	kf_strbuf_release(&shown);
}

/* Every relation of Build-Depends and Build-Depends-Arch in the control
 * file the tree's scripts/package/mkdebian writes, with
 * $extra_build_depends's if_enabled_echo CONFIG_X PKG entries (5.x-6.2)
 * evaluated against the configuration. */
static void deb_build_depends(const kf_build_in *in, kf_build_needs *n, kf_diags *d)
{
	char *path = kf_xasprintf("%s/scripts/package/mkdebian", in->tree);
	kf_strbuf sb = KF_STRBUF_INIT;
	if (kf_read_file(path, &sb, d) < 0) {
		free(path);
		return;
	}
	const char *text = kf_strbuf_str(&sb);
	kf_strbuf rels = KF_STRBUF_INIT;
	for (const char *p = text; (p = strstr(p, "\nBuild-Depends")); p++) {
		const char *colon = strchr(p, ':');
		if (!colon)
			break;
		const char *s = colon + 1;
		/* the field and its continuation lines (starting with a space) */
		for (;;) {
			size_t len = strcspn(s, "\n");
			kf_strbuf_add(&rels, s, len);
			kf_strbuf_addch(&rels, ',');
			s += len;
			if (s[0] == '\n' && s[1] == ' ')
				s++;
			else
				break;
		}
	}
	/* $extra_build_depends */
	const char *e = strstr(text, "extra_build_depends=");
	if (e) {
		const char *end = strchr(e, '\n');
		for (const char *q = e; (q = strstr(q, "if_enabled_echo CONFIG_")) && (!end || q < end);) {
			char sym[128], pkg[128];
			if (sscanf(q, "if_enabled_echo CONFIG_%127[A-Za-z0-9_] %127[^) \n]", sym, pkg) == 2 &&
			    config_on(in->config, sym))
				kf_strbuf_addf(&rels, "%s,", pkg);
			q += 15;
		}
	}
	char *host_gnu = deb_host_gnu(in->cross);
	char *why = kf_xasprintf("Build-Depends of the tree's scripts/package/mkdebian (dpkg-buildpackage checks it)");
	char *all = kf_strbuf_detach(&rels);
	for (char *save = NULL, *r = strtok_r(all, ",", &save); r; r = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*r))
			r++;
		if (!*r || *r == '$') /* $extra_build_depends, evaluated above */
			continue;
		deb_relation(n, r, host_gnu, why);
	}
	free(all);
	free(why);
	free(host_gnu);
	kf_strbuf_release(&sb);
	free(path);
}

int kf_build_needs_check(const kf_build_in *in, kf_build_needs *out, kf_diags *d)
{
	memset(out, 0, sizeof(*out));
	bool cross = in->cross && *in->cross;
	/* the compiler first: nothing builds without it; a cross build's is
	 * CROSS_COMPILE's gcc (kbuild's CC = $(CROSS_COMPILE)gcc), from
	 * gcc-TRIPLET on Debian and Fedora */
	{
		char *word = in->cc && *in->cc ? kf_xstrndup(in->cc, strcspn(in->cc, " "))
		             : kf_xasprintf("%sgcc", cross ? in->cross : "");
		char *pkg = NULL, *why;
		if (!strcmp(word, "gcc"))
			pkg = kf_xstrdup("gcc");
		else if (strstr(word, "clang"))
			pkg = kf_xstrdup("clang");
		else if (cross && !(in->cc && *in->cc)) {
			char *t = deb_host_gnu(in->cross);
			pkg = kf_xasprintf("gcc-%s", t);
			free(t);
		}
		if (cross)
			why = kf_xasprintf("the cross compiler for ARCH=%s (CC=%s)", in->srcarch, word);
		else
			why = kf_xasprintf("the compiler (CC=%s)", word);
		need_add(out, word, in->host == KF_HOST_OTHER ? NULL : pkg, why, kf_have_program(word));
		free(pkg);
		free(why);
		free(word);
	}
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct build_need_rule *r = &rules[i];
		if (r->formats && !(r->formats & (1 << in->format)))
			continue;
		bool when = !r->when[0];
		for (size_t k = 0; k < 4 && r->when[k] && !when; k++)
			when = config_on(in->config, r->when[k]);
		if (!when)
			continue;
		bool have = r->probe == PROBE_PROGRAM ? kf_have_program(r->what) : have_header(r->what);
		need_add(out, r->what, rule_package(r, in->host), r->why, have);
	}
	if (in->format == KF_PKG_DEB) {
		if (tree_needs_fakeroot(in->tree))
			need_add(out, "fakeroot", in->host == KF_HOST_OTHER ? NULL : "fakeroot",
				 "the tree's make bindeb-pkg runs dpkg-buildpackage under fakeroot",
				 kf_have_program("fakeroot"));
		if (in->host == KF_HOST_DEB)
			deb_build_depends(in, out, d);
	}
	return d->nerr ? -1 : 0;
}

/* ---- counting objects ---- */

typedef struct mk_entry {
	char *prefix; /* obj, lib, core, drivers, or a composite object's name */
	bool on;      /* its condition (y, m, objs, $(CONFIG_X)) holds */
	char *words;  /* the value */
} mk_entry;

typedef struct count_state {
	const char *tree;
	const kf_dotconfig *config;
	char **seen; /* directories counted already */
	size_t nseen, aseen;
	size_t objects;
} count_state;

static bool cond_on(const kf_dotconfig *c, const char *cond, size_t len)
{
	if ((len == 1 && (cond[0] == 'y' || cond[0] == 'm')) ||
	    (len == 4 && !strncmp(cond, "objs", 4)))
		return true;
	if (len > 10 && !strncmp(cond, "$(CONFIG_", 9) && cond[len - 1] == ')') {
		char *sym = kf_xstrndup(cond + 9, len - 10);
		bool on = config_on(c, sym);
		free(sym);
		return on;
	}
	return false;
}

/* Parse a kbuild Makefile into "PREFIX-COND op WORDS" entries. */
static size_t mk_parse(const kf_dotconfig *c, char *text, mk_entry **out)
{
	size_t n = 0, alloc = 0;
	mk_entry *v = NULL;
	/* join continuation lines */
	for (char *p = text; (p = strchr(p, '\\'));) {
		if (p[1] == '\n') {
			p[0] = ' ';
			p[1] = ' ';
		}
		p++;
	}
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		while (isspace((unsigned char)*line))
			line++;
		/* NAME-COND (+=|:=|=|?=) WORDS */
		char *dash = NULL, *p = line;
		while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.' ||
			      *p == '$' || *p == '(' || *p == ')')) {
			if (*p == '-' && !dash)
				dash = p;
			p++;
		}
		if (!dash || dash == line)
			continue;
		char *cond = dash + 1;
		size_t condlen = (size_t)(p - cond);
		while (*p == ' ' || *p == '\t')
			p++;
		if (!(p[0] == '=' || (p[1] == '=' && (p[0] == '+' || p[0] == ':' || p[0] == '?'))))
			continue;
		p += p[0] == '=' ? 1 : 2;
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			v = kf_xrealloc(v, alloc * sizeof(*v));
		}
		v[n++] = (mk_entry){
			.prefix = kf_xstrndup(line, (size_t)(dash - line)),
			.on = cond_on(c, cond, condlen),
			.words = kf_xstrdup(p),
		};
	}
	*out = v;
	return n;
}

static void count_dir(count_state *s, const char *dir, int depth);

/* Count an object: a composite one by its parts (foo-y, foo-objs). */
static void count_object(count_state *s, mk_entry *e, size_t n, const char *name, int depth)
{
	size_t len = strlen(name) - 2; /* without ".o" */
	bool composite = false;
	for (size_t i = 0; i < n && depth < 4; i++) {
		if (strlen(e[i].prefix) != len || strncmp(e[i].prefix, name, len))
			continue;
		composite = true;
		if (!e[i].on)
			continue;
		char *w = kf_xstrdup(e[i].words);
		for (char *save = NULL, *t = strtok_r(w, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
			size_t tl = strlen(t);
			if (tl > 2 && !strcmp(t + tl - 2, ".o") && strcmp(t, name))
				count_object(s, e, n, t, depth + 1);
		}
		free(w);
	}
	if (!composite)
		s->objects++;
}

static void count_dir(count_state *s, const char *dir, int depth)
{
	if (depth > 32)
		return;
	for (size_t i = 0; i < s->nseen; i++)
		if (!strcmp(s->seen[i], dir))
			return;
	if (s->nseen == s->aseen) {
		s->aseen = s->aseen ? 2 * s->aseen : 256;
		s->seen = kf_xrealloc(s->seen, s->aseen * sizeof(*s->seen));
	}
	s->seen[s->nseen++] = kf_xstrdup(dir);

	kf_strbuf sb = KF_STRBUF_INIT;
	kf_diags d = KF_DIAGS_INIT;
	char *path = kf_xasprintf("%s/%s/Kbuild", s->tree, dir);
	if (!kf_exists(path)) {
		free(path);
		path = kf_xasprintf("%s/%s/Makefile", s->tree, dir);
	}
	int rc = kf_read_file(path, &sb, &d);
	free(path);
	kf_diags_release(&d);
	if (rc < 0) {
		kf_strbuf_release(&sb);
		return;
	}
	char *text = kf_strbuf_detach(&sb);
	mk_entry *e = NULL;
	size_t n = mk_parse(s->config, text, &e);
	free(text);
	static const char *const lists[] = {"obj", "lib", "core", "drivers", "libs"};
	for (size_t i = 0; i < n; i++) {
		bool list = false;
		for (size_t k = 0; k < sizeof(lists) / sizeof(lists[0]); k++)
			list |= !strcmp(e[i].prefix, lists[k]);
		if (!list || !e[i].on)
			continue;
		char *w = kf_xstrdup(e[i].words);
		for (char *save = NULL, *t = strtok_r(w, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
			size_t tl = strlen(t);
			if (strchr(t, '$'))
				continue;
			if (tl > 1 && t[tl - 1] == '/') {
				t[tl - 1] = 0;
				/* relative to this directory, or (arch Makefiles'
				 * core-y += arch/x86/...) to the top */
				char *sub = kf_xasprintf("%s/%s", dir, t);
				char *full = kf_xasprintf("%s/%s", s->tree, sub);
				if (kf_is_dir(full))
					count_dir(s, sub, depth + 1);
				else {
					free(full);
					full = kf_xasprintf("%s/%s", s->tree, t);
					if (kf_is_dir(full))
						count_dir(s, t, depth + 1);
				}
				free(full);
				free(sub);
			} else if (tl > 2 && !strcmp(t + tl - 2, ".o"))
				count_object(s, e, n, t, 0);
		}
		free(w);
	}
	for (size_t i = 0; i < n; i++) {
		free(e[i].prefix);
		free(e[i].words);
	}
	free(e);
}

size_t kf_build_count_objects(const char *tree, const char *srcarch, const kf_dotconfig *config)
{
	count_state s = {.tree = tree, .config = config};
	/* the top-level directories kbuild descends into (the top Makefile
	 * and Kbuild of 5.10 to 7.x); the ones a tree lacks are skipped */
	static const char *const top[] = {
		"init", "usr", "kernel", "certs", "mm", "fs", "ipc", "security", "crypto",
		"block", "io_uring", "drivers", "sound", "net", "virt", "lib", "rust",
	};
	char *arch = kf_xasprintf("arch/%s", srcarch);
	count_dir(&s, arch, 0);
	free(arch);
	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++) {
		char *p = kf_xasprintf("%s/%s", tree, top[i]);
		if (kf_is_dir(p))
			count_dir(&s, top[i], 0);
		free(p);
	}
	for (size_t i = 0; i < s.nseen; i++)
		free(s.seen[i]);
	free(s.seen);
	return s.objects;
}

bool kf_build_line_is_object(const char *line)
{
	/* kbuild's quiet_cmd_cc_o_c / as_o_S: "  CC      dir/file.o",
	 * "  CC [M]  dir/file.o", "  AS      ..." */
	if (strncmp(line, "  CC ", 5) && strncmp(line, "  AS ", 5))
		return false;
	size_t len = strlen(line);
	while (len && (line[len - 1] == '\n' || line[len - 1] == ' '))
		len--;
	return len > 2 && line[len - 2] == '.' && line[len - 1] == 'o';
}

char *kf_build_dir(const char *cache, const char *tree, const char *arch)
{
	const char *slash = strrchr(tree, '/');
	return kf_xasprintf("%s/build/%s-%s", cache, slash ? slash + 1 : tree, arch);
}

/* ---- the build plan ---- */

/* A NULL-ended argv being built. */
typedef struct strv {
	char **v;     /* the words */
	size_t n;     /* how many */
	size_t alloc; /* capacity of v */
} strv;

static void strv_add(strv *a, char *w)
{
	KF_GROW(a->v, a->n + 2, a->alloc);
	a->v[a->n++] = w;
	a->v[a->n] = NULL;
}

void kf_strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* make -C TREE O=OBJ ARCH=A [CROSS_COMPILE=C] [-jN] */
static void make_words(strv *a, const char *tree, const char *obj, const char *arch,
		       const char *cross, int jobs)
{
	strv_add(a, kf_xstrdup("make"));
	strv_add(a, kf_xstrdup("-C"));
	strv_add(a, kf_xstrdup(tree));
	strv_add(a, kf_xasprintf("O=%s", obj));
	strv_add(a, kf_xasprintf("ARCH=%s", arch));
	if (cross && *cross)
		strv_add(a, kf_xasprintf("CROSS_COMPILE=%s", cross));
	if (jobs > 0)
		strv_add(a, kf_xasprintf("-j%d", jobs));
}

/* The format asked for, else the distribution among the profiles, else
 * this machine's. */
static void plan_format(const kf_build_plan_in *in, kf_build_plan *p)
{
	p->format = in->format;
	p->format_why = "--format";
	if (p->format == KF_PKG_AUTO && in->profiles) {
		char *pl = kf_xstrdup(in->profiles);
		for (char *save = NULL, *w = strtok_r(pl, " ", &save); w && p->format == KF_PKG_AUTO;
		     w = strtok_r(NULL, " ", &save))
			p->format = kf_pkg_format_for_profile(w);
		free(pl);
		p->format_why = "the distribution it was generated for";
	}
	if (p->format == KF_PKG_AUTO) {
		char *id = kf_os_release("/", "ID"), *like = kf_os_release("/", "ID_LIKE");
		p->format = kf_pkg_format_for_os(id, like);
		p->format_why = "this machine's distribution";
		free(id);
		free(like);
	}
}

/* -O as an absolute path (not created yet: it may be refused), else the
 * cache's build directory; NULL with an error in d. */
static char *plan_objdir(const kf_build_plan_in *in, kf_diags *d)
{
	if (!in->objdir) {
		char *bdir = kf_build_dir(in->cache, in->tree, in->arch);
		char *obj = kf_xasprintf("%s/obj", bdir);
		free(bdir);
		return obj;
	}
	char cwd[4096], *obj;
	if (in->objdir[0] == '/')
		obj = kf_xstrdup(in->objdir);
	else if (getcwd(cwd, sizeof(cwd)))
		obj = kf_xasprintf("%s/%s", cwd, in->objdir);
	else {
		kf_diag_add(d, KF_ERROR, in->objdir, 0, 0, "cannot tell the current directory: %s",
			    strerror(errno));
		return NULL;
	}
	size_t ol = strlen(obj);
	while (ol > 1 && obj[ol - 1] == '/')
		obj[--ol] = 0;
	return obj;
}

/* p (absolute) as it will be once created: the part that exists with
 * links and .. resolved, the rest with . and .. taken as written
 * (malloc'd). */
static char *real_path_ahead(const char *p)
{
	char *cur = kf_xstrdup("/"), *copy = kf_xstrdup(p), *save = NULL;
	for (char *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (!strcmp(c, "."))
			continue;
		char *cand = kf_xasprintf("%s%s%s", cur, cur[1] ? "/" : "", c);
		char *real = realpath(cand, NULL);
		free(cur);
		if (real) {
			cur = real;
			free(cand);
		} else if (!strcmp(c, "..")) {
			/* above a directory still to be created */
			*strrchr(cand, '/') = 0;
			char *sl = strrchr(cand, '/');
			if (sl)
				*(sl == cand ? sl + 1 : sl) = 0;
			cur = cand;
		} else
			cur = cand;
	}
	free(copy);
	return cur;
}

/* Is the directory dir (absolute) the tree or below it, once links and
 * .. are resolved? */
static bool path_inside(const char *dir, const char *tree)
{
	char *d = real_path_ahead(dir), *t = real_path_ahead(tree);
	size_t tl = strlen(t);
	bool in = !strncmp(d, t, tl) && (d[tl] == 0 || d[tl] == '/' || !strcmp(t, "/"));
	free(d);
	free(t);
	return in;
}

int kf_build_plan_make(const kf_build_plan_in *in, kf_build_plan *p, kf_diags *d)
{
	memset(p, 0, sizeof(*p));
	plan_format(in, p);
	p->objdir = plan_objdir(in, d);
	if (!p->objdir)
		return -1;
	if (path_inside(p->objdir, in->tree)) {
		kf_diag_add(d, KF_ERROR, p->objdir, 0, 0,
			    "the build directory is inside the source tree: give -O a directory outside it");
		return -1;
	}
	p->outdir = kf_xstrdup(p->objdir);
	char *slash = strrchr(p->outdir, '/');
	if (slash && slash != p->outdir)
		*slash = 0;
	p->stage = kf_xasprintf("%s/install", p->outdir);
	strv mk = {0}, inst = {0};
	p->cross = in->cross && *in->cross ? kf_xstrdup(in->cross) : NULL;
	make_words(&mk, in->tree, p->objdir, in->arch, p->cross, in->jobs);
	if (p->format == KF_PKG_DEB) {
		strv_add(&mk, kf_xstrdup("bindeb-pkg"));
		p->packages = kf_xstrdup(p->outdir);
	} else if (p->format == KF_PKG_RPM) {
		strv_add(&mk, kf_xstrdup("binrpm-pkg"));
		p->packages = kf_xasprintf("%s/rpmbuild/RPMS/%s", p->objdir,
					   !strcmp(in->arch, "x86_64") || !strcmp(in->arch, "x86")
						   ? "x86_64"
						   : in->arch);
	} else if (config_on(in->config, "MODULES")) {
		make_words(&inst, in->tree, p->objdir, in->arch, p->cross, 0);
		strv_add(&inst, kf_xstrdup("modules_install"));
		strv_add(&inst, kf_xasprintf("INSTALL_MOD_PATH=%s", p->stage));
	}
	p->make = mk.v;
	p->install = inst.v;
	return 0;
}

void kf_build_plan_release(kf_build_plan *p)
{
	free(p->objdir);
	free(p->outdir);
	free(p->stage);
	free(p->packages);
	free(p->cross);
	kf_strv_free(p->make);
	kf_strv_free(p->install);
	memset(p, 0, sizeof(*p));
}

/* One line of make's output for a query (make -s kernelrelease), or NULL. */
static char *make_query(const char *tree, const char *obj, const char *arch, const char *cross,
			const char *target)
{
	strv a = {0};
	make_words(&a, tree, obj, arch, cross, 0);
	strv_add(&a, kf_xstrdup("-s"));
	strv_add(&a, kf_xstrdup(target));
	kf_strbuf out = KF_STRBUF_INIT;
	kf_diags d = KF_DIAGS_INIT;
	kf_run_opts o = {.argv = (const char *const *)a.v, .out = &out, .max = 4096};
	int rc = kf_run(&o, &d);
	kf_diags_release(&d);
	kf_strv_free(a.v);
	char *s = NULL;
	if (rc == 0 && out.len) {
		s = kf_strbuf_detach(&out);
		s[strcspn(s, "\n")] = 0;
	}
	kf_strbuf_release(&out);
	return s;
}

static int copy_file(const char *from, const char *to, kf_diags *d)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	/* the image is compressed already: read it as bytes (kf_read_file
	 * would unpack a gzip image) */
	FILE *f = fopen(from, "rb");
	if (!f) {
		kf_diag_add(d, KF_ERROR, from, 0, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		kf_strbuf_add(&sb, buf, n);
	fclose(f);
	int rc = kf_write_file_atomic(to, sb.buf ? sb.buf : "", sb.len, false, d);
	kf_strbuf_release(&sb);
	return rc;
}

int kf_build_stage_plain(const kf_build_plan *p, const char *tree, const char *arch,
			 char ***paths, kf_diags *d)
{
	strv out = {0};
	char *rel = make_query(tree, p->objdir, arch, p->cross, "kernelrelease");
	char *img = make_query(tree, p->objdir, arch, p->cross, "image_name");
	char *boot = kf_xasprintf("%s/boot", p->stage);
	kf_mkdir_p(boot, 0755);
	int bad = 0;
	if (rel && img) {
		static const char *const what[][2] = {
			{NULL, "vmlinuz"}, {"System.map", "System.map"}, {".config", "config"}};
		for (size_t i = 0; i < 3 && !bad; i++) {
			char *from = kf_xasprintf("%s/%s", p->objdir, what[i][0] ? what[i][0] : img);
			char *to = kf_xasprintf("%s/%s-%s", boot, what[i][1], rel);
			bad = copy_file(from, to, d) < 0;
			if (!bad)
				strv_add(&out, to);
			else
				free(to);
			free(from);
		}
	} else {
		kf_diag_add(d, KF_ERROR, p->objdir, 0, 0,
			    "cannot ask make for the kernel release and image name");
		bad = 1;
	}
	if (!bad && p->install && rel)
		strv_add(&out, kf_xasprintf("%s/lib/modules/%s", p->stage, rel));
	free(boot);
	free(rel);
	free(img);
	*paths = out.v;
	return bad ? -1 : 0;
}

/* ---- cross compiling ---- */

/* arch/ directory -> the GNU triplet of Debian's (and Fedora's) cross
 * gcc for it: gcc-aarch64-linux-gnu and so on. */
static const struct {
	const char *srcarch, *triplet;
} cross_triplets[] = {
	{"arm64", "aarch64-linux-gnu"},     {"arm", "arm-linux-gnueabihf"},
	{"x86", "x86_64-linux-gnu"},        {"riscv", "riscv64-linux-gnu"},
	{"powerpc", "powerpc64le-linux-gnu"}, {"s390", "s390x-linux-gnu"},
	{"mips", "mips64el-linux-gnuabi64"}, {"loongarch", "loongarch64-linux-gnu"},
	{"sparc", "sparc64-linux-gnu"},     {"alpha", "alpha-linux-gnu"},
	{"parisc", "hppa-linux-gnu"},       {"m68k", "m68k-linux-gnu"},
	{"sh", "sh4-linux-gnu"},
};

const char *kf_build_cross_triplet(const char *arch, const char *machine)
{
	const char *want = kc_arch_dir(arch);
	if (!strcmp(want, kc_arch_dir(machine)))
		return NULL;
	for (size_t i = 0; i < sizeof(cross_triplets) / sizeof(cross_triplets[0]); i++)
		if (!strcmp(cross_triplets[i].srcarch, want))
			return cross_triplets[i].triplet;
	return NULL;
}

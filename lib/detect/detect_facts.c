/*
 * detect_facts.c - what a machine is, read from ROOT ("/" or a snapshot of
 * scripts/snapshot-machine.sh): distro from os-release, init, LSM,
 * firewall, initramfs, the root filesystem and its block stack,
 * virtualization and cloud, chassis, the PC platform, CPU, console,
 * installed programs.  Facts only: what they require is detect_policy.c.
 */
#include "detect_run.h"
#include "kfit/hashmap.h"
#include "kfit/rootfs.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ROOT/rel with links resolved inside ROOT (lib/util/rootfs.c): a snapshot's
 * absolute link never reaches this machine's files */
char *det_path(dctx *c, const char *rel)
{
	return kf_root_path(c->o->root ? c->o->root : "/", rel, true);
}

bool det_exists(dctx *c, const char *rel)
{
	char *p = det_path(c, rel);
	struct stat st;
	bool ok = lstat(p, &st) == 0;
	free(p);
	return ok;
}

/* A regular file below ROOT (what det_read reads; a FIFO is not one). */
bool det_regular(dctx *c, const char *rel)
{
	char *p = det_path(c, rel);
	bool ok = kf_root_regular(p);
	free(p);
	return ok;
}

/* A file's text below ROOT, trailing whitespace removed, or NULL. */
char *det_read(dctx *c, const char *rel)
{
	char *p = det_path(c, rel);
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_diags ignore = KF_DIAGS_INIT;
	char *res = NULL;
	if (kf_root_read(p, KF_ROOT_READ_MAX, &sb) == 0) {
		while (sb.len && isspace((unsigned char)sb.buf[sb.len - 1]))
			sb.buf[--sb.len] = 0;
		res = kf_arena_strdup(c->a, kf_strbuf_str(&sb));
	}
	kf_strbuf_release(&sb);
	kf_diags_release(&ignore);
	free(p);
	return res;
}

/* A symlink's target below ROOT (a snapshot may store it as a text file). */
char *det_link(dctx *c, const char *rel)
{
	char *p = kf_root_path(c->o->root ? c->o->root : "/", rel, false);
	char buf[4096];
	ssize_t n = readlink(p, buf, sizeof(buf) - 1);
	free(p);
	if (n > 0) {
		buf[n] = 0;
		return kf_arena_strdup(c->a, buf);
	}
	return det_read(c, rel);
}

const char *det_base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* ---- profiles ---- */

void det_add_profile(dctx *c, const char *name, prof_kind kind, const char *reason)
{
	kf_detect *det = c->det;
	for (size_t i = 0; i < det->nprofiles; i++)
		if (!strcmp(det->profiles[i].name, name))
			return;
	if (c->o->db) {
		long param;
		const char *older = kind == PROF_KIND_DISTRO && !prof_db_find(c->o->db, name, &param, NULL)
					    ? prof_db_nearest(c->o->db, name, true)
					    : NULL;
		if (older) {
			/* a release newer than the database: its predecessor's needs */
			kf_diag_add(c->d, KF_WARNING, NULL, 0, 0,
				    "no profile '%s' in the database: using the nearest older release "
				    "'%s' (detected: %s)",
				    name, older, reason);
			reason = kf_arena_printf(c->a, "%s; nearest older release of %s", reason, name);
			name = older;
			det->distro = older;
			for (size_t i = 0; i < det->nprofiles; i++)
				if (!strcmp(det->profiles[i].name, name))
					return;
		}
		if (!prof_db_find(c->o->db, name, &param, NULL)) {
			kf_diag_add(c->d, KF_WARNING, NULL, 0, 0,
				    "no profile '%s' in the database (detected: %s)", name, reason);
			return;
		}
	}
	KF_GROW(det->profiles, det->nprofiles + 1, det->palloc);
	det->profiles[det->nprofiles++] =
		(kf_det_profile){kf_arena_strdup(c->a, name), kind, kf_arena_strdup(c->a, reason)};
}

/* ---- os-release ---- */

/* A value as os-release(5) writes it, shell-like: in single quotes
 * everything is literal; in double quotes a backslash escapes $ " \ and `
 * (before anything else it stays); outside quotes a backslash escapes the
 * next character; unquoted blanks end the value.  v holds n bytes. */
static char *osr_unquote(dctx *c, const char *v, size_t n)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	char q = 0; /* the open quote, or 0 */
	for (size_t i = 0; i < n; i++) {
		char ch = v[i];
		if (q == '\'') {
			if (ch == '\'')
				q = 0;
			else
				kf_strbuf_addch(&sb, ch);
		} else if (ch == '\\' && i + 1 < n && (!q || strchr("$\"\\`", v[i + 1]))) {
			kf_strbuf_addch(&sb, v[++i]);
		} else if (q == '"') {
			if (ch == '"')
				q = 0;
			else
				kf_strbuf_addch(&sb, ch);
		} else if (ch == '"' || ch == '\'') {
			q = ch;
		} else if (isspace((unsigned char)ch)) {
			break;
		} else
			kf_strbuf_addch(&sb, ch);
	}
	char *r = kf_arena_strdup(c->a, kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
	return r;
}

static char *osr_get(dctx *c, const char *text, const char *key)
{
	size_t kl = strlen(key);
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, key, kl) || l[kl] != '=')
			continue;
		const char *v = l + kl + 1, *e = strchr(v, '\n');
		return osr_unquote(c, v, e ? (size_t)(e - v) : strlen(v));
	}
	return NULL;
}

static const char *codename_version(const char *id, const char *code)
{
	static const char *const map[][3] = {
		{"debian", "buster", "10"},     {"debian", "bullseye", "11"},
		{"debian", "bookworm", "12"},   {"debian", "trixie", "13"},
		{"debian", "forky", "14"},      {"debian", "duke", "15"},
		{"ubuntu", "bionic", "18.04"},  {"ubuntu", "cosmic", "18.10"},
		{"ubuntu", "disco", "19.04"},   {"ubuntu", "eoan", "19.10"},
		{"ubuntu", "focal", "20.04"},   {"ubuntu", "groovy", "20.10"},
		{"ubuntu", "hirsute", "21.04"}, {"ubuntu", "impish", "21.10"},
		{"ubuntu", "jammy", "22.04"},   {"ubuntu", "kinetic", "22.10"},
		{"ubuntu", "lunar", "23.04"},   {"ubuntu", "mantic", "23.10"},
		{"ubuntu", "noble", "24.04"},   {"ubuntu", "oracular", "24.10"},
		{"ubuntu", "plucky", "25.04"},  {"ubuntu", "questing", "25.10"},
		{"ubuntu", "resolute", "26.04"},
	};
	if (!code)
		return NULL;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i][0], id) && !strcmp(map[i][1], code))
			return map[i][2];
	return NULL;
}

/* The profile name for a distro ID and version, or NULL. */
static char *distro_name(dctx *c, const char *id, const char *ver, const char *text)
{
	if (!strcmp(id, "arch") || !strcmp(id, "opensuse-tumbleweed"))
		return kf_arena_strdup(c->a, id);
	if (!strcmp(id, "nixos")) /* VERSION_ID 24.05; unstable says the next release's */
		return ver ? kf_arena_printf(c->a, "nixos-%s", ver) : kf_arena_strdup(c->a, id);
	if (!strcmp(id, "gentoo"))
		return NULL; /* decided with the init system */
	if (!ver)
		return NULL;
	if (!strcmp(id, "debian")) {
		char major[16];
		snprintf(major, sizeof(major), "%.*s", (int)strcspn(ver, "."), ver);
		return kf_arena_printf(c->a, "debian-%s", major);
	}
	if (!strcmp(id, "ubuntu") || !strcmp(id, "fedora") || !strcmp(id, "opensuse-leap"))
		return kf_arena_printf(c->a, "%s-%s", id, ver);
	if (!strcmp(id, "centos") || !strcmp(id, "rhel")) {
		char major[16];
		snprintf(major, sizeof(major), "%.*s", (int)strcspn(ver, "."), ver);
		return kf_arena_printf(c->a, "centos-stream-%s", major);
	}
	if (!strcmp(id, "alpine")) {
		/* 3.19.1 -> 3.19 */
		const char *d1 = strchr(ver, '.');
		size_t n = d1 && strchr(d1 + 1, '.') ? (size_t)(strchr(d1 + 1, '.') - ver) : strlen(ver);
		return kf_arena_printf(c->a, "alpine-%.*s", (int)n, ver);
	}
	(void)text;
	return NULL;
}

/* ROOT's os-release (etc/os-release, else usr/lib/os-release), or NULL. */
static char *osr_read(dctx *c)
{
	char *text = det_read(c, "etc/os-release");
	return text ? text : det_read(c, "usr/lib/os-release");
}

char *kf_os_release(const char *root, const char *key)
{
	kf_detect_opts o = {.root = root};
	dctx c = {&o, NULL, kf_arena_new(), NULL};
	char *text = osr_read(&c);
	char *v = text ? osr_get(&c, text, key) : NULL;
	char *res = v ? kf_xstrdup(v) : NULL;
	kf_arena_free(c.a);
	return res;
}

void detect_os(dctx *c)
{
	kf_detect *det = c->det;
	char *text = osr_read(c);
	if (!text) {
		kf_diag_add(c->d, KF_WARNING, NULL, 0, 0, "no etc/os-release: the distribution is unknown");
		return;
	}
	det->os_id = osr_get(c, text, "ID");
	det->os_pretty = osr_get(c, text, "PRETTY_NAME");
	char *ver = osr_get(c, text, "VERSION_ID");
	const char *code = osr_get(c, text, "VERSION_CODENAME");
	if (!det->os_id)
		return;
	if (!ver && codename_version(det->os_id, code))
		ver = kf_arena_strdup(c->a, codename_version(det->os_id, code));
	if (!ver && !strcmp(det->os_id, "debian")) {
		/* testing/sid: debian_version says "trixie/sid" */
		char *dv = det_read(c, "etc/debian_version");
		if (dv && isdigit((unsigned char)dv[0]))
			ver = dv;
		else if (dv && strchr(dv, '/')) {
			*strchr(dv, '/') = 0;
			if (codename_version("debian", dv))
				ver = kf_arena_strdup(c->a, codename_version("debian", dv));
		}
	}
	det->os_version = ver;
	char *name = distro_name(c, det->os_id, ver, text);
	if (name) {
		det->distro = name;
		return;
	}
	/* a derivative: what it is like */
	char *like = osr_get(c, text, "ID_LIKE");
	if (!like)
		return;
	char *save = NULL;
	for (char *w = strtok_r(like, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		const char *lver = ver, *said = w;
		if (!strcmp(w, "ubuntu")) {
			const char *uc = osr_get(c, text, "UBUNTU_CODENAME");
			if (codename_version("ubuntu", uc))
				lver = codename_version("ubuntu", uc);
		} else if (!strcmp(w, "debian")) {
			const char *dc = osr_get(c, text, "DEBIAN_CODENAME");
			lver = codename_version("debian", dc);
			char *dv = lver ? NULL : det_read(c, "etc/debian_version");
			if (dv && isdigit((unsigned char)dv[0]))
				lver = dv;
			else if (dv && strchr(dv, '/')) {
				*strchr(dv, '/') = 0;
				lver = codename_version("debian", dv);
			}
		} else if (!strcmp(w, "rhel") || !strcmp(w, "centos") || !strcmp(w, "fedora")) {
			/* RHEL-likes also say fedora, Oracle Linux only fedora: an
			 * enterprise VERSION_ID (8.10, 9.4) is a CentOS Stream one */
			if (!strcmp(w, "fedora") && (!ver || atoi(ver) >= 20))
				continue;
			w = "centos";
		} else if (!strcmp(w, "suse") || !strcmp(w, "opensuse")) {
			w = "opensuse-leap";
		}
		name = distro_name(c, w, lver, text);
		if (name) {
			det->distro = name;
			det->distro_note = kf_arena_printf(c->a, "ID=%s is not in the database; "
							   "it is like %s (ID_LIKE)",
							   det->os_id, said);
			return;
		}
	}
}

/* ---- init ---- */

static int systemd_version_of(dctx *c)
{
	static const char *const dirs[] = {"usr/lib/systemd", "lib/systemd",
					   "usr/lib/x86_64-linux-gnu/systemd",
					   "usr/lib64/systemd", "usr/lib/aarch64-linux-gnu/systemd",
					   "run/current-system/sw/lib/systemd"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char *p = det_path(c, dirs[i]);
		DIR *dh = opendir(p);
		free(p);
		if (!dh)
			continue;
		struct dirent *de;
		int v = 0;
		while ((de = readdir(dh)) != NULL) {
			const char *n = de->d_name;
			if (!strncmp(n, "libsystemd-shared-", 18) && isdigit((unsigned char)n[18]))
				v = atoi(n + 18);
		}
		closedir(dh);
		if (v)
			return v;
	}
	return 0;
}

void detect_init(dctx *c)
{
	kf_detect *det = c->det;
	det->pid1 = det_read(c, "proc/1/comm");
	const char *init = NULL, *why = NULL;
	if (det->pid1 && !strcmp(det->pid1, "systemd")) {
		init = "systemd";
		why = "proc/1/comm is systemd";
	} else if (det_exists(c, "sbin/openrc") || det_exists(c, "usr/sbin/openrc") ||
		   det_exists(c, "sbin/openrc-run")) {
		init = "openrc";
		why = "openrc is installed";
	} else {
		char *l = det_link(c, "sbin/init");
		if (!l)
			l = det_link(c, "usr/sbin/init");
		if (l && strstr(l, "systemd")) {
			init = "systemd";
			why = kf_arena_printf(c->a, "sbin/init -> %s (pid 1 is %s)", l,
					      det->pid1 ? det->pid1 : "unknown");
		} else if (det_exists(c, "usr/lib/systemd/systemd") || det_exists(c, "lib/systemd/systemd")) {
			init = "systemd";
			why = "systemd is installed";
		}
	}
	det->init = init;
	if (!init)
		return;
	if (!strcmp(init, "systemd")) {
		det->systemd_version = systemd_version_of(c);
		if (det->systemd_version) {
			char *n = kf_arena_printf(c->a, "systemd-%d", det->systemd_version);
			det_add_profile(c, n, PROF_KIND_INIT,
				    kf_arena_printf(c->a, "%s; libsystemd-shared-%d.so", why,
						    det->systemd_version));
		} else {
			kf_diag_add(c->d, KF_WARNING, NULL, 0, 0,
				    "systemd found but not its version (no libsystemd-shared-N.so)");
		}
	} else {
		det_add_profile(c, init, PROF_KIND_INIT, why);
	}
}

/* ---- lsm, firewall, initramfs ---- */

void detect_security(dctx *c)
{
	kf_detect *det = c->det;
	det->lsm = det_read(c, "sys/kernel/security/lsm");
	if (det->lsm) {
		if (strstr(det->lsm, "apparmor"))
			det_add_profile(c, "apparmor", PROF_KIND_FEATURE,
				    kf_arena_printf(c->a, "sys/kernel/security/lsm: %s", det->lsm));
		if (strstr(det->lsm, "selinux"))
			det_add_profile(c, "selinux", PROF_KIND_FEATURE,
				    kf_arena_printf(c->a, "sys/kernel/security/lsm: %s", det->lsm));
	}
	/* firewall: what iptables points at, or nft / firewalld installed */
	char *ipt = det_link(c, "etc/alternatives/iptables");
	const char *ipt_at = "etc/alternatives/iptables";
	/* without alternatives (Arch, Fedora): where iptables itself points */
	static const char *const ipts[] = {"usr/sbin/iptables", "usr/bin/iptables", "sbin/iptables"};
	for (size_t i = 0; !ipt && i < sizeof(ipts) / sizeof(ipts[0]); i++) {
		char *p = kf_root_path(c->o->root ? c->o->root : "/", ipts[i], false);
		char buf[512];
		ssize_t n = readlink(p, buf, sizeof(buf) - 1);
		free(p);
		if (n > 0) {
			buf[n] = 0;
			if (strstr(buf, "nft") || strstr(buf, "legacy")) {
				ipt = kf_arena_strdup(c->a, buf);
				ipt_at = ipts[i];
			}
		}
	}
	const char *fw = NULL, *why = NULL;
	if (ipt && strstr(ipt, "legacy")) {
		fw = "iptables-legacy";
		why = kf_arena_printf(c->a, "%s -> %s", ipt_at, ipt);
	} else if (ipt && strstr(ipt, "nft")) {
		fw = "iptables-nft";
		why = kf_arena_printf(c->a, "%s -> %s", ipt_at, ipt);
	} else if (det_exists(c, "usr/sbin/firewalld") || det_exists(c, "usr/sbin/nft") ||
		   det_exists(c, "sbin/nft")) {
		fw = "nftables";
		why = "nft or firewalld is installed";
	} else if (det_exists(c, "usr/sbin/iptables-legacy")) {
		fw = "iptables-legacy";
		why = "iptables-legacy is installed";
	}
	det->firewall = fw;
	if (fw)
		det_add_profile(c, fw, PROF_KIND_FEATURE, why);
}

void detect_initramfs(dctx *c)
{
	kf_detect *det = c->det;
	det->initramfs = PROF_INITRAMFS_UNKNOWN;
	char *cmd = det_read(c, "proc/cmdline");
	const char *rel = det->kernel_release;
	if (rel) {
		static const char *const pat[] = {"boot/initrd.img-%s", "boot/initramfs-%s.img",
						  "boot/initramfs-%s.img.zst"};
		for (size_t i = 0; i < sizeof(pat) / sizeof(pat[0]); i++) {
			char *p = kf_xasprintf(pat[i], rel);
			bool ok = det_exists(c, p);
			if (ok) {
				det->initramfs = PROF_INITRAMFS_YES;
				det->initramfs_why = kf_arena_strdup(c->a, p);
			}
			free(p);
			if (ok)
				return;
		}
	}
	if (det_exists(c, "boot/initramfs-linux.img")) {
		det->initramfs = PROF_INITRAMFS_YES;
		det->initramfs_why = "boot/initramfs-linux.img";
		return;
	}
	if (cmd && (strstr(cmd, "initrd=") || strstr(cmd, "rdinit="))) {
		det->initramfs = PROF_INITRAMFS_YES;
		det->initramfs_why = strstr(cmd, "rdinit=") ? "rdinit= on the kernel command line"
							    : "initrd= on the kernel command line";
		return;
	}
	if (det_exists(c, "boot") && rel) {
		det->initramfs = PROF_INITRAMFS_NO;
		det->initramfs_why = kf_arena_printf(c->a, "no initramfs image for %s in boot/", rel);
	}
}

/* ---- root filesystem and block stack ---- */

static void add_layer(dctx *c, const char *l)
{
	kf_detect *det = c->det;
	for (size_t i = 0; i < det->nblockstack; i++)
		if (!strcmp(det->blockstack[i], l))
			return;
	det->blockstack = kf_xrealloc(det->blockstack, (det->nblockstack + 1) * sizeof(char *));
	det->blockstack[det->nblockstack++] = kf_arena_strdup(c->a, l);
}

/* Each device once: slaves entries of many devices may name the same devices
 * (a shared directory), which made the walk exponential. */
static void walk_block(dctx *c, const char *name, rootdevs *rd, kf_strmap *seen, int depth)
{
	size_t v;
	if (depth > 8 || kf_strmap_get(seen, name, &v))
		return;
	kf_strmap_put(seen, name, 0);
	char *rel = kf_xasprintf("sys/class/block/%s", name);
	char *l = det_link(c, rel);
	free(rel);
	/* dm: uuid CRYPT-... or LVM-...; md: level */
	char *q = kf_xasprintf("sys/class/block/%s/dm/uuid", name);
	char *uuid = det_read(c, q);
	free(q);
	if (uuid) {
		if (!strncmp(uuid, "CRYPT-", 6))
			add_layer(c, "dm-crypt");
		else if (!strncmp(uuid, "LVM-", 4))
			add_layer(c, "lvm");
		else
			add_layer(c, "dm");
	}
	q = kf_xasprintf("sys/class/block/%s/md/level", name);
	char *lvl = det_read(c, q);
	free(q);
	if (lvl)
		add_layer(c, kf_arena_printf(c->a, "md-%s", lvl));
	q = kf_xasprintf("sys/class/block/%s/slaves", name);
	char *p = det_path(c, q);
	free(q);
	DIR *dh = opendir(p);
	free(p);
	bool any = false;
	if (dh) {
		struct dirent *de;
		while ((de = readdir(dh)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			any = true;
			walk_block(c, de->d_name, rd, seen, depth + 1);
		}
		closedir(dh);
	}
	if (any || !l)
		return;
	/* a real disk (or its partition): its device path tells the bus */
	const char *dev = strstr(l, "devices/");
	if (!dev)
		return;
	rd->v = kf_xrealloc(rd->v, (rd->n + 1) * sizeof(char *));
	rd->v[rd->n++] = kf_xstrdup(dev);
	if (strstr(dev, "/nvme"))
		add_layer(c, "nvme");
	else if (strstr(dev, "/virtio") && strstr(dev, "/host"))
		add_layer(c, "virtio-scsi");
	else if (strstr(dev, "/virtio"))
		add_layer(c, "virtio-blk");
	else if (strstr(dev, "/ata"))
		add_layer(c, "sata");
	else if (strstr(dev, "/usb"))
		add_layer(c, "usb-storage");
	else if (strstr(dev, "/mmc"))
		add_layer(c, "mmc");
	else if (strstr(dev, "vbd-"))
		add_layer(c, "xen-blkfront");
	else if (strstr(dev, "VMBUS") || strstr(dev, "vmbus"))
		add_layer(c, "hyperv-storvsc");
	else if (strstr(dev, "/host"))
		add_layer(c, "scsi");
}

void detect_root(dctx *c, rootdevs *rd)
{
	kf_detect *det = c->det;
	char *mounts = det_read(c, "proc/mounts");
	if (!mounts)
		return;
	const char *dev = NULL, *fs = NULL;
	char *save = NULL;
	for (char *l = strtok_r(mounts, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char d1[512], mp[512], t[64];
		if (sscanf(l, "%511s %511s %63s", d1, mp, t) == 3 && !strcmp(mp, "/") &&
		    strcmp(t, "rootfs")) {
			dev = kf_arena_strdup(c->a, d1);
			fs = kf_arena_strdup(c->a, t);
		}
	}
	det->rootfs = fs;
	det->rootdev = dev;
	if (!dev || strncmp(dev, "/dev/", 5))
		return;
	const char *name = dev + 5;
	if (!strcmp(name, "root")) {
		char *cmd = det_read(c, "proc/cmdline");
		char *r = cmd ? strstr(cmd, "root=/dev/") : NULL;
		if (r) {
			r += 10;
			name = kf_arena_strndup(c->a, r, strcspn(r, " "));
		}
	}
	if (!strncmp(name, "mapper/", 7)) {
		/* find dm-N whose dm/name matches */
		char *p = det_path(c, "sys/class/block");
		DIR *dh = opendir(p);
		free(p);
		const char *want = name + 7;
		if (dh) {
			struct dirent *de;
			while ((de = readdir(dh)) != NULL) {
				char *q = kf_xasprintf("sys/class/block/%s/dm/name", de->d_name);
				char *nm = det_read(c, q);
				free(q);
				if (nm && !strcmp(nm, want)) {
					name = kf_arena_strdup(c->a, de->d_name);
					break;
				}
			}
			closedir(dh);
		}
	}
	kf_strmap seen = {0};
	walk_block(c, name, rd, &seen, 0);
	kf_strmap_release(&seen);
}

/* ---- virtualization, cloud, chassis ---- */

static bool acpi_oem(dctx *c, const char *oem)
{
	static const char *const tables[] = {"DSDT", "FACP", "APIC", "MCFG"};
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		char *rel = kf_xasprintf("sys/firmware/acpi/tables/%s", tables[i]);
		char *p = det_path(c, rel);
		free(rel);
		kf_strbuf t = KF_STRBUF_INIT;
		bool match = kf_root_read(p, KF_ROOT_READ_MAX, &t) == 0 &&
			     t.len >= 16 && !strncmp(t.buf + 10, oem, strlen(oem));
		kf_strbuf_release(&t);
		free(p);
		/* OEM ID at offset 10, 6 bytes */
		if (match)
			return true;
	}
	return false;
}

bool det_cpu_flag(const char *cpuinfo, const char *flag)
{
	const char *f = !cpuinfo ? NULL : !strncmp(cpuinfo, "flags", 5) ? cpuinfo
							: strstr(cpuinfo, "\nflags");
	if (!f)
		return false;
	const char *e = strchr(f + 1, '\n');
	size_t fl = strlen(flag);
	for (const char *p = strstr(f, flag); p && (!e || p < e); p = strstr(p + 1, flag))
		if (p[-1] == ' ' && (p[fl] == ' ' || p[fl] == '\n' || !p[fl]))
			return true;
	return false;
}

static bool dmi_has(const char *v, const char *s)
{
	return v && strstr(v, s);
}

static void set_virt(dctx *c, const char *virt, const char *why)
{
	if (!c->det->virt) {
		c->det->virt = virt;
		c->det->virt_why = kf_arena_strdup(c->a, why);
	}
}

void detect_virt(dctx *c, const char *cpuinfo)
{
	kf_detect *det = c->det;
	det->has_dmi = det_exists(c, "sys/class/dmi/id");
	char *sysv = det_read(c, "sys/class/dmi/id/sys_vendor");
	char *prod = det_read(c, "sys/class/dmi/id/product_name");
	char *biosv = det_read(c, "sys/class/dmi/id/bios_vendor");
	char *biosver = det_read(c, "sys/class/dmi/id/bios_version");
	char *board = det_read(c, "sys/class/dmi/id/board_vendor");
	char *asset = det_read(c, "sys/class/dmi/id/chassis_asset_tag");
	char *ct = det_read(c, "sys/class/dmi/id/chassis_type");
	char *hyp = det_read(c, "sys/hypervisor/type");
	char *ver = det_read(c, "proc/version");
	det->chassis_type = ct ? atoi(ct) : 0;
	const char *dmi = kf_arena_printf(c->a, "%s / %s", sysv ? sysv : "?", prod ? prod : "?");
	if (ver && (strstr(ver, "microsoft") || strstr(ver, "Microsoft") || strstr(ver, "WSL")))
		set_virt(c, "wsl2", "proc/version names Microsoft/WSL");
	if (hyp && !strcmp(hyp, "xen"))
		set_virt(c, "xen", "sys/hypervisor/type is xen");
	bool hv = det_cpu_flag(cpuinfo, "hypervisor");
	if (dmi_has(sysv, "Amazon EC2") || dmi_has(biosv, "Amazon EC2")) {
		det->cloud = "aws";
		/* *.metal instances say Amazon EC2 too, without a hypervisor */
		if (hv)
			set_virt(c, "kvm", kf_arena_printf(c->a, "DMI %s (EC2 Nitro)", dmi));
	}
	if (dmi_has(biosver, "amazon")) {
		det->cloud = "aws";
		set_virt(c, "xen", kf_arena_printf(c->a, "DMI bios_version %s (EC2 Xen)", biosver));
	}
	if (dmi_has(prod, "Google Compute Engine") || dmi_has(sysv, "Google")) {
		det->cloud = "gcp";
		set_virt(c, "kvm", kf_arena_printf(c->a, "DMI %s", dmi));
	}
	if (dmi_has(sysv, "Microsoft Corporation") && dmi_has(prod, "Virtual Machine")) {
		if (asset && !strcmp(asset, "7783-7084-3265-9085-8269-3286-77"))
			det->cloud = "azure";
		set_virt(c, "hyperv", kf_arena_printf(c->a, "DMI %s", dmi));
	}
	if (dmi_has(sysv, "QEMU") || dmi_has(prod, "KVM") || dmi_has(sysv, "Red Hat") ||
	    dmi_has(biosv, "SeaBIOS") || dmi_has(prod, "Standard PC"))
		set_virt(c, "kvm", kf_arena_printf(c->a, "DMI %s", dmi));
	if (dmi_has(sysv, "VMware") || dmi_has(prod, "VMware"))
		set_virt(c, "vmware", kf_arena_printf(c->a, "DMI %s", dmi));
	if (dmi_has(sysv, "innotek") || dmi_has(prod, "VirtualBox") || dmi_has(board, "Oracle"))
		set_virt(c, "virtualbox", kf_arena_printf(c->a, "DMI %s", dmi));
	if (dmi_has(sysv, "Xen") || dmi_has(biosv, "Xen"))
		set_virt(c, "xen", kf_arena_printf(c->a, "DMI %s", dmi));
	if (acpi_oem(c, "FIRECK"))
		set_virt(c, "firecracker", "ACPI tables with OEM ID FIRECK");
	(void)board;
	/* device IDs: virtio, VMware, VirtualBox, Hyper-V, Xen platform */
	for (size_t i = 0; i < det->ndevices && !det->virt; i++) {
		const char *m = det->devices[i].modalias;
		if (!strncmp(m, "pci:v000015AD", 13))
			set_virt(c, "vmware", "PCI vendor 15ad (VMware)");
		else if (!strncmp(m, "pci:v000080EE", 13))
			set_virt(c, "virtualbox", "PCI vendor 80ee (VirtualBox)");
		else if (!strncmp(m, "pci:v00005853", 13))
			set_virt(c, "xen", "PCI vendor 5853 (Xen platform device)");
		else if (!strncmp(m, "vmbus:", 6))
			set_virt(c, "hyperv", "VMBus devices");
		else if (!strncmp(m, "virtio:", 7) && !det->has_dmi && hv)
			set_virt(c, "firecracker",
				 "virtio devices, no DMI and the cpuid hypervisor flag (a microVM)");
		else if (!strncmp(m, "pci:v00001AF4", 13) || !strncmp(m, "virtio:", 7))
			set_virt(c, "kvm", "virtio devices (vendor 1af4)");
	}
	if (!det->virt && hv)
		set_virt(c, "hypervisor", "cpuid hypervisor flag, vendor unknown");
	if (!det->virt)
		set_virt(c, "none", det->has_dmi ? kf_arena_printf(c->a, "DMI %s", dmi)
						 : "no hypervisor flag");
	/* chassis, when on real hardware */
	int t = det->chassis_type;
	if (!strcmp(det->virt, "none") && t) {
		static const int laptop[] = {8, 9, 10, 11, 14, 30, 31, 32};
		static const int desktop[] = {3, 4, 5, 6, 7, 13, 15, 16, 24, 35, 36};
		static const int server[] = {17, 23, 25, 28, 29};
		for (size_t i = 0; i < sizeof(laptop) / sizeof(int); i++)
			if (t == laptop[i])
				det->chassis = "laptop";
		for (size_t i = 0; i < sizeof(desktop) / sizeof(int); i++)
			if (t == desktop[i])
				det->chassis = "desktop";
		for (size_t i = 0; i < sizeof(server) / sizeof(int); i++)
			if (t == server[i])
				det->chassis = "server";
	}
	/* platform profiles */
	const char *vp = NULL;
	if (!strcmp(det->virt, "kvm") || !strcmp(det->virt, "firecracker"))
		vp = "kvm-guest";
	else if (!strcmp(det->virt, "xen"))
		vp = "xen-guest";
	else if (!strcmp(det->virt, "hyperv"))
		vp = "hyperv-guest";
	else if (!strcmp(det->virt, "vmware"))
		vp = "vmware-guest";
	else if (!strcmp(det->virt, "virtualbox"))
		vp = "virtualbox-guest";
	else if (!strcmp(det->virt, "wsl2"))
		vp = "wsl2";
	if (vp)
		det_add_profile(c, vp, PROF_KIND_PLATFORM,
			    kf_arena_printf(c->a, "virtualization %s: %s", det->virt, det->virt_why));
	if (det->cloud)
		det_add_profile(c, det->cloud, PROF_KIND_PLATFORM,
			    kf_arena_printf(c->a, "cloud %s: DMI %s%s%s", det->cloud, dmi,
					    biosver ? ", bios_version " : "", biosver ? biosver : ""));
	if (det->chassis)
		det_add_profile(c, det->chassis, PROF_KIND_PLATFORM,
			    kf_arena_printf(c->a, "DMI chassis_type %d", t));
}

/* ---- the PC platform: UEFI, CPU vendor, laptop vendor ---- */

void detect_platform(dctx *c, const char *cpuinfo)
{
	kf_detect *det = c->det;
	/* the kernel creates sys/firmware/efi only when it was booted
	 * through UEFI (virtual machines with OVMF included) */
	if (det_exists(c, "sys/firmware/efi"))
		det_add_profile(c, "uefi", PROF_KIND_PLATFORM,
			    "sys/firmware/efi exists: booted through UEFI");
	if (!det->virt || strcmp(det->virt, "none"))
		return;
	/* bare metal: a PC of some kind even when DMI names no chassis */
	if (!det->chassis && cpuinfo && det_cpu_flag(cpuinfo, "lm"))
		det_add_profile(c, "pc", PROF_KIND_PLATFORM,
			    "bare metal x86 (no hypervisor), DMI names no laptop, desktop or "
			    "server chassis");
	const char *v = det->cpu_vendor;
	if (v && !strcmp(v, "GenuineIntel"))
		det_add_profile(c, "intel-pc", PROF_KIND_PLATFORM,
			    kf_arena_printf(c->a, "bare metal, proc/cpuinfo vendor_id %s%s", v,
					    det_cpu_flag(cpuinfo, "x2apic") ? " (flags: x2apic)" : ""));
	else if (v && !strcmp(v, "AuthenticAMD"))
		det_add_profile(c, "amd-pc", PROF_KIND_PLATFORM,
			    kf_arena_printf(c->a, "bare metal, proc/cpuinfo vendor_id %s%s", v,
					    det_cpu_flag(cpuinfo, "x2apic") ? " (flags: x2apic)" : ""));
	/* without proc/cpuinfo (a recorded sysfs): the host bridge at
	 * 00:00.0 is the CPU vendor's on every current PC */
	for (size_t i = 0; !v && i < det->ndevices; i++) {
		const kf_device *dv = &det->devices[i];
		size_t pl = strlen(dv->path);
		if (pl < 13 || strcmp(dv->path + pl - 13, "/0000:00:00.0") ||
		    !strstr(dv->modalias, "bc06sc00"))
			continue;
		const char *name = !strncmp(dv->modalias, "pci:v00008086", 13)	 ? "intel-pc"
				   : !strncmp(dv->modalias, "pci:v00001022", 13) ? "amd-pc"
										  : NULL;
		if (name)
			det_add_profile(c, name, PROF_KIND_PLATFORM,
				    kf_arena_printf(c->a, "bare metal, no proc/cpuinfo: the PCI host "
							  "bridge 00:00.0 is %s",
						    dv->desc ? dv->desc : dv->modalias));
		break;
	}
	char *sysv = det_read(c, "sys/class/dmi/id/sys_vendor");
	char *prodv = det_read(c, "sys/class/dmi/id/product_version");
	char *fam = det_read(c, "sys/class/dmi/id/product_family");
	bool laptop = det->chassis && !strcmp(det->chassis, "laptop");
	const char *vp = NULL;
	if (dmi_has(sysv, "LENOVO") || dmi_has(sysv, "IBM"))
		vp = dmi_has(prodv, "ThinkPad") || dmi_has(fam, "ThinkPad") ? "thinkpad"
		     : laptop							 ? "ideapad"
										 : NULL;
	else if (dmi_has(sysv, "Dell"))
		vp = "dell";
	else if (dmi_has(sysv, "Hewlett-Packard") || (sysv && !strncmp(sysv, "HP", 2)))
		vp = "hp";
	else if (dmi_has(sysv, "ASUSTeK") && laptop)
		vp = "asus";
	if (vp)
		det_add_profile(c, vp, PROF_KIND_PLATFORM,
			    kf_arena_printf(c->a, "DMI sys_vendor %s, product_version %s%s%s", sysv,
					    prodv ? prodv : "-", fam ? ", product_family " : "",
					    fam ? fam : ""));
}

/* ---- programs ---- */

static bool has_prog(dctx *c, const char *name)
{
	static const char *const dirs[] = {"usr/bin", "usr/sbin", "bin", "sbin", "usr/local/bin"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char *rel = kf_xasprintf("%s/%s", dirs[i], name);
		bool ok = det_exists(c, rel);
		free(rel);
		if (ok)
			return true;
	}
	return false;
}

void detect_features(dctx *c)
{
	static const char *const map[][2] = {
		{"dockerd", "docker"},     {"podman", "podman"},       {"lxc-start", "lxc"},
		{"lxd", "lxc"},            {"incus", "lxc"},           {"flatpak", "flatpak"},
		{"snapd", "snapd"},        {"snap", "snapd"},          {"wg", "wireguard"},
		{"wg-quick", "wireguard"}, {"mount.nfs", "nfs-client"}, {"mount.cifs", "cifs"},
		{"bpftrace", "bpftrace"},  {"mdadm", "md-raid"},       {"cryptsetup", "lvm-luks"},
		{"zramctl", "zram"},       {"libvirtd", "kvm-host"},
	};
	kf_detect *det = c->det;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (!has_prog(c, map[i][0]))
			continue;
		/* md-raid and kvm-host only with the hardware or arrays to use */
		if (!strcmp(map[i][1], "md-raid") && !det_exists(c, "proc/mdstat"))
			continue;
		det_add_profile(c, map[i][1], PROF_KIND_FEATURE,
			    kf_arena_printf(c->a, "%s is installed", map[i][0]));
	}
	if (det->rootfs && !strcmp(det->rootfs, "btrfs"))
		det_add_profile(c, "btrfs", PROF_KIND_FEATURE, "the root filesystem is btrfs");
	else if (has_prog(c, "btrfs"))
		det_add_profile(c, "btrfs", PROF_KIND_FEATURE, "btrfs-progs is installed");
	for (size_t i = 0; i < det->nblockstack; i++) {
		if (!strcmp(det->blockstack[i], "dm-crypt") || !strcmp(det->blockstack[i], "lvm"))
			det_add_profile(c, "lvm-luks", PROF_KIND_FEATURE,
				    kf_arena_printf(c->a, "the root filesystem is on %s",
						    det->blockstack[i]));
		if (!strncmp(det->blockstack[i], "md-", 3))
			det_add_profile(c, "md-raid", PROF_KIND_FEATURE,
				    kf_arena_printf(c->a, "the root filesystem is on %s",
						    det->blockstack[i]));
	}
	if (det_exists(c, "sys/class/block/zram0"))
		det_add_profile(c, "zram", PROF_KIND_FEATURE, "sys/class/block/zram0 exists");
}


/* "0-3,5" -> 5 */
static int count_cpulist(const char *s)
{
	int n = 0;
	while (s && *s) {
		int a = atoi(s), b = a;
		const char *p = s;
		while (isdigit((unsigned char)*p))
			p++;
		if (*p == '-')
			b = atoi(p + 1);
		n += b - a + 1;
		s = strchr(s, ',');
		if (s)
			s++;
	}
	return n;
}

void detect_cpu(dctx *c, const char *cpuinfo)
{
	kf_detect *det = c->det;
	det->cpu_family = -1;
	if (cpuinfo) {
		const char *v = strstr(cpuinfo, "vendor_id");
		if (v && (v = strchr(v, ':')) != NULL) {
			v++;
			while (*v == ' ' || *v == '\t')
				v++;
			det->cpu_vendor = kf_arena_strndup(c->a, v, strcspn(v, "\n"));
		}
		const char *f = strstr(cpuinfo, "cpu family");
		if (f && (f = strchr(f, ':')) != NULL)
			det->cpu_family = atoi(f + 1);
	}
	char *poss = det_read(c, "sys/devices/system/cpu/possible");
	if (poss)
		det->ncpus = count_cpulist(poss);
	else if (cpuinfo)
		for (const char *p = cpuinfo; (p = strstr(p, "processor")) != NULL; p++)
			if (p == cpuinfo || p[-1] == '\n')
				det->ncpus++;
	char *cmd = det_read(c, "proc/cmdline");
	if (cmd) {
		/* the last console= is /dev/console; stop at " -- " (init's args) */
		char *end = strstr(cmd, " -- ");
		if (end)
			*end = 0;
		for (char *p = strstr(cmd, "console="); p; p = strstr(p + 1, "console=")) {
			if (p != cmd && p[-1] != ' ')
				continue;
			char *v = p + 8;
			size_t n = strcspn(v, " ,");
			det->console = kf_arena_strndup(c->a, v, n);
		}
	}
}


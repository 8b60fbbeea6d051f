/*
 * detect.c - what a machine is and what it has, read from ROOT ("/" or a
 * snapshot of scripts/snapshot-machine.sh): distro from os-release, init,
 * LSM, firewall, initramfs, the root filesystem and its block stack,
 * virtualization and cloud, chassis, CPU, console, installed programs, and
 * every device's modalias matched against the alias database.  The result
 * is profile names with their evidence and hardware requirements with
 * reasons naming the device.  docs/detect.md has the rules.
 */
#include "detect_internal.h"
#include "kfit/dotconfig.h"
#include "kfit/rootfs.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct dctx {
	const kf_detect_opts *o; /* options */
	kf_detect *det;          /* the result */
	kf_arena *a;             /* det->arena */
	kf_diags *d;             /* diagnostics */
} dctx;

/* ROOT/rel with links resolved inside ROOT (lib/rootfs.c): a snapshot's
 * absolute link never reaches this machine's files */
static char *root_path(dctx *c, const char *rel)
{
	return kf_root_path(c->o->root ? c->o->root : "/", rel, true);
}

static bool r_exists(dctx *c, const char *rel)
{
	char *p = root_path(c, rel);
	struct stat st;
	bool ok = lstat(p, &st) == 0;
	free(p);
	return ok;
}

/* A regular file below ROOT (what r_read reads; a FIFO is not one). */
static bool r_regular(dctx *c, const char *rel)
{
	char *p = root_path(c, rel);
	bool ok = kf_root_regular(p);
	free(p);
	return ok;
}

/* A file's text below ROOT, trailing whitespace removed, or NULL. */
static char *r_read(dctx *c, const char *rel)
{
	char *p = root_path(c, rel);
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
static char *r_link(dctx *c, const char *rel)
{
	char *p = kf_root_path(c->o->root ? c->o->root : "/", rel, false);
	char buf[4096];
	ssize_t n = readlink(p, buf, sizeof(buf) - 1);
	free(p);
	if (n > 0) {
		buf[n] = 0;
		return kf_arena_strdup(c->a, buf);
	}
	return r_read(c, rel);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* ---- profiles ---- */

static void add_profile(dctx *c, const char *name, prof_kind kind, const char *reason)
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

static char *osr_get(dctx *c, const char *text, const char *key)
{
	size_t kl = strlen(key);
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, key, kl) || l[kl] != '=')
			continue;
		const char *v = l + kl + 1, *e = strchr(v, '\n');
		size_t n = e ? (size_t)(e - v) : strlen(v);
		while (n && isspace((unsigned char)v[n - 1]))
			n--;
		if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
			v++;
			n -= 2;
		}
		return kf_arena_strndup(c->a, v, n);
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

static void detect_os(dctx *c)
{
	kf_detect *det = c->det;
	char *text = r_read(c, "etc/os-release");
	if (!text)
		text = r_read(c, "usr/lib/os-release");
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
		char *dv = r_read(c, "etc/debian_version");
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
			char *dv = lver ? NULL : r_read(c, "etc/debian_version");
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
		char *p = root_path(c, dirs[i]);
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

static void detect_init(dctx *c)
{
	kf_detect *det = c->det;
	det->pid1 = r_read(c, "proc/1/comm");
	const char *init = NULL, *why = NULL;
	if (det->pid1 && !strcmp(det->pid1, "systemd")) {
		init = "systemd";
		why = "proc/1/comm is systemd";
	} else if (r_exists(c, "sbin/openrc") || r_exists(c, "usr/sbin/openrc") ||
		   r_exists(c, "sbin/openrc-run")) {
		init = "openrc";
		why = "openrc is installed";
	} else {
		char *l = r_link(c, "sbin/init");
		if (!l)
			l = r_link(c, "usr/sbin/init");
		if (l && strstr(l, "systemd")) {
			init = "systemd";
			why = kf_arena_printf(c->a, "sbin/init -> %s (pid 1 is %s)", l,
					      det->pid1 ? det->pid1 : "unknown");
		} else if (r_exists(c, "usr/lib/systemd/systemd") || r_exists(c, "lib/systemd/systemd")) {
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
			add_profile(c, n, PROF_KIND_INIT,
				    kf_arena_printf(c->a, "%s; libsystemd-shared-%d.so", why,
						    det->systemd_version));
		} else {
			kf_diag_add(c->d, KF_WARNING, NULL, 0, 0,
				    "systemd found but not its version (no libsystemd-shared-N.so)");
		}
	} else {
		add_profile(c, init, PROF_KIND_INIT, why);
	}
}

/* ---- lsm, firewall, initramfs ---- */

static void detect_security(dctx *c)
{
	kf_detect *det = c->det;
	det->lsm = r_read(c, "sys/kernel/security/lsm");
	if (det->lsm) {
		if (strstr(det->lsm, "apparmor"))
			add_profile(c, "apparmor", PROF_KIND_FEATURE,
				    kf_arena_printf(c->a, "sys/kernel/security/lsm: %s", det->lsm));
		if (strstr(det->lsm, "selinux"))
			add_profile(c, "selinux", PROF_KIND_FEATURE,
				    kf_arena_printf(c->a, "sys/kernel/security/lsm: %s", det->lsm));
	}
	/* firewall: what iptables points at, or nft / firewalld installed */
	char *ipt = r_link(c, "etc/alternatives/iptables");
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
	} else if (r_exists(c, "usr/sbin/firewalld") || r_exists(c, "usr/sbin/nft") ||
		   r_exists(c, "sbin/nft")) {
		fw = "nftables";
		why = "nft or firewalld is installed";
	} else if (r_exists(c, "usr/sbin/iptables-legacy")) {
		fw = "iptables-legacy";
		why = "iptables-legacy is installed";
	}
	det->firewall = fw;
	if (fw)
		add_profile(c, fw, PROF_KIND_FEATURE, why);
}

static void detect_initramfs(dctx *c)
{
	kf_detect *det = c->det;
	det->initramfs = PROF_INITRAMFS_UNKNOWN;
	char *cmd = r_read(c, "proc/cmdline");
	const char *rel = det->kernel_release;
	if (rel) {
		static const char *const pat[] = {"boot/initrd.img-%s", "boot/initramfs-%s.img",
						  "boot/initramfs-%s.img.zst"};
		for (size_t i = 0; i < sizeof(pat) / sizeof(pat[0]); i++) {
			char *p = kf_xasprintf(pat[i], rel);
			bool ok = r_exists(c, p);
			if (ok) {
				det->initramfs = PROF_INITRAMFS_YES;
				det->initramfs_why = kf_arena_strdup(c->a, p);
			}
			free(p);
			if (ok)
				return;
		}
	}
	if (r_exists(c, "boot/initramfs-linux.img")) {
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
	if (r_exists(c, "boot") && rel) {
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

/* Device paths (below sys/) of the root filesystem's disks, for boot flags. */
typedef struct rootdevs {
	char **v;     /* paths: "devices/pci0000:00/0000:00:02.0/virtio1/block/vda" */
	size_t n;     /* how many */
} rootdevs;

static void walk_block(dctx *c, const char *name, rootdevs *rd, int depth)
{
	if (depth > 8)
		return;
	char *rel = kf_xasprintf("sys/class/block/%s", name);
	char *l = r_link(c, rel);
	free(rel);
	/* dm: uuid CRYPT-... or LVM-...; md: level */
	char *q = kf_xasprintf("sys/class/block/%s/dm/uuid", name);
	char *uuid = r_read(c, q);
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
	char *lvl = r_read(c, q);
	free(q);
	if (lvl)
		add_layer(c, kf_arena_printf(c->a, "md-%s", lvl));
	q = kf_xasprintf("sys/class/block/%s/slaves", name);
	char *p = root_path(c, q);
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
			walk_block(c, de->d_name, rd, depth + 1);
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

static void detect_root(dctx *c, rootdevs *rd)
{
	kf_detect *det = c->det;
	char *mounts = r_read(c, "proc/mounts");
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
		char *cmd = r_read(c, "proc/cmdline");
		char *r = cmd ? strstr(cmd, "root=/dev/") : NULL;
		if (r) {
			r += 10;
			name = kf_arena_strndup(c->a, r, strcspn(r, " "));
		}
	}
	if (!strncmp(name, "mapper/", 7)) {
		/* find dm-N whose dm/name matches */
		char *p = root_path(c, "sys/class/block");
		DIR *dh = opendir(p);
		free(p);
		const char *want = name + 7;
		if (dh) {
			struct dirent *de;
			while ((de = readdir(dh)) != NULL) {
				char *q = kf_xasprintf("sys/class/block/%s/dm/name", de->d_name);
				char *nm = r_read(c, q);
				free(q);
				if (nm && !strcmp(nm, want)) {
					name = kf_arena_strdup(c->a, de->d_name);
					break;
				}
			}
			closedir(dh);
		}
	}
	walk_block(c, name, rd, 0);
}

/* ---- virtualization, cloud, chassis ---- */

static bool acpi_oem(dctx *c, const char *oem)
{
	static const char *const tables[] = {"DSDT", "FACP", "APIC", "MCFG"};
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		char *rel = kf_xasprintf("sys/firmware/acpi/tables/%s", tables[i]);
		char *p = root_path(c, rel);
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

static bool has_cpu_flag(const char *cpuinfo, const char *flag)
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

static void detect_virt(dctx *c, const char *cpuinfo)
{
	kf_detect *det = c->det;
	det->has_dmi = r_exists(c, "sys/class/dmi/id");
	char *sysv = r_read(c, "sys/class/dmi/id/sys_vendor");
	char *prod = r_read(c, "sys/class/dmi/id/product_name");
	char *biosv = r_read(c, "sys/class/dmi/id/bios_vendor");
	char *biosver = r_read(c, "sys/class/dmi/id/bios_version");
	char *board = r_read(c, "sys/class/dmi/id/board_vendor");
	char *asset = r_read(c, "sys/class/dmi/id/chassis_asset_tag");
	char *ct = r_read(c, "sys/class/dmi/id/chassis_type");
	char *hyp = r_read(c, "sys/hypervisor/type");
	char *ver = r_read(c, "proc/version");
	det->chassis_type = ct ? atoi(ct) : 0;
	const char *dmi = kf_arena_printf(c->a, "%s / %s", sysv ? sysv : "?", prod ? prod : "?");
	if (ver && (strstr(ver, "microsoft") || strstr(ver, "Microsoft") || strstr(ver, "WSL")))
		set_virt(c, "wsl2", "proc/version names Microsoft/WSL");
	if (hyp && !strcmp(hyp, "xen"))
		set_virt(c, "xen", "sys/hypervisor/type is xen");
	bool hv = has_cpu_flag(cpuinfo, "hypervisor");
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
		add_profile(c, vp, PROF_KIND_PLATFORM,
			    kf_arena_printf(c->a, "virtualization %s: %s", det->virt, det->virt_why));
	if (det->cloud)
		add_profile(c, det->cloud, PROF_KIND_PLATFORM,
			    kf_arena_printf(c->a, "cloud %s: DMI %s%s%s", det->cloud, dmi,
					    biosver ? ", bios_version " : "", biosver ? biosver : ""));
	if (det->chassis)
		add_profile(c, det->chassis, PROF_KIND_PLATFORM,
			    kf_arena_printf(c->a, "DMI chassis_type %d", t));
}

/* ---- the PC platform: UEFI, CPU vendor, laptop vendor ---- */

static void detect_platform(dctx *c, const char *cpuinfo)
{
	kf_detect *det = c->det;
	/* the kernel creates sys/firmware/efi only when it was booted
	 * through UEFI (virtual machines with OVMF included) */
	if (r_exists(c, "sys/firmware/efi"))
		add_profile(c, "uefi", PROF_KIND_PLATFORM,
			    "sys/firmware/efi exists: booted through UEFI");
	if (!det->virt || strcmp(det->virt, "none"))
		return;
	/* bare metal: a PC of some kind even when DMI names no chassis */
	if (!det->chassis && cpuinfo && has_cpu_flag(cpuinfo, "lm"))
		add_profile(c, "pc", PROF_KIND_PLATFORM,
			    "bare metal x86 (no hypervisor), DMI names no laptop, desktop or "
			    "server chassis");
	const char *v = det->cpu_vendor;
	if (v && !strcmp(v, "GenuineIntel"))
		add_profile(c, "intel-pc", PROF_KIND_PLATFORM,
			    kf_arena_printf(c->a, "bare metal, proc/cpuinfo vendor_id %s%s", v,
					    has_cpu_flag(cpuinfo, "x2apic") ? " (flags: x2apic)" : ""));
	else if (v && !strcmp(v, "AuthenticAMD"))
		add_profile(c, "amd-pc", PROF_KIND_PLATFORM,
			    kf_arena_printf(c->a, "bare metal, proc/cpuinfo vendor_id %s%s", v,
					    has_cpu_flag(cpuinfo, "x2apic") ? " (flags: x2apic)" : ""));
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
			add_profile(c, name, PROF_KIND_PLATFORM,
				    kf_arena_printf(c->a, "bare metal, no proc/cpuinfo: the PCI host "
							  "bridge 00:00.0 is %s",
						    dv->desc ? dv->desc : dv->modalias));
		break;
	}
	char *sysv = r_read(c, "sys/class/dmi/id/sys_vendor");
	char *prodv = r_read(c, "sys/class/dmi/id/product_version");
	char *fam = r_read(c, "sys/class/dmi/id/product_family");
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
		add_profile(c, vp, PROF_KIND_PLATFORM,
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
		bool ok = r_exists(c, rel);
		free(rel);
		if (ok)
			return true;
	}
	return false;
}

static void detect_features(dctx *c)
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
		if (!strcmp(map[i][1], "md-raid") && !r_exists(c, "proc/mdstat"))
			continue;
		add_profile(c, map[i][1], PROF_KIND_FEATURE,
			    kf_arena_printf(c->a, "%s is installed", map[i][0]));
	}
	if (det->rootfs && !strcmp(det->rootfs, "btrfs"))
		add_profile(c, "btrfs", PROF_KIND_FEATURE, "the root filesystem is btrfs");
	else if (has_prog(c, "btrfs"))
		add_profile(c, "btrfs", PROF_KIND_FEATURE, "btrfs-progs is installed");
	for (size_t i = 0; i < det->nblockstack; i++) {
		if (!strcmp(det->blockstack[i], "dm-crypt") || !strcmp(det->blockstack[i], "lvm"))
			add_profile(c, "lvm-luks", PROF_KIND_FEATURE,
				    kf_arena_printf(c->a, "the root filesystem is on %s",
						    det->blockstack[i]));
		if (!strncmp(det->blockstack[i], "md-", 3))
			add_profile(c, "md-raid", PROF_KIND_FEATURE,
				    kf_arena_printf(c->a, "the root filesystem is on %s",
						    det->blockstack[i]));
	}
	if (r_exists(c, "sys/class/block/zram0"))
		add_profile(c, "zram", PROF_KIND_FEATURE, "sys/class/block/zram0 exists");
}

/* ---- devices ---- */

static const char *pci_class_name(unsigned bc, unsigned sc)
{
	static const struct {
		unsigned bc, sc;
		const char *name;
	} t[] = {
		{0x01, 0x00, "SCSI storage"}, {0x01, 0x01, "IDE"},   {0x01, 0x04, "RAID"},
		{0x01, 0x06, "SATA"},         {0x01, 0x07, "SAS"},   {0x01, 0x08, "NVMe"},
		{0x01, 0xff, "Mass storage"}, {0x02, 0x00, "Ethernet"}, {0x02, 0x80, "Network"},
		{0x02, 0xff, "Network"},      {0x03, 0xff, "Display"}, {0x04, 0x03, "Audio"},
		{0x04, 0xff, "Multimedia"},   {0x05, 0xff, "Memory"}, {0x06, 0x00, "Host bridge"},
		{0x06, 0x01, "ISA bridge"},   {0x06, 0x04, "PCI bridge"}, {0x06, 0xff, "Bridge"},
		{0x07, 0xff, "Communication"}, {0x08, 0xff, "System peripheral"},
		{0x09, 0xff, "Input"},        {0x0c, 0x03, "USB"},    {0x0c, 0x05, "SMBus"},
		{0x0c, 0xff, "Serial bus"},   {0x0d, 0xff, "Wireless"}, {0x10, 0xff, "Encryption"},
		{0x11, 0xff, "Signal processing"}, {0xff, 0xff, "Unclassified"},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].bc == bc && (t[i].sc == sc || t[i].sc == 0xff))
			return t[i].name;
	return "device";
}

static const char *virtio_name(unsigned id)
{
	static const char *const n[] = {NULL,      "net",   "block", "console", "rng",
					"balloon", "iomem", "rpmsg", "scsi",    "9p"};
	if (id < sizeof(n) / sizeof(n[0]) && n[id])
		return n[id];
	switch (id) {
	case 16: return "gpu";
	case 18: return "input";
	case 19: return "vsock";
	case 20: return "crypto";
	case 26: return "fs";
	case 27: return "pmem";
	case 34: return "mem";
	}
	return "device";
}

static const char *describe(dctx *c, const char *m)
{
	unsigned v, d, bc, sc;
	if (sscanf(m, "pci:v%8Xd%8Xsv%*8Xsd%*8Xbc%2Xsc%2X", &v, &d, &bc, &sc) == 4)
		return kf_arena_printf(c->a, "PCI %04x:%04x (%s)", v, d, pci_class_name(bc, sc));
	if (sscanf(m, "virtio:d%8Xv%8X", &d, &v) == 2)
		return kf_arena_printf(c->a, "virtio %s (%u)", virtio_name(d), d);
	if (sscanf(m, "usb:v%4Xp%4X", &v, &d) == 2)
		return kf_arena_printf(c->a, "USB %04x:%04x", v, d);
	if (!strncmp(m, "acpi:", 5))
		return kf_arena_printf(c->a, "ACPI %.*s", (int)strcspn(m + 5, ":"), m + 5);
	if (!strncmp(m, "platform:", 9))
		return kf_arena_printf(c->a, "platform %s", m + 9);
	if (!strncmp(m, "cpu:", 4))
		return "CPU features";
	if (!strncmp(m, "input:", 6))
		return kf_arena_printf(c->a, "input %.*s", (int)strcspn(m + 6, "-"), m + 6);
	if (!strncmp(m, "of:", 3)) {
		const char *cc = strstr(m, "C");
		return kf_arena_printf(c->a, "OF %s", cc ? cc + 1 : m + 3);
	}
	const char *colon = strchr(m, ':');
	size_t n = colon ? (size_t)(colon - m) : strlen(m);
	return kf_arena_printf(c->a, "%.*s %s", (int)n, m, colon ? colon + 1 : "");
}

static void add_device(dctx *c, const char *dir)
{
	char *rel = kf_xasprintf("%s/modalias", dir);
	char *m = r_read(c, rel);
	free(rel);
	if (!m || !*m)
		return;
	kf_detect *det = c->det;
	KF_GROW(det->devices, det->ndevices + 1, det->dalloc);
	kf_device *dv = &det->devices[det->ndevices++];
	memset(dv, 0, sizeof(*dv));
	dv->path = kf_arena_strdup(c->a, dir + 4); /* below sys/ */
	dv->modalias = m;
	dv->bus = kf_arena_strndup(c->a, m, strcspn(m, ":"));
	dv->desc = describe(c, m);
	rel = kf_xasprintf("%s/driver", dir);
	char *drv = r_link(c, rel);
	free(rel);
	if (drv)
		dv->bound = kf_arena_strdup(c->a, base_name(drv));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every directory below ROOT/sys/devices with a modalias (no symlinks). */
static void walk_devices(dctx *c, const char *rel, int depth)
{
	if (depth > 40)
		return;
	char *p = root_path(c, rel);
	DIR *dh = opendir(p);
	free(p);
	if (!dh)
		return;
	char **subs = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *de;
	bool has = false;
	while ((de = readdir(dh)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (!strcmp(de->d_name, "modalias"))
			has = true;
		if (de->d_type == DT_DIR) {
			KF_GROW(subs, n + 1, alloc);
			subs[n++] = kf_xasprintf("%s/%s", rel, de->d_name);
		}
	}
	closedir(dh);
	if (has)
		add_device(c, rel);
	if (n) /* qsort(NULL, 0) is undefined (UBSan) */
		qsort(subs, n, sizeof(char *), cmp_str);
	for (size_t i = 0; i < n; i++) {
		walk_devices(c, subs[i], depth + 1);
		free(subs[i]);
	}
	free(subs);
}

/* ---- requirements ---- */

static kf_hwreq *hw_find(kf_detect *det, const char *sym)
{
	for (size_t i = 0; i < det->nhw; i++)
		if (!strcmp(det->hw[i].symbol, sym))
			return &det->hw[i];
	return NULL;
}

static kf_hwreq *hw_add(dctx *c, const char *sym, kf_hw_want want, kf_hw_level level, bool boot,
			const char *reason)
{
	kf_detect *det = c->det;
	kf_hwreq *h = hw_find(det, sym);
	/* a device needs what the machine otherwise does not: start afresh */
	bool fresh = h && h->want == KF_HW_OFF && want != KF_HW_OFF;
	if (h && !fresh) {
		if (boot)
			h->boot = true;
		if (level == KF_HW_REQUIRE)
			h->level = KF_HW_REQUIRE;
		if (want == KF_HW_BUILTIN)
			h->want = KF_HW_BUILTIN;
		return h;
	}
	if (!fresh) {
		KF_GROW(det->hw, det->nhw + 1, det->hwalloc);
		h = &det->hw[det->nhw++];
	}
	memset(h, 0, sizeof(*h));
	h->symbol = kf_arena_strdup(c->a, sym);
	h->want = want;
	h->level = level;
	h->boot = boot;
	h->reason = kf_arena_strdup(c->a, reason);
	return h;
}

/* A device's requirement: `unbound` while only devices without a bound
 * driver need it (rtc-efi on x86: no driver binds it, and its only one
 * cannot be built there). */
static kf_hwreq *hw_dev_add(dctx *c, const kf_device *dv, const char *sym, kf_hw_want want,
			    kf_hw_level level, bool boot, const char *reason)
{
	size_t had = c->det->nhw;
	kf_hwreq *h = hw_add(c, sym, want, level, boot, reason);
	if (c->det->nhw > had)
		h->unbound = !dv->bound;
	else if (dv->bound)
		h->unbound = false;
	return h;
}

static bool path_under(const char *dev, const rootdevs *rd)
{
	size_t n = strlen(dev);
	for (size_t i = 0; i < rd->n; i++)
		if (!strncmp(rd->v[i], dev, n) && (rd->v[i][n] == '/' || !rd->v[i][n]))
			return true;
	return false;
}

/* One module that claims a device, with what it needs. */
typedef struct cand {
	const kf_alias *al;    /* the alias that matched */
	const kf_modinfo *mi;  /* the module, or NULL */
	const char *sym;       /* its symbol, or NULL */
	const char *mk;        /* Makefile naming it */
	int mkline;            /* its line */
	int score;             /* preference, higher first */
} cand;

/* Literal characters of a pattern: a specific ID beats a class match. */
static int specificity(const char *p)
{
	int n = 0;
	for (; *p; p++)
		n += *p != '*' && *p != '?';
	return n;
}

/* Driver and module names compare with '-' and '_' equal. */
static bool name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if ((*a == '-' ? '_' : *a) != (*b == '-' ? '_' : *b))
			return false;
	return !*a && !*b;
}

/* An alias that names a driver as its device's driver link shows it:
 * "driver:NAME" (PCI, USB, HID drivers) or "platform:NAME". */
static bool bound_name_alias(const kf_alias *al, const char *bound)
{
	const char *p = al->pattern;
	if (al->origin == KF_ALIAS_DRIVER && !strncmp(p, "driver:", 7))
		return name_eq(p + 7, bound);
	if (al->origin == KF_ALIAS_DRVNAME && !strncmp(p, "platform:", 9))
		return name_eq(p + 9, bound);
	return false;
}

/* An alias of the bound driver's own module, by the driver name the module
 * registers, or by the module's name with an entry for the device's bus
 * (modalias up to ':'): the HDA core binds snd_hda_codec_generic to a
 * codec no table claims (its own table holds only HDA_CODEC_ID_GENERIC,
 * which no codec reports).  The bus keeps an old kernel's driver name out:
 * EHCI's PCI driver was "ehci_hcd", today the core module, whose entries
 * are of: and platform: ones. */
static bool bound_alias(const kf_alias *al, const char *bound, const char *modalias)
{
	if (bound_name_alias(al, bound))
		return true;
	const char *colon = strchr(modalias, ':');
	size_t bl = colon ? (size_t)(colon - modalias) + 1 : 0;
	return bl && !strncmp(al->pattern, modalias, bl) && name_eq(al->module, bound);
}

/* True when module is the one whose driver is bound: the same name, or a
 * driver name the module registers. */
static bool is_bound_module(const kf_aliasdb *db, const char *bound, const char *module)
{
	if (name_eq(bound, module))
		return true;
	for (size_t k = 0; k < db->naliases; k++)
		if (!strcmp(db->aliases[k].module, module) && bound_name_alias(&db->aliases[k], bound))
			return true;
	return false;
}

bool kf_aliasdb_is_bound_module(const kf_aliasdb *db, const char *bound, const char *module)
{
	return is_bound_module(db, bound, module);
}

/* The ID that matched sits under #ifdef CONFIG_X / #if IS_ENABLED(CONFIG_X)
 * (rtl8xxxu's untested devices, tables under CONFIG_OF): the table has it
 * only with X, so X is required too (y for a plain #ifdef).  Negated
 * conditions require nothing. */
static void cond_requirements(dctx *c, const kf_device *dv, const cand *cd, kf_hw_level lvl,
			      bool boot)
{
	const kf_alias *al = cd->al;
	for (const char *p = al->cond; p && *p;) {
		const char *e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		const char *eq = memchr(p, '=', (size_t)(e - p));
		if (*p != '!' && eq && eq + 1 < e && eq[1] != 'm') {
			char *sym = kf_arena_printf(c->a, "%.*s", (int)(eq - p), p);
			if (strcmp(sym, cd->sym)) {
				bool y = eq[1] == 'y';
				char *r = kf_arena_printf(c->a, "%s → %s (its ID is under %sCONFIG_%s%s, %s:%d) → CONFIG_%s%s",
							  dv->desc, al->module, y ? "#ifdef " : "#if IS_ENABLED(",
							  sym, y ? "" : ")", al->file ? al->file : "?", al->line,
							  sym, y ? "=y" : "");
				kf_hwreq *h = hw_dev_add(c, dv, sym, y ? KF_HW_BUILTIN : KF_HW_ENABLED, lvl,
							 boot, r);
				if (!h->device) {
					h->device = dv->path;
					h->module = al->module;
				}
			}
		}
		p = *e ? e + 1 : e;
	}
}

/*
 * Every module that claims a device could drive it, and some exclude each
 * other (button / tiny_power_button, usbhid / usbkbd), so one is required
 * and the others recommended: the one bound to the device in the snapshot,
 * else one its running config enables, else the most specific match.
 */
static void match_devices(dctx *c, const rootdevs *rd, const kf_dotconfig *cfg)
{
	kf_detect *det = c->det;
	kf_aliasdb *db = c->o->aliases;
	size_t cap = 64, *idx = kf_xmalloc(cap * sizeof(size_t));
	for (size_t i = 0; i < det->ndevices; i++) {
		kf_device *dv = &det->devices[i];
		dv->boot = path_under(dv->path, rd);
		size_t n = kf_aliasdb_match(db, dv->modalias, idx, cap);
		if (n > cap) {
			cap = n;
			idx = kf_xrealloc(idx, cap * sizeof(size_t));
			n = kf_aliasdb_match(db, dv->modalias, idx, cap);
		}
		/* the bound driver's module among them, by module name or by
		   the name the driver registers (xhci_pci's "xhci_hcd"); when
		   no table that matched is the bound driver's (built-in
		   drivers export no aliases, tables kfit cannot read, a
		   fallback driver bound by its bus), its module is looked up
		   by that name and added */
		bool by_bound = false;
		if (dv->bound) {
			bool have = false;
			for (size_t k = 0; k < n && k < cap && !have; k++)
				have = is_bound_module(db, dv->bound, db->aliases[idx[k]].module);
			for (size_t k = 0; k < db->naliases && !have; k++) {
				const kf_alias *al = &db->aliases[k];
				if (!bound_alias(al, dv->bound, dv->modalias))
					continue;
				if (n >= cap) {
					cap = n + 16;
					idx = kf_xrealloc(idx, cap * sizeof(size_t));
				}
				idx[n++] = k;
				have = by_bound = true;
			}
		}
		const char **mods = kf_arena_alloc(c->a, (n + 1) * sizeof(char *));
		const char **syms = kf_arena_alloc(c->a, (n + 1) * sizeof(char *));
		cand *cs = kf_xcalloc(n + 1, sizeof(cand));
		size_t nm = 0;
		bool cpu = !strncmp(dv->modalias, "cpu:", 4);
		for (size_t k = 0; k < n; k++) {
			const kf_alias *al = &db->aliases[idx[k]];
			size_t j;
			for (j = 0; j < nm; j++)
				if (!strcmp(mods[j], al->module))
					break;
			bool src = al->origin == KF_ALIAS_SOURCE || al->origin == KF_ALIAS_DRVNAME ||
				   al->origin == KF_ALIAS_BUSTABLE || al->origin == KF_ALIAS_DRIVER;
			const kf_modinfo *mi = kf_aliasdb_module(db, al->module);
			const char *sym = src ? al->symbol : mi ? mi->symbol : NULL;
			int score = specificity(al->pattern);
			if (j < nm) {
				/* the same module again: keep the better alias (with a
				   symbol; without an #if condition) */
				if ((!cs[j].sym && sym) || (sym && cs[j].al->cond && !al->cond)) {
					cs[j].al = al;
					cs[j].sym = sym;
					cs[j].mk = src ? al->makefile : mi ? mi->makefile : NULL;
					cs[j].mkline = src ? al->mkline : mi ? mi->line : 0;
					syms[j] = sym;
				}
				if (score > cs[j].score % 1000)
					cs[j].score = cs[j].score - cs[j].score % 1000 + score;
				continue;
			}
			cs[nm] = (cand){al, mi, sym, src ? al->makefile : mi ? mi->makefile : NULL,
					src ? al->mkline : mi ? mi->line : 0, score};
			if (dv->bound && is_bound_module(db, dv->bound, al->module))
				cs[nm].score += 100000;
			if (cfg && sym) {
				const char *v = kf_dotconfig_get(cfg, sym);
				if (v && (!strcmp(v, "y") || !strcmp(v, "m")))
					cs[nm].score += 10000;
			}
			/* input handlers all attach at once and bind no driver;
			   userspace (libinput, X, Wayland) reads evdev */
			if (!strncmp(dv->modalias, "input:", 6) && !strcmp(al->module, "evdev"))
				cs[nm].score += 50000;
			mods[nm] = al->module;
			syms[nm] = sym;
			nm++;
		}
		dv->modules = mods;
		dv->symbols = syms;
		dv->nmodules = nm;
		if (!nm)
			det->unmatched++;
		/* the preferred candidate with a symbol */
		size_t best = (size_t)-1;
		for (size_t k = 0; k < nm; k++)
			if (cs[k].sym && (best == (size_t)-1 || cs[k].score > cs[best].score))
				best = k;
		for (size_t k = 0; k < nm; k++) {
			const cand *cd = &cs[k];
			if (!cd->sym)
				continue;
			const kf_alias *al = cd->al;
			const char *via = by_bound && bound_alias(al, dv->bound, dv->modalias)
						  ? " (the driver bound to it)"
					  : al->origin == KF_ALIAS_MODULES ? " (modules.alias)"
					  : al->origin == KF_ALIAS_BUILTIN ? " (modules.builtin.modinfo)"
					  : "";
			char *reason = kf_arena_printf(c->a, "%s → %s → CONFIG_%s (%s:%d)%s%s", dv->desc,
						       al->module, cd->sym, cd->mk ? cd->mk : "?",
						       cd->mkline, via,
						       k == best ? "" : " (another driver for it is required)");
			kf_hw_level lvl = cpu || k != best ? KF_HW_RECOMMEND : KF_HW_REQUIRE;
			kf_hwreq *h = hw_dev_add(c, dv, cd->sym, KF_HW_ENABLED, lvl, k == best && dv->boot,
						 reason);
			if (!h->device || (lvl == KF_HW_REQUIRE && h->level == KF_HW_REQUIRE &&
					   strstr(h->reason, "(another driver"))) {
				h->reason = reason;
				h->device = dv->path;
				h->module = al->module;
				h->makefile = cd->mk;
				h->line = cd->mkline;
				if (cd->mi) {
					h->firmware = (const char **)cd->mi->firmware;
					h->nfirmware = cd->mi->nfirmware;
				}
			}
			if (al->part_symbol && strcmp(al->part_symbol, cd->sym)) {
				char *r2 = kf_arena_printf(c->a, "%s → %s (the part of %s with its ID table) → CONFIG_%s",
							   dv->desc, al->file ? al->file : "?",
							   al->module, al->part_symbol);
				kf_hwreq *h2 = hw_dev_add(c, dv, al->part_symbol, KF_HW_ENABLED, lvl,
							  k == best && dv->boot, r2);
				if (!h2->device) {
					h2->device = dv->path;
					h2->module = al->module;
				}
			}
			cond_requirements(c, dv, cd, lvl, k == best && dv->boot);
		}
		free(cs);
	}
	free(idx);
}

/* Options foreign to the machine, recommended off before any device's
 * drivers are considered: a recommended driver (onboard_usb_dev for a
 * USB hub) must not drag OF=y into an ACPI PC; a required one still gets
 * what it needs (requirements come before recommendations). */
static void foreign_options(dctx *c, const char *cpuinfo)
{
	bool arm = cpuinfo && strstr(cpuinfo, "CPU implementer");
	if (arm || r_exists(c, "sys/firmware/devicetree") ||
	    !(c->det->has_dmi || r_exists(c, "sys/firmware/acpi")))
		return;
	hw_add(c, "OF", KF_HW_OFF, KF_HW_RECOMMEND, false,
	       "no device tree on this machine (DMI/ACPI firmware, no sys/firmware/devicetree): "
	       "OF would only add code nothing here uses");
}

static const char *fs_symbol(const char *fs)
{
	static const char *const m[][2] = {
		{"ext4", "EXT4_FS"}, {"ext3", "EXT4_FS"},  {"ext2", "EXT4_FS"},    {"xfs", "XFS_FS"},
		{"btrfs", "BTRFS_FS"}, {"f2fs", "F2FS_FS"}, {"jfs", "JFS_FS"},      {"zfs", NULL},
		{"bcachefs", "BCACHEFS_FS"}, {"virtiofs", "VIRTIO_FS"}, {"9p", "9P_FS"},
		{"overlay", "OVERLAY_FS"}, {"nfs", "NFS_FS"}, {"nfs4", "NFS_V4"},
		{"squashfs", "SQUASHFS"}, {"erofs", "EROFS_FS"}, {"tmpfs", "TMPFS"},
	};
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (!strcmp(m[i][0], fs))
			return m[i][1];
	return NULL;
}

static void fact_requirements(dctx *c, const char *cpuinfo)
{
	kf_detect *det = c->det;
	if (det->rootfs && fs_symbol(det->rootfs))
		hw_add(c, fs_symbol(det->rootfs), KF_HW_ENABLED, KF_HW_REQUIRE, true,
		       kf_arena_printf(c->a, "root filesystem / is %s on %s → CONFIG_%s", det->rootfs,
				       det->rootdev ? det->rootdev : "?", fs_symbol(det->rootfs)));
	for (size_t i = 0; i < det->nblockstack; i++) {
		const char *l = det->blockstack[i];
		const char *why = kf_arena_printf(c->a, "the root filesystem is on %s", l);
		if (!strcmp(l, "dm-crypt")) {
			hw_add(c, "BLK_DEV_DM", KF_HW_ENABLED, KF_HW_REQUIRE, true, why);
			hw_add(c, "DM_CRYPT", KF_HW_ENABLED, KF_HW_REQUIRE, true, why);
		} else if (!strcmp(l, "lvm") || !strcmp(l, "dm")) {
			hw_add(c, "BLK_DEV_DM", KF_HW_ENABLED, KF_HW_REQUIRE, true, why);
		} else if (!strncmp(l, "md-", 3)) {
			hw_add(c, "BLK_DEV_MD", KF_HW_ENABLED, KF_HW_REQUIRE, true, why);
			const char *lv = l + 3;
			if (!strcmp(lv, "raid1"))
				hw_add(c, "MD_RAID1", KF_HW_ENABLED, KF_HW_REQUIRE, true, why);
			else if (!strcmp(lv, "raid0"))
				hw_add(c, "MD_RAID0", KF_HW_ENABLED, KF_HW_REQUIRE, true, why);
			else if (!strcmp(lv, "raid10"))
				hw_add(c, "MD_RAID10", KF_HW_ENABLED, KF_HW_REQUIRE, true, why);
			else if (!strcmp(lv, "raid4") || !strcmp(lv, "raid5") || !strcmp(lv, "raid6"))
				hw_add(c, "MD_RAID456", KF_HW_ENABLED, KF_HW_REQUIRE, true, why);
		} else if (!strcmp(l, "sata")) {
			hw_add(c, "BLK_DEV_SD", KF_HW_ENABLED, KF_HW_REQUIRE, true,
			       "the root filesystem is on a SATA disk (sd)");
		} else if (!strcmp(l, "scsi") || !strcmp(l, "virtio-scsi") ||
			   !strcmp(l, "usb-storage") || !strcmp(l, "hyperv-storvsc")) {
			hw_add(c, "BLK_DEV_SD", KF_HW_ENABLED, KF_HW_REQUIRE, true,
			       kf_arena_printf(c->a, "the root filesystem is on a SCSI disk (%s)", l));
		}
	}
	if (det->ncpus > 1) {
		hw_add(c, "SMP", KF_HW_BUILTIN, KF_HW_REQUIRE, false,
		       kf_arena_printf(c->a, "%d CPUs (sys/devices/system/cpu/possible): without SMP "
					     "the kernel runs on one",
				       det->ncpus));
		kf_hwreq *h = hw_add(c, "NR_CPUS", KF_HW_AT_LEAST, KF_HW_REQUIRE, false,
				     kf_arena_printf(c->a, "%d CPUs: NR_CPUS below that leaves CPUs "
							   "unused",
						     det->ncpus));
		h->min = det->ncpus;
	}
	if (det->console) {
		const char *con = det->console;
		char *why = kf_arena_printf(c->a, "console=%s on the kernel command line", con);
		if (!strncmp(con, "ttyS", 4)) {
			hw_add(c, "SERIAL_8250", KF_HW_BUILTIN, KF_HW_REQUIRE, false, why);
			hw_add(c, "SERIAL_8250_CONSOLE", KF_HW_BUILTIN, KF_HW_REQUIRE, false, why);
		} else if (!strncmp(con, "ttyAMA", 6)) {
			hw_add(c, "SERIAL_AMBA_PL011", KF_HW_BUILTIN, KF_HW_REQUIRE, false, why);
			hw_add(c, "SERIAL_AMBA_PL011_CONSOLE", KF_HW_BUILTIN, KF_HW_REQUIRE, false, why);
		} else if (!strncmp(con, "hvc", 3)) {
			bool xen = det->virt && !strcmp(det->virt, "xen");
			hw_add(c, xen ? "HVC_XEN" : "VIRTIO_CONSOLE", KF_HW_BUILTIN, KF_HW_REQUIRE, false,
			       why);
		} else if (!strncmp(con, "tty", 3) && isdigit((unsigned char)con[3])) {
			hw_add(c, "VT", KF_HW_BUILTIN, KF_HW_REQUIRE, false, why);
			hw_add(c, "VT_CONSOLE", KF_HW_BUILTIN, KF_HW_REQUIRE, false, why);
		}
	}
	if (det->cpu_vendor) {
		bool metal = det->virt && !strcmp(det->virt, "none");
		const char *v = det->cpu_vendor;
		char *why = kf_arena_printf(c->a, "CPU vendor %s family %d (proc/cpuinfo)", v,
					    det->cpu_family);
		if (!strcmp(v, "GenuineIntel")) {
			hw_add(c, "CPU_SUP_INTEL", KF_HW_BUILTIN, KF_HW_REQUIRE, false, why);
			if (metal) {
				hw_add(c, "MICROCODE", KF_HW_BUILTIN, KF_HW_RECOMMEND, false, why);
				hw_add(c, "X86_INTEL_PSTATE", KF_HW_BUILTIN, KF_HW_RECOMMEND, false, why);
				hw_add(c, "INTEL_IDLE", KF_HW_BUILTIN, KF_HW_RECOMMEND, false, why);
			}
		} else if (!strcmp(v, "AuthenticAMD") || !strcmp(v, "HygonGenuine")) {
			hw_add(c, !strcmp(v, "AuthenticAMD") ? "CPU_SUP_AMD" : "CPU_SUP_HYGON",
			       KF_HW_BUILTIN, KF_HW_REQUIRE, false, why);
			if (metal) {
				hw_add(c, "MICROCODE", KF_HW_BUILTIN, KF_HW_RECOMMEND, false, why);
				hw_add(c, "X86_AMD_PSTATE", KF_HW_BUILTIN, KF_HW_RECOMMEND, false, why);
			}
		} else if (!strcmp(v, "CentaurHauls")) {
			hw_add(c, "CPU_SUP_CENTAUR", KF_HW_BUILTIN, KF_HW_REQUIRE, false, why);
		}
		if (has_cpu_flag(cpuinfo, "lm"))
			hw_add(c, "64BIT", KF_HW_BUILTIN, KF_HW_RECOMMEND, false,
			       "the CPU has long mode (lm in proc/cpuinfo flags)");
	}
	/* firmware of built-in drivers without an initramfs */
	for (size_t i = 0; i < det->nhw; i++) {
		kf_hwreq *h = &det->hw[i];
		if (!h->nfirmware)
			continue;
		if (det->initramfs == PROF_INITRAMFS_NO && h->boot)
			h->firmware_note = kf_arena_printf(
				c->a, "%s is boot-critical and built in without an initramfs: "
				      "put its firmware (%s%s) in EXTRA_FIRMWARE",
				h->module, h->firmware[0], h->nfirmware > 1 ? ", ..." : "");
		else
			h->firmware_note = kf_arena_printf(
				c->a, "%s loads firmware (%s%s) from /lib/firmware: build it as a "
				      "module, or built in add the files to EXTRA_FIRMWARE",
				h->module, h->firmware[0], h->nfirmware > 1 ? ", ..." : "");
	}
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

static void detect_cpu(dctx *c, const char *cpuinfo)
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
	char *poss = r_read(c, "sys/devices/system/cpu/possible");
	if (poss)
		det->ncpus = count_cpulist(poss);
	else if (cpuinfo)
		for (const char *p = cpuinfo; (p = strstr(p, "processor")) != NULL; p++)
			if (p == cpuinfo || p[-1] == '\n')
				det->ncpus++;
	char *cmd = r_read(c, "proc/cmdline");
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

kf_detect *kf_detect_run(const kf_detect_opts *o, kf_diags *d)
{
	const char *root = o->root ? o->root : "/";
	if (!kf_is_dir(root)) {
		kf_diag_add(d, KF_ERROR, root, 0, 0, "not a directory");
		return NULL;
	}
	kf_detect *det = kf_xcalloc(1, sizeof(*det));
	det->arena = kf_arena_new();
	dctx c = {o, det, det->arena, d};
	char *probe = root_path(&c, "proc/cpuinfo"), *probe2 = root_path(&c, "sys/devices");
	if (!kf_exists(probe) && !kf_exists(probe2)) {
		kf_diag_add(d, KF_ERROR, root, 0, 0,
			    "neither proc/cpuinfo nor sys/devices: not a machine or snapshot");
		free(probe);
		free(probe2);
		kf_detect_free(det);
		return NULL;
	}
	free(probe);
	free(probe2);
	det->kernel_release = r_read(&c, "proc/sys/kernel/osrelease");
	if (r_regular(&c, "proc/config.gz"))
		det->running_config = "proc/config.gz";
	else if (det->kernel_release) {
		char *p = kf_arena_printf(c.a, "boot/config-%s", det->kernel_release);
		if (r_regular(&c, p))
			det->running_config = p;
	}
	char *cpuinfo = r_read(&c, "proc/cpuinfo");
	detect_os(&c);
	if (det->distro)
		add_profile(&c, det->distro, PROF_KIND_DISTRO,
			    det->distro_note ? det->distro_note
					     : kf_arena_printf(c.a, "etc/os-release ID=%s VERSION_ID=%s",
							       det->os_id,
							       det->os_version ? det->os_version : "-"));
	else if (det->os_id && strcmp(det->os_id, "gentoo"))
		kf_diag_add(d, KF_WARNING, NULL, 0, 0,
			    "distribution '%s' version '%s' has no profile; none chosen", det->os_id,
			    det->os_version ? det->os_version : "-");
	detect_init(&c);
	if (det->os_id && !strcmp(det->os_id, "gentoo")) {
		det->distro = det->init && !strcmp(det->init, "openrc") ? "gentoo-openrc"
									: "gentoo-systemd";
		add_profile(&c, det->distro, PROF_KIND_DISTRO,
			    kf_arena_printf(c.a, "etc/os-release ID=gentoo with %s",
					    det->init ? det->init : "no known init"));
	}
	detect_security(&c);
	detect_initramfs(&c);
	rootdevs rd = {NULL, 0};
	detect_root(&c, &rd);
	walk_devices(&c, "sys/devices", 0);
	detect_cpu(&c, cpuinfo);
	detect_virt(&c, cpuinfo);
	detect_platform(&c, cpuinfo);
	detect_features(&c);
	if (o->aliases && o->use_modules_alias && det->kernel_release) {
		char *ma = kf_arena_printf(c.a, "lib/modules/%s/modules.alias", det->kernel_release);
		char *mb = kf_arena_printf(c.a, "lib/modules/%s/modules.builtin.modinfo",
					   det->kernel_release);
		char *p = root_path(&c, ma);
		if (kf_root_regular(p))
			kf_aliasdb_add_modules_alias(o->aliases, p, d);
		free(p);
		p = root_path(&c, mb);
		if (kf_root_regular(p))
			kf_aliasdb_add_builtin_modinfo(o->aliases, p, d);
		free(p);
	}
	if (o->aliases) {
		kf_dotconfig *cfg = NULL;
		if (det->running_config) {
			char *p = root_path(&c, det->running_config);
			kf_diags ignore = KF_DIAGS_INIT;
			cfg = kf_root_regular(p) ? kf_dotconfig_load(p, &ignore) : NULL;
			kf_diags_release(&ignore);
			free(p);
		}
		foreign_options(&c, cpuinfo);
		match_devices(&c, &rd, cfg);
		if (cfg)
			kf_dotconfig_free(cfg);
	}
	fact_requirements(&c, cpuinfo);
	for (size_t i = 0; i < rd.n; i++)
		free(rd.v[i]);
	free(rd.v);
	return det;
}

void kf_detect_free(kf_detect *det)
{
	if (!det)
		return;
	free(det->profiles);
	free(det->devices);
	free(det->hw);
	free(det->blockstack);
	kf_arena_free(det->arena);
	free(det);
}

const char *kf_hw_want_name(kf_hw_want w)
{
	switch (w) {
	case KF_HW_ENABLED:
		return "enabled";
	case KF_HW_BUILTIN:
		return "builtin";
	case KF_HW_AT_LEAST:
		return "at-least";
	case KF_HW_OFF:
		return "off";
	}
	return "?";
}

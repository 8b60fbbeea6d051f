/*
 * detect.c - unit tests for lib/detect*.c on a tiny hand-written kernel
 * tree and machine root in a temp dir: Makefile symbols (direct, composite,
 * composite part, directory gate), device tables through local and header
 * macros (PCI_VDEVICE, ## pasting, #undef/redefinition by position, enum
 * constants), exported tables only, MODULE_ALIAS/MODULE_FIRMWARE, platform
 * driver names, the cache round trip, fnmatch matching; and detection of a
 * derivative distro (ID_LIKE), chassis, console, CPU and a dm-crypt root;
 * the bound-driver questions, indexed and by the whole list.
 *
 * Prints "ok NAME" / "not ok NAME" (+ "  ..." detail lines) per case.
 */
#include "kfit/detect.h"
#include "detect_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

static void check(bool ok, const char *name, const char *detail)
{
	if (ok) {
		printf("ok %s\n", name);
	} else {
		printf("not ok %s\n  %s\n", name, detail ? detail : "");
		failures++;
	}
}

static void put(const char *root, const char *rel, const char *text)
{
	char *p = kf_xasprintf("%s/%s", root, rel);
	char *dir = kf_xstrdup(p);
	*strrchr(dir, '/') = 0;
	kf_mkdir_p(dir, 0755);
	FILE *f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(dir);
	free(p);
}

static void link_to(const char *root, const char *rel, const char *target)
{
	char *p = kf_xasprintf("%s/%s", root, rel);
	char *dir = kf_xstrdup(p);
	*strrchr(dir, '/') = 0;
	kf_mkdir_p(dir, 0755);
	if (symlink(target, p) != 0)
		perror(p);
	free(dir);
	free(p);
}

static void make_tree(const char *t)
{
	put(t, "Makefile", "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 7\nEXTRAVERSION =\n");
	put(t, "Kconfig", "");
	put(t, "scripts/kconfig/.keep", "");
	put(t, "include/linux/mod_devicetable.h",
	    "#define PCI_ANY_ID (~0)\n#define VIRTIO_DEV_ANY_ID 0xffffffff\n");
	put(t, "include/linux/pci.h",
	    "#define PCI_DEVICE(vend,dev) \\\n"
	    "\t.vendor = (vend), .device = (dev), \\\n"
	    "\t.subvendor = PCI_ANY_ID, .subdevice = PCI_ANY_ID\n"
	    "#define PCI_VDEVICE(vend, dev) \\\n"
	    "\t.vendor = PCI_VENDOR_ID_##vend, .device = (dev), \\\n"
	    "\t.subvendor = PCI_ANY_ID, .subdevice = PCI_ANY_ID, 0, 0\n");
	put(t, "include/linux/pci_ids.h", "#define PCI_VENDOR_ID_INTEL\t\t0x8086\n");
	put(t, "include/uapi/linux/virtio_ids.h", "#define VIRTIO_ID_NET 1 /* virtio net */\n");
	put(t, "drivers/Makefile", "obj-$(CONFIG_NET)\t+= net/\n");
	put(t, "drivers/net/Makefile",
	    "# composite module foo\n"
	    "obj-$(CONFIG_FOO) += foo.o\n"
	    "foo-y := foo_main.o \\\n\tfoo_hw.o\n"
	    "foo-$(CONFIG_FOO_VIRTIO) += foo_virtio.o\n"
	    "obj-y += bar.o\n");
	put(t, "drivers/net/foo_hw.h", "#define FOO_ID_A 0x15d7\n");
	put(t, "drivers/net/foo_main.c",
	    "#include <linux/pci.h>\n#include \"foo_hw.h\"\n"
	    "/* a comment with struct pci_device_id x[] = { */\n"
	    "enum { FOO_ID_B = 0x1500, FOO_ID_C };\n"
	    "#define FOO_DEV(id) { PCI_VDEVICE(INTEL, id) }\n"
	    "static const struct pci_device_id foo_ids[] = {\n"
	    "\tFOO_DEV(FOO_ID_A),\n"
	    "\tFOO_DEV(FOO_ID_C),\n"
	    "\t{ PCI_DEVICE(0x10ec, 0x8168), .class = 0x020000, .class_mask = 0xffff00 },\n"
	    "\t{ }\n};\nMODULE_DEVICE_TABLE(pci, foo_ids);\n"
	    "static const struct pci_device_id not_exported[] = {\n"
	    "\t{ PCI_DEVICE(PCI_ANY_ID, PCI_ANY_ID) },\n\t{ }\n};\n"
	    "MODULE_FIRMWARE(\"foo/\" \"fw.bin\");\n"
	    "MODULE_ALIAS(\"foo-legacy\");\n");
	put(t, "drivers/net/foo_virtio.c",
	    "#define ENTRY(x) { x, 1 }\n"
	    "#undef ENTRY\n"
	    "#define ENTRY(x) { x, VIRTIO_DEV_ANY_ID }\n"
	    "static const struct virtio_device_id id_table[] = {\n"
	    "\tENTRY(VIRTIO_ID_NET),\n\t{ 0 },\n};\n"
	    "MODULE_DEVICE_TABLE(virtio, id_table);\n"
	    "#undef ENTRY\n");
	put(t, "drivers/net/bar.c",
	    "#define DRV_NAME \"bar-plat\"\n"
	    "static const struct acpi_device_id bar_acpi[] = {\n"
	    "\t{\"ABCD0001\", 0},\n\t{ }\n};\nMODULE_DEVICE_TABLE(acpi, bar_acpi);\n"
	    "static struct platform_driver bar_driver = {\n"
	    "\t.probe = bar_probe,\n\t.driver = {\n\t\t.name = DRV_NAME,\n\t},\n};\n");
}

static const kf_alias *find_alias(const kf_aliasdb *db, const char *pattern)
{
	for (size_t i = 0; i < db->naliases; i++)
		if (!strcmp(db->aliases[i].pattern, pattern))
			return &db->aliases[i];
	return NULL;
}

static void check_alias(const kf_aliasdb *db, const char *name, const char *pattern,
			const char *module, const char *symbol, const char *part)
{
	const kf_alias *a = find_alias(db, pattern);
	char buf[512];
	if (!a) {
		snprintf(buf, sizeof(buf), "no alias %s", pattern);
		check(false, name, buf);
		return;
	}
	bool ok = !strcmp(a->module, module) && ((!symbol && !a->symbol) ||
						  (symbol && a->symbol && !strcmp(a->symbol, symbol))) &&
		  ((!part && !a->part_symbol) || (part && a->part_symbol && !strcmp(a->part_symbol, part)));
	snprintf(buf, sizeof(buf), "%s: module %s symbol %s part %s", pattern, a->module,
		 a->symbol ? a->symbol : "-", a->part_symbol ? a->part_symbol : "-");
	check(ok, name, buf);
}

static void tree_tests(const char *t, const char *cache)
{
	kf_diags d = KF_DIAGS_INIT;
	setenv("KFIT_CACHE_DIR", cache, 1);
	for (int round = 0; round < 2; round++) {
		kf_aliasdb *db = kf_aliasdb_new();
		int rc = kf_aliasdb_scan_tree(db, t, "x86", true, NULL, NULL, &d);
		char name[64];
		snprintf(name, sizeof(name), "scan-%s", round ? "cached" : "fresh");
		check(rc == 0, name, d.n ? d.v[0].msg : "");
		const char *sfx = round ? "-cached" : "";
#define N(x) (snprintf(name, sizeof(name), "%s%s", x, sfx), name)
		check_alias(db, N("pci-vdevice-paste-header-define"),
			    "pci:v00008086d000015D7sv*sd*bc*sc*i*", "foo", "FOO", NULL);
		check_alias(db, N("pci-enum-constant"), "pci:v00008086d00001501sv*sd*bc*sc*i*",
			    "foo", "FOO", NULL);
		check_alias(db, N("pci-class-mask"), "pci:v000010ECd00008168sv*sd*bc02sc00i*", "foo",
			    "FOO", NULL);
		check_alias(db, N("virtio-part-symbol-undef-redefine"), "virtio:d00000001v*", "foo",
			    "FOO", "FOO_VIRTIO");
		check_alias(db, N("module-alias"), "foo-legacy", "foo", "FOO", NULL);
		check_alias(db, N("acpi-dir-gate"), "acpi*:ABCD0001:*", "bar", "NET", NULL);
		check_alias(db, N("platform-driver-name"), "platform:bar-plat", "bar", "NET", NULL);
		check(!find_alias(db, "pci:v*d*sv*sd*bc*sc*i*"), N("unexported-table-ignored"), NULL);
		const kf_modinfo *m = kf_aliasdb_module(db, "foo");
		check(m && m->symbol && !strcmp(m->symbol, "FOO") && m->line == 2 && m->makefile &&
			      !strcmp(m->makefile, "drivers/net/Makefile"),
		      N("module-makefile-line"), m && m->makefile ? m->makefile : "no module");
		check(m && m->nfirmware == 1 && !strcmp(m->firmware[0], "foo/fw.bin"),
		      N("module-firmware-concatenated"), NULL);
		size_t idx[8];
		size_t n = kf_aliasdb_match(db, "pci:v00008086d000015D7sv000017AAsd00002001bc02sc00i00",
					    idx, 8);
		check(n == 1 && !strcmp(db->aliases[idx[0]].module, "foo"), N("match-fnmatch"), NULL);
		n = kf_aliasdb_match(db, "pci:v00008086d00009999sv00000000sd00000000bc02sc00i00", idx, 8);
		check(n == 0, N("match-none"), NULL);
#undef N
		kf_aliasdb_free(db);
	}
	kf_diags_release(&d);
}

static void machine_tests(const char *r, const char *t)
{
	put(r, "etc/os-release",
	    "NAME=\"Linux Mint\"\nID=linuxmint\nID_LIKE=\"ubuntu debian\"\nVERSION_ID=\"22\"\n"
	    "UBUNTU_CODENAME=noble\n");
	put(r, "proc/cpuinfo",
	    "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nflags\t\t: fpu lm\n\n"
	    "processor\t: 1\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nflags\t\t: fpu lm\n");
	put(r, "proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/mapper/root console=ttyS0,115200 console=tty0 -- console=ttyS9\n");
	put(r, "proc/mounts", "/dev/mapper/root / ext4 rw 0 0\n");
	put(r, "proc/1/comm", "systemd\n");
	put(r, "usr/lib/systemd/libsystemd-shared-256.so", "");
	put(r, "usr/bin/podman", "");
	put(r, "sys/class/dmi/id/sys_vendor", "LENOVO\n");
	put(r, "sys/class/dmi/id/chassis_type", "10\n");
	put(r, "sys/devices/system/cpu/possible", "0-3\n");
	put(r, "sys/devices/virtual/block/dm-0/dm/uuid", "CRYPT-LUKS2-abc-root\n");
	put(r, "sys/devices/virtual/block/dm-0/dm/name", "root\n");
	link_to(r, "sys/devices/virtual/block/dm-0/slaves/nvme0n1p2", "../../../../pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/nvme0n1/nvme0n1p2");
	link_to(r, "sys/class/block/dm-0", "../../devices/virtual/block/dm-0");
	link_to(r, "sys/class/block/nvme0n1p2", "../../devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/nvme0n1/nvme0n1p2");
	put(r, "sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/nvme0n1/nvme0n1p2/dev", "259:2\n");
	put(r, "sys/devices/pci0000:00/0000:00:1f.6/modalias",
	    "pci:v00008086d000015D7sv000017AAsd00002001bc02sc00i00\n");
	kf_diags d = KF_DIAGS_INIT;
	kf_aliasdb *db = kf_aliasdb_new();
	kf_aliasdb_scan_tree(db, t, "x86", true, NULL, NULL, &d);
	kf_detect_opts o = {r, db, NULL, true};
	kf_detect *det = kf_detect_run(&o, &d);
	check(det != NULL, "detect-runs", d.n ? d.v[0].msg : "");
	if (!det)
		return;
	check(det->distro && !strcmp(det->distro, "ubuntu-24.04") && det->distro_note,
	      "distro-id-like-ubuntu-codename", det->distro ? det->distro : "null");
	check(det->systemd_version == 256, "systemd-version", NULL);
	check(det->chassis && !strcmp(det->chassis, "laptop"), "chassis-laptop", det->virt);
	check(det->console && !strcmp(det->console, "tty0"), "console-last-before-dashes",
	      det->console);
	check(det->ncpus == 4, "cpus-possible", NULL);
	check(det->nblockstack == 2 && !strcmp(det->blockstack[0], "dm-crypt") &&
		      !strcmp(det->blockstack[1], "nvme"),
	      "blockstack-dm-crypt-nvme", det->nblockstack ? det->blockstack[0] : "none");
	bool e1000 = false, dm = false, vt = false, fs = false;
	for (size_t i = 0; i < det->nhw; i++) {
		const kf_hwreq *h = &det->hw[i];
		if (!strcmp(h->symbol, "FOO"))
			e1000 = !strcmp(h->reason, "PCI 8086:15d7 (Ethernet) → foo → CONFIG_FOO "
						   "(drivers/net/Makefile:2)");
		if (!strcmp(h->symbol, "DM_CRYPT"))
			dm = h->boot;
		if (!strcmp(h->symbol, "VT_CONSOLE"))
			vt = h->want == KF_HW_BUILTIN;
		if (!strcmp(h->symbol, "EXT4_FS"))
			fs = h->boot;
	}
	check(e1000, "hwreq-reason-names-device", NULL);
	check(dm && fs, "hwreq-boot-root-stack", NULL);
	check(vt, "hwreq-console-builtin", NULL);
	bool podman = false, lvm = false;
	for (size_t i = 0; i < det->nprofiles; i++) {
		podman |= !strcmp(det->profiles[i].name, "podman");
		lvm |= !strcmp(det->profiles[i].name, "lvm-luks");
	}
	check(podman && lvm, "feature-profiles", NULL);
	kf_detect_free(det);
	kf_aliasdb_free(db);
	kf_diags_release(&d);
}

/* One small machine per rule: files to write and what detect must say. */
struct rcase {
	const char *name;     /* test name */
	const char *files[8]; /* "path=content" pairs */
	const char *distro;   /* expected distro profile, or NULL */
	const char *virt;     /* expected virtualization */
	const char *cloud;    /* expected cloud, or NULL */
	const char *init;     /* expected init profile or NULL */
	int initramfs;        /* expected prof_initramfs */
};

static const struct rcase rules[] = {
	{"wsl2", {"proc/version=Linux version 5.15.153.1-microsoft-standard-WSL2 (root@1c602f52c2e4)",
		  "proc/cpuinfo=flags\t: fpu hypervisor", "etc/os-release=ID=ubuntu\nVERSION_ID=\"24.04\""},
	 "ubuntu-24.04", "wsl2", NULL, NULL, PROF_INITRAMFS_UNKNOWN},
	{"xen-hypervisor-type", {"sys/hypervisor/type=xen", "proc/cpuinfo=flags\t: fpu hypervisor",
				 "etc/os-release=ID=debian\nVERSION_CODENAME=trixie"},
	 "debian-13", "xen", NULL, NULL, PROF_INITRAMFS_UNKNOWN},
	{"vmware-pci-vendor", {"sys/devices/pci0000:00/0000:00:0f.0/modalias=pci:v000015ADd00000405sv000015ADsd00000405bc03sc00i00",
			       "proc/cpuinfo=flags\t: fpu hypervisor", "etc/os-release=ID=fedora\nVERSION_ID=43"},
	 "fedora-43", "vmware", NULL, NULL, PROF_INITRAMFS_UNKNOWN},
	{"rocky-like-rhel", {"etc/os-release=ID=\"rocky\"\nID_LIKE=\"rhel centos fedora\"\nVERSION_ID=\"9.4\"",
			     "proc/cpuinfo=flags\t: fpu"},
	 "centos-stream-9", "none", NULL, NULL, PROF_INITRAMFS_UNKNOWN},
	{"alpine-openrc-no-initramfs", {"etc/os-release=ID=alpine\nVERSION_ID=3.19.1", "sbin/openrc=",
					"proc/cpuinfo=flags\t: fpu", "proc/sys/kernel/osrelease=6.6.1-0-lts",
					"boot/vmlinuz-lts="},
	 "alpine-3.19", "none", NULL, "openrc", PROF_INITRAMFS_NO},
	{"gentoo-openrc", {"etc/os-release=ID=gentoo", "sbin/openrc=", "proc/cpuinfo=flags\t: fpu"},
	 "gentoo-openrc", "none", NULL, "openrc", PROF_INITRAMFS_UNKNOWN},
	{"azure", {"sys/class/dmi/id/sys_vendor=Microsoft Corporation",
		   "sys/class/dmi/id/product_name=Virtual Machine",
		   "sys/class/dmi/id/chassis_asset_tag=7783-7084-3265-9085-8269-3286-77",
		   "proc/cpuinfo=flags\t: fpu hypervisor", "proc/cmdline=initrd=\\initrd.img root=/dev/sda1"},
	 NULL, "hyperv", "azure", NULL, PROF_INITRAMFS_YES},
	{"microvm-virtio-mmio", {"sys/devices/platform/virtio-mmio.0/modalias=platform:virtio-mmio",
				 "sys/devices/platform/virtio-mmio.0/virtio0/modalias=virtio:d00000002v554D4551",
				 "proc/cpuinfo=flags\t: fpu hypervisor",
				 "proc/cmdline=console=ttyS0 virtio_mmio.device=4K@0xd0000000:5 root=/dev/vda"},
	 NULL, "firecracker", NULL, NULL, PROF_INITRAMFS_UNKNOWN},
	{"nixos-systemd", {"etc/os-release=ID=nixos\nVERSION_ID=\"24.05\"", "proc/1/comm=systemd",
			   "run/current-system/sw/lib/systemd/libsystemd-shared-255.so=", "proc/cpuinfo=flags\t: fpu"},
	 "nixos-24.05", "none", NULL, "systemd-255", PROF_INITRAMFS_UNKNOWN},
	{"virtualbox", {"sys/class/dmi/id/sys_vendor=innotek GmbH", "sys/class/dmi/id/product_name=VirtualBox",
			"proc/cpuinfo=flags\t: fpu hypervisor"},
	 NULL, "virtualbox", NULL, NULL, PROF_INITRAMFS_UNKNOWN},
};

/* Unescape \n and \t in fixture text. */
static char *unescape(const char *s)
{
	char *o = kf_xmalloc(strlen(s) + 1), *p = o;
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] == 'n') {
			*p++ = '\n';
			s++;
		} else if (s[0] == '\\' && s[1] == 't') {
			*p++ = '\t';
			s++;
		} else {
			*p++ = *s;
		}
	}
	*p = 0;
	return o;
}

static bool str_is(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void rule_tests(const char *base)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct rcase *rc = &rules[i];
		char *r = kf_xasprintf("%s/rule-%zu", base, i);
		for (int k = 0; k < 8 && rc->files[k]; k++) {
			char *f = kf_xstrdup(rc->files[k]);
			char *eq = strchr(f, '=');
			*eq = 0;
			char *text = unescape(eq + 1);
			char *t2 = kf_xasprintf("%s\n", text);
			put(r, f, t2);
			free(t2);
			free(text);
			free(f);
		}
		kf_diags d = KF_DIAGS_INIT;
		kf_detect_opts o = {r, NULL, NULL, false};
		kf_detect *det = kf_detect_run(&o, &d);
		char buf[512];
		const char *init = NULL;
		for (size_t k = 0; det && k < det->nprofiles; k++)
			if (det->profiles[k].kind == PROF_KIND_INIT)
				init = det->profiles[k].name;
		snprintf(buf, sizeof(buf), "distro %s virt %s cloud %s init %s initramfs %d",
			 det && det->distro ? det->distro : "-", det && det->virt ? det->virt : "-",
			 det && det->cloud ? det->cloud : "-", init ? init : "-",
			 det ? det->initramfs : -9);
		check(det && str_is(det->distro, rc->distro) && str_is(det->virt, rc->virt) &&
			      str_is(det->cloud, rc->cloud) && str_is(init, rc->init) &&
			      det->initramfs == rc->initramfs,
		      rc->name, buf);
		kf_detect_free(det);
		kf_diags_release(&d);
		free(r);
	}
}

/* iptables as a symlink to xtables-nft-multi (Arch, no alternatives). */
static void firewall_tests(const char *base)
{
	char *r = kf_xasprintf("%s/fw", base);
	put(r, "proc/cpuinfo", "flags\t: fpu\n");
	put(r, "usr/bin/xtables-nft-multi", "");
	link_to(r, "usr/bin/iptables", "xtables-nft-multi");
	kf_diags d = KF_DIAGS_INIT;
	kf_detect_opts o = {r, NULL, NULL, false};
	kf_detect *det = kf_detect_run(&o, &d);
	check(det && det->firewall && !strcmp(det->firewall, "iptables-nft"), "firewall-iptables-symlink",
	      det && det->firewall ? det->firewall : "none");
	kf_detect_free(det);
	kf_diags_release(&d);
	free(r);
}

/* The bound-driver questions on a hand-made database: the indexed answer,
 * the answer of the whole list in database order, and the expected one. */
static const struct {
	const char *pattern, *module;
	kf_alias_origin origin;
} bound_db[] = {
	{"pci:v00008086d00001E31sv*sd*bc*sc*i*", "xhci_pci", KF_ALIAS_SOURCE},   /* 0 */
	{"driver:xhci_hcd", "xhci_pci", KF_ALIAS_DRIVER},                        /* 1 */
	{"usb:v*p*d*dc*dsc*dp*ic09isc*ip*in*", "usbcore", KF_ALIAS_SOURCE},      /* 2 */
	{"platform:serial8250", "8250", KF_ALIAS_DRVNAME},                       /* 3 */
	{"pci:v*d*sv*sd*bc07sc00i*", "8250_pci", KF_ALIAS_SOURCE},               /* 4 */
	{"driver:xhci_hcd", "xhci_plat_hcd", KF_ALIAS_DRIVER},                   /* 5 */
	{"acpi*:PNP0501:*", "8250_pnp", KF_ALIAS_SOURCE},                        /* 6 */
	{"pci:v000010ECd00008168sv*sd*bc*sc*i*", "r8169", KF_ALIAS_SOURCE},      /* 7 */
	{"pci:v*d*sv*sd*bc0Csc03i30", "xhci-pci", KF_ALIAS_SOURCE},              /* 8 */
	{"driver:xhci-hcd", "xhci_pci", KF_ALIAS_MODULES},                       /* 9: no name */
	{"platform:ahci", "ahci_platform", KF_ALIAS_DRVNAME},                    /* 10 */
	{"driver:ahci", "ahci_platform", KF_ALIAS_DRIVER},                       /* 11 */
	{"of:N*T*Csnps,spear-ahci", "ahci_platform", KF_ALIAS_SOURCE},           /* 12 */
	{"driver:ahci", "ahci", KF_ALIAS_DRIVER},                                /* 13 */
	{"pci:v*d*sv*sd*bc01sc06i01*", "ahci", KF_ALIAS_SOURCE},                 /* 14 */
	{"driver:kf_unread", "kf_unread", KF_ALIAS_DRIVER},                      /* 15 */
};
static const struct {
	const char *name, *bound, *modalias;
	size_t first; /* SIZE_MAX: none */
} bound_cases[] = {
	{"bound-by-driver-name", "xhci_hcd", "pci:v00001B21d00001242sv0sd0bc0Csc03i30", 1},
	{"bound-driver-name-dash", "xhci-hcd", "pci:v00008086d00001E31sv0sd0bc0Csc03i30", 1},
	/* a name-only match keeps to the device's bus: ahci_platform's
	   platform driver is "ahci" too, its aliases are of other buses */
	{"bound-name-pci-not-platform", "ahci", "pci:v00001022d000043F6sv0sd0bc01sc06i01", 13},
	{"bound-name-platform-only", "serial8250", "pci:v00001415d0000C158sv0sd0bc07sc00i02",
	 SIZE_MAX},
	/* not xhci_pci (its aliases are PCI ones): xhci_plat_hcd, whose
	   bus this database does not show */
	{"bound-name-usb-skips-pci-module", "xhci_hcd", "usb:v1D6Bp0003", 5},
	/* a module with only driver names (tables not read): its bus unknown */
	{"bound-name-bus-unknown", "kf_unread", "pci:v00001234d00005678sv0sd0bc02sc00i00", 15},
	{"bound-name-platform-device", "ahci", "of:NsataT(null)Csnps,spear-ahci", 10},
	{"bound-by-module-on-bus", "r8169", "pci:v000010ECd00008125sv0sd0bc02sc00i00", 7},
	{"bound-module-other-bus", "r8169", "usb:v0BDAp8153", SIZE_MAX},
	{"bound-module-dash-underscore", "xhci_pci", "pci:v00008086d0000A36Dsv0sd0bc0Csc03i30", 0},
	{"bound-platform-name", "serial8250", "platform:serial8250", 3},
	{"bound-no-colon", "r8169", "r8169", SIZE_MAX},
	{"bound-wildcard-bus-not-literal", "8250_pnp", "acpi:PNP0501:", SIZE_MAX},
	{"bound-unknown", "nouveau", "pci:v000010DEd00001C82sv0sd0bc03sc00i00", SIZE_MAX},
};
static const struct {
	const char *name, *module, *bound;
	bool drives;
} drives_cases[] = {
	{"drives-named", "xhci_pci", "xhci_hcd", true},
	{"drives-second-module", "xhci_plat_hcd", "xhci-hcd", true},
	{"drives-module-exact", "xhci-pci", "xhci_hcd", false},
	{"drives-modules-alias-not-a-name", "usbcore", "xhci_hcd", false},
	{"drives-platform", "8250", "serial8250", true},
	{"drives-other-driver", "8250", "xhci_hcd", false},
};

static void bound_tests(void)
{
	kf_aliasdb *db = kf_aliasdb_new();
	for (size_t i = 0; i < sizeof(bound_db) / sizeof(bound_db[0]); i++)
		kf_aliasdb_add(db, bound_db[i].pattern, bound_db[i].module, NULL, NULL, 0,
			       bound_db[i].origin);
	/* the same aliases in a database without an index: the whole list */
	kf_aliasdb lin = *db;
	lin.index = NULL;
	char buf[160];
	for (size_t i = 0; i < sizeof(bound_cases) / sizeof(bound_cases[0]); i++) {
		size_t got = kf_aliasdb_bound_alias(db, bound_cases[i].bound, bound_cases[i].modalias);
		size_t ref = kf_aliasdb_bound_alias(&lin, bound_cases[i].bound,
						    bound_cases[i].modalias);
		snprintf(buf, sizeof(buf), "indexed %zd, whole list %zd, expected %zd", (ssize_t)got,
			 (ssize_t)ref, (ssize_t)bound_cases[i].first);
		check(got == bound_cases[i].first && ref == got, bound_cases[i].name, buf);
	}
	for (size_t i = 0; i < sizeof(drives_cases) / sizeof(drives_cases[0]); i++) {
		bool got = kf_aliasdb_module_drives(db, drives_cases[i].module, drives_cases[i].bound);
		bool ref = kf_aliasdb_module_drives(&lin, drives_cases[i].module,
						    drives_cases[i].bound);
		snprintf(buf, sizeof(buf), "indexed %d, whole list %d, expected %d", got, ref,
			 drives_cases[i].drives);
		check(got == drives_cases[i].drives && ref == got, drives_cases[i].name, buf);
	}
	/* an alias added after the index was made is seen */
	kf_aliasdb_add(db, "driver:nouveau", "nouveau", NULL, NULL, 0, KF_ALIAS_DRIVER);
	check(kf_aliasdb_bound_alias(db, "nouveau", "pci:v000010DEd00001C82") ==
		      sizeof(bound_db) / sizeof(bound_db[0]),
	      "bound-index-remade", NULL);
	kf_aliasdb_free(db);
}

/* dcpp_strip_comments works in place; the reference is the copying
 * version it replaced, for the random differential below. */
static void strip_ref(char *s, size_t n)
{
	char *o = kf_xmalloc(n + 1);
	size_t i = 0, k = 0, pending = 0;
	while (i < n) {
		if (s[i] == '"' || s[i] == '\'') {
			char q = s[i];
			o[k++] = s[i++];
			while (i < n && s[i] != q && s[i] != '\n') {
				if (s[i] == '\\' && i + 1 < n)
					o[k++] = s[i++];
				o[k++] = s[i++];
			}
			if (i < n && s[i] == q)
				o[k++] = s[i++];
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
			while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
				if (s[i] == '\n')
					pending++;
				else
					o[k++] = ' ';
				i++;
			}
			for (int t = 0; t < 2 && i < n; t++, i++)
				o[k++] = ' ';
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
			while (i < n && s[i] != '\n') {
				o[k++] = ' ';
				i++;
			}
		} else if (s[i] == '\n' && !(k > 0 && o[k - 1] == '\\')) {
			o[k++] = s[i++];
			for (; pending; pending--)
				o[k++] = '\n';
		} else {
			o[k++] = s[i++];
		}
	}
	for (; pending && k < n; pending--)
		o[k++] = '\n';
	memcpy(s, o, k);
	free(o);
}

static const struct {
	const char *name, *in, *out;
} strip_cases[] = {
	{"strip-none", "int a = 1;\n", "int a = 1;\n"},
	{"strip-line", "a // b\nc", "a     \nc"},
	{"strip-block", "a /* b */ c", "a         c"},
	{"strip-block-lines-move",
	 "#define X 1 /* a\nb */ + 2\nY\n", "#define X 1          + 2\n\nY\n"},
	{"strip-in-string", "s = \"/* no */\"; // yes", "s = \"/* no */\";       "},
	{"strip-char-quote", "c = '/'; /**/", "c = '/';     "},
	{"strip-escaped-quote", "\"a\\\"/*\" x", "\"a\\\"/*\" x"},
	{"strip-unterminated-block", "a /* b\nc", "a      \n"},
	{"strip-continuation", "#define A 1 \\\n/* x\n */ 2\nB", "#define A 1 \\\n        2\n\nB"},
	{"strip-slash-alone", "a / b /", "a / b /"},
};

static void strip_tests(void)
{
	char buf[200];
	for (size_t i = 0; i < sizeof(strip_cases) / sizeof(strip_cases[0]); i++) {
		size_t n = strlen(strip_cases[i].in);
		char *a = kf_xstrdup(strip_cases[i].in), *b = kf_xstrdup(strip_cases[i].in);
		dcpp_strip_comments(a, n);
		strip_ref(b, n);
		snprintf(buf, sizeof(buf), "got \"%s\", reference \"%s\"", a, b);
		check(!strcmp(a, strip_cases[i].out) && !strcmp(a, b), strip_cases[i].name, buf);
		free(a);
		free(b);
	}
	/* random texts of the bytes that matter, against the reference */
	static const char alpha[] = "/*\"'\\\n a";
	unsigned seed = 12345;
	size_t bad = 0;
	for (int r = 0; r < 20000; r++) {
		char a[64], b[64];
		seed = seed * 1103515245u + 12345u;
		size_t n = (seed >> 16) % 63;
		for (size_t k = 0; k < n; k++) {
			seed = seed * 1103515245u + 12345u;
			a[k] = alpha[(seed >> 16) % (sizeof(alpha) - 1)];
		}
		a[n] = 0;
		memcpy(b, a, n + 1);
		dcpp_strip_comments(a, n);
		strip_ref(b, n);
		if (memcmp(a, b, n))
			bad++;
	}
	snprintf(buf, sizeof(buf), "%zu of 20000 random texts differ from the reference", bad);
	check(bad == 0, "strip-random-differential", buf);
}

int main(void)
{
	char tmpl[] = "/tmp/kfit-detect-XXXXXX";
	char *base = mkdtemp(tmpl);
	if (!base) {
		printf("not ok setup\n  mkdtemp failed\n");
		return 1;
	}
	char *t = kf_xasprintf("%s/tree", base), *c = kf_xasprintf("%s/cache", base),
	     *r = kf_xasprintf("%s/root", base);
	make_tree(t);
	tree_tests(t, c);
	machine_tests(r, t);
	rule_tests(base);
	firewall_tests(base);
	bound_tests();
	strip_tests();
	char *cmd = kf_xasprintf("rm -rf '%s'", base);
	if (system(cmd) != 0)
		printf("  could not remove %s\n", base);
	free(cmd);
	free(t);
	free(c);
	free(r);
	return failures ? 1 : 0;
}

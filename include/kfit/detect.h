/*
 * detect.h - "a kernel for this machine": find out what a running machine
 * (or a saved snapshot of one) is and what it has, and turn that into
 * profile names (distro, init, platform, features) and a list of hardware
 * requirements, each with the reason that names the device or the fact.
 *
 * Two parts:
 *
 *  - the alias database (kf_aliasdb): modalias patterns as modules.alias
 *    writes them, each with the module that claims it, and for each module
 *    the Kconfig symbol that builds it (from the tree's Makefiles).  It is
 *    derived from a kernel tree's own driver sources (device ID tables,
 *    MODULE_ALIAS, platform driver names, obj-$(CONFIG_FOO) lines; cached
 *    per tree) and can be extended with a running kernel's modules.alias
 *    and modules.builtin.modinfo;
 *
 *  - detection (kf_detect_run): reads ROOT/etc/os-release, ROOT/proc/...,
 *    ROOT/sys/... (ROOT is "/" or a snapshot made by
 *    scripts/snapshot-machine.sh) and fills a kf_detect.
 *
 * docs/detect.md describes the rules and the JSON form.  Nothing here
 * prints or exits; problems go to kf_diags, progress to a callback.
 */
#ifndef KFIT_DETECT_H
#define KFIT_DETECT_H

#include "kfit/dotconfig.h"
#include "kfit/hashmap.h"
#include "kfit/profile.h"
#include "kfit/util.h"

#include <stdbool.h>
#include <stddef.h>

/* Told about slow steps ("scanning driver sources of TREE ..."). */
typedef void kf_detect_progress_fn(const char *msg, void *ctx);

/* ---- the alias database ---- */

/* Where an alias came from. */
typedef enum kf_alias_origin {
	KF_ALIAS_SOURCE,   /* a device table or MODULE_ALIAS in the tree */
	KF_ALIAS_DRVNAME,  /* a platform driver's name (matched by the bus) */
	KF_ALIAS_MODULES,  /* the running kernel's modules.alias */
	KF_ALIAS_BUILTIN,  /* the running kernel's modules.builtin.modinfo */
	KF_ALIAS_BUSTABLE, /* a driver's ID table without MODULE_DEVICE_TABLE
			      (built-in bus/port drivers: pcieport): the bus
			      matches it, modules.alias never has it */
	KF_ALIAS_DRIVER,   /* "driver:NAME": the name a driver registers on
			      its bus (pci_driver.name "xhci_hcd" of xhci_pci),
			      as a device's driver link shows it; matches no
			      device */
} kf_alias_origin;

/* One modalias pattern and the module that claims it. */
typedef struct kf_alias {
	const char *pattern;     /* fnmatch glob: "virtio:d00000001v*" */
	const char *module;      /* module name, '-' written '_': "virtio_net" */
	const char *part_symbol; /* symbol gating the table's part of a
				    composite module, or NULL */
	const char *file;        /* source file of the table (tree-relative),
				    or the modules.alias path */
	int line;                /* line of the table or alias, 0: unknown */
	kf_alias_origin origin;  /* where it came from */
	const char *symbol;      /* source aliases: the symbol that builds the
				    file's object (module names of built-in
				    objects are not unique), or NULL */
	const char *makefile;    /* where that symbol is named, or NULL */
	int mkline;              /* its line */
	const char *cond;        /* source aliases: the #if/#ifdef condition
				    over CONFIG_ symbols the entry sits under,
				    as literals joined by ',': "SYM=y"
				    (CONFIG_SYM defined), "SYM=m"
				    (CONFIG_SYM_MODULE), "SYM=e" (IS_ENABLED),
				    "!SYM=y" (negated); NULL: unconditional
				    (or a condition not understood) */
} kf_alias;

/* What the tree's Makefiles say about one module. */
typedef struct kf_modinfo {
	const char *name;       /* module name, '-' written '_' */
	const char *symbol;     /* Kconfig symbol without CONFIG_, or NULL when
				   the object is built unconditionally */
	const char *makefile;   /* tree-relative Makefile of that line */
	int line;               /* line of the obj-$(CONFIG_...) statement */
	const char *object;     /* tree-relative object: "drivers/net/virtio_net.o" */
	const char **firmware;  /* MODULE_FIRMWARE names in its sources */
	size_t nfirmware;       /* how many */
	size_t fwalloc;         /* capacity of firmware */
	bool requests_firmware; /* its sources call request_firmware (names
				   they may compute at run time) */
} kf_modinfo;

typedef struct kf_aliasdb {
	kf_arena *arena;        /* owns every string */
	kf_alias *aliases;      /* in the order found */
	size_t naliases;        /* how many */
	size_t aalloc;          /* capacity */
	kf_modinfo *mods;       /* modules, one entry per name */
	size_t nmods;           /* how many */
	size_t malloc_;         /* capacity */
	kf_hindex modindex;     /* mods by name ('-' and '_' alike) */
	const char *tree;       /* tree the source part came from, or NULL */
	const char *kernelversion; /* that tree's version, or NULL */
	size_t nsources;        /* C files with tables scanned */
	size_t nmakefiles;      /* Makefiles read */
	struct kf_alias_index *index; /* patterns by literal prefix, for
				  kf_aliasdb_match (rebuilt there when
				  aliases were added) */
	char **texts;           /* loaded cache tables that strings of
				   aliases and modules point into */
	size_t ntexts;          /* how many */
} kf_aliasdb;

kf_aliasdb *kf_aliasdb_new(void);
void kf_aliasdb_free(kf_aliasdb *db);

/*
 * Derive aliases and module symbols from the driver sources and Makefiles
 * of tree for arch (SRCARCH "x86", "arm64", or make's ARCH "x86_64",
 * "i386", "aarch64"; NULL: x86): arch/ holds only that architecture's
 * drivers.  The result is cached in CACHE/detect/ keyed on the tree's
 * path, version, SRCARCH and the Makefile's mtime; when use_cache and a
 * cache file exists whose stamp of the files the scan read still holds
 * (README.md, "Cache"), it is read instead.  progress (may be NULL) hears
 * about a scan before it starts.  Returns 0, or -1 with an error in d
 * (also when the tree has an arch/ directory without arch/SRCARCH).
 */
int kf_aliasdb_scan_tree(kf_aliasdb *db, const char *tree, const char *arch,
			 bool use_cache, kf_detect_progress_fn *progress,
			 void *ctx, kf_diags *d);

/* Add the lines "alias PATTERN MODULE" of a modules.alias file. */
int kf_aliasdb_add_modules_alias(kf_aliasdb *db, const char *path,
				 kf_diags *d);
/* Add the MOD.alias=PATTERN records of a modules.builtin.modinfo file. */
int kf_aliasdb_add_builtin_modinfo(kf_aliasdb *db, const char *path,
				   kf_diags *d);

/* The module entry for a name ('-' and '_' equal), or NULL. */
kf_modinfo *kf_aliasdb_module(const kf_aliasdb *db, const char *name);

/* True when module is the one a device's bound driver (its driver link's
 * name: "xhci_hcd") belongs to: the same name, or a driver name the
 * module registers. */
bool kf_aliasdb_is_bound_module(const kf_aliasdb *db, const char *bound, const char *module);

/* True when the alias's cond holds in cfg (always without a cond): the
 * entry is in the table a kernel built with cfg has. */
bool kf_alias_cond_holds(const kf_alias *a, const kf_dotconfig *cfg);

/*
 * The aliases matching a modalias as modprobe matches them (fnmatch), in
 * database order: indexes into db->aliases written to out (up to max).
 * Returns how many matched (may exceed max).  The first call after
 * aliases were added (re)builds db->index, and every call uses its
 * scratch space: one thread at a time per db.
 */
size_t kf_aliasdb_match(const kf_aliasdb *db, const char *modalias,
			size_t *out, size_t max);

/* ---- detection ---- */

/* How much a hardware requirement matters. */
typedef enum kf_hw_level {
	KF_HW_REQUIRE,   /* the device or fact needs it to work */
	KF_HW_RECOMMEND, /* useful (microcode, cpufreq), not needed to boot */
} kf_hw_level;

/* The value a hardware requirement wants. */
typedef enum kf_hw_want {
	KF_HW_ENABLED,  /* y or m; y when boot-critical without an initramfs */
	KF_HW_BUILTIN,  /* y (consoles, the root filesystem without initramfs) */
	KF_HW_AT_LEAST, /* an int symbol at least `min` (NR_CPUS) */
	KF_HW_OFF,      /* n: an option foreign to the machine (OF without a
			   device tree), as a recommendation */
} kf_hw_want;

/* One requirement on the kernel that comes from the machine itself. */
typedef struct kf_hwreq {
	const char *symbol;  /* without CONFIG_: "VIRTIO_NET" */
	kf_hw_want want;     /* enabled, built-in, or at least min */
	long min;            /* KF_HW_AT_LEAST: the smallest value */
	kf_hw_level level;   /* require or recommend */
	bool boot;           /* boot-critical: root filesystem, its block
				stack and bus drivers (y without initramfs) */
	const char *reason;  /* "PCI 8086:15d7 (Ethernet) → e1000e →
				CONFIG_E1000E (drivers/net/ethernet/intel/
				Makefile:12)" */
	const char *device;  /* sysfs path below ROOT/sys, or NULL */
	const char *module;  /* the module, or NULL for non-device facts */
	const char *makefile;/* tree-relative Makefile naming the symbol */
	int line;            /* its line, 0 when none */
	const char **firmware; /* firmware files the driver may load */
	size_t nfirmware;    /* how many */
	bool requests_firmware; /* the driver may request firmware: it names
				   some (firmware) or calls request_firmware,
				   itself or through firmware_by */
	const char *firmware_by; /* the module that requests it for the
				    driver (the SOF core snd_sof for a SOF PCI
				    driver), or NULL */
	const char *firmware_note; /* when built in without an initramfs the
				      firmware must be in EXTRA_FIRMWARE or
				      the driver a module; NULL otherwise */
	bool unbound;        /* only devices without a bound driver need it:
				a driver that cannot be built for the target
				is then a note, not an error */
} kf_hwreq;

/* How a device was mapped to a driver of the tree. */
typedef enum kf_dev_map {
	KF_MAP_TABLE,    /* a device table or alias of the tree claims it */
	KF_MAP_FALLBACK, /* no table entry matches: found by the name of the
			    driver bound to it on the machine */
	KF_MAP_MISSING,  /* nothing in the tree claims it, and the machine ran
			    a driver for it that this tree lacks (out of tree,
			    renamed, or newer) */
	KF_MAP_NONE,     /* nothing in the tree claims it and no driver was
			    bound: nothing supports it */
} kf_dev_map;

/* One device found under ROOT/sys/devices (a modalias file). */
typedef struct kf_device {
	const char *path;     /* "devices/pci0000:00/0000:00:03.0" below sys */
	const char *modalias; /* its modalias */
	const char *bus;      /* "pci", "virtio", "acpi", "platform", ... */
	const char *desc;     /* "PCI 1af4:1041 (Ethernet)" */
	const char *bound;    /* the driver bound to it, or NULL */
	const char **modules; /* matching modules (source and modules.alias) */
	size_t nmodules;      /* how many */
	const char **symbols; /* their symbols, parallel to modules (NULL
				 where unknown) */
	bool boot;            /* under the root filesystem's block device */
	kf_dev_map map;       /* how it was mapped */
	bool listed;          /* among the devices not mapped by a table that
				 are worth naming (kf_detect_unmapped) */
	const char *name;     /* vendor and product names from the root's
				 pci.ids/usb.ids or the USB device's
				 manufacturer/product, for listed devices;
				 NULL when the root has none */
} kf_device;

/* Kind of a chosen profile. */
typedef struct kf_det_profile {
	const char *name;   /* "debian-12", "systemd-252", "kvm-guest" */
	prof_kind kind;     /* distro, init, feature or platform */
	const char *reason; /* the evidence: "etc/os-release ID=debian ..." */
} kf_det_profile;

/* Options of a detection run. */
typedef struct kf_detect_opts {
	const char *root;         /* "/" or a snapshot directory */
	kf_aliasdb *aliases;      /* device matching, or NULL: no devices;
				     modules.alias is added to it */
	const prof_db *db;        /* profile names are checked here, or NULL */
	bool use_modules_alias;   /* also read ROOT/lib/modules/REL/modules.* */
} kf_detect_opts;

/* What detection found. */
typedef struct kf_detect {
	kf_arena *arena;          /* owns everything below */
	/* os-release */
	const char *os_id;        /* ID */
	const char *os_version;   /* VERSION_ID (or codename-derived) */
	const char *os_pretty;    /* PRETTY_NAME */
	const char *distro;       /* profile name, or NULL */
	const char *distro_note;  /* how it was chosen when not by ID */
	/* init */
	const char *init;         /* "systemd", "openrc", "sysvinit", or NULL */
	int systemd_version;      /* 0 when unknown or not systemd */
	const char *pid1;         /* ROOT/proc/1/comm */
	/* security and networking */
	const char *lsm;          /* ROOT/sys/kernel/security/lsm, or NULL */
	const char *firewall;     /* "nftables", "iptables-nft",
				     "iptables-legacy", or NULL */
	int initramfs;            /* prof_initramfs */
	const char *initramfs_why;/* the evidence */
	/* root filesystem */
	const char *rootfs;       /* filesystem type: "ext4" */
	const char *rootdev;      /* "/dev/vda" */
	const char **blockstack;  /* layers from top: "dm-crypt", "lvm",
				     "md", "nvme", "sata", "virtio-blk" */
	size_t nblockstack;       /* how many */
	/* virtualization and machine */
	const char *virt;         /* "firecracker", "kvm", "xen", "hyperv",
				     "wsl2", "vmware", "virtualbox",
				     "hypervisor" (unknown), or "none" */
	const char *virt_why;     /* the evidence */
	const char *cloud;        /* "aws", "gcp", "azure", or NULL */
	const char *chassis;      /* "laptop", "desktop", "server", or NULL */
	int chassis_type;         /* DMI chassis_type, 0 when none */
	bool has_dmi;             /* ROOT/sys/class/dmi/id exists */
	const char *cpu_vendor;   /* "GenuineIntel", "AuthenticAMD", ... */
	int cpu_family;           /* cpu family, -1 when unknown */
	int ncpus;                /* possible CPUs (sys/devices/system/cpu) */
	const char *console;      /* last console= of the command line */
	const char *kernel_release; /* proc/sys/kernel/osrelease */
	const char *running_config; /* proc/config.gz or boot/config-REL
				       below ROOT, or NULL */
	/* results */
	kf_det_profile *profiles; /* chosen: distro, init, platform, features */
	size_t nprofiles;         /* how many */
	size_t palloc;            /* capacity */
	kf_device *devices;       /* every modalias under sys/devices */
	size_t ndevices;          /* how many */
	size_t dalloc;            /* capacity */
	kf_hwreq *hw;             /* hardware requirements, one per symbol */
	size_t nhw;               /* how many */
	size_t hwalloc;           /* capacity */
	size_t unmatched;         /* devices no module claims */
} kf_detect;

/* One field of ROOT's os-release (etc/os-release, else
 * usr/lib/os-release), quotes removed: "ID" -> "debian"; malloc'd, or
 * NULL.  The reader detection uses for the distribution. */
char *kf_os_release(const char *root, const char *key);

/* Name of a kf_dev_map for output ("table", "fallback", "driver-missing",
 * "none"). */
const char *kf_dev_map_name(kf_dev_map m);

/* The devices worth naming that no table of the tree maps (PCI, USB, HID,
 * HDA codecs, SDIO, virtio, I2C, SPI, serio; not the ACPI, platform,
 * SCSI, input and CPU entries, nor PCI bridges, memory and system
 * peripherals nothing was bound to): their count; up to max of them
 * written to out, in device order. */
size_t kf_detect_unmapped(const kf_detect *det, const kf_device **out, size_t max);

/* Run detection; NULL with an error in d when ROOT is unusable. */
kf_detect *kf_detect_run(const kf_detect_opts *o, kf_diags *d);
void kf_detect_free(kf_detect *det);

/*
 * Detection -> profile names: the detected profiles a run adds to those
 * asked for (-p), in detection's order, each once and none asked for
 * already; a distribution asked for replaces the detected one (-p
 * fedora-40 on a Debian machine drops debian-12).  db tells which asked
 * names are distributions.  Fills out (room for det->nprofiles) and
 * returns how many.  generate (the pipeline's detect stage) and check
 * both take their detected profiles from here.
 */
size_t kf_detect_added(const kf_detect *det, const prof_db *db, const char *const *asked,
		       size_t nasked, const kf_det_profile **out);
/* The release of a profile family detection found ("systemd" ->
 * "systemd-252" when that profile is in db), or NULL (-p FAMILY). */
const char *kf_detect_family_release(const kf_detect *det, const prof_db *db,
				     const char *family);

/* Name of a kf_hw_want for output ("enabled", "builtin", "at-least"). */
const char *kf_hw_want_name(kf_hw_want w);

#endif

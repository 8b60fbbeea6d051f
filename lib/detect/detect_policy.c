/*
 * detect_policy.c - the kernel symbols a machine's facts need: the root
 * filesystem and the layers under it, CPUs, the console, the CPU vendor,
 * options foreign to the machine; written as tables where the rule is a
 * mapping.  Devices' requirements (detect_devices.c) go through hw_add too.
 */
#include "detect_run.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- requirements ---- */

static kf_hwreq *hw_find(kf_detect *det, const char *sym)
{
	for (size_t i = 0; i < det->nhw; i++)
		if (!strcmp(det->hw[i].symbol, sym))
			return &det->hw[i];
	return NULL;
}

kf_hwreq *hw_add(dctx *c, const char *sym, kf_hw_want want, kf_hw_level level, bool boot,
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
kf_hwreq *hw_dev_add(dctx *c, const kf_device *dv, const char *sym, kf_hw_want want,
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

/* Options foreign to the machine, recommended off before any device's
 * drivers are considered: a recommended driver (onboard_usb_dev for a
 * USB hub) must not drag OF=y into an ACPI PC; a required one still gets
 * what it needs (requirements come before recommendations). */
void policy_foreign(dctx *c, const char *cpuinfo)
{
	bool arm = cpuinfo && strstr(cpuinfo, "CPU implementer");
	if (arm || det_exists(c, "sys/firmware/devicetree") ||
	    !(c->det->has_dmi || det_exists(c, "sys/firmware/acpi")))
		return;
	hw_add(c, "OF", KF_HW_OFF, KF_HW_RECOMMEND, false,
	       "no device tree on this machine (DMI/ACPI firmware, no sys/firmware/devicetree): "
	       "OF would only add code nothing here uses");
}

/* The root filesystem's type -> its symbol (NULL: none in the tree). */
static const struct {
	const char *fs;  /* the type in proc/mounts */
	const char *sym; /* what mounts it */
} fs_rules[] = {
	{"ext4", "EXT4_FS"},	 {"ext3", "EXT4_FS"},	      {"ext2", "EXT4_FS"},	{"xfs", "XFS_FS"},
	{"btrfs", "BTRFS_FS"},	 {"f2fs", "F2FS_FS"},	      {"jfs", "JFS_FS"},	{"zfs", NULL},
	{"bcachefs", "BCACHEFS_FS"}, {"virtiofs", "VIRTIO_FS"}, {"9p", "9P_FS"},
	{"overlay", "OVERLAY_FS"}, {"nfs", "NFS_FS"},	      {"nfs4", "NFS_V4"},
	{"squashfs", "SQUASHFS"}, {"erofs", "EROFS_FS"},     {"tmpfs", "TMPFS"},
};

/* A layer of the root block stack -> what the root filesystem needs
 * through it (required, built in or module, needed at boot). */
static const struct {
	const char *layer;  /* blockstack entry; "md-*": any md level */
	const char *sym[2]; /* the symbols, in order */
	const char *why;    /* the reason, %s the layer */
} block_rules[] = {
	{"dm-crypt", {"BLK_DEV_DM", "DM_CRYPT"}, "the root filesystem is on %s"},
	{"lvm", {"BLK_DEV_DM"}, "the root filesystem is on %s"},
	{"dm", {"BLK_DEV_DM"}, "the root filesystem is on %s"},
	{"md-raid1", {"BLK_DEV_MD", "MD_RAID1"}, "the root filesystem is on %s"},
	{"md-raid0", {"BLK_DEV_MD", "MD_RAID0"}, "the root filesystem is on %s"},
	{"md-raid10", {"BLK_DEV_MD", "MD_RAID10"}, "the root filesystem is on %s"},
	{"md-raid4", {"BLK_DEV_MD", "MD_RAID456"}, "the root filesystem is on %s"},
	{"md-raid5", {"BLK_DEV_MD", "MD_RAID456"}, "the root filesystem is on %s"},
	{"md-raid6", {"BLK_DEV_MD", "MD_RAID456"}, "the root filesystem is on %s"},
	{"md-*", {"BLK_DEV_MD"}, "the root filesystem is on %s"},
	{"sata", {"BLK_DEV_SD"}, "the root filesystem is on a SATA disk (sd)"},
	{"scsi", {"BLK_DEV_SD"}, "the root filesystem is on a SCSI disk (%s)"},
	{"virtio-scsi", {"BLK_DEV_SD"}, "the root filesystem is on a SCSI disk (%s)"},
	{"usb-storage", {"BLK_DEV_SD"}, "the root filesystem is on a SCSI disk (%s)"},
	{"hyperv-storvsc", {"BLK_DEV_SD"}, "the root filesystem is on a SCSI disk (%s)"},
};

/* console= on the kernel command line -> its driver and console support,
 * built in (the first rule that fits). */
static const struct {
	const char *prefix; /* the device name starts so */
	bool digit;         /* and a digit follows */
	const char *virt;   /* only under this virtualization, or NULL */
	const char *sym[2]; /* the symbols, in order */
} console_rules[] = {
	{"ttyS", false, NULL, {"SERIAL_8250", "SERIAL_8250_CONSOLE"}},
	{"ttyAMA", false, NULL, {"SERIAL_AMBA_PL011", "SERIAL_AMBA_PL011_CONSOLE"}},
	{"hvc", false, "xen", {"HVC_XEN"}},
	{"hvc", false, NULL, {"VIRTIO_CONSOLE"}},
	{"tty", true, NULL, {"VT", "VT_CONSOLE"}},
};

/* The CPU vendor of proc/cpuinfo -> its support (required, built in) and,
 * on bare metal, what runs it well (recommended, built in). */
static const struct {
	const char *vendor;   /* vendor_id */
	const char *sym;      /* CPU_SUP_* */
	const char *metal[3]; /* recommended without a hypervisor */
} cpu_rules[] = {
	{"GenuineIntel", "CPU_SUP_INTEL", {"MICROCODE", "X86_INTEL_PSTATE", "INTEL_IDLE"}},
	{"AuthenticAMD", "CPU_SUP_AMD", {"MICROCODE", "X86_AMD_PSTATE"}},
	{"HygonGenuine", "CPU_SUP_HYGON", {"MICROCODE", "X86_AMD_PSTATE"}},
	{"CentaurHauls", "CPU_SUP_CENTAUR", {NULL}},
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static bool layer_is(const char *rule, const char *layer)
{
	size_t n = strlen(rule);
	if (n && rule[n - 1] == '*')
		return !strncmp(rule, layer, n - 1);
	return !strcmp(rule, layer);
}

void policy_facts(dctx *c, const char *cpuinfo)
{
	kf_detect *det = c->det;
	for (size_t i = 0; det->rootfs && i < NELEM(fs_rules); i++)
		if (!strcmp(fs_rules[i].fs, det->rootfs) && fs_rules[i].sym)
			hw_add(c, fs_rules[i].sym, KF_HW_ENABLED, KF_HW_REQUIRE, true,
			       kf_arena_printf(c->a, "root filesystem / is %s on %s → CONFIG_%s",
					       det->rootfs, det->rootdev ? det->rootdev : "?",
					       fs_rules[i].sym));
	for (size_t i = 0; i < det->nblockstack; i++) {
		const char *l = det->blockstack[i];
		for (size_t k = 0; k < NELEM(block_rules); k++) {
			if (!layer_is(block_rules[k].layer, l))
				continue;
			const char *why = kf_arena_printf(c->a, block_rules[k].why, l);
			for (size_t j = 0; j < 2 && block_rules[k].sym[j]; j++)
				hw_add(c, block_rules[k].sym[j], KF_HW_ENABLED, KF_HW_REQUIRE, true, why);
			break;
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
	for (size_t k = 0; det->console && k < NELEM(console_rules); k++) {
		const char *con = det->console;
		size_t n = strlen(console_rules[k].prefix);
		if (strncmp(con, console_rules[k].prefix, n) ||
		    (console_rules[k].digit && !isdigit((unsigned char)con[n])) ||
		    (console_rules[k].virt && (!det->virt || strcmp(det->virt, console_rules[k].virt))))
			continue;
		char *why = kf_arena_printf(c->a, "console=%s on the kernel command line", con);
		for (size_t j = 0; j < 2 && console_rules[k].sym[j]; j++)
			hw_add(c, console_rules[k].sym[j], KF_HW_BUILTIN, KF_HW_REQUIRE, false, why);
		break;
	}
	if (det->cpu_vendor) {
		bool metal = det->virt && !strcmp(det->virt, "none");
		char *why = kf_arena_printf(c->a, "CPU vendor %s family %d (proc/cpuinfo)",
					    det->cpu_vendor, det->cpu_family);
		for (size_t k = 0; k < NELEM(cpu_rules); k++) {
			if (strcmp(cpu_rules[k].vendor, det->cpu_vendor))
				continue;
			hw_add(c, cpu_rules[k].sym, KF_HW_BUILTIN, KF_HW_REQUIRE, false, why);
			for (size_t j = 0; metal && j < 3 && cpu_rules[k].metal[j]; j++)
				hw_add(c, cpu_rules[k].metal[j], KF_HW_BUILTIN, KF_HW_RECOMMEND, false,
				       why);
		}
		if (det_cpu_flag(cpuinfo, "lm"))
			hw_add(c, "64BIT", KF_HW_BUILTIN, KF_HW_RECOMMEND, false,
			       "the CPU has long mode (lm in proc/cpuinfo flags)");
	}
	/* firmware of built-in drivers without an initramfs */
	for (size_t i = 0; i < det->nhw; i++) {
		kf_hwreq *h = &det->hw[i];
		h->requests_firmware |= h->nfirmware > 0;
		if (!h->requests_firmware || !h->module)
			continue;
		const char *fw = h->nfirmware ? kf_arena_printf(c->a, "%s%s", h->firmware[0],
								h->nfirmware > 1 ? ", ..." : "")
					      : "names it computes at run time";
		const char *by = h->firmware_by ? kf_arena_printf(c->a, ", requested by %s",
								   h->firmware_by)
						: "";
		if (det->initramfs == PROF_INITRAMFS_NO && h->boot)
			h->firmware_note = kf_arena_printf(
				c->a, "%s is boot-critical and built in without an initramfs: "
				      "put its firmware (%s%s) in EXTRA_FIRMWARE",
				h->module, fw, by);
		else
			h->firmware_note = kf_arena_printf(
				c->a, "%s loads firmware (%s%s) from /lib/firmware: build it as a "
				      "module, or built in add the files to EXTRA_FIRMWARE",
				h->module, fw, by);
	}
}


/*
 * detect_run.h - what the stages of kf_detect_run share: the run's
 * context, reading files under ROOT, and the stages themselves: the facts
 * of the machine (detect_facts.c), its devices and the modules that claim
 * them (detect_devices.c), the requirements that follow
 * (detect_policy.c) and the device tree's consoles (detect_dt.c).  Only
 * those files and detect.c include it.
 */
#ifndef KFIT_DETECT_RUN_H
#define KFIT_DETECT_RUN_H

#include "detect_internal.h"
#include "kfit/dotconfig.h"

/* One detection run. */
typedef struct dctx {
	const kf_detect_opts *o; /* options */
	kf_detect *det;          /* the result */
	kf_arena *a;             /* det->arena */
	kf_diags *d;             /* diagnostics */
} dctx;

/* Device paths (below sys/) of the root filesystem's disks, for boot flags. */
typedef struct rootdevs {
	char **v;     /* paths: "devices/pci0000:00/0000:00:02.0/virtio1/block/vda" */
	size_t n;     /* how many */
} rootdevs;

/* ---- reading ROOT (detect_facts.c) ---- */

/* ROOT/rel with links resolved inside ROOT (malloc'd). */
char *det_path(dctx *c, const char *rel);
bool det_exists(dctx *c, const char *rel);
bool det_regular(dctx *c, const char *rel);
/* A file's content (arena), or NULL. */
char *det_read(dctx *c, const char *rel);
/* A link's target (arena), or NULL. */
char *det_link(dctx *c, const char *rel);
const char *det_base_name(const char *p);
/* "flag" is among the flags of proc/cpuinfo. */
bool det_cpu_flag(const char *cpuinfo, const char *flag);

/* ---- the facts: each fills fields of c->det (detect_facts.c) ---- */

/* A profile found, with the evidence; the nearest older release when the
 * database lacks it. */
void det_add_profile(dctx *c, const char *name, prof_kind kind, const char *reason);
void detect_os(dctx *c);
void detect_init(dctx *c);
void detect_security(dctx *c);
void detect_initramfs(dctx *c);
void detect_root(dctx *c, rootdevs *rd);
void detect_virt(dctx *c, const char *cpuinfo);
void detect_platform(dctx *c, const char *cpuinfo);
void detect_features(dctx *c);
void detect_cpu(dctx *c, const char *cpuinfo);

/* ---- devices (detect_devices.c) ---- */

/* Every device below rel with a modalias, into c->det->devices. */
void detect_devices(dctx *c, const char *rel, int depth);
/* Each device's modalias against the alias database: the modules that
 * claim it and their requirements. */
void detect_match(dctx *c, const rootdevs *rd, const kf_dotconfig *cfg);

/* ---- behind the controllers (detect_infer.c) ---- */

/* HDA codecs of proc/asound/card*\/codec#* as devices, when sys/devices
 * has none. */
void detect_asound_codecs(dctx *c);
/* What sits behind the matched controllers: codecs, SOF, I2C HID,
 * i8042, RTC, PNP, buttons, card readers' cards, Bluetooth pairings. */
void detect_infer(dctx *c);
/* Mark the devices no table maps that are worth listing, with their
 * names where the root has them (detect_unmapped.c). */
void detect_unmapped(dctx *c);
/* The profile usb-plug-in when the machine has a USB host controller. */
void detect_plug_in(dctx *c);

/* ---- requirements (detect_policy.c) ---- */

/* Add or strengthen the requirement for sym (reason copied). */
kf_hwreq *hw_add(dctx *c, const char *sym, kf_hw_want want, kf_hw_level level, bool boot,
		 const char *reason);
/* The same for a device's requirement (its `unbound` flag kept right). */
kf_hwreq *hw_dev_add(dctx *c, const kf_device *dv, const char *sym, kf_hw_want want,
		     kf_hw_level level, bool boot, const char *reason);
/* Options foreign to the machine, off before any device is matched. */
void policy_foreign(dctx *c, const char *cpuinfo);
/* What the machine's facts need: root filesystem and block stack, CPUs,
 * console, CPU vendor; firmware notes. */
void policy_facts(dctx *c, const char *cpuinfo);

/* ---- the device tree (detect_dt.c) ---- */

/* The console chosen/stdout-path names and the framebuffer under chosen/:
 * their drivers and console options, required. */
void detect_dt_consoles(dctx *c);

#endif

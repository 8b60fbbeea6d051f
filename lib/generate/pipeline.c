/*
 * pipeline.c - kfit's main path as stages (see include/kfit/pipeline.h):
 * tree, detect, requirements, load, base, solve, write, verify.  Each
 * stage fills its part of kf_pipeline and leaves the rest alone, so a
 * command runs the ones it needs and reads the results between them.
 */
#include "kfit/pipeline.h"

#include "kfit/build.h"
#include "kfit/lastconfig.h"

#include "kfit/rootfs.h"
#include "kfit/run.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

void kf_pipeline_init(kf_pipeline *p, const kf_pipeline_opts *o)
{
	memset(p, 0, sizeof(*p));
	p->o = *o;
	p->initramfs = o->initramfs;
}

/*
 * The Kconfig load of kf_pipeline_load, started in a thread of its own
 * (detect starts it before it scans the driver sources, requirements
 * once the profile names are known good): the stages before load only read the tree, and on a first
 * run the $(shell,...) commands and the scan then share the CPUs instead
 * of taking turns.  Its diagnostics join the caller's where load would
 * have added them, so what is printed does not change.
 *
 * With an allnoconfig base (detection's default) the thread goes on to
 * build the resolver's index of dependents once the tree is handed over,
 * while the caller calculates the base: that reads no configuration file
 * and creates no symbol, and the index's build reads nothing the
 * calculation writes (kc_tree_index_begin, before the hand-over, keeps
 * the flags it needs).  kf_pipeline_base waits for it at its end.
 */
struct kf_load_ahead {
	pthread_t thr;      /* the loading thread */
	pthread_mutex_t mu; /* guards loaded */
	pthread_cond_t cv;  /* signalled when loaded */
	bool loaded;        /* t and d are final */
	bool index;         /* then build the dependents index */
	kc_load_opts lo;    /* what it loads */
	kc_tree *t;         /* the loaded tree, or NULL */
	kf_diags d;         /* its diagnostics until handed over */
};

static void *load_ahead_run(void *arg)
{
	struct kf_load_ahead *la = arg;
	kc_tree *t = kc_tree_load(&la->lo, &la->d);
	bool index = t && la->index;
	if (index)
		kc_tree_index_begin(t);
	pthread_mutex_lock(&la->mu);
	la->t = t;
	la->loaded = true;
	pthread_cond_signal(&la->cv);
	pthread_mutex_unlock(&la->mu);
	if (index)
		kc_tree_index_build(t);
	return NULL;
}

static void load_ahead_start(kf_pipeline *p)
{
	struct kf_load_ahead *la = kf_xcalloc(1, sizeof(*la));
	la->lo = (kc_load_opts){.srctree = p->tree, .arch = p->o.arch, .cache_dir = p->cache};
	la->index = !p->o.base || !strcmp(p->o.base, "allnoconfig");
	pthread_mutex_init(&la->mu, NULL);
	pthread_cond_init(&la->cv, NULL);
	if (pthread_create(&la->thr, NULL, load_ahead_run, la) != 0) {
		pthread_mutex_destroy(&la->mu);
		pthread_cond_destroy(&la->cv);
		free(la); /* load runs it in its turn */
		return;
	}
	p->ahead = la;
}

/* The thread's end: joined and freed; its tree too unless handed over. */
static void load_ahead_finish(kf_pipeline *p)
{
	struct kf_load_ahead *la = p->ahead;
	if (!la)
		return;
	p->ahead = NULL;
	pthread_join(la->thr, NULL);
	if (la->t != p->t)
		kc_tree_free(la->t);
	kf_diags_release(&la->d);
	pthread_mutex_destroy(&la->mu);
	pthread_cond_destroy(&la->cv);
	free(la);
}

/* Wait for the tree loaded ahead, reporting to d; the thread may go on
 * building the index (load_ahead_finish waits for that). */
static kc_tree *load_ahead_take(kf_pipeline *p, kf_diags *d)
{
	struct kf_load_ahead *la = p->ahead;
	pthread_mutex_lock(&la->mu);
	while (!la->loaded)
		pthread_cond_wait(&la->cv, &la->mu);
	pthread_mutex_unlock(&la->mu);
	kc_tree *t = la->t;
	kf_diags_move(d, &la->d);
	if (t)
		kc_tree_set_diags(t, d);
	p->t = t;
	if (!t || !la->index)
		load_ahead_finish(p);
	return t;
}

void kf_pipeline_release(kf_pipeline *p)
{
	load_ahead_finish(p);
	if (p->solved)
		kf_gen_result_release(&p->res);
	kf_base_free(p->snap);
	kc_tree_free(p->t);
	if (p->set)
		prof_set_free(p->set);
	kf_detect_free(p->det);
	kf_aliasdb_free(p->aliases);
	free(p->detected);
	free(p->names);
	free(p->tree);
	free(p->cache);
	free(p->dest);
	free(p->defconfig);
	memset(p, 0, sizeof(*p));
}

int kf_pipeline_tree(kf_pipeline *p, kf_diags *d)
{
	p->tree = kf_tree_find_default(p->o.tree, p->o.progress, p->o.progress_ctx, d);
	if (!p->tree)
		return -1;
	p->cache = kf_cache_dir(d);
	return p->cache ? 0 : -1; /* refused: another user's, or writable by others */
}

static void add_name(kf_pipeline *p, const char *name, size_t *alloc)
{
	KF_GROW(p->names, p->nnames + 1, *alloc);
	p->names[p->nnames++] = name;
}

/* Why the root filesystem's block stack cannot be mounted by the kernel
 * alone, or NULL when it can. */
static const char *initramfs_layer_reason(const char *layer)
{
	if (!strcmp(layer, "dm-crypt"))
		return "a LUKS volume is opened by cryptsetup (asking for the passphrase) in the "
		       "initramfs; the kernel cannot open it by itself";
	if (!strcmp(layer, "lvm"))
		return "LVM logical volumes are activated by lvm (vgchange) in the initramfs; the "
		       "kernel cannot find or assemble them by itself";
	if (!strncmp(layer, "md-", 3))
		return "md arrays with current (1.x) metadata are assembled by mdadm in the "
		       "initramfs; the kernel's own autodetection knows only 0.90 metadata on "
		       "type fd partitions (Documentation/admin-guide/md.rst)";
	return NULL;
}

/* A root on LUKS, LVM or md needs an initramfs: with --initramfs no an
 * error (a warning with force); when only detection said "no" (no image
 * it recognizes in boot/), the machine must have one kfit did not see. */
static int root_needs_initramfs(kf_pipeline *p, kf_diags *d)
{
	const kf_detect *det = p->det;
	if (p->initramfs != PROF_INITRAMFS_NO)
		return 0;
	for (size_t i = 0; i < det->nblockstack; i++) {
		const char *why = initramfs_layer_reason(det->blockstack[i]);
		if (!why)
			continue;
		const char *dev = det->rootdev ? det->rootdev : "?";
		if (p->o.initramfs != PROF_INITRAMFS_NO) {
			kf_diag_add(d, KF_WARNING, NULL, 0, 0,
				    "the root filesystem (%s) is on %s, which needs an initramfs (%s); "
				    "detection found none (%s): generating for a kernel that boots "
				    "with one",
				    dev, det->blockstack[i], why,
				    det->initramfs_why ? det->initramfs_why : "no image in boot/");
			p->initramfs = PROF_INITRAMFS_YES;
			return 0;
		}
		kf_diag_add(d, p->o.force ? KF_WARNING : KF_ERROR, NULL, 0, 0,
			    "--initramfs no: the root filesystem (%s) is on %s: %s; without an "
			    "initramfs this kernel stops at \"VFS: Unable to mount root fs\"%s",
			    dev, det->blockstack[i], why,
			    p->o.force ? " (--force: generating anyway)"
				       : " (--force generates it anyway)");
		return p->o.force ? 0 : -1;
	}
	return 0;
}

/* Start the load in a thread of its own, once: after the tree is found,
 * unless it is loaded already or the caller asked for one thread. */
static void load_ahead(kf_pipeline *p)
{
	if (!p->t && !p->ahead && p->tree && !p->o.serial)
		load_ahead_start(p);
}

int kf_pipeline_detect(kf_pipeline *p, kf_diags *d)
{
	load_ahead(p);
	p->aliases = kf_aliasdb_new();
	if (kf_aliasdb_scan_tree(p->aliases, p->tree, p->o.arch, true, p->o.progress,
				 p->o.progress_ctx, d) < 0)
		return -1;
	kf_detect_opts dop = {.root = p->o.root ? p->o.root : "/", .aliases = p->aliases,
			      .db = p->o.db, .use_modules_alias = true};
	p->det = kf_detect_run(&dop, d);
	if (!p->det)
		return -1;
	const kf_det_profile **add = kf_xcalloc(p->det->nprofiles + 1, sizeof(*add));
	p->ndetected = kf_detect_added(p->det, p->o.db, p->o.names, p->o.nnames, add);
	p->detected = kf_xcalloc(p->ndetected + 1, sizeof(*p->detected));
	for (size_t i = 0; i < p->ndetected; i++)
		p->detected[i] = (kf_pipeline_detected){add[i]->name,
							add[i]->reason ? add[i]->reason : ""};
	free(add);
	if (p->initramfs == PROF_INITRAMFS_UNKNOWN &&
	    p->det->initramfs != PROF_INITRAMFS_UNKNOWN)
		p->initramfs = p->det->initramfs;
	return root_needs_initramfs(p, d);
}

/* One requirement that the module and firmware policy adds. */
static prof_req *policy_req(prof_set *set, const char *sym, prof_want want, const char *value,
			    const char *reason)
{
	prof_req *r = kf_arena_alloc(set->arena, sizeof(*r));
	prof_alt *a = kf_arena_alloc(set->arena, sizeof(*a));
	memset(r, 0, sizeof(*r));
	memset(a, 0, sizeof(*a));
	a->sym = sym;
	a->want = want;
	a->value = value;
	r->alts = a;
	r->nalts = 1;
	r->level = PROF_REQUIRE;
	r->reason = reason;
	r->loc.file = "detect";
	r->profile = "hardware";
	r->key = a->sym;
	r->cond.pmin = r->cond.pmax = -1;
	return r;
}

/* One hardware requirement of detection as a requirement of the set. */
static prof_req *hw_req(prof_set *set, const kf_hwreq *h, bool module)
{
	prof_req *r = kf_arena_alloc(set->arena, sizeof(*r));
	prof_alt *a = kf_arena_alloc(set->arena, sizeof(*a));
	a->sym = kf_arena_strdup(set->arena, h->symbol);
	if (h->want == KF_HW_AT_LEAST) {
		a->want = PROF_WANT_AT_LEAST;
		a->value = kf_arena_printf(set->arena, "%ld", h->min);
	} else
		a->want = h->want == KF_HW_BUILTIN ? PROF_WANT_BUILTIN
			  : h->want == KF_HW_OFF   ? PROF_WANT_OFF
						   : PROF_WANT_ENABLED;
	r->alts = a;
	r->nalts = 1;
	r->level = h->level == KF_HW_REQUIRE ? PROF_REQUIRE : PROF_RECOMMEND;
	r->boot = h->boot;
	r->soft = h->unbound;
	r->module = module;
	r->reason = kf_arena_strdup(set->arena, h->reason ? h->reason : "");
	r->loc.file = h->makefile ? kf_arena_strdup(set->arena, h->makefile) : "detect";
	r->loc.line = h->line;
	r->profile = "hardware";
	r->key = a->sym;
	r->cond.pmin = r->cond.pmax = -1;
	return r;
}

/* ROOT/lib/firmware/NAME: 1 a regular file, 2 only compressed (.xz,
 * .zst: EXTRA_FIRMWARE takes plain files), 0 absent. */
static int firmware_present(const char *root, const char *name)
{
	if (strstr(name, "..") || name[0] == '/')
		return 0;
	static const char *const sfx[] = {"", ".xz", ".zst"};
	for (size_t k = 0; k < 3; k++) {
		char *rel = kf_xasprintf("lib/firmware/%s%s", name, sfx[k]);
		char *path = kf_root_path(root, rel, true);
		bool ok = path && kf_root_regular(path);
		free(path);
		free(rel);
		if (ok)
			return k ? 2 : 1;
	}
	return 0;
}

/* How a driver that may request firmware is built (docs/generate.md,
 * "Modules, firmware and the initramfs"). */
enum fw_mode {
	FW_NONE,      /* requests no firmware (or not a driver of a device) */
	FW_MODULE,    /* m: udev loads it once /lib/firmware is there */
	FW_EMBED,     /* built in, its files (found) in EXTRA_FIRMWARE */
	FW_INITRAMFS, /* boot-critical: built in or in the initramfs */
	FW_MISSING,   /* boot-critical, no initramfs, no file found */
};

/* A driver that may request firmware: it names some (MODULE_FIRMWARE),
 * or its sources, or a module that requests it for the driver, call
 * request_firmware. */
static bool fw_driver(const kf_hwreq *h)
{
	return (h->nfirmware || h->requests_firmware) && h->module && h->want == KF_HW_ENABLED;
}

/* Files of h under ROOT/lib/firmware: found (plain), packed (only
 * compressed, which EXTRA_FIRMWARE cannot take). */
static size_t fw_found(const kf_hwreq *h, const char *root, size_t *packed)
{
	size_t found = 0;
	*packed = 0;
	for (size_t k = 0; k < h->nfirmware; k++) {
		int st = firmware_present(root, h->firmware[k]);
		found += st == 1;
		*packed += st == 2;
	}
	return found;
}

/* The policy: a driver that may request firmware is a module (MODULES
 * on) unless its firmware is found to embed; built in only with its files
 * in EXTRA_FIRMWARE, or boot-critical (with an initramfs, which carries
 * the files; without one, as the only way to boot). */
static enum fw_mode fw_policy(const kf_hwreq *h, int initramfs, const char *root)
{
	if (!fw_driver(h))
		return FW_NONE;
	size_t packed, found = initramfs == PROF_INITRAMFS_NO ? fw_found(h, root, &packed) : 0;
	if (h->boot)
		return initramfs != PROF_INITRAMFS_NO ? FW_INITRAMFS : found ? FW_EMBED : FW_MISSING;
	return found ? FW_EMBED : FW_MODULE;
}

/* The files that go into EXTRA_FIRMWARE: those of the embedded drivers
 * that exist under ROOT/lib/firmware, once each; a boot-critical driver
 * none of whose files exist is named: its device will not work. */
static const char *extra_firmware(prof_set *set, const kf_detect *det, const enum fw_mode *mode,
				  const char *root, kf_diags *d)
{
	kf_strbuf list = KF_STRBUF_INIT;
	for (size_t i = 0; i < det->nhw; i++) {
		const kf_hwreq *h = &det->hw[i];
		if (mode[i] == FW_MISSING) {
			size_t packed;
			fw_found(h, root, &packed);
			/* the files are the driver's, not this device's: say
			 * what follows without claiming it needs one */
			kf_diag_add(d, KF_WARNING, NULL, 0, 0,
				    "%s: %s is built in (no initramfs) and %sthe firmware it may "
				    "request (%s%s) %s %s/lib/firmware%s: if this device needs one "
				    "of them, it will not work",
				    h->reason ? h->reason : h->symbol, h->module,
				    packed ? "" : "none of ",
				    h->nfirmware ? h->firmware[0] : "names it computes",
				    h->nfirmware > 1 ? ", ..." : "",
				    packed ? "is only compressed in" : "is in",
				    strcmp(root, "/") ? root : "",
				    packed ? " (EXTRA_FIRMWARE takes uncompressed files)" : "");
			continue;
		}
		if (mode[i] != FW_EMBED)
			continue;
		for (size_t k = 0; k < h->nfirmware; k++) {
			if (firmware_present(root, h->firmware[k]) != 1)
				continue;
			/* two devices of one driver name the same files */
			bool dup = false;
			for (size_t j = 0; j < i && !dup; j++)
				for (size_t m = 0; mode[j] == FW_EMBED && m < det->hw[j].nfirmware && !dup;
				     m++)
					dup = !strcmp(det->hw[j].firmware[m], h->firmware[k]);
			if (!dup)
				kf_strbuf_addf(&list, "%s%s", list.len ? " " : "", h->firmware[k]);
		}
	}
	const char *v = list.len ? kf_arena_strdup(set->arena, list.buf) : NULL;
	kf_strbuf_release(&list);
	return v;
}

/* The modules of the drivers in mode m, "a, b, c", or NULL. */
static const char *fw_names(prof_set *set, const kf_detect *det, const enum fw_mode *mode,
			    enum fw_mode m)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	for (size_t i = 0; i < det->nhw; i++) {
		if (mode[i] != m)
			continue;
		bool dup = false;
		for (size_t j = 0; j < i && !dup; j++)
			dup = mode[j] == m && !strcmp(det->hw[j].module, det->hw[i].module);
		if (!dup)
			kf_strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", det->hw[i].module);
	}
	const char *v = sb.len ? kf_arena_strdup(set->arena, sb.buf) : NULL;
	kf_strbuf_release(&sb);
	return v;
}

/* Detection's hardware requirements as requirements of the set: the same
 * type as a profile's, so the resolver, pins and explanations treat them
 * alike (NR_CPUS >= CPUs included).  Before them, the module and
 * firmware policy (fw_policy): initrd support with an initramfs; the
 * drivers that become modules, with MODULES; the firmware files of those
 * built in, in EXTRA_FIRMWARE. */
static void add_hardware(kf_pipeline *p, kf_diags *d)
{
	prof_set *set = p->set;
	const kf_detect *det = p->det;
	int initramfs = p->initramfs;
	const char *root = p->o.root ? p->o.root : "/";
	prof_req **reqs = kf_arena_alloc(set->arena, (set->n + det->nhw + 4) * sizeof(*reqs));
	enum fw_mode *mode = kf_arena_alloc(set->arena, (det->nhw + 1) * sizeof(*mode));
	size_t n = 0;
	if (initramfs == PROF_INITRAMFS_YES)
		reqs[n++] = policy_req(
			set, "BLK_DEV_INITRD", PROF_WANT_ENABLED, NULL,
			kf_arena_printf(set->arena,
					"the machine boots through an initramfs (%s): without initrd "
					"support the kernel ignores it and cannot mount the root "
					"filesystem",
					det->initramfs_why ? det->initramfs_why : "--initramfs yes"));
	for (size_t i = 0; i < det->nhw; i++)
		mode[i] = fw_policy(&det->hw[i], initramfs, root);
	p->fw_modules = fw_names(set, det, mode, FW_MODULE);
	p->fw_embedded = fw_names(set, det, mode, FW_EMBED);
	p->fw_initramfs = fw_names(set, det, mode, FW_INITRAMFS);
	p->fw_missing = fw_names(set, det, mode, FW_MISSING);
	if (p->fw_modules)
		reqs[n++] = policy_req(
			set, "MODULES", PROF_WANT_ENABLED, NULL,
			kf_arena_printf(set->arena,
					"drivers that may request firmware (%s) are built as modules: "
					"udev loads them once the initramfs or the root filesystem, "
					"which carry /lib/firmware, is there; built in they ask for "
					"their firmware during boot and find only what the kernel or "
					"the initramfs carries",
					p->fw_modules));
	/* the policy and its module drivers come before the profiles'
	 * requirements: a select reached earlier would make them y
	 * (radeon through ACPI_VIDEO or DRM_KMS_HELPER) */
	for (size_t i = 0; i < det->nhw; i++)
		if (mode[i] == FW_MODULE)
			reqs[n++] = hw_req(set, &det->hw[i], true);
	memcpy(reqs + n, set->reqs, set->n * sizeof(*reqs));
	n += set->n;
	const char *fw = initramfs == PROF_INITRAMFS_NO
				 ? extra_firmware(set, det, mode, root, d)
				 : NULL;
	if (fw)
		reqs[n++] = policy_req(
			set, "EXTRA_FIRMWARE", PROF_WANT_STRING, fw,
			"without an initramfs the drivers built in probe before the root "
			"filesystem is mounted: the firmware files they may request (those on the "
			"machine) are built into the kernel");
	for (size_t i = 0; i < det->nhw; i++)
		if (mode[i] != FW_MODULE)
			reqs[n++] = hw_req(set, &det->hw[i], false);
	set->reqs = reqs;
	set->n = n;
}

int kf_pipeline_requirements(kf_pipeline *p, kf_diags *d)
{
	size_t alloc = 0;
	p->nnames = 0;
	for (size_t i = 0; i < p->o.nnames; i++)
		add_name(p, p->o.names[i], &alloc);
	for (size_t i = 0; i < p->ndetected; i++)
		add_name(p, p->detected[i].name, &alloc);
	p->set = prof_flatten(p->o.db, p->names, p->nnames, d);
	if (!p->set)
		return -1;
	if (p->det)
		add_hardware(p, d);
	/* without detect the load starts here, once the profile names are
	 * known good (a mistyped one stops at once), and goes on to build
	 * the resolver's index beside the base */
	load_ahead(p);
	return 0;
}

int kf_pipeline_load(kf_pipeline *p, kf_diags *d)
{
	if (p->ahead)
		return load_ahead_take(p, d) ? 0 : -1;
	kc_load_opts lo = {.srctree = p->tree, .arch = p->o.arch, .cache_dir = p->cache};
	p->t = kc_tree_load(&lo, d);
	return p->t ? 0 : -1;
}

/* The default base: minimal when the hardware is known (a platform
 * profile or detection), else the arch's defconfig. */
static const char *default_base(const kf_pipeline *p)
{
	if (p->det)
		return "allnoconfig";
	for (size_t i = 0; p->set && i < p->set->nnames; i++) {
		long param;
		const prof_profile *pp = prof_db_find(p->o.db, p->set->names[i], &param, NULL);
		if (pp && pp->kind == PROF_KIND_PLATFORM)
			return "allnoconfig";
	}
	return "defconfig";
}

char *kf_pipeline_cache_config(const char *cache, const char *tree, const char *arch)
{
	char *bdir = kf_build_dir(cache, tree, arch);
	kf_mkdir_p(bdir, 0755);
	char *dest = kf_xasprintf("%s/.config", bdir);
	free(bdir);
	return dest;
}

/* Where write puts the .config: the option, else a build directory in
 * the cache with detection or when the tree is one kfit extracted (a
 * cached source tree is never written), else TREE/.config as make does. */
static char *destination(const kf_pipeline *p)
{
	if (p->o.output)
		return kf_xstrdup(p->o.output);
	if ((p->det || kf_tree_is_extracted(p->tree)) && p->cache)
		return kf_pipeline_cache_config(p->cache, p->tree, p->o.arch);
	return kf_xasprintf("%s/.config", p->tree);
}

int kf_pipeline_base(kf_pipeline *p, kf_diags *d)
{
	p->base = p->o.base ? p->o.base : default_base(p);
	p->dest = destination(p);
	kc_run_opts ro;
	memset(&ro, 0, sizeof(ro));
	ro.config = p->dest;
	bool distro_file = false;
	if (!strcmp(p->base, "allnoconfig"))
		ro.mode = KC_MODE_ALLNOCONFIG;
	else if (!strcmp(p->base, "tinyconfig"))
		ro.mode = KC_MODE_TINYCONFIG;
	else if (!strcmp(p->base, "defconfig")) {
		ro.mode = KC_MODE_DEFCONFIG;
		ro.file = p->defconfig = kc_default_defconfig(p->t);
	} else {
		if (!kf_exists(p->base) || kf_is_dir(p->base)) {
			kf_diag_add(d, KF_ERROR, p->base, 0, 0,
				    "--base: no such configuration file (or allnoconfig, tinyconfig, defconfig)");
			return -1;
		}
		ro.mode = KC_MODE_DEFCONFIG;
		ro.file = p->base;
		distro_file = true;
	}
	/* only allnoconfig reads no file while the index is being built */
	if (ro.mode != KC_MODE_ALLNOCONFIG)
		load_ahead_finish(p);
	kf_strbuf junk = KF_STRBUF_INIT;
	int crc = kc_compute(p->t, &ro, &junk);
	kf_strbuf_release(&junk);
	if (crc) {
		kf_diag_add(d, KF_ERROR, p->base, 0, 0, "cannot compute the base configuration");
		return -1;
	}
	if (distro_file)
		kf_reset_distro_build_files(p->t, d);
	p->snap = kf_base_snapshot(p->t);
	load_ahead_finish(p); /* the index, built meanwhile */
	return 0;
}

int kf_pipeline_solve(kf_pipeline *p, kf_diags *d)
{
	kf_gen_opts go = {
		.tree = p->t,
		.db = p->o.db,
		.set = p->set,
		.arch = p->o.arch,
		.initramfs = p->initramfs,
		.minimize = true,
		.check_minimal = p->o.check_minimal,
	};
	p->solved = true;
	return kf_generate(&go, p->snap, &p->res, d);
}

int kf_pipeline_write(kf_pipeline *p, kf_diags *d)
{
	/* kc_config_write reports to the diagnostics the tree was loaded
	 * with (d, when the caller keeps one list throughout) */
	if (kc_config_write(p->t, p->dest, false) < 0)
		return -1;
	/* remembered for build, why, check and diff without -c (a write
	 * through /dev/stdout or a FIFO is nothing to remember) */
	struct stat st;
	if (p->cache && stat(p->dest, &st) == 0 && S_ISREG(st.st_mode)) {
		kf_strbuf pl = KF_STRBUF_INIT;
		for (size_t i = 0; p->set && i < p->set->nnames; i++)
			kf_strbuf_addf(&pl, "%s%s", i ? " " : "", p->set->names[i]);
		kf_diags ld = KF_DIAGS_INIT; /* best effort: the config is written */
		kf_last_config_record(p->cache, p->tree, p->o.arch, p->dest, kf_strbuf_str(&pl), &ld);
		kf_diags_release(&ld);
		kf_strbuf_release(&pl);
	}
	(void)d;
	return 0;
}

int kf_pipeline_verify(kf_pipeline *p, kf_diags *d)
{
	char tmpl[] = "/tmp/kfit-verify.XXXXXX";
	char *dir = mkdtemp(tmpl);
	if (!dir)
		return -1;
	char *copy = kf_xasprintf("%s/config", dir);
	kf_strbuf a = KF_STRBUF_INIT, b = KF_STRBUF_INIT;
	kf_diags scratch = KF_DIAGS_INIT;
	int rc = -1;
	if (kf_read_file(p->dest, &a, &scratch) < 0 ||
	    kf_write_file_atomic(copy, a.buf, a.len, false, &scratch) < 0)
		goto out;
	/* The build directory, where make builds the tree's conf (5-6 s):
	 * kept in the cache per tree and ARCH, so that only the first
	 * --verify builds it (make rebuilds what is out of date), and
	 * locked while make runs in it (make writes O/Makefile each time) */
	char *bdir = NULL;
	int lfd = -1;
	if (p->cache) {
		char *vd = kf_xasprintf("%s/verify", p->cache);
		bdir = kf_xasprintf("%s/%08x-%s", vd, kf_hash_str(p->tree), p->o.arch);
		char *lock = kf_xasprintf("%s.lock", bdir);
		if (kf_cache_trust(vd, &scratch) == 0 && kf_cache_trust(bdir, &scratch) == 0 &&
		    kf_mkdir_p(vd, 0700) == 0)
			lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
		if (lfd >= 0 && flock(lfd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK &&
		    p->o.progress) {
			char *msg = kf_xasprintf("waiting for another kfit's --verify to finish "
						 "building conf in %s (it holds %s)", bdir, lock);
			p->o.progress(msg, p->o.progress_ctx);
			free(msg);
		}
		while (lfd >= 0 && flock(lfd, LOCK_EX) < 0)
			if (errno != EINTR) {
				close(lfd);
				lfd = -1;
			}
		free(lock);
		free(vd);
		if (lfd < 0) {
			free(bdir);
			bdir = NULL;
		}
	}
	char *o = bdir ? kf_xasprintf("O=%s", bdir) : kf_xasprintf("O=%s/build", dir);
	char *ar = kf_xasprintf("ARCH=%s", p->o.arch);
	char *kc = kf_xasprintf("KCONFIG_CONFIG=%s", copy);
	const char *argv[] = {"make", "-s", "-C", p->tree, o, ar, kc, "olddefconfig", NULL};
	kf_run_opts ro = {.argv = argv};
	int st = kf_run(&ro, &scratch);
	if (lfd >= 0)
		close(lfd); /* releases the lock */
	free(bdir);
	free(o);
	free(ar);
	free(kc);
	if (st != 0)
		goto out;
	if (kf_read_file(copy, &b, &scratch) < 0)
		goto out;
	rc = (a.len == b.len && !memcmp(a.buf, b.buf, a.len)) ? 0 : 1;
out:
	(void)d; /* the caller words the failure; the details are noise */
	kf_strbuf_release(&a);
	kf_strbuf_release(&b);
	kf_diags_release(&scratch);
	if (kf_remove_tree(dir) < 0)
		rc = rc ? rc : -1;
	free(copy);
	return rc;
}

int kf_pipeline_read_config(kf_pipeline *p, const char *path, kf_diags *d)
{
	if (!kf_exists(path)) {
		kf_diag_add(d, KF_ERROR, path, 0, 0, "no such configuration file");
		return -1;
	}
	if (kf_is_dir(path)) {
		kf_diag_add(d, KF_ERROR, path, 0, 0, "a directory, not a configuration file");
		return -1;
	}
	kc_run_opts ro = {.mode = KC_MODE_DEFCONFIG, .config = path, .file = path};
	kf_strbuf junk = KF_STRBUF_INIT;
	/* unreadable or over the size limit: conf's message, and no values */
	int rc = kc_compute(p->t, &ro, &junk);
	kf_strbuf_release(&junk);
	return rc ? -1 : 0;
}

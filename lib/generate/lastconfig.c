/*
 * lastconfig.c - the configuration kfit generated last (CACHE/last/, one
 * record per tree and ARCH and one for the latest of any tree; written by
 * the pipeline's write stage) and the one rule for which configuration a
 * command takes when none is named: include/kfit/lastconfig.h.
 */
#include "kfit/lastconfig.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

static char *last_path(const char *cache, const char *tree, const char *arch)
{
	const char *slash = strrchr(tree, '/');
	return kf_xasprintf("%s/last/%s-%s-%08x", cache, slash ? slash + 1 : tree, arch,
			    (unsigned)kf_hash_str(tree));
}

int kf_last_config_record(const char *cache, const char *tree, const char *arch,
			  const char *config, const char *profiles, kf_diags *d)
{
	char *abs = realpath(config, NULL);
	if (!abs) {
		kf_diag_add(d, KF_ERROR, config, 0, 0, "cannot resolve: %s", strerror(errno));
		return -1;
	}
	char *dir = kf_xasprintf("%s/last", cache);
	kf_mkdir_p(dir, 0700);
	char *text = kf_xasprintf("config %s\nprofiles %s\ntree %s\narch %s\n", abs,
				  profiles ? profiles : "", tree, arch);
	char *p = last_path(cache, tree, arch);
	int rc = kf_write_file_atomic(p, text, strlen(text), false, d);
	free(p);
	p = kf_xasprintf("%s/latest", dir);
	if (rc == 0)
		rc = kf_write_file_atomic(p, text, strlen(text), false, d);
	free(p);
	free(text);
	free(dir);
	free(abs);
	return rc;
}

void kf_last_config_release(kf_last_config *lc)
{
	free(lc->config);
	free(lc->profiles);
	free(lc->tree);
	free(lc->arch);
	memset(lc, 0, sizeof(*lc));
}

int kf_last_config_lookup(const char *cache, const char *tree, const char *arch,
			  kf_last_config *out)
{
	memset(out, 0, sizeof(*out));
	char *p = tree ? last_path(cache, tree, arch) : kf_xasprintf("%s/last/latest", cache);
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_diags d = KF_DIAGS_INIT;
	int rc = kf_read_file(p, &sb, &d);
	kf_diags_release(&d);
	free(p);
	if (rc < 0)
		return -1;
	char *text = kf_strbuf_detach(&sb);
	static const char *const keys[] = {"config ", "profiles ", "tree ", "arch "};
	char **slot[] = {&out->config, &out->profiles, &out->tree, &out->arch};
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		for (size_t k = 0; k < 4; k++) {
			size_t l = strlen(keys[k]);
			if (!strncmp(line, keys[k], l) && !*slot[k] && line[l])
				*slot[k] = kf_xstrdup(line + l);
		}
	free(text);
	if (!out->config || !kf_exists(out->config)) {
		kf_last_config_release(out);
		return -1;
	}
	return 0;
}

char *kf_running_config(void)
{
	if (kf_exists("/proc/config.gz"))
		return kf_xstrdup("/proc/config.gz");
	struct utsname u;
	if (uname(&u) == 0) {
		char *p = kf_xasprintf("/boot/config-%s", u.release);
		if (kf_exists(p))
			return p;
		free(p);
	}
	return NULL;
}

kf_config_source kf_config_choose(const kf_config_want *w, kf_config_choice *out)
{
	memset(out, 0, sizeof(*out));
	kf_last_config last;
	if (w->given) {
		out->path = kf_xstrdup(w->given);
		return out->from = KF_CONFIG_GIVEN;
	}
	if (w->root) {
		if (!w->root_config)
			return out->from = KF_CONFIG_NONE;
		out->path = kf_xasprintf("%s/%s", w->root, w->root_config);
		return out->from = KF_CONFIG_SNAPSHOT;
	}
	if (w->last && w->cache &&
	    kf_last_config_lookup(w->cache, w->tree, w->arch, &last) == 0) {
		out->path = last.config;
		out->profiles = last.profiles;
		last.config = last.profiles = NULL;
		kf_last_config_release(&last);
		return out->from = KF_CONFIG_LAST;
	}
	if (w->tree_config) {
		out->path = kf_xasprintf("%s/.config", w->tree_config);
		return out->from = KF_CONFIG_TREE;
	}
	if (w->running && (out->path = kf_running_config()))
		return out->from = KF_CONFIG_RUNNING;
	return out->from = KF_CONFIG_NONE;
}

void kf_config_choice_release(kf_config_choice *c)
{
	free(c->path);
	free(c->profiles);
	memset(c, 0, sizeof(*c));
}

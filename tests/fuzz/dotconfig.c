/*
 * dotconfig.c - fuzz target for lib/kconfig/dotconfig.c (the light .config reader
 * `kfit check` uses) and for kf_read_file's gzip/xz decoding: the input
 * is parsed as .config text directly, and also written to a file and
 * loaded from there (so compressed inputs are decoded first).  Every
 * query on the result runs, and the version parsers get the input too.
 */
#include "fuzz_common.h"
#include "kfit/dotconfig.h"

static void query(const kf_dotconfig *c)
{
	if (!c)
		return;
	char vb[32];
	kf_kver_format(kf_dotconfig_kver(c), vb);
	(void)kf_dotconfig_kver_text(c);
	(void)kf_dotconfig_arch(c);
	(void)kf_dotconfig_count(c);
	static const char *const syms[] = {"MODULES", "X86_64", "64BIT", "A",
					   "CMDLINE", "LOCALVERSION", ""};
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		(void)kf_dotconfig_get(c, syms[i]);
		(void)kf_dotconfig_is_string(c, syms[i]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kf_diags d = KF_DIAGS_INIT;
	kf_dotconfig *c = kf_dotconfig_parse("fuzz.config", (const char *)data,
					     size, &d);
	query(c);
	kf_dotconfig_free(c);

	char *path = fz_write("input.config", data, size);
	c = kf_dotconfig_load(path, &d);
	query(c);
	kf_dotconfig_free(c);
	free(path);

	char *s = kf_xstrndup((const char *)data, size);
	uint32_t v;
	(void)kf_kver_parse(s, &v);
	(void)kf_kver_parse_prefix(s, &v);
	free(s);
	kf_diags_release(&d);
	return 0;
}

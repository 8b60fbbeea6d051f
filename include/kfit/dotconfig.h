/*
 * dotconfig.h - a small reader for kernel .config files (plain, .gz, .xz):
 * the symbol values, the kernel version from the header comment and the
 * architecture the config was made for.  It reads; it does not evaluate
 * Kconfig (that is the engine's job, include/kfit/kconfig.h).
 *
 * Kernel versions are handled as one number, X*1000000 + Y*1000 + Z, so
 * ranges compare with plain integers.
 */
#ifndef KFIT_DOTCONFIG_H
#define KFIT_DOTCONFIG_H

#include "kfit/util.h"

#include <stdint.h>

typedef struct kf_dotconfig kf_dotconfig;

/* Encode X.Y.Z; Y and Z must be below 1000. */
#define KF_KVER(x, y, z) ((uint32_t)(x) * 1000000u + (uint32_t)(y) * 1000u + (uint32_t)(z))

/*
 * Parse a full "X.Y.Z" (nothing before or after).  Returns 0 and sets *out,
 * or -1 when s is not a full version.
 */
int kf_kver_parse(const char *s, uint32_t *out);
/*
 * Find the X.Y[.Z] at the start of s ("6.5.6-300.fc39.x86_64", "6.8.9-arch1",
 * "5.4.0-26-generic", "6.8"); a missing Z is 0.  Returns 0 or -1.
 */
int kf_kver_parse_prefix(const char *s, uint32_t *out);
/* Format as "X.Y.Z" into buf (at least 16 bytes); returns buf. */
char *kf_kver_format(uint32_t v, char *buf);

/* Parse .config text; name is used in diagnostics.  NULL only on error. */
kf_dotconfig *kf_dotconfig_parse(const char *name, const char *text, size_t len,
				 kf_diags *d);
/* Read and parse a .config file (plain, gzip or xz). */
kf_dotconfig *kf_dotconfig_load(const char *path, kf_diags *d);
void kf_dotconfig_free(kf_dotconfig *c);

/*
 * The value of a symbol (name without CONFIG_): "y", "m", "n" (for
 * "# CONFIG_X is not set"), a string without its quotes and escapes, or the
 * number as written.  NULL when the config does not mention the symbol.
 */
const char *kf_dotconfig_get(const kf_dotconfig *c, const char *sym);
/* True when the symbol's value was written as a quoted string. */
bool kf_dotconfig_is_string(const kf_dotconfig *c, const char *sym);
/* Number of symbols the config mentions (set or "is not set"). */
size_t kf_dotconfig_count(const kf_dotconfig *c);
/* Every symbol the config mentions, sorted; *names is malloc'd (free it),
 * the strings belong to c. */
size_t kf_dotconfig_names(const kf_dotconfig *c, const char ***names);

/* Kernel version from the header, 0 when the header has none. */
uint32_t kf_dotconfig_kver(const kf_dotconfig *c);
/* The header's full version text ("6.5.6-300.fc39.x86_64"), or NULL. */
const char *kf_dotconfig_kver_text(const kf_dotconfig *c);
/*
 * Architecture from the header and symbols: "x86_64", "i386", "arm64",
 * "arm", "riscv", "powerpc", "s390", ... or NULL when unknown.
 */
const char *kf_dotconfig_arch(const kf_dotconfig *c);

#endif

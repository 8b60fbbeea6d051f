/*
 * kc_arch.c - which arch/ directory a name means: what `uname -m` prints
 * (the top Makefile's SUBARCH), what make's ARCH= may say (its SRCARCH),
 * and either of them as detection takes them.  One table, three readings.
 */
#include "kfit/kconfig.h"

#include <string.h>

/* Which reading a name of the table counts in. */
enum {
	BY_UNAME = 1, /* uname -m: the top Makefile's SUBARCH sed */
	BY_ARCH = 2,  /* ARCH=: the top Makefile's SRCARCH ifeq lines */
	BY_ALIAS = 4, /* only where any name is taken (kc_arch_dir) */
};

/* The names that are not their own arch/ directory. */
static const struct arch_name {
	const char *name; /* as uname -m or ARCH= give it */
	const char *dir;  /* its arch/ directory */
	unsigned by;      /* BY_*: the readings it counts in */
} arch_names[] = {
	{"x86_64", "x86", BY_UNAME | BY_ARCH},
	{"i386", "x86", BY_UNAME | BY_ARCH},
	{"i486", "x86", BY_UNAME},
	{"i586", "x86", BY_UNAME},
	{"i686", "x86", BY_UNAME},
	{"x86_32", "x86", BY_ALIAS},
	{"amd64", "x86", BY_ALIAS},
	{"aarch64", "arm64", BY_UNAME},
	{"sparc32", "sparc", BY_ARCH},
	{"sparc64", "sparc", BY_ARCH},
	{"parisc64", "parisc", BY_ARCH},
	{"sh64", "sh", BY_ARCH},
	{"riscv64", "riscv", BY_UNAME},
	{"riscv32", "riscv", BY_ALIAS},
	{"ppc64le", "powerpc", BY_UNAME},
	{"ppc64", "powerpc", BY_UNAME},
	{"ppc", "powerpc", BY_ALIAS},
	{"s390x", "s390", BY_UNAME},
	{"mips64", "mips", BY_UNAME},
	{"loongarch64", "loongarch", BY_UNAME},
};

/* The directory of name among the rows of a reading, or NULL. */
static const char *lookup(const char *name, unsigned by)
{
	for (size_t i = 0; i < sizeof(arch_names) / sizeof(arch_names[0]); i++)
		if ((arch_names[i].by & by) && !strcmp(name, arch_names[i].name))
			return arch_names[i].dir;
	return NULL;
}

const char *kc_subarch(const char *machine)
{
	const char *dir = lookup(machine, BY_UNAME);
	if (dir)
		return dir;
	if (!strncmp(machine, "arm", 3))
		return "arm";
	return "x86";
}

const char *kc_srcarch(const char *arch)
{
	const char *dir = lookup(arch, BY_ARCH);
	return dir ? dir : arch;
}

const char *kc_arch_dir(const char *name)
{
	if (!name || !*name)
		return "x86";
	const char *dir = lookup(name, BY_UNAME | BY_ARCH | BY_ALIAS);
	if (dir)
		return dir;
	if (!strncmp(name, "armv", 4))
		return "arm";
	return name;
}

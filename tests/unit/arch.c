/*
 * arch.c - unit tests for lib/kconfig/kc_arch.c: the arch/ directory each
 * name means when `uname -m` prints it (SUBARCH), when make's ARCH= says it
 * (SRCARCH), and when detection takes it (-a or the machine), for every
 * name the table knows and the ones it passes through or defaults.
 *
 * Prints "ok NAME" / "not ok NAME" (+ a detail line) per case.
 */
#include "kfit/kconfig.h"

#include <stdio.h>
#include <string.h>

/* One name and its directory under each reading. */
static const struct arch_case {
	const char *name;    /* as uname -m or ARCH= give it */
	const char *subarch; /* kc_subarch */
	const char *srcarch; /* kc_srcarch */
	const char *dir;     /* kc_arch_dir */
} cases[] = {
	/* x86 */
	{"x86_64", "x86", "x86", "x86"},
	{"i386", "x86", "x86", "x86"},
	{"i486", "x86", "i486", "x86"},
	{"i586", "x86", "i586", "x86"},
	{"i686", "x86", "i686", "x86"},
	{"x86", "x86", "x86", "x86"},
	{"x86_32", "x86", "x86_32", "x86"},
	{"amd64", "x86", "amd64", "x86"},
	{"um", "x86", "um", "um"},
	/* arm */
	{"aarch64", "arm64", "aarch64", "arm64"},
	{"arm64", "arm", "arm64", "arm64"},
	{"arm", "arm", "arm", "arm"},
	{"armv7l", "arm", "armv7l", "arm"},
	{"armv6l", "arm", "armv6l", "arm"},
	{"armeb", "arm", "armeb", "armeb"},
	/* riscv, powerpc, s390, mips, loongarch */
	{"riscv64", "riscv", "riscv64", "riscv"},
	{"riscv32", "x86", "riscv32", "riscv"},
	{"riscv", "x86", "riscv", "riscv"},
	{"ppc64le", "powerpc", "ppc64le", "powerpc"},
	{"ppc64", "powerpc", "ppc64", "powerpc"},
	{"ppc", "x86", "ppc", "powerpc"},
	{"powerpc", "x86", "powerpc", "powerpc"},
	{"s390x", "s390", "s390x", "s390"},
	{"s390", "x86", "s390", "s390"},
	{"mips64", "mips", "mips64", "mips"},
	{"mips", "x86", "mips", "mips"},
	{"loongarch64", "loongarch", "loongarch64", "loongarch"},
	{"loongarch", "x86", "loongarch", "loongarch"},
	/* the ARCH= names of the top Makefile's SRCARCH lines */
	{"sparc32", "x86", "sparc", "sparc"},
	{"sparc64", "x86", "sparc", "sparc"},
	{"sparc", "x86", "sparc", "sparc"},
	{"parisc64", "x86", "parisc", "parisc"},
	{"parisc", "x86", "parisc", "parisc"},
	{"sh64", "x86", "sh", "sh"},
	{"sh", "x86", "sh", "sh"},
	/* passed through (ARCH=, detection) or a machine not known (x86) */
	{"m68k", "x86", "m68k", "m68k"},
	{"hexagon", "x86", "hexagon", "hexagon"},
	{"X86_64", "x86", "X86_64", "X86_64"},
	{"", "x86", "", "x86"},
};

int main(void)
{
	int failed = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct arch_case *c = &cases[i];
		const char *got[3] = {kc_subarch(c->name), kc_srcarch(c->name), kc_arch_dir(c->name)};
		const char *want[3] = {c->subarch, c->srcarch, c->dir};
		static const char *const fn[3] = {"subarch", "srcarch", "arch-dir"};
		for (int k = 0; k < 3; k++) {
			bool ok = !strcmp(got[k], want[k]);
			printf("%s %s-%s\n", ok ? "ok" : "not ok", fn[k], *c->name ? c->name : "empty");
			if (!ok)
				printf("  got %s, want %s\n", got[k], want[k]);
			failed += !ok;
		}
	}
	bool ok = !strcmp(kc_arch_dir(NULL), "x86");
	printf("%s arch-dir-null\n", ok ? "ok" : "not ok");
	failed += !ok;
	return failed ? 1 : 0;
}

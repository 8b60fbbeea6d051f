/*
 * make_tool.c - unit tests for kc_make_tool (lib/kconfig/kc_tree.c): the
 * tool the kernel's top Makefile names from CC/LD/..., LLVM and
 * CROSS_COMPILE.  Expected names are the Makefile's own rules (6.1 lines
 * 427-484: LLVM_PREFIX := $(LLVM) for a value ending in '/', else
 * LLVM_SUFFIX := $(LLVM) for one starting with '-'; CC = $(LLVM_PREFIX)
 * clang$(LLVM_SUFFIX), else $(CROSS_COMPILE)gcc; HOSTCC = gcc without the
 * prefix); 5.10's Makefile has no affixes: any LLVM gives the plain names.
 *
 * Prints "ok NAME" / "not ok NAME" (+ a detail line) per case.
 */
#include "kfit/kconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct tool_case {
	const char *name;  /* the case */
	const char *tool;  /* CC, LD, AR, NM, OBJCOPY, HOSTCC */
	const char *user;  /* the variable itself, or NULL */
	const char *llvm;  /* LLVM, or NULL */
	bool affixes;      /* the Makefile takes LLVM=/path/ and LLVM=-N */
	const char *cross; /* CROSS_COMPILE, or NULL */
	const char *want;  /* the name, NULL: unknown tool */
} cases[] = {
	{"cc-plain", "CC", NULL, NULL, true, NULL, "gcc"},
	{"cc-cross", "CC", NULL, NULL, true, "aarch64-linux-gnu-", "aarch64-linux-gnu-gcc"},
	{"ld-cross", "LD", NULL, NULL, true, "aarch64-linux-gnu-", "aarch64-linux-gnu-ld"},
	{"hostcc-cross", "HOSTCC", NULL, NULL, true, "aarch64-linux-gnu-", "gcc"},
	{"cc-user", "CC", "gcc-12", "1", true, "x-", "gcc-12"},
	{"cc-user-empty", "CC", "", NULL, true, NULL, "gcc"},
	{"cc-llvm1", "CC", NULL, "1", true, "aarch64-linux-gnu-", "clang"},
	{"cc-llvm-empty", "CC", NULL, "", true, NULL, "gcc"},
	{"cc-llvm-prefix", "CC", NULL, "/usr/lib/llvm-16/bin/", true, NULL,
	 "/usr/lib/llvm-16/bin/clang"},
	{"cc-llvm-suffix", "CC", NULL, "-16", true, NULL, "clang-16"},
	{"ar-llvm-suffix", "AR", NULL, "-16", true, NULL, "llvm-ar-16"},
	{"ld-llvm-prefix", "LD", NULL, "/opt/llvm/", true, NULL, "/opt/llvm/ld.lld"},
	{"objcopy-llvm", "OBJCOPY", NULL, "1", true, NULL, "llvm-objcopy"},
	{"nm-llvm", "NM", NULL, "1", true, NULL, "llvm-nm"},
	{"hostcc-llvm-suffix", "HOSTCC", NULL, "-16", true, NULL, "clang-16"},
	{"cc-llvm-both", "CC", NULL, "-x/", true, NULL, "-x/clang"},
	{"cc-llvm-suffix-5.10", "CC", NULL, "-16", false, NULL, "clang"},
	{"cc-llvm-prefix-5.10", "CC", NULL, "/usr/lib/llvm-16/bin/", false, NULL, "clang"},
	{"unknown-tool", "STRIP", NULL, NULL, true, NULL, NULL},
};

int main(void)
{
	int failed = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tool_case *c = &cases[i];
		char *got = kc_make_tool(c->tool, c->user, c->llvm, c->affixes, c->cross);
		bool ok = got && c->want ? !strcmp(got, c->want) : got == c->want;
		printf("%s %s\n", ok ? "ok" : "not ok", c->name);
		if (!ok)
			printf("  got %s, want %s\n", got ? got : "NULL", c->want ? c->want : "NULL");
		failed += !ok;
		free(got);
	}
	return failed ? 1 : 0;
}

/*
 * fuzz_common.h - what the fuzz targets share: a scratch directory that
 * lives as long as the process, writing a file into it, the $(shell,...)
 * stand-in, and a cheap deterministic hash to pick variants of a run
 * from the input itself (so a crash always reproduces from the file).
 *
 * Header-only: each target is one program (libFuzzer, or tests/fuzz/
 * replay.c for the deterministic replay in `make check`).
 */
#ifndef KFIT_FUZZ_COMMON_H
#define KFIT_FUZZ_COMMON_H

#include "kfit/util.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scratch directory, created on first use and removed at exit. */
static char fz_dir[64];

static inline void fz_cleanup(void)
{
	if (!fz_dir[0])
		return;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fz_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz: could not remove %s\n", fz_dir);
}

static inline const char *fz_scratch(void)
{
	if (!fz_dir[0]) {
		const char *tmp = getenv("TMPDIR");
		snprintf(fz_dir, sizeof(fz_dir), "%s/kfit-fuzz.XXXXXX",
			 tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
		if (!mkdtemp(fz_dir)) {
			perror("fuzz: mkdtemp");
			abort();
		}
		atexit(fz_cleanup);
	}
	return fz_dir;
}

/* Write n bytes to scratch/rel (parent dirs created); aborts on failure. */
static inline char *fz_write(const char *rel, const void *data, size_t n)
{
	char *path = kf_xasprintf("%s/%s", fz_scratch(), rel);
	char *slash = strrchr(path, '/');
	*slash = 0;
	kf_mkdir_p(path, 0755);
	*slash = '/';
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror(path);
		abort();
	}
	const char *p = data;
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w <= 0) {
			perror(path);
			abort();
		}
		p += w;
		n -= (size_t)w;
	}
	close(fd);
	return path;
}

/* A tree's top Makefile giving version X.Y.Z. */
static inline void fz_makefile(const char *tree, int x, int y, int z)
{
	char rel[256], text[256];
	snprintf(rel, sizeof(rel), "%s/Makefile", tree);
	int n = snprintf(text, sizeof(text),
			 "VERSION = %d\nPATCHLEVEL = %d\nSUBLEVEL = %d\n"
			 "EXTRAVERSION =\nNAME = Fuzzed\n",
			 x, y, z);
	free(fz_write(rel, text, (size_t)n));
}

/*
 * $(shell,...) in fuzz builds: never runs anything.  "echo WORDS" gives
 * WORDS (so inputs can still feed text through the preprocessor), a
 * command containing "false" fails (empty output), anything else prints
 * "y".  The output goes through the engine's newline handling as real
 * output would.
 */
static inline char *fz_shell(void *ctx, const char *cmd)
{
	(void)ctx;
	if (!strncmp(cmd, "echo ", 5))
		return kf_xasprintf("%s\n", cmd + 5);
	if (strstr(cmd, "false"))
		return kf_xstrdup("");
	return kf_xstrdup("y\n");
}

/* FNV-1a of the input: picks a variant deterministically. */
static inline uint32_t fz_hash(const uint8_t *data, size_t size)
{
	return kf_hash_mem(data, size);
}

#endif

/*
 * replay.c - runs a fuzz target without libFuzzer, deterministically: the
 * main() linked into build/tests/fuzz-NAME so that `make check` (and
 * `make asan`, `make valgrind`) replay the committed inputs on every run.
 *
 *   fuzz-NAME              replay tests/fuzz/corpus/NAME/ (one result line
 *                          for the whole corpus) and tests/fuzz/regress/NAME/
 *                          (one result line per input: each is a finding)
 *   fuzz-NAME FILE|DIR...  replay those inputs, one line each
 *
 * Prints "ok NAME" / "not ok NAME" lines (tests/run.sh protocol).  A crash
 * or sanitizer report ends the program; the "# running" line printed
 * before each input names the culprit.  An input running longer than
 * $KFIT_FUZZ_TIMEOUT seconds (default 60) is a hang and fails.
 */
#include "fuzz_common.h"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>

#ifndef FUZZ_NAME
#error "build with -DFUZZ_NAME=\"target\""
#endif

/* The input being run, for the timeout message. */
static char current[4096];

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "not ok timeout\n  input ran too long (a hang): ";
	if (write(1, msg, sizeof(msg) - 1) < 0 ||
	    write(1, current, strlen(current)) < 0 || write(1, "\n", 1) < 0)
		_exit(1);
	_exit(1);
}

/* Run one file; returns 0, or -1 when it cannot be read. */
static int run_file(const char *path, unsigned timeout)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	char buf[65536];
	ssize_t r;
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		kf_strbuf_add(&sb, buf, (size_t)r);
	close(fd);
	snprintf(current, sizeof(current), "%s", path);
	printf("# running %s\n", path);
	fflush(stdout);
	alarm(timeout);
	LLVMFuzzerTestOneInput((const uint8_t *)(sb.buf ? sb.buf : ""), sb.len);
	alarm(0);
	kf_strbuf_release(&sb);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files in dir, sorted; *n gets the count. */
static char **list_dir(const char *dir, size_t *n)
{
	char **v = NULL;
	size_t alloc = 0;
	*n = 0;
	DIR *dp = opendir(dir);
	if (!dp)
		return NULL;
	struct dirent *e;
	while ((e = readdir(dp))) {
		if (e->d_name[0] == '.')
			continue;
		char *p = kf_xasprintf("%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
			KF_GROW(v, *n + 1, alloc);
			v[(*n)++] = p;
		} else {
			free(p);
		}
	}
	closedir(dp);
	if (*n)
		qsort(v, *n, sizeof(char *), cmp_str);
	return v;
}

int main(int argc, char **argv)
{
	const char *te = getenv("KFIT_FUZZ_TIMEOUT");
	unsigned timeout = te && atoi(te) > 0 ? (unsigned)atoi(te) : 60;
	signal(SIGALRM, on_alarm);
	int failed = 0;
	if (argc > 1) {
		for (int i = 1; i < argc; i++) {
			size_t n = 0;
			char **files = list_dir(argv[i], &n);
			if (!files) {
				bool ok = run_file(argv[i], timeout) == 0;
				printf("%s %s\n", ok ? "ok" : "not ok", argv[i]);
				failed += !ok;
				continue;
			}
			for (size_t k = 0; k < n; k++) {
				run_file(files[k], timeout);
				printf("ok %s\n", files[k]);
				free(files[k]);
			}
			free(files);
		}
		return failed ? 1 : 0;
	}

	const char *root = getenv("ROOT");
	char *corpus = kf_xasprintf("%s/tests/fuzz/corpus/%s", root ? root : ".",
				    FUZZ_NAME);
	char *regress = kf_xasprintf("%s/tests/fuzz/regress/%s",
				     root ? root : ".", FUZZ_NAME);
	size_t n = 0;
	char **files = list_dir(corpus, &n);
	if (!files || !n) {
		printf("not ok corpus\n  no inputs in %s\n", corpus);
		failed++;
	} else {
		for (size_t k = 0; k < n; k++) {
			run_file(files[k], timeout);
			free(files[k]);
		}
		printf("ok corpus (%zu inputs)\n", n);
	}
	free(files);
	files = list_dir(regress, &n);
	for (size_t k = 0; k < n; k++) {
		run_file(files[k], timeout);
		const char *base = strrchr(files[k], '/') + 1;
		printf("ok regress/%s\n", base);
		free(files[k]);
	}
	free(files);
	free(corpus);
	free(regress);
	return failed ? 1 : 0;
}

/*
 * signals.c - how kfit ends when it must.  Out of memory: it says so, with
 * what it was doing, and exits with its error status (an allocation that
 * fails cannot be recovered from; writes are atomic, so no .config is
 * half written).  When kfit is ended by a signal (SIGTERM, SIGINT, SIGHUP),
 * end the commands it started too: $(shell,...) commands run in process
 * groups of their own (so that a time limit ends what they started), where
 * a signal sent to kfit, or a Ctrl-C to kfit's group, does not reach them.
 * The handler finds what kfit started, at any depth, in /proc, sends the
 * signal to each (and to the process group it leads), then ends kfit by
 * the same signal.
 * Only async-signal-safe calls are made.
 */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

/* The decimal number s spells, or -1. */
static long number(const char *s)
{
	long v = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000000)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v;
}

/* Parent and process group of process pid (from /proc/PID/stat): 0, or
 * -1 when it is gone. */
static int stat_of(long pid, long *ppid, long *pgrp)
{
	char path[64] = "/proc/", digits[24], buf[512];
	int n = 0;
	for (long v = pid; v; v /= 10)
		digits[n++] = (char)('0' + v % 10);
	size_t l = strlen(path);
	while (n)
		path[l++] = digits[--n];
	memcpy(path + l, "/stat", 6);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return -1;
	buf[r] = 0;
	/* "PID (COMM) STATE PPID PGRP ...": COMM may hold anything but ends
	 * at the last ')' */
	char *p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
		return -1;
	long v[2] = {0, 0};
	p += 4;
	for (int k = 0; k < 2; k++) {
		for (; *p >= '0' && *p <= '9'; p++)
			v[k] = v[k] * 10 + (*p - '0');
		if (*p++ != ' ')
			return -1;
	}
	*ppid = v[0];
	*pgrp = v[1];
	return 0;
}

/* The processes of the machine when the signal came (the handler cannot
 * allocate): enough for any machine kfit runs on; past it, the rest are
 * not looked at. */
#define MAX_PROCS 65536
static struct proc {
	long pid, ppid, pgrp; /* from /proc/PID/stat */
	bool mine;            /* kfit or started by it, at any depth */
} procs[MAX_PROCS];

/* Read /proc into procs; how many. */
static size_t read_procs(void)
{
	size_t np = 0;
	int dfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	char buf[4096];
	ssize_t n;
	while (np < MAX_PROCS && (n = getdents64(dfd, buf, sizeof(buf))) > 0)
		for (ssize_t off = 0; off < n && np < MAX_PROCS;) {
			struct dirent64 *de = (struct dirent64 *)(void *)(buf + off);
			off += de->d_reclen;
			long pid = number(de->d_name);
			if (pid > 0 && stat_of(pid, &procs[np].ppid, &procs[np].pgrp) == 0) {
				procs[np].pid = pid;
				procs[np++].mine = false;
			}
		}
	close(dfd);
	return np;
}

/* The index of pid in procs (np when absent): /proc lists processes in
 * the order of their numbers, so a search in halves, else one by one. */
static size_t find_proc(size_t np, long pid, bool sorted)
{
	if (!sorted) {
		for (size_t j = 0; j < np; j++)
			if (procs[j].pid == pid)
				return j;
		return np;
	}
	size_t lo = 0, hi = np;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < np && procs[lo].pid == pid ? lo : np;
}

/* Send sig to every process started by kfit (at any depth: a $(shell)
 * command's own children too), then end kfit by it. */
static void end_children(int sig)
{
	int saved = errno;
	long self = (long)getpid();
	size_t np = read_procs();
	bool sorted = true;
	for (size_t i = 1; i < np; i++)
		sorted = sorted && procs[i - 1].pid < procs[i].pid;
	for (bool more = true; more;) {
		more = false;
		for (size_t i = 0; i < np; i++) {
			if (procs[i].mine || procs[i].pid == self)
				continue;
			if (procs[i].ppid == self) {
				procs[i].mine = more = true;
				continue;
			}
			size_t j = find_proc(np, procs[i].ppid, sorted);
			if (j < np && procs[j].mine)
				procs[i].mine = more = true;
		}
	}
	for (size_t i = 0; i < np; i++)
		if (procs[i].mine) {
			if (procs[i].pgrp == procs[i].pid)
				kill((pid_t)-procs[i].pid, sig);
			kill((pid_t)procs[i].pid, sig);
		}
	errno = saved;
	signal(sig, SIG_DFL);
	raise(sig);
}

/* What kfit is doing, for the out-of-memory message (the handler cannot
 * allocate), and the status it then exits with. */
static char doing[256] = "kfit";
static int oom_status = KF_EXIT_BAD;

void cli_doing(const char *what, bool step)
{
	size_t l = step ? strcspn(doing, ",") : 0;
	snprintf(doing + l, sizeof(doing) - l, "%s%s", step ? ", " : "", what);
}

void cli_oom_status(int status)
{
	oom_status = status;
}

static void out_of_memory(size_t n)
{
	char buf[512];
	int len = snprintf(buf, sizeof(buf), "kfit: out of memory (%s: %zu bytes more were "
			   "asked for)\n", doing, n);
	if (len > 0)
		(void)!write(2, buf, (size_t)len < sizeof(buf) ? (size_t)len : sizeof(buf) - 1);
	_exit(oom_status);
}

void cli_signals_init(void)
{
	kf_set_oom_handler(out_of_memory);
	static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = end_children;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESETHAND;
		struct sigaction old;
		/* a signal ignored by whoever started kfit stays ignored */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

/*
 * run.c - running another program (see include/kfit/run.h): one
 * posix_spawn (fork and exec when it must die with kfit) with its output
 * read through pipes under poll(), so a chatty command can neither block
 * on a full pipe nor run past its time limit.
 */
#include "kfit/run.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Hand each complete line in *part to o->line_fn (all: the unfinished
 * last one too); keep the rest. */
static void emit_lines(const kf_run_opts *o, kf_strbuf *part, bool all)
{
	size_t start = 0;
	for (size_t i = 0; i < part->len; i++)
		if (part->buf[i] == '\n') {
			part->buf[i] = 0;
			o->line_fn(part->buf + start, o->line_ctx);
			start = i + 1;
		}
	if (all && start < part->len) {
		kf_strbuf_addch(part, 0);
		o->line_fn(part->buf + start, o->line_ctx);
		start = part->len;
	}
	if (part->buf) {
		memmove(part->buf, part->buf + start, part->len - start);
		part->len -= start;
		part->buf[part->len] = 0;
	}
}

/* Append what fd has to sb (up to max bytes kept; sb may be NULL) and,
 * for standard output with a line_fn, to *part; false at end of file. */
static bool drain(int fd, kf_strbuf *sb, size_t max, const kf_run_opts *o, kf_strbuf *part)
{
	char buf[4096];
	ssize_t r = read(fd, buf, sizeof(buf));
	if (r < 0)
		return errno == EINTR || errno == EAGAIN;
	if (r == 0) {
		if (part)
			emit_lines(o, part, true);
		return false;
	}
	if (part) {
		kf_strbuf_add(part, buf, (size_t)r);
		emit_lines(o, part, false);
	}
	if (!sb)
		return true;
	size_t keep = (size_t)r;
	if (max && sb->len + keep > max)
		keep = sb->len < max ? max - sb->len : 0;
	if (keep)
		kf_strbuf_add(sb, buf, keep);
	return true;
}

static void child(const kf_run_opts *o, int ofd, int efd, pid_t parent)
{
	int nul = open("/dev/null", O_RDWR);
	if (nul >= 0)
		dup2(nul, 0);
	dup2(ofd >= 0 ? ofd : nul, 1);
	if (!o->inherit_err)
		dup2(efd >= 0 ? efd : nul, 2);
	if (o->die_with_parent) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127); /* the parent died before prctl */
	}
	if (o->timeout_ms > 0)
		setpgid(0, 0); /* a timeout kills what the command started too */
	signal(SIGPIPE, SIG_DFL);
	if (o->cwd && chdir(o->cwd) < 0)
		_exit(127);
	char *const *argv = (char *const *)o->argv;
	const char *prog = o->path ? o->path : argv[0];
	if (o->env)
		execvpe(prog, argv, o->env);
	else
		execvp(prog, argv);
	_exit(127);
}

extern char **environ;

/*
 * Start the command as child() would, without copying kfit's page tables:
 * posix_spawn shares the address space until the exec (fork of a process
 * with a parsed tree took twice as long as the spawn, and a cold
 * $(shell,...) cache runs ninety commands; conf's popen() spawns too).
 * Not for die_with_parent (no death signal in posix_spawn).  Returns 0
 * with *pid set, or the error number; a program that cannot be executed
 * is an error here where child() exits 127.
 */
static int spawn(const kf_run_opts *o, int ofd, int efd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int rc = posix_spawn_file_actions_init(&fa);
	if (rc)
		return rc;
	rc = posix_spawnattr_init(&at);
	if (rc) {
		posix_spawn_file_actions_destroy(&fa);
		return rc;
	}
	rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDWR, 0);
	if (!rc)
		rc = ofd >= 0 ? posix_spawn_file_actions_adddup2(&fa, ofd, 1)
			      : posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_RDWR, 0);
	if (!rc && !o->inherit_err)
		rc = efd >= 0 ? posix_spawn_file_actions_adddup2(&fa, efd, 2)
			      : posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_RDWR, 0);
	if (!rc && o->cwd)
		rc = posix_spawn_file_actions_addchdir_np(&fa, o->cwd);
	sigset_t def;
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	short flags = POSIX_SPAWN_SETSIGDEF;
	if (o->timeout_ms > 0)
		flags |= POSIX_SPAWN_SETPGROUP; /* group 0: its own */
	if (!rc)
		rc = posix_spawnattr_setsigdefault(&at, &def);
	if (!rc)
		rc = posix_spawnattr_setflags(&at, flags);
	if (!rc) {
		char *const *argv = (char *const *)o->argv;
		const char *prog = o->path ? o->path : argv[0];
		rc = posix_spawnp(pid, prog, &fa, &at, argv, o->env ? o->env : environ);
	}
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

int kf_run(const kf_run_opts *o, kf_diags *d)
{
	int op[2] = {-1, -1}, ep[2] = {-1, -1};
	bool shared = o->out && o->out == o->err;
	if (((o->out || o->line_fn) && pipe2(op, O_CLOEXEC) < 0) ||
	    (o->err && !shared && pipe2(ep, O_CLOEXEC) < 0)) {
		kf_diag_add(d, KF_ERROR, NULL, 0, 0, "cannot run %s: %s", o->argv[0],
			    strerror(errno));
		for (int i = 0; i < 2; i++) {
			if (op[i] >= 0)
				close(op[i]);
			if (ep[i] >= 0)
				close(ep[i]);
		}
		return -1;
	}
	pid_t pid;
	int err = 0;
	bool unexecutable = false; /* as child()'s exit 127 */
	if (o->die_with_parent) {
		pid_t parent = getpid();
		pid = fork();
		if (pid == 0)
			child(o, op[1], shared ? op[1] : ep[1], parent);
		err = errno;
	} else {
		err = spawn(o, op[1], shared ? op[1] : ep[1], &pid);
		if (err) {
			pid = -1;
			unexecutable = err != EAGAIN && err != ENOMEM;
		}
	}
	if (op[1] >= 0)
		close(op[1]);
	if (ep[1] >= 0)
		close(ep[1]);
	if (unexecutable) {
		if (op[0] >= 0)
			close(op[0]);
		if (ep[0] >= 0)
			close(ep[0]);
		if (o->termsig)
			*o->termsig = 0;
		if (o->timed_out)
			*o->timed_out = false;
		errno = err;
		return 127;
	}
	if (pid < 0) {
		if (op[0] >= 0)
			close(op[0]);
		if (ep[0] >= 0)
			close(ep[0]);
		kf_diag_add(d, KF_ERROR, NULL, 0, 0, "cannot run %s: %s", o->argv[0],
			    strerror(err));
		return -1;
	}
	if (o->timeout_ms > 0)
		setpgid(pid, pid); /* also here: no race with the child's own */

	struct pollfd pf[2];
	kf_strbuf *sink[2];
	size_t limit[2];
	kf_strbuf part = KF_STRBUF_INIT; /* a line of stdout not yet ended */
	kf_strbuf *parts[2] = {NULL, NULL};
	int npf = 0;
	if (op[0] >= 0) {
		pf[npf] = (struct pollfd){.fd = op[0], .events = POLLIN};
		parts[npf] = o->line_fn ? &part : NULL;
		limit[npf] = o->max;
		sink[npf++] = o->out;
	}
	if (ep[0] >= 0) {
		pf[npf] = (struct pollfd){.fd = ep[0], .events = POLLIN};
		limit[npf] = o->max_err ? o->max_err : o->max;
		sink[npf++] = o->err;
	}
	long long deadline = o->timeout_ms > 0 ? now_ms() + o->timeout_ms : 0;
	bool killed = false;
	int open_fds = npf;
	while (open_fds > 0 || (deadline && !killed)) {
		int wait = -1;
		if (deadline && !killed) {
			long long left = deadline - now_ms();
			wait = left > 0 ? (int)left : 0;
		}
		int r = open_fds > 0 ? poll(pf, (nfds_t)npf, wait) : 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 && deadline && !killed && now_ms() >= deadline) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			killed = true;
			continue;
		}
		if (open_fds == 0) {
			/* no output to wait for: wait for the exit, up to the
			 * time limit */
			int st;
			pid_t w = waitpid(pid, &st, WNOHANG);
			if (w == pid) {
				int code = WIFEXITED(st) ? WEXITSTATUS(st)
				       : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
				if (o->termsig)
					*o->termsig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
				if (o->timed_out)
					*o->timed_out = false;
				kf_strbuf_release(&part);
				return code;
			}
			struct timespec ts = {0, 10 * 1000000};
			nanosleep(&ts, NULL);
			continue;
		}
		for (int i = 0; i < npf; i++) {
			if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (!drain(pf[i].fd, sink[i], limit[i], o, parts[i]) ||
			    (o->stop_at_max && sink[i] && sink[i] == o->out && o->max &&
			     o->out->len >= o->max)) {
				close(pf[i].fd);
				pf[i].fd = -1;
				open_fds--;
			}
		}
	}
	kf_strbuf_release(&part);
	int st;
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			kf_diag_add(d, KF_ERROR, NULL, 0, 0, "cannot wait for %s: %s",
				    o->argv[0], strerror(errno));
			return -1;
		}
	}
	if (killed)
		kf_diag_add(d, KF_ERROR, NULL, 0, 0, "%s: killed after %d ms", o->argv[0],
			    o->timeout_ms);
	if (o->termsig)
		*o->termsig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	if (o->timed_out)
		*o->timed_out = killed;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	/* a failure does not stop the walk: remove what can be removed */
	if (flag == FTW_DP || flag == FTW_DNR)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

int kf_remove_tree(const char *path)
{
	if (nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) < 0 && errno != ENOENT)
		return -1;
	struct stat st;
	if (lstat(path, &st) == 0) {
		errno = ENOTEMPTY;
		return -1;
	}
	return 0;
}

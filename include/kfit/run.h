/*
 * run.h - running another program: fork, exec, capture, time limit, and
 * removing the scratch directory it worked in.  The one place in libkfit
 * that starts processes (no system(), no shell unless the caller runs
 * "/bin/sh -c" itself).  Nothing here prints or exits.
 */
#ifndef KFIT_RUN_H
#define KFIT_RUN_H

#include "kfit/util.h"

typedef struct kf_run_opts {
	const char *const *argv; /* program and arguments, NULL-terminated;
				    argv[0] is looked up in PATH unless it
				    has a '/' */
	const char *path;        /* the program to run, NULL: argv[0] (popen
				    runs /bin/sh with argv[0] "sh", which
				    the shell's messages name) */
	char *const *env;        /* the environment, NULL: this process's */
	const char *cwd;         /* directory to run in, NULL: this one */
	kf_strbuf *out;          /* standard output appended here, NULL:
				    /dev/null */
	kf_strbuf *err;          /* standard error appended here (may be the
				    same buffer as out), NULL: /dev/null */
	size_t max;              /* keep at most this many bytes in out and
				    in err (the rest is read and dropped),
				    0: no limit */
	size_t max_err;          /* keep at most this many bytes in err
				    when it is its own buffer, 0: as max */
	int timeout_ms;          /* kill the command (and what it started)
				    after this long, 0: no limit */
	bool stop_at_max;        /* close standard output once max bytes
				    are read, as popen() + fread() +
				    pclose() do: a command that writes
				    forever ends (SIGPIPE) */
	bool inherit_err;        /* standard error goes where ours goes
				    (err must be NULL) */
	bool die_with_parent;    /* SIGKILL the command when kfit dies */
	int *termsig;            /* when set: the signal that ended the
				    command, 0 when it exited */
	bool *timed_out;         /* when set: true when timeout_ms ended it */
	/* called with each line of standard output (without its newline)
	 * as it arrives, also when out is NULL: a long build's progress */
	void (*line_fn)(const char *line, void *ctx);
	void *line_ctx;          /* passed to line_fn */
} kf_run_opts;

/*
 * Run a command with standard input from /dev/null and wait for it.
 * Returns its exit status (0-255), 128 + the signal that ended it (a
 * timeout ends it with SIGKILL and adds an error), or -1 with an error in d
 * when it could not be started (no such program: exit status 127 from the
 * child, as a shell reports it).
 */
int kf_run(const kf_run_opts *o, kf_diags *d);

/* rm -rf: remove path and everything below it, without following
 * symbolic links.  Returns 0, or -1 with errno set (what could be removed
 * is removed). */
int kf_remove_tree(const char *path);

#endif

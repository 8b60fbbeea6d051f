/*
 * rootfs.h - reading a machine snapshot (`detect --root DIR`) as chroot
 * would see it, without letting the snapshot reach outside DIR or block
 * kfit.  A snapshot is data somebody else made: its symbolic links are
 * resolved inside DIR (an absolute target starts at DIR, ".." stops at
 * DIR), and only regular files of bounded size are read (a FIFO, a device
 * or a socket where a file should be is skipped, never opened for a
 * blocking read).
 */
#ifndef KFIT_ROOTFS_H
#define KFIT_ROOTFS_H

#include "kfit/util.h"

/*
 * ROOT/REL with every symbolic link in REL resolved inside ROOT (the last
 * component too when follow_last), as a path with no link left in it
 * below ROOT; a component that does not exist ends the resolution (the
 * path then does not exist either).  ROOT "/" (this machine) is taken
 * as it is.  The caller frees the result.
 */
char *kf_root_path(const char *root, const char *rel, bool follow_last);

/* True when path is a regular file (stat, without opening it). */
bool kf_root_regular(const char *path);

/*
 * Read a regular file of at most max bytes into out (replacing what it
 * held).  Opened without blocking and checked with fstat before a byte is
 * read.  Returns 0, or -1 (not a regular file, larger than max,
 * unreadable) with out empty.
 */
int kf_root_read(const char *path, size_t max, kf_strbuf *out);
/* The bound detect uses: far above any sysfs, proc or /etc text file. */
#define KF_ROOT_READ_MAX ((size_t)16 << 20)

#endif

/*
 * rootfs.c - a machine snapshot read as chroot would see it (see
 * include/kfit/rootfs.h): links resolved inside the root, regular files
 * only, bounded reads.
 */
#include "kfit/rootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Links followed while resolving one path (the kernel's limit). */
#define MAX_LINKS 40

/* Drop the last component of the resolved part (never above the root). */
static void pop(kf_strbuf *res)
{
	char *s = strrchr(kf_strbuf_str(res), '/');
	if (!s)
		return;
	res->len = (size_t)(s - res->buf);
	res->buf[res->len] = 0;
}

char *kf_root_path(const char *root, const char *rel, bool follow_last)
{
	size_t rl = strlen(root);
	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	if (rl == 1 && root[0] == '/')
		return kf_xasprintf("/%s", rel[0] == '/' ? rel + 1 : rel);

	/* res: "" or "/a/b" below the root; todo: what is left to resolve */
	kf_strbuf res = KF_STRBUF_INIT, todo = KF_STRBUF_INIT;
	kf_strbuf_addstr(&res, "");
	kf_strbuf_addstr(&todo, rel);
	int links = 0;
	size_t pos = 0;
	while (pos < todo.len) {
		const char *p = todo.buf + pos;
		size_t n = strcspn(p, "/");
		size_t next = pos + n + (p[n] == '/');
		bool last = next >= todo.len;
		if (n == 0 || (n == 1 && p[0] == '.')) {
			pos = next;
			continue;
		}
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			pop(&res);
			pos = next;
			continue;
		}
		size_t before = res.len;
		kf_strbuf_addch(&res, '/');
		kf_strbuf_add(&res, p, n);
		if (last && !follow_last) {
			pos = next;
			continue;
		}
		char *full = kf_xasprintf("%.*s%s", (int)rl, root, res.buf);
		struct stat st;
		if (lstat(full, &st) < 0) {
			/* missing: the rest cannot exist either */
			free(full);
			if (!last) {
				kf_strbuf_addch(&res, '/');
				kf_strbuf_addstr(&res, todo.buf + next);
			}
			break;
		}
		if (!S_ISLNK(st.st_mode)) {
			free(full);
			pos = next;
			continue;
		}
		char target[PATH_MAX];
		ssize_t tl = readlink(full, target, sizeof(target) - 1);
		free(full);
		if (tl <= 0 || ++links > MAX_LINKS) {
			/* unreadable or a loop: a path that does not exist */
			kf_strbuf_addstr(&res, "/.kfit-unresolvable-link");
			break;
		}
		target[tl] = 0;
		res.len = before;
		res.buf[res.len] = 0;
		if (target[0] == '/') {
			res.len = 0;
			res.buf[0] = 0;
		}
		/* the link's target, then what followed the link */
		kf_strbuf rest = KF_STRBUF_INIT;
		kf_strbuf_addstr(&rest, target);
		if (!last) {
			kf_strbuf_addch(&rest, '/');
			kf_strbuf_addstr(&rest, todo.buf + next);
		}
		kf_strbuf_release(&todo);
		todo = rest;
		pos = 0;
	}
	char *r = kf_xasprintf("%.*s%s", (int)rl, root, res.len ? res.buf : "/");
	kf_strbuf_release(&res);
	kf_strbuf_release(&todo);
	return r;
}

bool kf_root_regular(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int kf_root_read(const char *path, size_t max, kf_strbuf *out)
{
	kf_strbuf_reset(out);
	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	kf_strbuf_grow(out, 4096);
	for (;;) {
		kf_strbuf_grow(out, 65536);
		ssize_t r = read(fd, out->buf + out->len, out->alloc - out->len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || out->len + (size_t)r > max) {
			close(fd);
			kf_strbuf_reset(out);
			return -1;
		}
		if (r == 0)
			break;
		out->len += (size_t)r;
		out->buf[out->len] = 0;
	}
	close(fd);
	return 0;
}

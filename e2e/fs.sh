# fs.sh - sourced by the e2e scripts that build root directories.
#
# remove_tree DIR...: remove each DIR the safe way.  A run killed inside
# mmdebstrap or a chroot leaves /proc, /sys, /dev/pts and /dev/shm mounted
# below its root directory; a plain rm -rf would descend into them (and
# fail on sysfs, or empty a tmpfs).  Everything mounted at or below DIR is
# unmounted first (deepest first, lazily when busy), then DIR is removed
# without crossing into any file system still mounted there.
remove_tree() {
	for rt_dir in "$@"; do
		[ -e "$rt_dir" ] || continue
		rt_abs=$(readlink -f -- "$rt_dir")
		awk -v d="$rt_abs" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/mounts |
			sort -r | while IFS= read -r rt_m; do
				umount "$rt_m" 2>/dev/null || umount -l "$rt_m"
			done
		rm -rf --one-file-system -- "$rt_dir"
	done
}

#!/bin/sh
# valgrind-kfit.sh - stands in for kfit under `make valgrind`: runs the
# real binary ($KFIT_REAL) under valgrind; memory errors and definite
# leaks make it exit 99, which the tests report as a failure.  Called
# through a link of another name (a case's link named conf, which kfit
# runs as `kfit conf` and names in its usage text), the real binary must
# run under that very path: the link is pointed at it for the run and
# back at this script after.
real=${KFIT_REAL:?KFIT_REAL not set}
if [ "${0##*/}" = valgrind-kfit.sh ] || ! [ -L "$0" ]; then
	exec valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite "$real" "$@"
fi
self=$(readlink "$0")
ln -sfn "$real" "$0" || exit 2
valgrind -q --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite "$0" "$@"
rc=$?
ln -sfn "$self" "$0"
exit "$rc"

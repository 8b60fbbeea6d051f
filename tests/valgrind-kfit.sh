#!/bin/sh
# valgrind-kfit.sh - stands in for kfit under `make valgrind`: runs the
# real binary ($KFIT_REAL) under valgrind; memory errors and definite
# leaks make it exit 99, which the tests report as a failure.
exec valgrind -q --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite "${KFIT_REAL:?KFIT_REAL not set}" "$@"

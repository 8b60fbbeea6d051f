#!/bin/bash
# bin/oracle-as-kfit.sh - stands in for `kfit kconfig` when the compat suite
# checks itself (KFIT_COMPAT_SELFTEST=1): takes kfit's command line
#
#   oracle-as-kfit.sh kconfig [-k DIR] [-a ARCH] [-c FILE] MODE [FILE]
#
# and runs the kernel's own make for it, so every compat case must pass.
# Uses O dir slot "st$KFIT_ORACLE_SLOT" so it never shares one with the
# oracle side running in parallel.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)

[ "${1:-}" = kconfig ] || { echo "oracle-as-kfit: only 'kconfig' is known" >&2; exit 2; }
shift
tree=$PWD arch=x86 config=${KCONFIG_CONFIG:-}
while [ $# -gt 0 ]; do
	case $1 in
	-k) tree=$2; shift 2 ;;
	-a) arch=$2; shift 2 ;;
	-c) config=$2; shift 2 ;;
	-*) echo "oracle-as-kfit: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
mode=${1:?oracle-as-kfit: no mode}
file=${2:-}
[ -n "$config" ] || config=$tree/.config
config=$(readlink -m -- "$config")
odir=$("$root/scripts/oracle.sh" "$tree" "$arch" "st${KFIT_ORACLE_SLOT:-0}") || exit 2

target=$mode
case $mode in
defconfig)
	if [ -n "$file" ]; then
		case $file in
		"$tree"/arch/*/configs/*) target=${file##*/} ;;
		*) echo "oracle-as-kfit: defconfig FILE must be in the tree's arch/*/configs" >&2; exit 2 ;;
		esac
	fi
	;;
savedefconfig)
	[ -n "$file" ] || { echo "oracle-as-kfit: savedefconfig needs FILE" >&2; exit 2; }
	file=$(readlink -m -- "$file")
	;;
esac

# kfit takes CC from its environment as make takes it from its command line
mvars=()
[ -n "${CC:-}" ] && mvars+=(CC="$CC")

rm -f "$odir/defconfig"
if [ "$mode" = tinyconfig ]; then
	# as the compat oracle does: 6.1's tiny.config rule works on O/.config
	rm -f "$odir/.config" "$odir/.config.old"
	[ -e "$config" ] && cp "$config" "$odir/.config"
	err=$(mktemp)
	make -s -C "$tree" O="$odir" ARCH="$arch" "${mvars[@]}" "$target" 2>"$err"
	rc=$?
	# conf names the file as it was given: .config; kfit names -c FILE
	sed -E -e "s|$odir/\.config|$config|g" -e "s|^\.config:|$config:|" "$err" >&2
	rm -f "$err"
	[ $rc = 0 ] && cp "$odir/.config" "$config"
	rm -f "$odir/.config" "$odir/.config.old"
else
	make -s -C "$tree" O="$odir" ARCH="$arch" "${mvars[@]}" KCONFIG_CONFIG="$config" "$target"
	rc=$?
fi
if [ "$mode" = savedefconfig ] && [ $rc = 0 ]; then
	mv "$odir/defconfig" "$file"
fi
exit $rc

#!/bin/bash
# generate-matrix.sh - `kfit generate` over distro and platform profiles on
# the 5.10, 6.1, 6.12 and 7.3 trees, from allnoconfig and from defconfig.
# For each combination:
#   1. generate exits 0 and its --check-minimal pass finds no change that
#      could go back to the base value (the minimality property);
#   2. `kfit check` finds every `require` of those profiles met;
#   3. the result is a fixpoint of the kernel's own `make olddefconfig`
#      (the tree's conf, built by scripts/oracle.sh).
# make check runs a sample in which every distro, feature and platform
# profile appears at least once; KFIT_TEST_FULL=1 (make check-full) runs
# every distro alone and with each platform, on the 5.10, 6.1, 6.12 and 7.3
# trees, from both bases.
set -uo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$ROOT/build}
KFIT=${KFIT:-$BUILD/kfit}
FILTER=${KFIT_TEST_FILTER:-}
JOBS=${KFIT_TEST_JOBS:-2}
unset MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES

mapfile -t distros < <("$KFIT" profiles 2>/dev/null | awk '$2 == "distro" {print $1}')
mapfile -t platforms < <("$KFIT" profiles 2>/dev/null | awk '$2 == "platform" {print $1}')
mapfile -t features < <("$KFIT" profiles 2>/dev/null | awk '$2 == "feature" {print $1}')
if [ ${#distros[@]} -eq 0 ]; then
	echo "not ok generate-matrix/profiles"
	echo "  kfit profiles lists no distro profiles"
	exit 0
fi

# the sample and the full matrix run on every supported tree
versions=(5.10 6.1 6.12 7.3)
declare -A tree
for v in "${versions[@]}"; do
	tree[$v]=$("$ROOT/scripts/kernel-tree.sh" "$v" 2>/dev/null) || {
		# make deps fetches every tree: one missing is a failure
		echo "not ok generate-matrix/$v"
		echo "  linux-source-$v is not installed (make deps fetches it)"
		continue
	}
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cases=$work/cases
: >"$cases"
add() { # name ver base profiles...
	local name=$1
	[ -n "${tree[$2]:-}" ] || return 0
	if [ -n "$FILTER" ] && ! [[ compat/generate-matrix/$name =~ $FILTER ]]; then
		return 0
	fi
	echo "$*" >>"$cases"
}

if [ -n "${KFIT_TEST_FULL:-}" ]; then
	for v in "${versions[@]}"; do
		for b in allnoconfig defconfig; do
			for d in "${distros[@]}"; do
				add "$v-$b-$d" "$v" "$b" "$d"
				for p in "${platforms[@]}"; do
					add "$v-$b-$d+$p" "$v" "$b" "$d" "$p"
				done
			done
		done
	done
else
	# the sample's distros: every release that brings something of its
	# own (requirements, drops, another LSM or firewall), the oldest and
	# newest of each family and every unnumbered one; a release that only
	# moves its systemd and kernel versions is left to the full matrix
	sample=()
	declare -A slots=()
	for d in "${distros[@]}"; do
		slots[$d]=$("$KFIT" profiles show "$d" --json 2>/dev/null |
			jq -r --arg d "$d" '[.lsm, .firewall, .profiles[0].inherit // "",
				([.requirements[] | select(.profile == $d)] | length)] | map(tostring) | join(" ")')
	done
	for d in "${distros[@]}"; do
		read -r lsm fw parent own <<<"${slots[$d]}"
		fam=${d%-*}
		newest=$(printf '%s\n' "${distros[@]}" | grep -E "^$fam-[0-9][0-9.]*$" | sort -V | tail -n 1)
		if [ -z "$parent" ] || [ "$own" != 0 ] || [ "$d" = "$newest" ] ||
			! [[ $d =~ -[0-9][0-9.]*$ ]] ||
			[ "$lsm $fw" != "$(cut -d' ' -f1-2 <<<"${slots[$parent]:-}")" ]; then
			sample+=("$d")
		fi
	done
	# at most 8 cases (each runs the kernel's make olddefconfig): a
	# sample spread evenly over those releases; make check-full has all
	max=8
	distros=()
	ns=${#sample[@]}
	if [ "$ns" -le $max ]; then
		distros=("${sample[@]}")
	else
		for ((k = 0; k < max; k++)); do distros+=("${sample[$((k * ns / max))]}"); done
	fi
	# every sampled distro once, in turn on each tree (6.12, 6.1, 7.3,
	# 5.10), the base changing with each round of trees; platforms and
	# features ride along (as many per case as it takes), so every
	# platform and feature profile appears at least once
	i=0
	np=${#platforms[@]}
	nf=${#features[@]}
	nd=${#distros[@]}
	rot=(6.12 6.1 7.3 5.10)
	for d in "${distros[@]}"; do
		v=${rot[$((i % 4))]}
		b=$([ $((i / 4 % 2)) -eq 0 ] && echo allnoconfig || echo defconfig)
		extra=()
		for ((k = i; k < np; k += nd)); do extra+=("${platforms[$k]}"); done
		for ((k = i; k < nf; k += nd)); do extra+=("${features[$k]}"); done
		name="$v-$b-$d"
		for e in "${extra[@]}"; do name+="+$e"; done
		add "$name" "$v" "$b" "$d" "${extra[@]}"
		i=$((i + 1))
	done
fi

run_one() { # name ver base profiles...
	local name=$1 v=$2 base=$3
	shift 3
	local t=${tree[$v]} d=$work/$name ps=()
	mkdir -p "$d"
	for p in "$@"; do ps+=(-p "$p"); done
	local out
	out=$("$KFIT" generate -k "$t" -a x86_64 "${ps[@]}" --base "$base" \
		-o "$d/config" --check-minimal 2>&1)
	local rc=$?
	if [ $rc -ne 0 ]; then
		echo "not ok $name"
		echo "  kfit generate exited $rc"
		printf '%s\n' "$out" | grep -E 'error|cannot' | head -5 | sed 's/^/  /'
		return
	fi
	if ! grep -q '^kfit: minimal:' <<<"$out"; then
		echo "not ok $name"
		echo "  the minimality check did not run"
		return
	fi
	out=$("$KFIT" check "${ps[@]}" "$d/config" 2>&1)
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "not ok $name"
		echo "  kfit check exited $rc on the generated config"
		printf '%s\n' "$out" | grep -v '^warning' | head -5 | sed 's/^/  /'
		return
	fi
	# one oracle build dir per parallel slot, held while make runs
	local odir slot fd
	for slot in $(seq 0 $((JOBS - 1))) 0; do
		exec {fd}>"$work/slot$slot.lock"
		if [ "$slot" = 0 ] && [ -n "${tried_all:-}" ]; then
			flock "$fd"
			break
		fi
		flock -n "$fd" && break
		exec {fd}>&-
		[ "$slot" = $((JOBS - 1)) ] && tried_all=1
	done
	odir=$("$ROOT/scripts/oracle.sh" "$t" x86_64 "gm$slot" 2>/dev/null | tail -1)
	cp "$d/config" "$d/kernel"
	if ! make -s -C "$t" O="$odir" ARCH=x86_64 KCONFIG_CONFIG="$d/kernel" \
		olddefconfig >/dev/null 2>&1; then
		echo "not ok $name"
		echo "  the kernel's make olddefconfig failed"
		exec {fd}>&-
		return
	fi
	exec {fd}>&-
	if ! cmp -s "$d/config" "$d/kernel"; then
		echo "not ok $name"
		echo "  not a fixpoint of the kernel's olddefconfig:"
		diff "$d/config" "$d/kernel" | head -6 | sed 's/^/  /'
		return
	fi
	echo "ok $name"
	rm -rf "$d"
}
export -f run_one
export KFIT ROOT work JOBS
for v in 5.10 6.1 6.12 7.3; do export "TREE_${v//./_}=${tree[$v]:-}"; done

# run in parallel; each worker re-creates the tree map from the exports
while read -r line; do printf '%s\n' "$line"; done <"$cases" |
	xargs -P "$JOBS" -I{} bash -c '
		declare -A tree=([5.10]="$TREE_5_10" [6.1]="$TREE_6_1"
			[6.12]="$TREE_6_12" [7.3]="$TREE_7_3")
		run_one {}'

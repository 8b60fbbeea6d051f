# section.sh - sourced by the e2e report scripts: each owns one marked
# section of docs/e2e.md, between the lines $begin and $end, so that a
# report made on a machine without the other harnesses' caches leaves their
# sections as they are.
#
#   write_section FILE   replaces FILE's section with the caller's
#                        `section` function's output (which prints $begin
#                        and $end itself), or appends it when FILE has none;
#                        written to a temp file beside FILE and renamed;
#                        this machine's paths in it become CACHE (kfit's
#                        cache directory) and ~ (the home directory)
section_paths() {
	local kc=${KFIT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kfit}
	sed -e "s|$kc|CACHE|g" -e "s|$HOME/|~/|g"
}
write_section() {
	local file=$1 tmp=$1.tmp.$$
	if grep -qxF "$begin" "$file" 2>/dev/null; then
		section | section_paths >"$tmp.sec"
		awk -v b="$begin" -v e="$end" -v sec="$tmp.sec" '
			$0 == b { while ((getline l < sec) > 0) print l; skip = 1; next }
			$0 == e { skip = 0; next }
			!skip' "$file" >"$tmp"
		rm -f "$tmp.sec"
	else
		{
			[ ! -f "$file" ] || cat "$file"
			echo
			section | section_paths
		} >"$tmp"
	fi
	mv "$tmp" "$file"
}

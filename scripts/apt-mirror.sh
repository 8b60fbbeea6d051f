#!/bin/bash
# apt-mirror.sh - print the machine's Debian mirror: the first archive URI
# its apt configuration names for a Debian suite (not a -security one) in
# /etc/apt/sources.list, /etc/apt/sources.list.d/*.list (one-line form)
# and /etc/apt/sources.list.d/*.sources (deb822 form, Enabled: no
# skipped).  kfit's scripts take the mirror from here only: nothing in the
# project names an archive host.  Without one: a message and exit 1.
#
#   scripts/apt-mirror.sh          the URI, e.g. http://HOST/debian
#
# KFIT_APT_ETC replaces /etc/apt (tests).
set -u
etc=${KFIT_APT_ETC:-/etc/apt}
debian='^(buster|bullseye|bookworm|trixie|forky|duke|sid|oldoldstable|oldstable|stable|testing|unstable)(-updates|-backports|-proposed-updates)?$'

# "URI SUITE" for every deb entry of the one-line files
one_line() {
	sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$@" 2>/dev/null |
		awk '$1 == "deb" && NF >= 3 { print $2, $3 }'
}

# "URI SUITE" for every deb entry of the deb822 files
deb822() {
	local f
	for f in "$@"; do
		[ -f "$f" ] || continue
		awk '
		function flush(   i, j, nu, ns, u, s) {
			if (types ~ /(^| )deb( |$)/ && enabled != "no") {
				nu = split(uris, u, " "); ns = split(suites, s, " ")
				for (i = 1; i <= nu; i++)
					for (j = 1; j <= ns; j++)
						print u[i], s[j]
			}
			types = uris = suites = enabled = ""
		}
		/^[ \t]*#/ { next }
		/^[ \t]*$/ { flush(); next }
		{
			k = tolower($1); sub(/:$/, "", k); v = $0; sub(/^[^:]*:[ \t]*/, "", v)
			if (k == "types") types = v
			else if (k == "uris") uris = v
			else if (k == "suites") suites = v
			else if (k == "enabled") enabled = tolower(v)
		}
		END { flush() }' "$f"
	done
}

shopt -s nullglob
{
	one_line "$etc/sources.list" "$etc"/sources.list.d/*.list
	deb822 "$etc"/sources.list.d/*.sources
} | awk -v re="$debian" '$2 ~ re && $1 !~ /security/ { print $1; found = 1; exit }
	END { exit !found }' && exit 0
echo "apt-mirror.sh: no Debian mirror in the machine's apt configuration" \
	"($etc/sources.list, $etc/sources.list.d/*.list or *.sources):" \
	"add a 'deb URI SUITE main' line for a Debian suite there" >&2
exit 1

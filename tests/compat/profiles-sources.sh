#!/bin/bash
# profiles-sources.sh - every requirement whose source has a pinned copy
# in tests/data/requirements agrees with it: each option it names occurs
# in one of its pinned sources (for A || B, at least one alternative), and
# each phrase its reason quotes ("...") occurs in one of them when every
# source is pinned (whitespace and case aside).  One line per requirement
# with a pinned source, named by file:line; plus every-statement-shown:
# each require/recommend line in profiles/ is shown by some profile.
# scripts/profiles-audit.py --check does the work (its docstring has the
# rules); docs/profiles-audit.md is the same check written out.
set -uo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
KFIT=${KFIT:-$ROOT/build/kfit}
cd "$ROOT" || exit 2
python3 scripts/profiles-audit.py --check "$KFIT" || echo "not ok profiles-audit-check"

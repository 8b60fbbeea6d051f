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

# The WEAK patterns of --check, on the kinds of source blind samples found
# stating no claim (docs/profiles-audit-sample-5.md) and on their neighbours
# that do: "weak" must be flagged, "ok" must not.
python3 - <<'PY' || echo "not ok weak-patterns"
import importlib.util
spec = importlib.util.spec_from_file_location("audit", "scripts/profiles-audit.py")
audit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(audit)
MS = "https://learn.microsoft.com/en-us/windows-server/virtualization/hyper-v/"
cases = [
    ("overview", "weak", [MS + "supported-linux-and-freebsd-virtual-machines-for-hyper-v-on-windows"]),
    ("feature-page", "ok", [MS + "feature-descriptions-for-linux-and-freebsd-virtual-machines-on-hyper-v"]),
    ("readme", "weak", ["https://github.com/vmware/open-vm-tools/blob/master/README.md"]),
    ("readme-section", "ok", ["https://github.com/containers/bubblewrap/blob/00ab4b3/README.md#user-namespaces"]),
    ("systemd-readme", "ok", ["https://github.com/systemd/systemd/blob/v256/README"]),
    ("tutorial-alone", "weak", ["https://github.com/containers/podman/blob/main/docs/tutorials/rootless_tutorial.md"]),
    ("tutorial-beside", "ok", ["https://github.com/containers/podman/blob/main/docs/tutorials/rootless_tutorial.md",
                               "include/net/net_namespace.h"]),
    ("index", "weak", ["Documentation/admin-guide/index.rst"]),
    ("kconfig", "ok", ["drivers/hv/Kconfig (HYPERV_BALLOON: \"Microsoft Hyper-V Balloon driver\")"]),
]
for name, want, srcs in cases:
    got = "weak" if audit.weak_sources({"sources": srcs}) else "ok"
    print(("ok" if got == want else "not ok") + " weak-patterns/" + name)
    if got != want:
        print("  %s: expected %s, got %s" % (srcs[0], want, got))
PY

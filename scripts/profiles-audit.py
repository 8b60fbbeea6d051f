#!/usr/bin/env python3
"""profiles-audit.py [--check] [KFIT] - the verification record of the
profile database.

Without --check it prints docs/profiles-audit.md: every requirement
statement of profiles/ (each `require`/`recommend` line, template lines
once) with its file:line, level, kernel range, userspace range, sources,
`unverified` flag, and how its claim was checked against a pinned copy of
its source.  The document is its committed output:

    scripts/profiles-audit.py build/kfit >docs/profiles-audit.md

(`make profiles-audit`); tests/cases/profiles-audit-current fails when it
is stale.

With --check it prints one "ok NAME" / "not ok NAME" line per requirement
that has a pinned source (the protocol of tests/run.sh): every option the
requirement names occurs in at least one of its pinned sources, and the
words its reason quotes ("...") occur in one of them when every source
is pinned.  tests/compat/profiles-sources.sh runs it.

What kfit says about a requirement (level, expression, kernel range,
sources, unverified) comes from `kfit profiles show NAME --json` of every
profile (template systemd-N for every N it covers up to the newest pinned
README, so its userspace range is where the line applies); only the
`systemd>=N`-style qualifiers and `reviewed` are read from the line as
written.  Pinned copies live in tests/data/requirements (SOURCES.md there
gives origin, commit and blob of each).
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "requirements")

# README typo the test of systemd's README knows too (v220-v236)
TYPO = {"EXT4_POSIX_ACL": "EXT4_FS_POSIX_ACL"}


def run_json(kfit, *args):
    # the database of this checkout, whichever kfit runs (an installed one
    # reads its own share/kfit/profiles)
    out = subprocess.run([kfit, *args, "--profiles", "profiles", "--json"], cwd=ROOT, check=True,
                         stdout=subprocess.PIPE).stdout
    return json.loads(out)


def readme_copies():
    """{N: path} of the pinned systemd README copies."""
    res = {}
    for f in os.listdir(DATA):
        m = re.fullmatch(r"systemd-README-v(\d+)\.txt", f)
        if m:
            res[int(m.group(1))] = os.path.join(DATA, f)
    return res


READMES = readme_copies()
NEWEST = max(READMES) if READMES else 0


def pinned_copy(url):
    """(label, path) of the pinned copy of a source, or None."""
    m = re.fullmatch(r"https://github\.com/systemd/systemd/blob/v(\d+)/README", url)
    if m:
        n = int(m.group(1))
        older = [v for v in READMES if v <= n]
        if not older:
            return None
        v = max(older)
        return ("systemd README v%d" % n, READMES[v])
    m = re.fullmatch(r"https://github\.com/systemd/systemd/blob/v(\d+)/NEWS", url)
    if m:
        p = os.path.join(DATA, "systemd-NEWS-v%s.txt" % m.group(1))
        if os.path.exists(p):
            return ("systemd NEWS %s" % m.group(1), p)
        return None
    fixed = {
        "https://github.com/moby/moby/blob/master/contrib/check-config.sh":
            ("moby check-config.sh", "moby-check-config.sh"),
        "https://github.com/lxc/lxc/blob/main/src/lxc/cmd/lxc-checkconfig.in":
            ("lxc-checkconfig", "lxc-checkconfig.in"),
        # the commits the pinned copies were taken from (tests/data/requirements/SOURCES.md)
        "https://github.com/moby/moby/blob/b985e2313a8676e18072b442911fc8f64f17d440/contrib/check-config.sh":
            ("moby check-config.sh", "moby-check-config.sh"),
        "https://github.com/lxc/lxc/blob/e7b855a51b81a6a562d121aa60e8581993beb203/src/lxc/cmd/lxc-checkconfig.in":
            ("lxc-checkconfig", "lxc-checkconfig.in"),
        "https://gitweb.gentoo.org/proj/linux-patches.git/tree/4567_distro-Gentoo-Kconfig.patch":
            ("Gentoo Kconfig patch", "gentoo-4567_distro-Gentoo-Kconfig.patch"),
        "https://github.com/jessesimpson36/linux-patches/blob/1a5d2fd0f3bd79bfd48931a66769eb206c2007ea/4567_distro-Gentoo-Kconfig.patch":
            ("Gentoo Kconfig patch", "gentoo-4567_distro-Gentoo-Kconfig.patch"),
    }
    if url in fixed:
        label, f = fixed[url]
        return (label, os.path.join(DATA, f))
    return None


_texts = {}


def text_of(path):
    if path not in _texts:
        with open(path, encoding="utf-8") as f:
            _texts[path] = f.read()
    return _texts[path]


def option_words(path):
    """{SYM: first line} for every option word the document names: CONFIG_X
    (README braces expanded: CONFIG_{A,B}_POSIX_ACL), or any upper-case word
    (a check-config.sh flag, lxc's `is_enabled X`, a Kconfig `select X`)."""
    key = ("words", path)
    if key in _texts:
        return _texts[key]
    words = {}
    for no, line in enumerate(text_of(path).splitlines(), 1):
        toks = re.findall(r"CONFIG_([A-Za-z0-9_]*(?:\{[^}]*\})?[A-Za-z0-9_]*)", line)
        toks += re.findall(r"\b([A-Z][A-Z0-9_]{2,})\b", line)
        for t in toks:
            m = re.fullmatch(r"([A-Za-z0-9_]*)\{([^}]*)\}([A-Za-z0-9_]*)", t)
            names = [m.group(1) + p.strip() + m.group(3) for p in m.group(2).split(",")
                     if p.strip() not in ("", "...")] if m else [t]
            for nm in names:
                nm = TYPO.get(nm, nm)
                words.setdefault(nm, no)
    _texts[key] = words
    return words


def context(path, no):
    """Where in the document line no stands, in the document's own words:
    check-config.sh's section ("Generally Necessary"), lxc-checkconfig's
    `yes` (a failure when missing), a README's heading ("Optional but
    strongly recommended"), a Kconfig `config X` it belongs to."""
    lines = text_of(path).splitlines()
    base = os.path.basename(path)
    if base.startswith("moby-"):
        for l in reversed(lines[:no]):
            m = re.match(r"""echo ['"](- )?([A-Z][A-Za-z ]+):""", l)
            if m:
                return m.group(2)
        return ""
    if base.startswith("lxc-"):
        return "is_enabled ... yes (required)" if re.search(r"is_enabled \S+ yes", lines[no - 1]) else "optional"
    if base.endswith(".patch"):
        for l in reversed(lines[:no]):
            m = re.match(r"\+\s*config (\S+)", l)
            if m:
                return "selected by " + m.group(1)
        return ""
    for l in reversed(lines[:no - 1]):
        t = l.strip()
        if not t:
            break
        if "CONFIG_" in t:
            continue
        return t.rstrip(":") if len(t) <= 70 else t[:67].rstrip(":") + "..."
    return ""


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def prose(path):
    """The document as one line of words, lower case (a quote's first word
    may be capitalized in one and not the other); a patch's added lines
    without their '+'."""
    key = ("prose", path)
    if key not in _texts:
        t = text_of(path)
        if path.endswith(".patch"):
            t = re.sub(r"(?m)^\+", "", t)
        _texts[key] = norm(t).lower()
    return _texts[key]


def quotes(reason):
    """Quoted phrases of a reason (two words or more), split at "..."."""
    res = []
    for q in re.findall(r'"([^"]+)"', reason):
        for part in re.split(r"\s*\.\.\.\s*", q):
            part = norm(part)
            if len(part.split()) >= 2:
                res.append(part)
    return res


def renames():
    """{name: set of other names} from profiles/renames.kfit."""
    res = {}
    with open(os.path.join(ROOT, "profiles", "renames.kfit")) as f:
        for line in f:
            m = re.match(r"rename\s+(\S+)\s+(\S+)", line)
            if m:
                a, b = m.groups()
                res.setdefault(a, set()).add(b)
                res.setdefault(b, set()).add(a)
    return res


RENAMES = renames()


def verify(req):
    """(verdict, [how...], ok): how the requirement was checked against the
    pinned copies of its sources; ok False when a pinned copy contradicts
    it (an option or a quote missing)."""
    pinned = [(u, pinned_copy(u)) for u in req["sources"]]
    have = [(u, p) for u, p in pinned if p]
    if not have:
        return ("not pinned", [], True)
    how = []
    ok = True
    syms = [a["name"] for a in req["alternatives"]]
    all_pinned = len(have) == len(pinned)
    nfound = 0
    for s in syms:
        names = {s} | RENAMES.get(s, set())
        found = None
        for u, (label, path) in have:
            w = option_words(path)
            for nm in sorted(names):
                if nm in w:
                    ctx = context(path, w[nm])
                    found = "%s lists %s (%s:%d%s)" % (label, nm, os.path.basename(path), w[nm],
                                                      ', "%s"' % ctx if ctx else "")
                    break
            if found:
                break
        if found:
            nfound += 1
            how.append(found)
        elif len(syms) > 1:
            how.append("alternative %s is in no pinned source" % s)
        elif all_pinned:
            ok = False
            how.append("MISSING: no pinned source names %s (%s)" % (s, ", ".join(l for _, (l, _) in have)))
        else:
            how.append("%s: named by an unpinned source only" % s)
    if len(syms) > 1 and nfound == 0 and all_pinned:
        ok = False
        how.append("MISSING: no pinned source names any alternative")
    for q in quotes(req["reason"]):
        hit = [label for _, (label, path) in have if q.lower() in prose(path)]
        if hit:
            how.append('quote "%s" in %s' % (q if len(q) <= 40 else q[:37] + "...", hit[0]))
        elif all_pinned:
            ok = False
            how.append('MISSING: quote "%s" is in no pinned source' % q)
    return ("checked" if ok else "CONTRADICTED", how, ok)


# A source that does not state a claim by itself: an index page, a whole
# manual, a repository's front page (issue 35 item 5).
WEAK = [
    (re.compile(r"(^|/)index\.(rst|html?)$"), "an index page"),
    (re.compile(r"^https://github\.com/[^/\s]+/[^/\s]+/?$"), "a repository's front page"),
    (re.compile(r"/manual/?$"), "a whole manual"),
    (re.compile(r"^https?://[^/\s]+/?$"), "a site's front page"),
    (re.compile(r"^Documentation/driver-api/"), "a driver-writing guide"),
    # a project's README.md as a whole (blind sample 5: open-vm-tools' README
    # cited for VMCI sockets it never names); a README section (#anchor) may
    # state a claim, and systemd's README (no extension) is its requirement list
    (re.compile(r"/README\.(md|rst|txt|markdown)$", re.I), "a README as a whole"),
    # pages that only link the pages stating the features (sample 5: Hyper-V's
    # "Supported Linux and FreeBSD virtual machines", cited for storvsc,
    # netvsc, hv_utils and hv_balloon)
    (re.compile(r"/supported-linux-and-freebsd-virtual-machines-for-hyper-v-on-windows/?$"),
     "an overview page linking the pages that state the features"),
]

# A tutorial states what its walk-through needs, seldom why an option is
# required (sample 5: podman's rootless tutorial as the source of PID_NS):
# weak when it is a requirement's only source.
WEAK_ALONE = [
    (re.compile(r"/tutorials?/|tutorial[^/]*$", re.I), "a tutorial as the only source"),
]


def weak_sources(req):
    """[(source, why)] of the sources that state no claim by themselves."""
    out = []
    for src in req["sources"]:
        first = src.split(" ")[0]
        for pat, why in WEAK + (WEAK_ALONE if len(req["sources"]) == 1 else []):
            if pat.search(first):
                out.append((src, why))
                break
    return out


MOVING = re.compile(r"/(blob|tree)/(master|main)/|/latest/|/stable/")


def moving_sources(req):
    """The sources read on a branch that moves (master, main, latest): the
    text they point at may change or go (bpftrace's INSTALL.md left master
    in October 2025); a tag, a commit or a versioned page does not."""
    return [s for s in req["sources"] if MOVING.search(s.split(" ")[0])]


def symbol_spans():
    """{SYM: "first..gone"} from profiles/symbols.kfit (the symbol history)."""
    spans = {}
    path = os.path.join(ROOT, "profiles", "symbols.kfit")
    if not os.path.exists(path):
        return spans
    for line in open(path):
        m = re.match(r"symbol (\S+) first(<?=)(\S+)(?: gone(>?=)(\S+))?", line)
        if not m:
            continue
        sym, fe, first, ge, gone = m.groups()
        txt = ("<=" if fe == "<=" else "") + kver(first) + ".." + ((">=" if ge == ">=" else "") + kver(gone) if gone else "")
        spans[sym] = spans[sym] + ", " + txt if sym in spans else txt
    return spans


def raw_statement(path, line):
    """(statement line, reviewed text) as written in the file."""
    with open(os.path.join(ROOT, path)) as f:
        lines = f.read().split("\n")
    stmt = lines[line - 1]
    reviewed = None
    for l in lines[line:]:
        if not l.startswith((" ", "\t")):
            break
        m = re.match(r"\s+reviewed\s+(.*)", l)
        if m:
            reviewed = m.group(1)
    return stmt, reviewed


def kver(v):
    return v[:-2] if v and v.endswith(".0") else v


def kernel_range(w):
    parts = []
    if w.get("kernel_min"):
        parts.append(">=" + kver(w["kernel_min"]))
    if w.get("kernel_below"):
        parts.append("<" + kver(w["kernel_below"]))
    return " ".join(parts) or "any"


def user_range(stmt, profile, tmpl_versions):
    """Userspace range: for a template line, the versions it applies to;
    for other lines the profile (its descendants inherit it)."""
    if tmpl_versions is not None:
        vs = sorted(tmpl_versions)
        stem = profile.rsplit("-", 1)[0]
        lo, hi = vs[0], vs[-1]
        if lo == hi:
            return "%s %d" % (stem, lo)
        return "%s %d..%s" % (stem, lo, "%d" % hi if hi < NEWEST else "")
    return profile


def collect(kfit):
    """({(file, line): requirement}, {(file, line): absent statement})"""
    db = run_json(kfit, "profiles")
    reqs = {}   # (file, line) -> dict
    absents = {}
    order = []
    for p in db["profiles"]:
        names = [p["name"]]
        tmpl = p.get("template")
        if tmpl:
            stem = p["name"][:-2]
            lo = p["versions"]["min"]
            hi = p["versions"]["max"] if p["versions"]["max"] != -1 else NEWEST + 1
            names = ["%s-%d" % (stem, n) for n in range(lo, hi)]
        for name in names:
            show = run_json(kfit, "profiles", "show", name)
            for a in show["ships_kernel"].get("absent", []):
                if a["profile"] == name:
                    absents[(a["file"], a["line"])] = a
            for r in show["requirements"]:
                if r["profile"] != name:
                    continue
                key = (r["file"], r["line"])
                if key not in reqs:
                    reqs[key] = dict(r, versions=set() if tmpl else None,
                                     owner=p["name"], kind=p["kind"])
                    order.append(key)
                if tmpl:
                    reqs[key]["versions"].add(int(name.rsplit("-", 1)[1]))
    return reqs, absents


def statements_in_files():
    res = set()
    for d, _, fs in os.walk(os.path.join(ROOT, "profiles")):
        for f in fs:
            if not f.endswith(".kfit"):
                continue
            path = os.path.relpath(os.path.join(d, f), ROOT)
            with open(os.path.join(ROOT, path)) as fh:
                for no, l in enumerate(fh, 1):
                    if re.match(r"(override\s+)?(require|recommend)\s", l):
                        res.add((path, no))
    return res


def md(s):
    return s.replace("|", "\\|")


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    kfit = os.path.abspath(args[0]) if args else os.path.join(ROOT, "build", "kfit")
    reqs, absents = collect(kfit)
    keys = sorted(reqs, key=lambda k: (k[0], k[1]))
    if check:
        for k in keys:
            r = reqs[k]
            verdict, how, ok = verify(r)
            name = "%s:%d" % k
            weak = weak_sources(r)
            if weak:
                print("not ok weak-source " + name)
                for src, why in weak:
                    print("  %s is %s: cite the document that states the claim" % (src, why))
            if verdict == "not pinned":
                continue
            print(("ok " if ok else "not ok ") + name)
            for h in how:
                if h.startswith("MISSING"):
                    print("  " + h)
        for k in sorted(absents):
            weak = weak_sources(absents[k])
            print(("not ok" if weak else "ok") + " absent %s:%d" % k)
            for src, why in weak:
                print("  %s is %s: cite the document that states the claim" % (src, why))
        missing = statements_in_files() - set(reqs)
        if missing:
            print("not ok every-statement-shown")
            for f, l in sorted(missing):
                print("  %s:%d is in no profile's `kfit profiles show`" % (f, l))
        else:
            print("ok every-statement-shown")
        return

    rows = []
    stats = {"require": 0, "recommend": 0, "unverified": 0, "checked": 0,
             "not pinned": 0, "CONTRADICTED": 0, "weak": 0, "moving": 0}
    spans = symbol_spans()
    for k in keys:
        r = reqs[k]
        stmt, reviewed = raw_statement(*k)
        verdict, how, ok = verify(r)
        stats[r["level"]] += 1
        stats[verdict] += 1
        if r.get("unverified"):
            stats["unverified"] += 1
        if weak_sources(r):
            stats["weak"] += 1
        if moving_sources(r) and len(moving_sources(r)) == len(r["sources"]):
            stats["moving"] += 1
        rows.append((k, r, verdict, how, reviewed))
    missing = statements_in_files() - set(reqs)

    o = []
    o.append("# Profile audit: every requirement, its range, its sources and how it was checked")
    o.append("")
    o.append("Generated by `scripts/profiles-audit.py build/kfit >docs/profiles-audit.md`")
    o.append("(`make profiles-audit`) from `kfit profiles show --json` of every profile and")
    o.append("the pinned copies of sources in `tests/data/requirements` (SOURCES.md there);")
    o.append("`tests/cases/profiles-audit-current` fails when this file is stale.  Do not")
    o.append("edit it by hand.")
    o.append("")
    o.append("Columns: **where** the statement is written; **level**; **requirement** as")
    o.append("kfit shows it (`boot` marks boot-critical ones, `if` a condition, `arch` the")
    o.append("architectures); **kernel** the kernel range it applies to; **userspace** the")
    o.append("versions of a template it applies to (`systemd 209..`: 209 to the newest),")
    o.append("else the profile that states it (its descendants inherit it); **sources**;")
    o.append("**check**: `checked` when every option it names was found in a pinned copy")
    o.append("of one of its sources and every quoted phrase of its reason in one (the")
    o.append("findings follow, with the copy's file and line and where the option stands")
    o.append("there: check-config.sh's section, lxc-checkconfig's `yes`, the README's")
    o.append("heading, the Gentoo option that selects it), `not pinned` when no source")
    o.append("is kept in the repository (a kernel document, a web page: read by hand,")
    o.append("`kfit profiles lint -k` checks the options exist), `CONTRADICTED` when a")
    o.append("pinned copy lacks an option or a quote; **unverified** the `unverified` flag")
    o.append("(what its author could not check); `reviewed` notes follow the check;")
    o.append("**exists** where each symbol it names exists by `profiles/symbols.kfit`")
    o.append("(`5.6..`: from 5.6 on; `<=4.1..`: found in 4.1, older; `..6.6`: gone in")
    o.append("6.6; `..>=7.0`: not known from 7.0 on), which `kfit profiles lint` holds")
    o.append("the requirement's range to over the kernels its profile runs on.  A")
    o.append("source that is an index page, a whole manual, a repository's or a")
    o.append("site's front page, a driver-writing guide, a README as a whole (no")
    o.append("`#section`), an overview page that only links the pages stating the")
    o.append("features, or a tutorial as a line's only source is WEAK: it states no")
    o.append("claim by itself, and `--check` fails on it.  The summary also counts the")
    o.append("lines whose every source is read on a moving branch (`blob/master`,")
    o.append("`main`, `latest`): true when written, they may change or go, and a tag")
    o.append("or commit is the better citation (not yet a failure).")
    o.append("")
    o.append("systemd README ranges are checked version by version by")
    o.append("`tests/compat/profiles-systemd-readme.sh` (every N from 208 to %d against" % NEWEST)
    o.append("the pinned README of that tag's list), Docker's and LXC's by")
    o.append("`tests/compat/profiles-container-scripts.sh`; `--check` of this script")
    o.append("(`tests/compat/profiles-sources.sh`) fails on any `CONTRADICTED` line.")
    o.append("")
    o.append("## Summary")
    o.append("")
    o.append("| | count |")
    o.append("|---|---:|")
    o.append("| requirement statements | %d |" % len(rows))
    o.append("| `require` | %d |" % stats["require"])
    o.append("| `recommend` | %d |" % stats["recommend"])
    o.append("| checked against a pinned copy | %d |" % stats["checked"])
    o.append("| no pinned source | %d |" % stats["not pinned"])
    o.append("| contradicted by a pinned copy | %d |" % stats["CONTRADICTED"])
    o.append("| flagged `unverified` | %d |" % stats["unverified"])
    o.append("| with a weak source | %d |" % stats["weak"])
    o.append("| every source on a moving branch (master, main, latest) | %d |" % stats["moving"])
    if missing:
        o.append("| statements no profile shows | %d |" % len(missing))
    o.append("")
    cur = None
    for k, r, verdict, how, reviewed in rows:
        if k[0] != cur:
            cur = k[0]
            o.append("## %s" % cur)
            o.append("")
            o.append("| where | level | requirement | kernel | userspace | sources | check | unverified | exists |")
            o.append("|---|---|---|---|---|---|---|---|---|")
        w = r["when"]
        expr = "`%s`" % r["expr"]
        if r.get("boot"):
            expr += " boot"
        if w.get("if"):
            expr += " if `%s`" % w["if"]
        if w.get("arch"):
            expr += " arch=" + ",".join(w["arch"])
        level = ("override " if r.get("override") else "") + r["level"]
        check = verdict
        if how:
            check += ": " + "; ".join(how)
        if reviewed:
            check += "; reviewed: " + reviewed
        for src, why in weak_sources(r):
            check += "; WEAK SOURCE: %s is %s" % (src, why)
        names = [a["name"] for a in r.get("alternatives", [])]
        exists = "; ".join("%s %s" % (n, spans.get(n, "?")) for n in dict.fromkeys(names))
        o.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            "%s:%d" % (os.path.basename(k[0]), k[1]), level, md(expr),
            kernel_range(w), md(user_range(None, r["profile"], r["versions"])),
            "<br>".join(md(s) for s in r["sources"]), md(check),
            md(r.get("unverified") or ""), md(exists)))
    o.append("")
    if absents:
        o.append("## What a release's own kernel lacks (`absent`)")
        o.append("")
        o.append("A distro release's kernel without a symbol mainline has at its version (a")
        o.append("backport); `kfit check` does not apply a requirement on it to a config of")
        o.append("that release's kernel range (docs/profiles.md).")
        o.append("")
        o.append("| where | release | symbol | reason | sources |")
        o.append("|---|---|---|---|---|")
        for k in sorted(absents):
            a = absents[k]
            o.append("| %s | %s | `%s` | %s | %s |" % (
                "%s:%d" % (os.path.basename(k[0]), k[1]), a["profile"], a["symbol"],
                md(a["reason"] or ""), "<br>".join(md(x) for x in a["sources"])))
        o.append("")
    if missing:
        o.append("## Statements no profile shows")
        o.append("")
        for f, l in sorted(missing):
            o.append("- %s:%d" % (f, l))
        o.append("")
    appendix = os.path.join(ROOT, "docs", "profiles-audit-sample.md.in")
    if os.path.exists(appendix):
        with open(appendix) as f:
            o.append(f.read().rstrip("\n"))
    sys.stdout.write("\n".join(o) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the outputs of two boots of the apparmor scene, as KTAP.

    apparmor-compare.py [--suite NAME] [--manifest FUZZ_TXT] A B

A and B are what tools/initramfs/apparmor.sh printed (say, a boot with
AppArmor's policy unpacker in SandBox Mode and one without). Prints one
KTAP suite (apparmor_compare by default) with a case per category:

  corpus_outcomes         each corpus policy loaded or failed alike
  profiles_listing        the same profiles loaded, after the corpus and
                          after the bad policies
  confinement_decisions   the same decisions under the test profiles
  fuzz_outcomes           each bad policy loaded or failed alike

with diagnostics naming the first differences (for fuzz blobs, what
kind of blob it was, from build/apparmor/fuzz.txt if it is there). A
case fails if the two differ, if a side has no result of its category,
or if a side's output ends early (no "end" line: the boot did not
finish the scene). Exits 1 if a case failed. tools/ktap.py counts the
output like a boot's log.
"""

import argparse
import os
import re
import sys
from collections import Counter

CATEGORIES = [
    ("corpus_outcomes", "corpus"),
    ("profiles_listing", "profiles"),
    ("confinement_decisions", "confine"),
    ("fuzz_outcomes", "fuzz"),
]
MAX_DIFFS = 5
# What tools/ktap.py takes for kernel trouble; quoted in diagnostics, it
# is put in lower case, lest the judge take the quote for the real thing.
TROUBLE = re.compile(r"BUG:|Oops|WARNING:|Kernel panic|kernel BUG at|"
                     r"soft lockup|hard LOCKUP|rcu: INFO|self-detected stall|"
                     r"blocked for more than|UBSAN:|KASAN:|KFENCE:|"
                     r"refcount_t:|list_add corruption|Call Trace:")


def quote(text):
    return TROUBLE.sub(lambda m: m.group(0).lower(), text)


class Output:
    """One scene output: results by category, in order."""

    def __init__(self, label, path):
        self.label = label
        self.results = {"corpus": {}, "confine": {}, "fuzz": {}}
        self.listings = {"profiles": [], "fuzz-profiles": []}
        self.trouble = []
        self.complete = False
        self.last = ""
        self.problem = None
        try:
            with open(path, "rb") as f:
                text = f.read().decode("latin-1")
        except OSError as e:
            self.problem = f"cannot read {path}: {e.strerror}"
            return
        for line in text.splitlines():
            line = line.rstrip("\r")
            if not line:
                continue
            self.last = line
            word, _, rest = line.partition(" ")
            if word in self.results:
                name, _, result = rest.partition(" ")
                self.results[word][name] = result
            elif word in self.listings:
                self.listings[word].append(rest)
            elif word == "trouble":
                self.trouble.append(rest)
            elif word == "end":
                self.complete = True


def load_manifest(path):
    kinds = {}
    if not path or not os.path.exists(path):
        return kinds
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("#"):
                continue
            parts = line.rstrip("\n").split(" ", 4)
            if len(parts) == 5:
                kinds[parts[0]] = f"{parts[2]} of {parts[3]}: {parts[4]}"
    return kinds


def compare_results(cat, a, b, kinds):
    """Diagnostics and verdict for a category of NAME RESULT lines."""
    ra, rb = a.results[cat], b.results[cat]
    names = list(ra) + [n for n in rb if n not in ra]
    diffs = []
    for n in names:
        x, y = ra.get(n, "(missing)"), rb.get(n, "(missing)")
        if x != y:
            what = f" [{kinds[n]}]" if cat == "fuzz" and n in kinds else ""
            diffs.append(f"{cat} {n}: {a.label} {x}, {b.label} {y}{what}")
    diag = []
    if not ra or not rb:
        diag.append(f"no {cat} results in "
                    + " and ".join(o.label for o in (a, b)
                                   if not o.results[cat]))
    counts = []
    for o in (a, b):
        c = Counter(o.results[cat].values())
        counts.append(f"{o.label}: " + (", ".join(
            f"{k} {v}" for k, v in sorted(c.items())) or "none"))
    diag.append(f"{len(names)} {cat} results, {len(diffs)} differ; "
                + "; ".join(counts))
    diag += diffs[:MAX_DIFFS]
    if len(diffs) > MAX_DIFFS:
        diag.append(f"... and {len(diffs) - MAX_DIFFS} more")
    return diag, not diffs and ra and rb


def compare_listings(a, b):
    diag = []
    ok = True
    for which in ("profiles", "fuzz-profiles"):
        la, lb = a.listings[which], b.listings[which]
        if which == "profiles" and (not la or not lb):
            ok = False
            diag.append("no profiles listed in "
                        + " and ".join(o.label for o in (a, b)
                                       if not o.listings[which]))
        only_a = sorted((Counter(la) - Counter(lb)).elements())
        only_b = sorted((Counter(lb) - Counter(la)).elements())
        diag.append(f"{which}: {a.label} {len(la)}, {b.label} {len(lb)}, "
                    f"{len(only_a) + len(only_b)} differ")
        if only_a or only_b or la != lb:
            ok = False
            for line in only_a[:MAX_DIFFS // 2 + 1]:
                diag.append(f"{which} only in {a.label}: {line}")
            for line in only_b[:MAX_DIFFS // 2 + 1]:
                diag.append(f"{which} only in {b.label}: {line}")
    return diag, ok


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", default="apparmor_compare")
    ap.add_argument("--manifest",
                    default=os.path.join(top, "build/apparmor/fuzz.txt"))
    ap.add_argument("a")
    ap.add_argument("b")
    args = ap.parse_args()

    la, lb = os.path.basename(args.a), os.path.basename(args.b)
    if la == lb:
        la, lb = "A", "B"
    a, b = Output(la, args.a), Output(lb, args.b)
    kinds = load_manifest(args.manifest)

    general = []
    for o in (a, b):
        if o.problem:
            general.append(f"{o.label}: {o.problem}")
        elif not o.complete:
            general.append(f"{o.label}: the output ends early (no end "
                           f"line); last line: {o.last[:100]}")
    for o in (a, b):
        if o.trouble:
            names = []
            for t in o.trouble:
                name = " ".join(t.split(" ")[:2])
                if name not in names:
                    names.append(name)
            general.append(f"{o.label}: {len(o.trouble)} lines of kernel "
                           f"trouble, while loading {', '.join(names[:6])}"
                           f"{' ...' if len(names) > 6 else ''}; first: "
                           f"{o.trouble[0].split(' ', 2)[-1][:80]}")

    print("KTAP version 1")
    print("1..1")
    print("    KTAP version 1")
    print(f"    # Subtest: {args.suite}")
    print(f"    1..{len(CATEGORIES)}")
    all_ok = True
    for i, (case, cat) in enumerate(CATEGORIES, 1):
        if cat == "profiles":
            diag, ok = compare_listings(a, b)
        else:
            diag, ok = compare_results(cat, a, b, kinds)
        if any(o.problem or not o.complete for o in (a, b)):
            ok = False
        diag = [d for d in general if "ends early" in d or "cannot" in d] \
            + diag
        if case == "fuzz_outcomes":
            diag += [d for d in general if "trouble" in d]
        for d in diag:
            print(f"    # {quote(d)}")
        print(f"    {'ok' if ok else 'not ok'} {i} {case}")
        all_ok = all_ok and ok
    print(f"{'ok' if all_ok else 'not ok'} 1 {args.suite}")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the outputs of two boots of the pgp scene, as KTAP.

    pgp-compare.py [--suite NAME] [--index INDEX_TXT] A B

A and B are what tools/initramfs/pgp.sh printed (say, a boot with
pgp_key_parser.sbm=0 and one with pgp_key_parser.sbm=1): besides its
KTAP suite, one raw line per outcome ("key NAME RESULT", "verify NAME
RESULT", "tampered NAME RESULT", "fuzz NNNN.bin RESULT") and a last
line "end". Prints one KTAP suite (pgp_compare by default) with a case
per category:

  key_outcomes      each key was added with the same description, or
                    refused with the same error
  verify_outcomes   each signature, and each with its digest tampered,
                    verified or failed alike
  fuzz_outcomes     each mutated key was added or refused alike

with diagnostics naming the first differences (for fuzz blobs, what
kind of blob it was, from build/pgp/fuzz/index.txt if it is there). A
case fails if the two differ (a name on one side only, or another
result), if a side has no result of its category, or if a side's output
ends early (no "end" line: the boot did not finish the scene). Exits 1
if a case failed. tools/ktap.py counts the output like a boot's log.
"""

import argparse
import os
import re
import sys
from collections import Counter

# KTAP case, and the kinds of raw lines it compares.
CASES = [
    ("key_outcomes", ("key",)),
    ("verify_outcomes", ("verify", "tampered")),
    ("fuzz_outcomes", ("fuzz",)),
]
KINDS = {kind for _, kinds in CASES for kind in kinds}
MAX_DIFFS = 5
# What tools/ktap.py takes for kernel trouble: quoted in a diagnostic (the
# last line of a side that ends early), it is put in lower case, lest
# ktap.py take the quote for the real thing.
TROUBLE = re.compile(r"BUG:|Oops|WARNING:|Kernel panic|kernel BUG at|"
                     r"soft lockup|hard LOCKUP|rcu: INFO|self-detected stall|"
                     r"blocked for more than|UBSAN:|KASAN:|KFENCE:|"
                     r"refcount_t:|list_add corruption|Call Trace:")


class Scene:
    """The raw outcome lines of one output: {(kind, name): result}."""

    def __init__(self, label, path):
        self.label = label
        self.results = {}
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
            if not line.strip():
                continue
            self.last = line
            if line == "end":
                self.complete = True
                continue
            kind, _, rest = line.partition(" ")
            if kind in KINDS:
                name, _, result = rest.partition(" ")
                if name:
                    self.results[(kind, name)] = result

    def of(self, kinds):
        return {k: r for k, r in self.results.items() if k[0] in kinds}

    def trouble(self):
        if self.problem:
            return self.problem
        if not self.complete:
            return (f"the output ends early (no end line); last line: "
                    f"{self.last[:100]}")
        return None


def load_index(path):
    """NNNN.bin -> what tools/pgp-fuzz.py made of it."""
    kinds = {}
    try:
        with open(path, errors="replace") as f:
            for line in f:
                name, _, what = line.rstrip("\n").partition(" ")
                if name and not name.startswith("#"):
                    kinds[name] = what
    except OSError:
        pass
    return kinds


def compare(kinds, a, b, index):
    """Diagnostics and verdict of one case."""
    ra, rb = a.of(kinds), b.of(kinds)
    keys = list(ra) + [k for k in rb if k not in ra]
    diffs = []
    for k in keys:
        x, y = ra.get(k, "(missing)"), rb.get(k, "(missing)")
        if x != y:
            what = f" [{index[k[1]]}]" if k[0] == "fuzz" and k[1] in index \
                else ""
            diffs.append(f"{k[0]} {k[1]}: {a.label} {x}, {b.label} {y}{what}")
    diag = [f"{o.label}: {t}" for o in (a, b) if (t := o.trouble())]
    empty = [o.label for o, r in ((a, ra), (b, rb)) if not r]
    if empty:
        diag.append(f"no {'/'.join(kinds)} results in {' and '.join(empty)}")
    counts = []
    for o, r in ((a, ra), (b, rb)):
        # The first word of a result: ok, or the errno name.
        c = Counter(v.split(" ")[0] for v in r.values())
        counts.append(f"{o.label}: " + (", ".join(
            f"{k} {v}" for k, v in sorted(c.items())) or "none"))
    diag.append(f"{len(keys)} {'/'.join(kinds)} results, {len(diffs)} "
                f"differ; " + "; ".join(counts))
    diag += diffs[:MAX_DIFFS]
    if len(diffs) > MAX_DIFFS:
        diag.append(f"... and {len(diffs) - MAX_DIFFS} more")
    ok = not diffs and not empty and not a.trouble() and not b.trouble()
    return diag, ok


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", default="pgp_compare")
    ap.add_argument("--index",
                    default=os.path.join(top, "build/pgp/fuzz/index.txt"))
    ap.add_argument("a")
    ap.add_argument("b")
    args = ap.parse_args()

    la, lb = os.path.basename(args.a), os.path.basename(args.b)
    if la == lb:
        la, lb = "A", "B"
    a, b = Scene(la, args.a), Scene(lb, args.b)
    index = load_index(args.index)

    print("KTAP version 1")
    print("1..1")
    print("    KTAP version 1")
    print(f"    # Subtest: {args.suite}")
    print(f"    1..{len(CASES)}")
    all_ok = True
    for i, (case, kinds) in enumerate(CASES, 1):
        diag, ok = compare(kinds, a, b, index)
        for d in diag:
            d = TROUBLE.sub(lambda m: m.group(0).lower(), d)
            print(f"    # {case}: {d}")
        print(f"    {'ok' if ok else 'not ok'} {i} {case}")
        all_ok = all_ok and ok
    print(f"{'ok' if all_ok else 'not ok'} 1 {args.suite}")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())

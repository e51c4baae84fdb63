#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge the console logs of KUnit boots.

    ktap.py NAME=LOG [NAME=LOG ...]

For each log: count the KUnit cases (passed, failed, skipped; each
parameter of a parameterised case counts as a case), check that
every suite announced by the KTAP plans reported, and look for kernel
trouble (oops, BUG, WARN, panic, lockups). An oops is expected only
between the markers that the sandbox_mode suite prints around a guard
thread in weak mode, and only one per marker pair. Prints a line per log
and ends with "N passed, N failed, N skipped" over all of them; exits 1
if any case failed, any log is incomplete or shows unexpected trouble.
"""

import re
import sys

TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\]\s?")
RESULT = re.compile(r"^(?P<indent>\s*)(?P<status>ok|not ok) (?P<num>\d+)"
                    r"(?: (?P<name>[^#]*?))?\s*(?:#\s*(?P<directive>\w+)"
                    r"(?P<reason>.*))?$")
PLAN = re.compile(r"^(?P<indent>\s*)1\.\.(?P<count>\d+)$")
MARK_BEGIN = re.compile(r"sbm_test: (\S+): expected oops begin")
MARK_END = re.compile(r"sbm_test: (\S+): expected oops end")
# Kernel trouble; an expected guard-thread death shows only the first kind.
OOPS = re.compile(r"BUG: unable to handle|BUG: kernel NULL pointer|Oops: ")
TROUBLE = re.compile(r"BUG:|Oops|WARNING:|Kernel panic|kernel BUG at|"
                     r"soft lockup|hard LOCKUP|"
                     r"rcu: INFO|self-detected stall|blocked for more than|"
                     r"UBSAN:|KASAN:|KFENCE:|refcount_t:|list_add corruption|"
                     r"Call Trace:")


class Log:
    def __init__(self, name, path):
        self.name = name
        self.passed = self.failed = self.skipped = 0
        self.failures = []
        self.problems = []
        self.expected_oopses = 0
        try:
            with open(path, errors="replace") as f:
                lines = [TIMESTAMP.sub("", l.rstrip("\r\n")) for l in f]
        except OSError as e:
            self.problems.append(f"cannot read {path}: {e}")
            return
        self.parse_results(lines)
        self.scan_trouble(lines)

    def parse_results(self, lines):
        """Count test cases; a parameterised case counts once per
        parameter, its summary line not at all."""
        top_plan = None
        suites = 0
        case_plan = None
        cases = 0
        params = []
        diag = []
        for line in lines:
            m = PLAN.match(line)
            if m:
                depth = len(m["indent"]) // 4
                if depth == 0:
                    top_plan = (top_plan or 0) + int(m["count"])
                elif depth == 1:
                    case_plan, cases = int(m["count"]), 0
                continue
            m = RESULT.match(line)
            if not m:
                if line.lstrip().startswith("# "):
                    diag.append(line.strip())
                continue
            depth = len(m["indent"]) // 4
            name = (m["name"] or "").strip()
            skip = (m["directive"] or "").upper() == "SKIP"
            result = "skip" if skip else m["status"]
            if depth == 0:
                suites += 1
                if case_plan is not None and cases != case_plan:
                    self.problems.append(
                        f"suite {name}: {cases} of {case_plan} cases reported")
                case_plan = None
            elif depth == 1:
                cases += 1
                if params:
                    for pname, presult, pdiag in params:
                        self.count(f"{name}/{pname}", presult, pdiag)
                    if result == "not ok" and \
                            all(p[1] != "not ok" for p in params):
                        self.count(name, result, diag)
                else:
                    self.count(name, result, diag)
                params = []
            else:
                params.append((name, result, diag[-8:]))
            diag = []
        # Suites of modules report without a top-level plan.
        if top_plan is None:
            self.problems.append("no KTAP output: the kernel did not run KUnit")
        elif suites < top_plan or case_plan is not None:
            self.problems.append(f"{suites} of {top_plan} suites reported: "
                                 "the boot did not finish")
        elif top_plan == 0:
            self.problems.append("KUnit found no test suite")

    def count(self, name, result, diag):
        if result == "skip":
            self.skipped += 1
        elif result == "ok":
            self.passed += 1
        else:
            self.failed += 1
            self.failures.append((name, diag[-8:]))

    def scan_trouble(self, lines):
        window = None
        oops_in_window = 0
        for line in lines:
            m = MARK_BEGIN.search(line)
            if m:
                window, oops_in_window = m[1], 0
                continue
            m = MARK_END.search(line)
            if m and window:
                window = None
                continue
            if not TROUBLE.search(line):
                continue
            if window and (OOPS.search(line) or "Call Trace:" in line):
                if not oops_in_window and OOPS.search(line):
                    oops_in_window = 1
                    self.expected_oopses += 1
                continue
            self.problems.append(f"kernel trouble: {line.strip()}")

    def ok(self):
        return not self.failed and not self.problems

    def report(self):
        extra = ""
        if self.expected_oopses:
            extra = (f" ({self.expected_oopses} expected guard-thread "
                     "oopses)")
        print(f"[{self.name}] {self.passed} passed, {self.failed} failed, "
              f"{self.skipped} skipped{extra}"
              + ("" if self.ok() else "  <-- FAILED"))
        for name, diag in self.failures:
            print(f"  not ok: {name}")
            for d in diag:
                print(f"    {d}")
        for p in self.problems[:20]:
            print(f"  {p}")


def main(args):
    if not args:
        sys.exit(__doc__)
    logs = [Log(*a.split("=", 1)) for a in args]
    for log in logs:
        log.report()
    print(f"{sum(l.passed for l in logs)} passed, "
          f"{sum(l.failed for l in logs)} failed, "
          f"{sum(l.skipped for l in logs)} skipped")
    return 0 if all(l.ok() for l in logs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

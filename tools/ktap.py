#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge the console logs of KUnit boots.

    ktap.py NAME=LOG [NAME=LOG ...]

For each log: count the KUnit cases (passed, failed, skipped; each
parameter of a parameterised case counts as a case), check that
every suite announced by the KTAP plans reported, and look for kernel
trouble (oops, BUG, WARN, panic, lockups). Prints a line per log and
ends with "N passed, N failed, N skipped" over all of them; exits 1 if
any case failed, any log is incomplete or shows unexpected trouble.

A test that triggers kernel trouble on purpose brackets it with markers,
printed by a suite whose prefix ends in "_test" (sbm_test,
sbm_attack_test, ...) and naming the case:

    sbm_test: NAME: expected oops begin
    sbm_test: NAME: expected oops end
        At most one oops between them is expected: the death of a guard
        thread in weak mode, with its Call Trace.

    sbm_attack_test: NAME: expected warning begin
    sbm_attack_test: NAME: expected warning end
        At most one WARNING between them is expected, with the lines of
        its report up to its "---[ end trace" line (register dump, Call
        Trace). None at all is fine too: a WARN_ONCE that fired before
        stays silent.

Each expected oops or warning is counted and reported; any other trouble,
inside a pair of markers or not, fails the log. Not trouble: the advice
that x86 prints at boot about its speculation mitigations, such as
"Spectre V2 : WARNING: LFENCE mitigation is not recommended for this
CPU", which is a line of text, not the report of a kernel warning.
"""

import re
import sys

TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\]\s?")
RESULT = re.compile(r"^(?P<indent>\s*)(?P<status>ok|not ok) (?P<num>\d+)"
                    r"(?: (?P<name>[^#]*?))?\s*(?:#\s*(?P<directive>\w+)"
                    r"(?P<reason>.*))?$")
PLAN = re.compile(r"^(?P<indent>\s*)1\.\.(?P<count>\d+)$")
MARK = re.compile(r"\b\w+_test: (?P<name>\S+): expected (?P<kind>oops|warning) "
                  r"(?P<edge>begin|end)\b")
# Kernel trouble; an expected guard-thread death shows only the first kind.
OOPS = re.compile(r"BUG: unable to handle|BUG: kernel NULL pointer|Oops: ")
WARNING = re.compile(r"WARNING: ")
# The prefixes of arch/x86/kernel/cpu/bugs.c, which reports on mitigations.
MITIGATION_ADVICE = re.compile(
    r"^(MDS|TAA|MMIO Stale Data|Register File Data Sampling|SRBDS|"
    r"L1D Flush|GDS|Spectre V1|Spectre V2|RETBleed|ITS|"
    r"Transient Scheduler Attacks|Speculative Store Bypass|"
    r"Speculation prctl|L1TF|Speculative Return Stack Overflow|VMSCAPE)"
    r" ?: WARNING: ")
WARNING_END = re.compile(r"---\[ end trace ")
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
        self.expected_warnings = 0
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
        # Open marker pairs, by kind: the case's name and how many oopses
        # or warnings it had so far.
        window = {}
        in_warning = False
        for line in lines:
            m = MARK.search(line)
            if m:
                if m["edge"] == "begin":
                    window[m["kind"]] = [m["name"], 0]
                else:
                    window.pop(m["kind"], None)
                    if m["kind"] == "warning":
                        in_warning = False
                continue
            if in_warning:
                # The report of the expected warning, up to its last line.
                if WARNING_END.search(line):
                    in_warning = False
                    continue
                if "Call Trace:" in line:
                    continue
            if not TROUBLE.search(line) or MITIGATION_ADVICE.match(line):
                continue
            oops = window.get("oops")
            if oops and (OOPS.search(line) or "Call Trace:" in line):
                if not oops[1] and OOPS.search(line):
                    oops[1] = 1
                    self.expected_oopses += 1
                continue
            warning = window.get("warning")
            if warning and not warning[1] and WARNING.search(line):
                warning[1] = 1
                self.expected_warnings += 1
                in_warning = True
                continue
            self.problems.append(f"kernel trouble: {line.strip()}")

    def ok(self):
        return not self.failed and not self.problems

    def report(self):
        expected = []
        if self.expected_oopses:
            expected.append(f"{self.expected_oopses} expected guard-thread "
                            "oopses")
        if self.expected_warnings:
            expected.append(f"{self.expected_warnings} expected warnings")
        extra = f" ({', '.join(expected)})" if expected else ""
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

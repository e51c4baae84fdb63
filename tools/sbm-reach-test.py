#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Test the build-time check of SandBox Mode, scripts/sbm/sbm_reach.py.

    sbm-reach-test.py [BUILD_DIR ...]

Builds tools/sbm-reach-test.c for the host with the kernel's code model,
runs the check on the relocatable object and on a link of it laid out
like vmlinux, and checks the report: it must name the deliberately
forbidden call with its path, the privileged instruction and the per-CPU
access, and nothing that is allowed or safe. For each BUILD_DIR, also
checks that the kernel build ran the check on its vmlinux. Prints KTAP,
as one suite, for tools/ktap.py.
"""

import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECK = os.path.join(TOP, "linux/scripts/sbm/sbm_reach.py")
SOURCE = os.path.join(TOP, "tools/sbm-reach-test.c")
CFLAGS = ["-O2", "-fno-pic", "-mcmodel=kernel", "-mno-red-zone",
          "-mgeneral-regs-only", "-fstack-protector-strong",
          "-fcf-protection=none", "-fno-asynchronous-unwind-tables",
          "-ffreestanding", "-Wall", "-Werror",
          # The attributes of the kernel's compiler_attributes.h.
          "-D__used=__attribute__((__used__))",
          "-D__noipa=__attribute__((__noipa__))",
          "-D__section(s)=__attribute__((__section__(s)))"]
# What the kernel defines for the test object, so that it links alone.
STUBS = """
struct hot { void *current_task; int preempt_count; };
struct fixed { char gs_base[40]; unsigned long stack_canary; };
struct fixed fixed_percpu_data
	__attribute__((section(".data..percpu..first")));
struct hot pcpu_hot __attribute__((section(".data..percpu")));
void kfree_like(void *p) { }
void __stack_chk_fail(void) { __builtin_trap(); }
"""
# The layout of vmlinux that the check relies on.
LDS = """
SECTIONS {
	. = 0xffffffff81000000;
	.text : {
		_stext = .;
		__entry_text_start = .;
		__entry_text_end = .;
		*(.text .text.*)
		_etext = .;
	}
	. = ALIGN(0x1000);
	.rodata : {
		__start_rodata = .;
		*(.rodata .rodata.*)
		__end_rodata = .;
	}
	.data : { *(.data) }
	.bss : { *(.bss) }
	.data..percpu 0 : AT(ADDR(.bss) + SIZEOF(.bss)) {
		*(.data..percpu..first)
		*(.data..percpu)
	}
	/DISCARD/ : { *(.comment) *(.note.*) }
}
"""


class Run:
    def __init__(self, *args):
        p = subprocess.run([sys.executable, CHECK, *args], text=True,
                           capture_output=True, check=False)
        self.status, self.report, self.stderr = p.returncode, p.stdout, \
            p.stderr

    def entry(self, name):
        """The report's lines for entry point __sbm_thunk_@name."""
        m = re.search(rf"^__sbm_thunk_{name} \(.*?(?=^\S|\Z)", self.report,
                      re.M | re.S)
        return m[0] if m else ""

    def field(self, name, field):
        """The items of a field of an entry, over its wrapped lines."""
        m = re.search(rf"^  {field}: +(.*\n(?: {{12}}.*\n)*)",
                      self.entry(name), re.M)
        return re.split(r",\s+", " ".join(m[1].split())) if m else []


class Suite:
    def __init__(self, name):
        self.name = name
        self.results = []

    def case(self, name, passed, why=""):
        self.results.append((name, bool(passed), why))

    def print(self):
        print("KTAP version 1\n1..1")
        print(f"    KTAP version 1\n    # Subtest: {self.name}")
        print(f"    1..{len(self.results)}")
        for i, (name, passed, why) in enumerate(self.results, 1):
            if not passed and why:
                for line in why.splitlines()[-8:]:
                    print(f"    # {name}: {line}")
            print(f"    {'ok' if passed else 'not ok'} {i} {name}")
        failed = sum(not p for _, p, _ in self.results)
        print(f"{'not ok' if failed else 'ok'} 1 {self.name}")
        return 1 if failed else 0


def run(cmd):
    p = subprocess.run(cmd, text=True, capture_output=True, check=False)
    if p.returncode:
        raise RuntimeError(f"{' '.join(cmd)}:\n{p.stdout}{p.stderr}")


def build(tmp):
    """Return the objects to check: with forbidden calls (relocatable,
    then linked) and with safe code only."""
    cc = os.environ.get("CC", "gcc")
    ld = os.environ.get("LD", "ld")
    obj, stubs, safe = (os.path.join(tmp, n) for n in ("test.o", "stubs.o",
                                                       "safe.o"))
    run([cc, *CFLAGS, "-c", "-o", obj, SOURCE])
    run([cc, *CFLAGS, "-DONLY_SAFE", "-c", "-o", safe, SOURCE])
    with open(os.path.join(tmp, "stubs.c"), "w") as f:
        f.write(STUBS)
    with open(os.path.join(tmp, "test.lds"), "w") as f:
        f.write(LDS)
    run([cc, *CFLAGS, "-c", "-o", stubs, os.path.join(tmp, "stubs.c")])
    linked = os.path.join(tmp, "test.elf")
    run([ld, "-T", os.path.join(tmp, "test.lds"), "-e", "0",
         "--no-warn-rwx-segments", "-o", linked, obj, stubs])
    return {"object": obj, "linked": linked}, safe


def check_object(suite, kind, path, safe):
    r = Run(path)
    demo_unsafe = [line.split()[1] for line in r.entry("demo").splitlines()
                   if line.startswith("  UNSAFE:")]
    suite.case(f"{kind}_runs", r.status == 0 and
               re.search(r"^5 entry points, 2 reach unsafe code", r.report,
                         re.M), r.report + r.stderr)
    suite.case(f"{kind}_forbidden_call_with_path",
               "UNSAFE:   forbidden_write\n"
               "    path: __sbm_thunk_demo -> forbidden_write\n"
               "    - writes counter (.bss) at forbidden_write+0x0"
               in r.entry("demo"), r.entry("demo"))
    suite.case(f"{kind}_nothing_else_unsafe", demo_unsafe ==
               ["forbidden_write"], r.entry("demo"))
    suite.case(f"{kind}_services_and_safe_code_pass",
               r.field("demo", "services") == ["kfree_like", "svc_demo"] and
               {"safe_helper", "read_preempt_count"} <=
               set(r.field("demo", "runs")) and
               "UNSAFE" not in r.entry("clean"), r.report)
    suite.case(f"{kind}_service_of_other_target_unsafe",
               "UNSAFE:   svc_demo\n    path: __sbm_thunk_other -> svc_demo"
               in r.entry("other"), r.entry("other"))
    suite.case(f"{kind}_privileged_instruction",
               "- privileged instruction cli at privileged+0x0"
               in r.entry("other"), r.entry("other"))
    suite.case(f"{kind}_percpu_access",
               "- writes per-CPU pcpu_counter at percpu_bump+"
               in r.entry("other") and "pcpu_hot" not in r.report,
               r.entry("other"))
    suite.case(f"{kind}_indirect_call", r.field("indirect", "indirect") ==
               ["jmp *(%rdi) at __sbm_thunk_indirect+0x0"],
               r.entry("indirect"))
    errors = r.field("demo", "error")
    suite.case(f"{kind}_error_paths", "__stack_chk_fail" in errors and
               any(e.startswith("ud2 in safe_helper") for e in errors),
               r.entry("demo"))
    suite.case(f"{kind}_fault_on_purpose_not_warned",
               "UNSAFE:   forbidden_write (expected)" in r.entry("attack") and
               "attack" not in r.stderr, r.entry("attack") + r.stderr)
    suite.case(f"{kind}_warns", "WARNING: sbm: __sbm_thunk_demo -> "
               "forbidden_write: writes counter (.bss)" in r.stderr and
               "ERROR" not in r.stderr, r.stderr)
    fatal = Run("--fatal", path)
    suite.case(f"{kind}_fatal_fails", fatal.status == 1 and
               "ERROR: sbm: __sbm_thunk_demo -> forbidden_write" in
               fatal.stderr, fatal.stderr)
    if kind == "object":
        clean = Run("--fatal", safe)
        suite.case("fatal_passes_safe_code", clean.status == 0 and
                   not clean.stderr and "  UNSAFE:" not in clean.report,
                   clean.report + clean.stderr)


def check_build(suite, build):
    """The kernel build checked its vmlinux, and after linking it."""
    vmlinux = os.path.join(build, "vmlinux")
    report = os.path.join(build, "vmlinux.sbm-reach.txt")
    name = f"build_{os.path.basename(os.path.normpath(build))}_checked"
    try:
        with open(report) as f:
            text = f.read()
        fresh = os.path.getmtime(report) >= os.path.getmtime(vmlinux)
    except OSError as e:
        suite.case(name, False, str(e))
        return
    suite.case(name, fresh and re.search(r"^\d+ entry points?, ", text, re.M),
               "stale or incomplete report")


def main(builds):
    suite = Suite("sbm_reach")
    with tempfile.TemporaryDirectory() as tmp:
        try:
            objects, safe = build(tmp)
        except (OSError, RuntimeError) as e:
            suite.case("build_test_object", False, str(e))
        else:
            for kind, path in objects.items():
                check_object(suite, kind, path, safe)
    for b in builds:
        check_build(suite, b)
    return suite.print()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

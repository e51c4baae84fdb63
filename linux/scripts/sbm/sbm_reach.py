#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""List the kernel code that SandBox Mode targets reach but may not run.

x86-64 only: it reads x86-64 disassembly and knows what x86-64 strong
isolation maps.

    sbm_reach.py [--fatal] [-o REPORT] OBJECT

OBJECT is vmlinux or a relocatable object. Every function named
__sbm_thunk_<f> is a sandboxed entry point (SBM_DEFINE_THUNK() and
SBM_DEFINE_FUNC() make them) for the target <f>. From each, the check
follows direct calls and jumps through the disassembly and sorts what
they reach:

  service   A data symbol __sbm_allow.<f>.<func>, or __sbm_allow..<func>
            for every target, names <func> as a service: SBM runs it in
            kernel mode on the sandbox's behalf, so it is a leaf here.
  runs      Code in the sandbox's text (_stext to _etext, less the
            entry text) that uses only what a sandbox maps: kernel text,
            read-only data (__start_rodata to __end_rodata, which holds
            .data..ro_after_init), memory it reaches through registers
            (its buffers and stack, checked at run time), and the
            private stand-ins for the per-CPU pcpu_hot and
            fixed_percpu_data (current, the stack canary).
  unsafe    Code that would fault in the sandbox: its own instructions
            refer to any other kernel data (RIP-relative, absolute,
            %gs-relative, or as an immediate address), access per-CPU
            data through a pointer, are privileged (cli, hlt, mov to
            %cr3, wrmsr, in, swapgs, iret, popf, ...) or enter the
            kernel (syscall, int $n); or it lies outside the sandbox's
            text. What an unsafe function calls is not followed: the
            call to it has to go, or it has to become a service, first.
  indirect  Calls and jumps through a register or memory, retpoline
            thunks and static calls: their targets are chosen at run
            time and are not checked.
  error     What ends the sandbox on a bug the code detected: ud2
            (BUG(), WARN()), __stack_chk_fail, the fortify and UBSAN
            reports, __warn_printk, panic.

A data symbol __sbm_expect_fault.<f> marks a target that faults on
purpose (a test that the sandbox contains it): what it reaches is in the
report, marked as expected, and raises no warning.

A function whose address the code takes (a callback handed to sort(),
say) counts as reached, as it is likely called through that address.
Calls to __fentry__ and jumps to return thunks are not calls. In vmlinux
the replacement of an alternative counts as part of the code it may
replace; a jump into .altinstr_aux (static_cpu_has() until boot patches
it) does not count. Not followed: static-key branches to another
function (a .cold part that only a static key jumps to). In a
relocatable object, functions and data that it does not define are
unsafe unless they are services, and a %gs access with neither a
relocation nor a register is the stack canary.

The report (REPORT, or standard output) gives for each entry point the
services it reaches, the functions it runs, every unsafe function with
one call path and its reasons, the indirect calls and the error paths.
Each unsafe function an entry point reaches is also a "WARNING: sbm:"
line on standard error ("ERROR: sbm:" with --fatal). The exit status is
1 with --fatal if anything is unsafe, 2 if OBJECT cannot be checked, 0
otherwise. $OBJDUMP names the objdump to use.
"""

import argparse
import bisect
import collections
import os
import re
import struct
import subprocess
import sys
import textwrap

THUNK_PREFIX = "__sbm_thunk_"
ALLOW_PREFIX = "__sbm_allow."
EXPECT_PREFIX = "__sbm_expect_fault."
# The per-CPU data a sandbox has private stand-ins for.
PERCPU_STANDINS = ("pcpu_hot", "const_pcpu_hot", "fixed_percpu_data")
ERROR_PATHS = ("__stack_chk_fail", "__fortify_report", "__fortify_panic",
               "fortify_panic", "__warn_printk", "panic")
ERROR_PREFIXES = ("__ubsan_handle_",)
INDIRECT_PREFIXES = ("__x86_indirect_", "__SCT__")
# The flags of WARN_ONCE() and printk_once(), which only a warning (or a
# printk, unsafe in itself) reads and writes.
ONCE_FLAG = "__already_done"

# Instructions that fault at CPL 3 or change the kernel's CPU state.
PRIVILEGED = frozenset("""
    cli sti hlt clts invd wbinvd wbnoinvd invlpg invlpga invlpgb tlbsync
    invpcid lgdt lidt lldt ltr lmsw sgdt sidt sldt str smsw swapgs
    sysret sysretl sysretq sysexit sysexitl sysexitq iret iretw iretl
    iretq lret lretl lretq lretw ljmp lcall erets eretu lkgs
    rdmsr wrmsr wrmsrns rdpmc xsetbv xsaves xsaves64 xrstors xrstors64
    stac clac monitor mwait encls pconfig seamcall tdcall wrfsbase
    wrgsbase wrss wrssd wrssq wruss wrussd wrussq setssbsy clrssbsy
    in inb inw inl out outb outw outl ins insb insw insl outs outsb
    outsw outsl popf popfq popfw vmcall vmlaunch vmresume vmxon vmxoff
    vmptrld vmptrst vmclear vmread vmwrite vmfunc invept invvpid vmrun
    vmload vmsave vmmcall stgi clgi skinit
""".split())
SYSCALLS = frozenset(("syscall", "sysenter", "int", "int1", "into"))
TRAPS = frozenset(("ud2", "ud1", "ud0"))
# What a function may end with and not run on into the next symbol; a
# call counts, as gcc ends a function with a call that does not return.
ENDS = frozenset(("jmp", "ret", "retq", "call", "hlt", "iretq", "sysretq",
                  "lret", "lretq")) | TRAPS
PADDING = re.compile(r"^(nop|int3$|xchg +%ax,%ax$)")

INSN = re.compile(r"^ *([0-9a-f]+):\t(.*)$")
RELOC = re.compile(r"^\t+([0-9a-f]+): (R_X86_64_\w+)\t(\S+)$")
PREFIX = re.compile(r"^(?:(?:lock|rep\w*|[cdefgs]s|data\d+|addr\d+|notrack|"
                    r"bnd|xacquire|xrelease|rex(?:\.\w+)?) +)+")
BRANCH_TARGET = re.compile(r"^([0-9a-f]+) <")
MEMORY = re.compile(r"^(?:%(\ws):)?(-?0x[0-9a-f]+)?"
                    r"(?:\((%\w+)?(?:,%\w+(?:,\d)?)?\))?$")
SYMBOL_ADDEND = re.compile(r"^(.*?)([+-]0x[0-9a-f]+)?$")
CONTROL_REGISTER = re.compile(r"%(cr|db|dr|tr)\d")
SEGMENT_LOAD = re.compile(r",%[cdefgs]s$")
# Instructions that leave their last operand alone.
READS_LAST = re.compile(r"^(cmp(?!xchg)|test|bt[wlq]?$|push|call|jmp|ucomis|"
                        r"comis|ptest|prefetch|clflush|nop)")
WRITES_ONLY = re.compile(r"^(inc|dec|neg|not|set|pop)")

ET_REL = 1
SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR = 1, 2, 4
SHT_SYMTAB = 2
STT_SECTION, STT_FILE = 3, 4
SHN_UNDEF = 0
ALT_INSTR = struct.Struct("<iiIBB")
WARNINGS_SHOWN = 20


class CheckError(Exception):
    pass


def split_operands(ops):
    """Split AT&T operands at the commas outside parentheses."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(ops):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "," and not depth:
            out.append(ops[start:i])
            start = i + 1
    if ops:
        out.append(ops[start:])
    return out


class Section:
    def __init__(self, index, name, fields):
        self.index, self.name = index, name
        (_, self.type, self.flags, self.addr, self.offset, self.size,
         self.link) = fields[:7]


class Symbol:
    def __init__(self, name, value, size, kind, shndx):
        self.name, self.value, self.size = name, value, size
        self.kind, self.shndx = kind, shndx


class Elf:
    """The sections and symbols of an ELF file."""

    def __init__(self, path):
        try:
            with open(path, "rb") as f:
                self.data = data = f.read()
        except OSError as e:
            raise CheckError(f"cannot read {path}: {e.strerror}") from e
        if data[:6] != b"\x7fELF\x02\x01":
            raise CheckError(f"{path}: not a 64-bit little-endian ELF file")
        self.type = struct.unpack_from("<H", data, 16)[0]
        shoff = struct.unpack_from("<Q", data, 0x28)[0]
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
        fields = [struct.unpack_from("<IIQQQQII", data, shoff + i * shentsize)
                  for i in range(shnum)]
        names = fields[shstrndx][4]
        self.sections = [Section(i, self.cstr(names + f[0]), f)
                         for i, f in enumerate(fields)]
        self.symbols = []
        for sec in self.sections:
            if sec.type == SHT_SYMTAB:
                self.read_symbols(sec, self.sections[sec.link].offset)

    def cstr(self, offset):
        return self.data[offset:self.data.index(b"\0", offset)].decode()

    def read_symbols(self, sec, strings):
        raw = self.data[sec.offset:sec.offset + sec.size]
        for name, info, _, shndx, value, size in \
                struct.iter_unpack("<IBBHQQ", raw):
            kind = info & 0xf
            # Absolute and common symbols are no code or data in a
            # section here.
            if kind == STT_FILE or not name and kind != STT_SECTION or \
                    shndx >= len(self.sections):
                continue
            name = self.sections[shndx].name if kind == STT_SECTION \
                else self.cstr(strings + name)
            self.symbols.append(Symbol(name, value, size, kind, shndx))

    def contents(self, sec):
        return self.data[sec.offset:sec.offset + sec.size]


class Location:
    """What an instruction refers to: an address in a section, or a
    symbol the object does not define; per-CPU if %gs-relative."""

    def __init__(self, sec, addr, gs=False, name=None):
        self.sec, self.addr, self.gs, self.name = sec, addr, gs, name


class Leaf:
    """A call target that is not code of this object's sandbox text."""

    def __init__(self, name, reason):
        self.name = self.label = name
        self.aliases = {name}
        self.reason = reason


class Function:
    """One symbol's stretch of disassembly (where it is in objdump's
    output), analysed when first reached."""

    def __init__(self, sec, addr, name, span):
        self.sec, self.addr, self.name, self.span = sec, addr, name, span
        self.end = addr
        self.label = name
        self.aliases = {name}
        self.analysed = False
        self.edges = []         # (how, Function or Leaf, site)
        self.unsafe = []        # reasons
        self.indirect = []      # (site, instruction)
        self.traps = []         # what ends the sandbox on a bug, where


class Image:
    """The disassembly of an object, and what a sandbox maps of it."""

    def __init__(self, path):
        self.path = path
        self.elf = elf = Elf(path)
        self.relocatable = elf.type == ET_REL
        self.sections = {s.name: s for s in elf.sections}
        self.symbols = {}
        self.by_section = collections.defaultdict(list)
        self.values = {}
        for sym in elf.symbols:
            self.symbols.setdefault(sym.name, sym)
            if sym.kind != STT_SECTION and sym.shndx != SHN_UNDEF:
                self.by_section[sym.shndx].append(sym)
        for syms in self.by_section.values():
            syms.sort(key=lambda s: s.value)
        self.percpu = self.sections.get(".data..percpu")
        self.standins = [(s.shndx, s.value, s.value + s.size)
                         for s in elf.symbols
                         if s.name in PERCPU_STANDINS and s.shndx]
        self.leaves = {}
        if not self.relocatable:
            self.image_ranges()
        self.functions = {}     # section index -> [Function] by address
        self.alternatives = collections.defaultdict(list)
        self.disassemble()

    def symbol_value(self, name):
        s = self.symbols.get(name)
        if not s:
            raise CheckError(f"{self.path}: no symbol {name}")
        return s.value

    def image_ranges(self):
        v = self.symbol_value
        self.text = (v("_stext"), v("_etext"))
        self.entry = (v("__entry_text_start"), v("__entry_text_end"))
        self.rodata = (v("__start_rodata"), v("__end_rodata"))
        self.loaded = sorted((s.addr, s.addr + s.size, s)
                             for s in self.elf.sections
                             if s.flags & SHF_ALLOC and s.addr)
        self.loaded_starts = [r[0] for r in self.loaded]

    def objdump(self, *args):
        cmd = [os.environ.get("OBJDUMP") or "objdump", "-d",
               "--no-show-raw-insn", *args, self.path]
        try:
            return subprocess.Popen(cmd, stdout=subprocess.PIPE)
        except OSError as e:
            raise CheckError(f"cannot run {cmd[0]}: {e.strerror}") from e

    def disassemble(self):
        """Run objdump once over the sandbox's text (and once over the
        replacements of alternatives, beside it)."""
        if self.relocatable:
            procs = [self.objdump("-r")]
        else:
            procs = [self.objdump(f"--start-address={self.text[0]:#x}",
                                  f"--stop-address={self.text[1]:#x}")]
            if ".altinstr_replacement" in self.sections:
                procs.append(self.objdump("-j", ".altinstr_replacement"))
        outputs = [p.communicate()[0] for p in procs]
        if any(p.returncode for p in procs):
            raise CheckError(f"objdump failed on {self.path}")
        self.read_functions(outputs[0])
        if len(outputs) > 1:
            self.read_alternatives(outputs[1])

    def read_functions(self, output):
        sec = None
        by_name = collections.defaultdict(list)
        # objdump puts an empty line before each section and symbol. The
        # disassembly of vmlinux is large: keep it in one piece.
        self.output = output
        start = 0
        while start < len(output):
            if output[start] == ord("\n"):
                start += 1
                continue
            end = output.find(b"\n\n", start)
            end = len(output) if end < 0 else end
            eol = output.find(b"\n", start, end)
            eol = end if eol < 0 else eol
            head = output[start:eol]
            if head.startswith(b"Disassembly of section "):
                sec = self.sections[head[23:-1].decode()]
            elif head.endswith(b">:") and sec:
                addr, _, name = head[:-2].decode().partition(" <")
                func = Function(sec, int(addr, 16), name, (eol + 1, end))
                self.functions.setdefault(sec.index, []).append(func)
                by_name[name].append(func)
            start = end + 2
        self.starts = {}
        for i, funcs in self.functions.items():
            funcs.sort(key=lambda f: f.addr)
            for f, nxt in zip(funcs, funcs[1:]):
                f.end = nxt.addr
            funcs[-1].end = funcs[-1].sec.addr + funcs[-1].sec.size
            self.starts[i] = [f.addr for f in funcs]
        for name, funcs in by_name.items():
            if len(funcs) > 1:
                for f in funcs:
                    f.label = f"{name}@{f.addr:x}"
        # objdump names an address after one of its symbols; a service
        # may be allowed under another.
        for sym in self.elf.symbols:
            if sym.shndx and sym.kind != STT_SECTION:
                f = self.function_at(self.elf.sections[sym.shndx], sym.value)
                if f and f.addr == sym.value:
                    f.aliases.add(sym.name)

    def read_alternatives(self, output):
        """Attach each replacement to the function it patches."""
        self.replacement = []
        for line in output.decode().splitlines():
            m = INSN.match(line)
            if m:
                self.replacement.append((int(m[1], 16), m[2]))
        self.replacement_starts = [a for a, _ in self.replacement]
        table = self.sections.get(".altinstructions")
        if not table:
            return
        raw = self.elf.contents(table)
        raw = raw[:len(raw) - len(raw) % ALT_INSTR.size]
        for i, entry in enumerate(ALT_INSTR.iter_unpack(raw)):
            where = table.addr + i * ALT_INSTR.size
            instr, repl, _, _, length = entry
            sec = self.section_of(where + instr)
            f = self.function_at(sec, where + instr) if sec else None
            if f and length:
                self.alternatives[f].append((where + instr, where + 4 + repl,
                                             length))

    def section_of(self, addr):
        i = bisect.bisect_right(self.loaded_starts, addr) - 1
        if i >= 0 and addr < self.loaded[i][1]:
            return self.loaded[i][2]
        return None

    def function_at(self, sec, addr):
        starts = self.starts.get(sec.index)
        i = bisect.bisect_right(starts, addr) - 1 if starts else -1
        if i < 0:
            return None
        f = self.functions[sec.index][i]
        return f if addr < f.end else None

    def symbol_name(self, loc):
        if loc.sec is None:
            return loc.name
        syms = self.by_section.get(loc.sec.index, [])
        values = self.values.get(loc.sec.index)
        if values is None:
            values = self.values[loc.sec.index] = [s.value for s in syms]
        i = bisect.bisect_right(values, loc.addr) - 1
        if i < 0:
            return f"{loc.sec.name}+{loc.addr - loc.sec.addr:#x}"
        off = loc.addr - syms[i].value
        return f"{syms[i].name}+{off:#x}" if off else syms[i].name

    def region(self, loc):
        """What a sandbox finds at @loc: "text", "rodata" and "standin"
        are mapped for it, "entry", "data" and "undefined" are not."""
        if loc.gs:
            if loc.sec is None:
                return "standin" if loc.name in PERCPU_STANDINS else "data"
            if any(i == loc.sec.index and a <= loc.addr < b
                   for i, a, b in self.standins):
                return "standin"
            return "data"
        if loc.sec is None:
            return "undefined"
        if self.relocatable:
            if loc.sec.flags & SHF_EXECINSTR:
                return "text"
            # .data..ro_after_init goes to read-only data in vmlinux.
            if loc.sec.flags & SHF_WRITE and \
                    loc.sec.name != ".data..ro_after_init":
                return "data"
            return "rodata"
        if self.entry[0] <= loc.addr < self.entry[1]:
            return "entry"
        if self.text[0] <= loc.addr < self.text[1]:
            return "text"
        if self.rodata[0] <= loc.addr < self.rodata[1]:
            return "rodata"
        return "data"

    def address(self, value):
        """The location of a constant that is an address in vmlinux."""
        value &= (1 << 64) - 1
        if self.relocatable or value < self.loaded_starts[0]:
            return None
        sec = self.section_of(value)
        return Location(sec, value) if sec else None

    def relocation(self, target, addend, gs=False):
        m = SYMBOL_ADDEND.match(target)
        addend += int(m[2], 16) if m[2] else 0
        sym = self.symbols.get(m[1])
        if not sym or sym.shndx == SHN_UNDEF:
            return Location(None, 0, gs, m[1])
        return Location(self.elf.sections[sym.shndx], sym.value + addend, gs)

    def analyse(self, func):
        if func.analysed:
            return
        func.analysed = True
        insns = []
        start, end = func.span
        for line in self.output[start:end].decode().splitlines():
            m = INSN.match(line)
            if m:
                insns.append((int(m[1], 16), m[2], []))
                continue
            m = RELOC.match(line)
            if m and insns:
                insns[-1][2].append((int(m[1], 16), m[2], m[3]))
        last = None
        for i, (addr, text, relocs) in enumerate(insns):
            end = insns[i + 1][0] if i + 1 < len(insns) else func.end
            insn = self.instruction(func, addr, end, text, relocs)
            if not PADDING.match(insn):
                last = insn
        for patched, repl, length in self.alternatives.get(func, ()):
            i = bisect.bisect_left(self.replacement_starts, repl)
            while i < len(self.replacement) and \
                    self.replacement[i][0] < repl + length:
                addr, text = self.replacement[i]
                i += 1
                end = self.replacement[i][0] if i < len(self.replacement) \
                    else repl + length
                self.instruction(func, addr, end, text, [],
                                 (patched, repl, repl + length))
        if last and last.split()[0] not in ENDS:
            self.falls_into(func)

    def falls_into(self, func):
        """Code that runs on into the next symbol (an assembler label
        inside a function) reaches it; the padding before a function
        is no code."""
        funcs = self.functions[func.sec.index]
        i = bisect.bisect_right(self.starts[func.sec.index], func.addr)
        while i < len(funcs) and funcs[i].name.startswith(("__pfx_",
                                                            "__cfi_")):
            i += 1
        if i < len(funcs):
            func.edges.append(("falls into", funcs[i], f"{func.label} end"))

    def instruction(self, func, addr, end, text, relocs, alternative=None):
        """Record what one instruction of @func refers to and does;
        return it without prefixes and comment. @alternative is where
        the replacement it is part of goes, its start and its end."""
        body, _, comment = text.partition("#")
        body = body.strip()
        m = PREFIX.match(body)
        gs = bool(m) and " gs " in f" {m[0]}"
        body = body[m.end():] if m else body
        mnemonic, _, ops = body.partition(" ")
        ops = ops.strip()
        body = f"{mnemonic} {ops}".strip()
        site = f"{func.label}+{addr - func.addr:#x}"
        if alternative:
            site = f"{func.label}+{alternative[0] - func.addr:#x} " \
                "(alternative)"
        if mnemonic in PRIVILEGED or mnemonic.startswith("mov") and \
                (CONTROL_REGISTER.search(ops) or SEGMENT_LOAD.search(ops)):
            func.unsafe.append(f"privileged instruction {body} at {site}")
        elif mnemonic in SYSCALLS:
            func.unsafe.append(f"system call ({body}) at {site}")
        elif mnemonic in TRAPS:
            func.traps.append(f"{mnemonic} in {func.label}")
        if mnemonic.startswith(("call", "j", "loop")):
            t = BRANCH_TARGET.match(ops)
            if t:
                self.branch(func, end, mnemonic, int(t[1], 16), relocs, site,
                            alternative)
                return body
            if ops.startswith("*"):
                func.indirect.append((site, body))
                ops = ops[1:]
        operands = split_operands(ops)
        for n, op in enumerate(operands):
            if op.startswith("$") or mnemonic.startswith("lea"):
                how = "takes the address of"
            elif n == len(operands) - 1 and not READS_LAST.match(mnemonic) \
                    or len(operands) == 1 and WRITES_ONLY.match(mnemonic):
                how = "writes"
            else:
                how = "reads"
            for loc in self.operand(func, op, comment, relocs, end, gs):
                self.reference(func, loc, how, site)
        return body

    def operand(self, func, op, comment, relocs, end, gs):
        """Yield the locations that operand @op of an instruction ending
        at @end refers to."""
        m = MEMORY.match(op[1:] if op.startswith("$") else op)
        if not m:
            return
        gs = gs or m[1] == "gs"
        disp, base = m[2], m[3]
        if self.relocatable:
            # Which relocation belongs to which operand follows from its
            # kind: the PC-relative one to the RIP-relative operand.
            for offset, kind, target in relocs:
                if (kind == "R_X86_64_PC32") == (base == "%rip"):
                    pc = end - offset if base == "%rip" else 0
                    yield self.relocation(target, pc, gs)
                    return
            if gs and base:
                yield Location(None, 0, True, "data through a pointer")
            elif base == "%rip" and comment:
                yield Location(func.sec, int(comment.split()[0], 16))
            return
        if base == "%rip":
            target = int(comment.split()[0], 16) if comment else None
        else:
            target = int(disp, 16) if disp else None
        if gs:
            yield Location(None, 0, True, "data through a pointer") \
                if base and base != "%rip" else \
                Location(self.percpu, target or 0, True,
                         None if self.percpu else f"{target or 0:#x}")
            return
        loc = self.address(target) if target else None
        if loc:
            yield loc

    def reference(self, func, loc, how, site):
        kind = self.region(loc)
        if kind in ("rodata", "standin"):
            return
        if kind == "text":
            target = self.function_at(loc.sec, loc.addr)
            if target and target is not func:
                func.edges.append(("address", target, site))
            return
        name = self.symbol_name(loc)
        if name.startswith(ONCE_FLAG):
            func.traps.append(f"{ONCE_FLAG} in {func.label}")
            return
        if loc.gs:
            what = f"per-CPU {name}"
        elif kind == "undefined":
            what = f"{name} (not in {os.path.basename(self.path)})"
        elif kind == "entry":
            what = f"{name} (entry text)"
        else:
            what = f"{name} ({loc.sec.name})"
        func.unsafe.append(f"{how} {what} at {site}")

    def branch(self, func, end, mnemonic, target, relocs, site, alternative):
        how = "call" if mnemonic.startswith("call") else "jump"
        sec = func.sec if self.relocatable else self.section_of(target)
        for offset, _, sym in relocs:
            loc = self.relocation(sym, end - offset)
            if loc.sec is None:
                func.edges.append((how, self.leaf(
                    loc.name, f"not in {os.path.basename(self.path)}"), site))
                return
            sec, target = loc.sec, loc.addr
        inner = alternative and alternative[1] <= target < alternative[2]
        if sec is func.sec and func.addr <= target < func.end or inner:
            return
        dest = self.function_at(sec, target) if sec else None
        if dest:
            func.edges.append((how, dest, site))
        elif sec and sec.name in (".altinstr_aux", ".altinstr_replacement"):
            return
        else:
            loc = Location(sec, target) if sec else \
                Location(None, 0, False, f"{target:#x}")
            where = sec.name if sec else "no section"
            func.edges.append((how, self.leaf(self.symbol_name(loc),
                                              f"outside the sandbox's text "
                                              f"({where})"), site))

    def leaf(self, name, reason):
        if name not in self.leaves:
            self.leaves[name] = Leaf(name, reason)
        return self.leaves[name]


def is_return(node):
    return any(n.endswith("return_thunk") or n == "__fentry__"
               for n in node.aliases)


def is_indirect(node):
    return any(n.startswith(INDIRECT_PREFIXES) for n in node.aliases)


def is_error_path(node):
    return any(n in ERROR_PATHS or n.startswith(ERROR_PREFIXES)
               for n in node.aliases)


class Walk:
    """Everything one entry point reaches, breadth first so that each
    path shown is a shortest one."""

    def __init__(self, image, entry, allowed, expected):
        self.entry = entry
        self.target = entry.name[len(THUNK_PREFIX):]
        self.expected = expected
        self.services = []
        self.runs = []
        self.unsafe = []        # (function, reasons, path)
        self.indirect = []      # (instruction and site, path)
        self.errors = []        # what and where
        parents = {entry: None}
        queue = collections.deque([entry])
        while queue:
            node = queue.popleft()
            if node.aliases & allowed:
                self.services.append(min(node.aliases & allowed))
            elif is_error_path(node):
                self.errors.append(node.label)
            elif self.runnable(image, node, self.path(parents, node)):
                for how, dest, site in node.edges:
                    if is_indirect(dest):
                        self.indirect.append(
                            (f"{how} {dest.label} at {site}",
                             self.path(parents, node)))
                    elif dest not in parents and not is_return(dest):
                        parents[dest] = (node, how)
                        queue.append(dest)

    def runnable(self, image, node, path):
        if isinstance(node, Leaf):
            self.unsafe.append((node, [node.reason], path))
            return False
        image.analyse(node)
        reasons = node.unsafe
        if not image.relocatable and \
                image.region(Location(node.sec, node.addr)) == "entry":
            reasons = ["in the entry text, which a sandbox may not run"] + \
                reasons
        if reasons:
            self.unsafe.append((node, reasons, path))
            return False
        self.runs.append(node)
        self.indirect.extend((f"{insn} at {site}", path)
                             for site, insn in node.indirect)
        self.errors.extend(node.traps)
        return True

    @staticmethod
    def path(parents, node):
        steps = []
        while parents[node]:
            parent, how = parents[node]
            steps.append({"address": "&", "falls into": "..."}.get(how, "")
                         + node.label)
            node = parent
        steps.append(node.label)
        return " -> ".join(reversed(steps))


def markers(image):
    """Map each target name ("" for all) to the services it may call;
    list the targets that break the rules on purpose."""
    allowed = collections.defaultdict(set)
    expected = set()
    for sym in image.elf.symbols:
        if sym.name.startswith(ALLOW_PREFIX) and sym.shndx:
            target, _, func = sym.name[len(ALLOW_PREFIX):].partition(".")
            if func:
                allowed[target].add(func)
        elif sym.name.startswith(EXPECT_PREFIX) and sym.shndx:
            expected.add(sym.name[len(EXPECT_PREFIX):])
    return allowed, expected


def count(n, what):
    return f"{n} {what}" + ("" if n == 1 else "s")


def wrap(items, indent):
    text = ", ".join(items) if items else "(none)"
    return textwrap.fill(text, 78, initial_indent=indent,
                         subsequent_indent=" " * len(indent),
                         break_on_hyphens=False, break_long_words=False)


LEGEND = """
services: allowed functions, which SBM runs in kernel mode
runs:     functions that run in the sandbox and pass the check
UNSAFE:   a function that would fault in the sandbox, with a shortest
          path from the entry point (a -> b: a calls or jumps to b;
          a -> &b: a takes the address of b; a -> ...b: a runs on
          into b) and why; what it calls is not followed
indirect: calls through pointers, not checked
error:    what ends the sandbox on a bug the code detected
The rules are in the header of the check, in scripts/sbm/."""


def report(image, walks, out):
    print(f"SandBox Mode: what the sandboxed code in "
          f"{os.path.basename(image.path)} reaches", file=out)
    print(LEGEND, file=out)
    for walk in walks:
        expected = ", faults on purpose" if walk.expected else ""
        print(f"\n{walk.entry.label} (target {walk.target}{expected})",
              file=out)
        print(wrap(sorted(set(walk.services)), "  services: "), file=out)
        print(wrap([f.label for f in walk.runs], "  runs:     "), file=out)
        for func, reasons, path in walk.unsafe:
            print(f"  UNSAFE:   {func.label}"
                  + (" (expected)" if walk.expected else ""), file=out)
            print(wrap([path], "    path: "), file=out)
            for r in reasons[:5]:
                print(wrap([r], "    - "), file=out)
            if len(reasons) > 5:
                print(f"    - and {len(reasons) - 5} more", file=out)
        for what, path in walk.indirect:
            print(wrap([what], "  indirect: "), file=out)
            print(wrap([path], "    path: "), file=out)
        print(wrap(dict.fromkeys(walk.errors), "  error:    "), file=out)
    print(f"\n{summary(walks)}", file=out)


def summary(walks):
    bad = [w for w in walks if w.unsafe and not w.expected]
    funcs = {f.label for w in bad for f, _, _ in w.unsafe}
    expected = [w for w in walks if w.unsafe and w.expected]
    indirect = {what for w in walks for what, _ in w.indirect}
    return (f"{count(len(walks), 'entry point')}, {len(bad)} reach unsafe "
            f"code ({count(len(funcs), 'unsafe function')}), "
            + (f"{len(expected)} on purpose, " if expected else "") +
            f"{count(len(indirect), 'indirect call')} not checked")


def main():
    parser = argparse.ArgumentParser(
        description="List what SandBox Mode targets reach but may not run.")
    parser.add_argument("--fatal", action="store_true",
                        help="exit with 1 if anything unsafe is reachable")
    parser.add_argument("-o", "--output", help="write the report here")
    parser.add_argument("object", help="vmlinux or a relocatable object")
    args = parser.parse_args()
    try:
        image = Image(args.object)
    except CheckError as e:
        print(f"sbm_reach: {e}", file=sys.stderr)
        return 2
    allowed, expected = markers(image)
    walks = []
    for funcs in image.functions.values():
        for func in funcs:
            target = func.name[len(THUNK_PREFIX):]
            if func.name.startswith(THUNK_PREFIX):
                walks.append(Walk(image, func,
                                  allowed[""] | allowed.get(target, set()),
                                  target in expected))
    walks.sort(key=lambda w: w.entry.label)
    if args.output:
        with open(args.output, "w") as out:
            report(image, walks, out)
    else:
        report(image, walks, sys.stdout)
    level = "ERROR" if args.fatal else "WARNING"
    problems = [(path, reasons[0]) for w in walks if not w.expected
                for _, reasons, path in w.unsafe]
    for path, reason in problems[:WARNINGS_SHOWN]:
        print(f"{level}: sbm: {path}: {reason}", file=sys.stderr)
    if problems:
        hidden = len(problems) - WARNINGS_SHOWN
        print(f"{level}: sbm: {summary(walks)}"
              + (f"; {hidden} more not shown" if hidden > 0 else "")
              + (f"; see {args.output}" if args.output else ""),
              file=sys.stderr)
    return 1 if args.fatal and problems else 0


if __name__ == "__main__":
    sys.exit(main())

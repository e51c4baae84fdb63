#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make bad binary AppArmor policies from the corpus, for the policy unpacker.

    apparmor-fuzz.py [--seed N] [--count N] [--corpus DIR] [--out DIR]

Reads the corpus of tools/apparmor-corpus.sh (build/apparmor/corpus/*.bin)
and writes COUNT mutated blobs to build/apparmor/fuzz/NNNN.bin, and what
each one is to build/apparmor/fuzz.txt ("NNNN bytes kind base detail").
The same seed and corpus give the same blobs, byte for byte.

The mutations:
  truncate   the blob cut short, at element boundaries and anywhere
  bitflip    one bit flipped
  multiflip  2 to 32 bits flipped
  header     bytes of a profile's header elements overwritten
  table      bytes of a DFA table set or table header overwritten
  garbage    random bytes, 1 byte to 256 KiB, alone or after a valid header
  struct-*   one field of the element stream or of a DFA set to a value
             chosen to hit a check (type codes, name and string lengths,
             blob sizes, array counts, u32 fields, terminators, element
             removal, duplication and swaps, DFA table ids, flags,
             lengths and contents, blobs glued together)

The element stream (security/apparmor/policy_unpack.c) is little endian:
a code byte, AA_NAME (4) and AA_STRING (5) with a u16 length, AA_BLOB (6)
with a u32 length, AA_ARRAY (11) with a u16 count, U8 to U64 (0 to 3) with
their value. A DFA ("aadfa" blob; security/apparmor/match.c) is big
endian: a table set header (magic 0x1B5E783D, header size, set size,
flags, version string), then tables (id, flags, hi and lo lengths, data,
each padded to 8 bytes).
"""

import argparse
import hashlib
import os
import random
import struct
import sys

U8, U16, U32, U64, NAME, STRING, BLOB, STRUCT, STRUCTEND, LIST, LISTEND, \
    ARRAY, ARRAYEND = range(13)
CODES = range(13)
YYTH_MAGIC = 0x1B5E783D
# A table's element size by td_flags.
TD_SIZE = {1: 1, 2: 2, 4: 4, 8: 8}
DEFAULT_SEED = 20241204
DEFAULT_COUNT = 2600

INTERESTING32 = [0, 1, 2, 3, 4, 5, 7, 8, 0xff, 0x100, 0x7fff, 0x8000, 0xffff,
                 0x10000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff]
INTERESTING16 = [0, 1, 2, 3, 7, 8, 0xff, 0x100, 0x7fff, 0x8000, 0xfffe, 0xffff]
INTERESTING8 = [0, 1, 0x7f, 0x80, 0xfe, 0xff]


class Element:
    """One element of the stream: where it starts, its code, where its
    payload is, and the name of the AA_NAME tag right before it."""

    def __init__(self, off, code, poff, plen, end, name):
        self.off, self.code, self.poff, self.plen, self.end = \
            off, code, poff, plen, end
        self.name = name


def tokenize(data):
    """The elements of a blob, up to the first that does not parse."""
    out = []
    pos = 0
    name = None
    while pos < len(data):
        code = data[pos]
        p = pos + 1
        if code in (U8, U16, U32, U64):
            plen = (1, 2, 4, 8)[code]
            poff = p
        elif code in (NAME, STRING):
            if p + 2 > len(data):
                break
            plen = struct.unpack_from("<H", data, p)[0]
            poff = p + 2
        elif code == BLOB:
            if p + 4 > len(data):
                break
            plen = struct.unpack_from("<I", data, p)[0]
            poff = p + 4
        elif code == ARRAY:
            plen = 2
            poff = p
        elif code in (STRUCT, STRUCTEND, LIST, LISTEND, ARRAYEND):
            plen = 0
            poff = p
        else:
            break
        end = poff + plen
        if end > len(data):
            break
        if code == NAME:
            name = bytes(data[poff:end]).rstrip(b"\0").decode("latin-1")
            out.append(Element(pos, code, poff, plen, end, None))
        else:
            out.append(Element(pos, code, poff, plen, end, name))
            name = None
        pos = end
    return out


class Table:
    def __init__(self, off, tid, flags, lolen, doff, end):
        self.off, self.tid, self.flags, self.lolen, self.doff, self.end = \
            off, tid, flags, lolen, doff, end


class Dfa:
    """A DFA in a blob: the table set header at off, its tables."""

    def __init__(self, blob_el, off, hsize, tables):
        self.blob = blob_el
        self.off, self.hsize, self.tables = off, hsize, tables

    def table(self, tid):
        for t in self.tables:
            if t.tid == tid:
                return t
        return None


def find_dfas(data, elements):
    dfas = []
    for el in elements:
        if el.code != BLOB or el.name != "aadfa":
            continue
        off = data.find(struct.pack(">I", YYTH_MAGIC), el.poff, el.poff + 12)
        if off < 0:
            continue
        hsize = struct.unpack_from(">I", data, off + 4)[0]
        tables = []
        pos = off + hsize
        while pos + 12 <= el.end:
            tid, flags, _, lolen = struct.unpack_from(">HHII", data, pos)
            size = TD_SIZE.get(flags)
            if not size:
                break
            end = pos + ((12 + lolen * size + 7) & ~7)
            tables.append(Table(pos, tid, flags, lolen, pos + 12, end))
            pos = end
        dfas.append(Dfa(el, off, hsize, tables))
    return dfas


class Base:
    """A corpus blob and what we know of its structure."""

    def __init__(self, name, data):
        self.name, self.data = name, data
        self.elements = tokenize(data)
        self.dfas = find_dfas(data, self.elements)


class Fuzzer:
    def __init__(self, bases, seed):
        self.rng = random.Random(seed)
        self.bases = bases
        # Mostly the smallest quarter of the corpus (still dozens of
        # profiles, with hats and several DFAs), to keep the set small.
        by_size = sorted(bases, key=lambda b: (len(b.data), b.name))
        self.small = by_size[:max(1, len(by_size) // 4)]

    def base(self):
        r = self.rng
        return r.choice(self.small if r.random() < 0.8 else self.bases)

    # Helpers: pack a value into a copy at an offset.
    @staticmethod
    def put(data, off, fmt, value):
        out = bytearray(data)
        struct.pack_into(fmt, out, off, value)
        return out

    def value32(self, old):
        r = self.rng
        return r.choice(INTERESTING32 + [old + 1 & 0xffffffff,
                                         old - 1 & 0xffffffff,
                                         old ^ (1 << r.randrange(32)),
                                         r.getrandbits(32)])

    def value16(self, old):
        r = self.rng
        return r.choice(INTERESTING16 + [old + 1 & 0xffff, old - 1 & 0xffff,
                                         old ^ (1 << r.randrange(16)),
                                         r.getrandbits(16)])

    # The plain mutations.
    def truncate(self, b):
        r = self.rng
        n = len(b.data)
        how = r.randrange(4)
        if how == 0 and b.elements:
            el = r.choice(b.elements)
            off = r.choice([el.off, el.off + 1, el.poff, el.end - 1, el.end])
        elif how == 1 and b.dfas:
            d = r.choice(b.dfas)
            t = r.choice(d.tables) if d.tables else None
            off = r.choice([d.off + 4, d.off + d.hsize - 1, d.blob.end - 1] +
                           ([t.off + 6, t.doff, t.end - 1] if t else []))
        elif how == 2:
            off = r.choice([1, 2, 3, 4, 5, 8, 16, n - 1, n - 2, n // 2])
        else:
            off = r.randrange(1, n)
        off = min(max(off, 1), n - 1)
        return b.data[:off], f"at {off} of {n}"

    def bitflip(self, b):
        r = self.rng
        out = bytearray(b.data)
        # Half of them in the first 512 bytes: headers, names, flags.
        lim = len(out) if r.random() < 0.5 else min(len(out), 512)
        off = r.randrange(lim)
        bit = r.randrange(8)
        out[off] ^= 1 << bit
        return out, f"bit {bit} of byte {off}"

    def multiflip(self, b):
        r = self.rng
        out = bytearray(b.data)
        k = r.choice([2, 2, 3, 4, 8, 16, 32])
        offs = sorted(r.randrange(len(out)) for _ in range(k))
        for off in offs:
            out[off] ^= 1 << r.randrange(8)
        return out, f"{k} bits from byte {offs[0]} to {offs[-1]}"

    def overwrite(self, data, lo, hi, what):
        r = self.rng
        out = bytearray(data)
        hi = min(hi, len(out))
        off = r.randrange(lo, max(lo + 1, hi))
        k = r.choice([1, 1, 2, 4, 8])
        fill = r.choice(["zero", "ff", "interesting", "random"])
        for i in range(off, min(off + k, len(out))):
            out[i] = {"zero": 0, "ff": 0xff, "random": r.getrandbits(8),
                      "interesting": r.choice(INTERESTING8)}[fill]
        return out, f"{k} bytes of {what} at {off} with {fill}"

    def header(self, b):
        # The elements before the first DFA: version, namespace, profile
        # name, attach string, flags.
        r = self.rng
        starts = [el for el in b.elements
                  if el.code == U32 and el.name == "version"]
        el = r.choice(starts) if starts else None
        lo = el.off if el else 0
        nxt = [d.blob.off for d in b.dfas if d.blob.off > lo]
        hi = min(nxt) if nxt else lo + 64
        return self.overwrite(b.data, lo, hi, "a header")

    def table(self, b):
        r = self.rng
        if not b.dfas:
            return self.header(b)
        d = r.choice(b.dfas)
        if d.tables and r.random() < 0.7:
            t = r.choice(d.tables)
            return self.overwrite(b.data, t.off, t.off + 12,
                                  f"table id {t.tid} header")
        return self.overwrite(b.data, d.off, d.off + d.hsize,
                              "a table set header")

    def garbage(self, b):
        r = self.rng
        size = int(2 ** r.uniform(0, 18))
        junk = r.randbytes(size)
        how = r.randrange(3)
        if how == 0:
            return junk, f"{size} random bytes"
        # A valid "version" element (the first of every blob), then junk.
        first = b.elements[0] if b.elements else None
        head = b.data[:first.end] if first and first.name == "version" \
            else b""
        if how == 1:
            return head + junk, f"version header + {size} random bytes"
        # The whole header up to the profile name, then junk.
        names = [el for el in b.elements[:8] if el.code == STRING]
        cut = names[0].end if names else len(head)
        return b.data[:cut] + junk, f"{cut} header bytes + {size} random bytes"

    # Structure-aware mutations: one field, a chosen value.
    def s_typecode(self, b):
        r = self.rng
        el = r.choice(b.elements)
        code = r.choice([c for c in list(CODES) + [13, 0x7f, 0xff]
                         if c != el.code])
        return self.put(b.data, el.off, "<B", code), \
            f"element at {el.off}: code {el.code} -> {code}"

    def s_namelen(self, b):
        r = self.rng
        els = [el for el in b.elements if el.code in (NAME, STRING)]
        el = r.choice(els)
        old = el.plen
        new = r.choice([0, 1, old - 1, old + 1, old + 2, 0x7fff, 0xffff,
                        r.getrandbits(16)]) & 0xffff
        if new == old:
            new = old + 1 & 0xffff
        kind = "name" if el.code == NAME else "string"
        return self.put(b.data, el.off + 1, "<H", new), \
            f"{kind} at {el.off}: length {old} -> {new}"

    def s_nul(self, b):
        # A name or string without its terminating NUL.
        r = self.rng
        els = [el for el in b.elements if el.code in (NAME, STRING) and el.plen]
        el = r.choice(els)
        c = r.choice([ord("A"), 0xff, ord("/"), ord(":")])
        return self.put(b.data, el.end - 1, "<B", c), \
            f"terminator of {'name' if el.code == NAME else 'string'} at {el.off} -> {c:#x}"

    def s_blobsize(self, b):
        r = self.rng
        els = [el for el in b.elements if el.code == BLOB]
        el = r.choice(els)
        old = el.plen
        new = r.choice([0, 1, 7, 8, 12, old - 1, old + 1, old + 8,
                        old // 2, len(b.data), 0x7fffffff, 0xffffffff,
                        r.getrandbits(32)]) & 0xffffffff
        if new == old:
            new = old + 1
        return self.put(b.data, el.off + 1, "<I", new), \
            f"blob {el.name} at {el.off}: size {old} -> {new}"

    def s_arraycount(self, b):
        r = self.rng
        els = [el for el in b.elements if el.code == ARRAY]
        el = r.choice(els)
        old = struct.unpack_from("<H", b.data, el.poff)[0]
        new = self.value16(old)
        if new == old:
            new = old + 1 & 0xffff
        return self.put(b.data, el.poff, "<H", new), \
            f"array {el.name} at {el.off}: count {old} -> {new}"

    def s_u32(self, b):
        r = self.rng
        els = [el for el in b.elements if el.code == U32]
        # Named fields (version, start, dfa_start, ...) twice as often.
        named = [el for el in els if el.name]
        el = r.choice(named if named and r.random() < 0.5 else els)
        old = struct.unpack_from("<I", b.data, el.poff)[0]
        if el.name == "version" and r.random() < 0.6:
            new = r.choice([0, 1, 4, 5, 6, 7, 8, 9, 10, 0x20007, 0x10008,
                            old | 0x10000, old ^ 0x7, 0xffffffff])
        else:
            new = self.value32(old)
        if new == old:
            new = old ^ 1
        return self.put(b.data, el.poff, "<I", new), \
            f"u32 {el.name or '-'} at {el.off}: {old:#x} -> {new:#x}"

    def s_small_value(self, b):
        r = self.rng
        els = [el for el in b.elements if el.code in (U8, U16, U64)]
        if not els:
            return self.s_u32(b)
        el = r.choice(els)
        fmt = {U8: "<B", U16: "<H", U64: "<Q"}[el.code]
        bits = {U8: 8, U16: 16, U64: 64}[el.code]
        old = struct.unpack_from(fmt, b.data, el.poff)[0]
        new = r.choice([0, 1, (1 << bits) - 1, 1 << (bits - 1),
                        old ^ (1 << r.randrange(bits))])
        if new == old:
            new = old ^ 1
        return self.put(b.data, el.poff, fmt, new), \
            f"u{bits} {el.name or '-'} at {el.off}: {old:#x} -> {new:#x}"

    def s_delete(self, b):
        r = self.rng
        el = r.choice(b.elements)
        out = b.data[:el.off] + b.data[el.end:]
        return out, f"element at {el.off} (code {el.code}, {el.end - el.off} bytes) removed"

    def s_duplicate(self, b):
        r = self.rng
        el = r.choice(b.elements)
        out = b.data[:el.end] + b.data[el.off:el.end] + b.data[el.end:]
        return out, f"element at {el.off} (code {el.code}) doubled"

    def s_swap(self, b):
        r = self.rng
        i = r.randrange(len(b.elements) - 1)
        x, y = b.elements[i], b.elements[i + 1]
        out = b.data[:x.off] + b.data[y.off:y.end] + b.data[x.off:x.end] + \
            b.data[y.end:]
        return out, f"elements at {x.off} and {y.off} swapped"

    def s_structend(self, b):
        # An end of struct, list or array dropped or added early.
        r = self.rng
        ends = [el for el in b.elements
                if el.code in (STRUCTEND, LISTEND, ARRAYEND)]
        if ends and r.random() < 0.5:
            el = r.choice(ends)
            return b.data[:el.off] + b.data[el.end:], \
                f"end code {el.code} at {el.off} removed"
        el = r.choice(b.elements)
        code = r.choice([STRUCTEND, LISTEND, ARRAYEND, STRUCT, ARRAY])
        extra = bytes([code]) + (b"\x05\x00" if code == ARRAY else b"")
        return b.data[:el.off] + extra + b.data[el.off:], \
            f"code {code} inserted at {el.off}"

    def s_string(self, b):
        # A string's contents replaced, with its length fixed: names of
        # profiles and namespaces, attachments, transitions.
        r = self.rng
        els = [el for el in b.elements if el.code == STRING]
        el = r.choice(els)
        new = r.choice([b"", b":", b"::", b"//", b"/", b"a//b", b"^hat",
                        b":ns:name", b":ns", b"..", b"\xff\xfe",
                        b"x" * 300, b"x" * 4096, b"a\0b", b"\n",
                        b"ns://prof", b"&", b"null-", b"-"]) + b"\0"
        out = b.data[:el.off] + bytes([STRING]) + struct.pack("<H", len(new)) + \
            new + b.data[el.end:]
        return out, f"string {el.name or '-'} at {el.off} -> {new[:24]!r}"

    def s_th(self, b):
        # A field of a table set header.
        r = self.rng
        d = r.choice(b.dfas)
        field = r.choice(["magic", "hsize", "ssize", "flags", "version"])
        if field == "magic":
            out = self.put(b.data, d.off, ">I", YYTH_MAGIC ^ (1 << r.randrange(32)))
        elif field == "hsize":
            out = self.put(b.data, d.off + 4, ">I",
                           r.choice([0, 1, 12, 14, 15, 16, d.hsize - 1,
                                     d.hsize + 1, d.hsize + 8, 0x7fffffff,
                                     0x80000000, 0xffffffff]))
        elif field == "ssize":
            old = struct.unpack_from(">I", b.data, d.off + 8)[0]
            out = self.put(b.data, d.off + 8, ">I", self.value32(old))
        elif field == "flags":
            out = self.put(b.data, d.off + 12, ">H",
                           r.choice([1, 2, 3, 4, 0x8000, 0xffff]))
        else:
            out = bytearray(b.data)
            for i in range(d.off + 14, d.off + d.hsize):
                out[i] = 0xff
        return out, f"dfa at {d.off}: table set {field}"

    def s_td(self, b):
        # A field of a table header: id, flags, lengths.
        r = self.rng
        d = r.choice([d for d in b.dfas if d.tables])
        t = r.choice(d.tables)
        field = r.choice(["id", "flags", "hilen", "lolen", "lolen"])
        if field == "id":
            new = r.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0xffff])
            new = new if new != t.tid else 0
            out = self.put(b.data, t.off, ">H", new)
        elif field == "flags":
            new = r.choice([0, 1, 2, 3, 4, 8, 0x10, 0x1004, 0xffff])
            new = new if new != t.flags else 3
            out = self.put(b.data, t.off + 2, ">H", new)
        elif field == "hilen":
            new = r.choice([1, 0xffffffff, r.getrandbits(32)])
            out = self.put(b.data, t.off + 4, ">I", new)
        else:
            new = r.choice([0, 1, t.lolen - 1, t.lolen + 1, t.lolen * 2,
                            255, 256, 257, 0x10000, 0x7fffffff, 0xffffffff])
            new = new & 0xffffffff if new != t.lolen else 0
            out = self.put(b.data, t.off + 8, ">I", new)
        return out, f"dfa at {d.off}: table id {t.tid} {field} -> {new:#x}"

    def s_tdata(self, b):
        # Entries of the tables that verify_dfa() checks: default and base
        # (per state), next and check (per transition), equivalence
        # classes, accept (indexes into the permission table).
        r = self.rng
        d = r.choice([d for d in b.dfas if d.tables])
        t = r.choice(d.tables)
        size = TD_SIZE[t.flags]
        fmt = {1: ">B", 2: ">H", 4: ">I", 8: ">Q"}[size]
        out = bytearray(b.data)
        base = d.table(2)
        nxt = d.table(8)
        states = base.lolen if base else 1
        trans = nxt.lolen if nxt else 1
        k = r.choice([1, 1, 1, 2, 4])
        changed = []
        for _ in range(k):
            i = r.randrange(t.lolen) if t.lolen else 0
            off = t.doff + i * size
            if off + size > len(out):
                continue
            if t.tid == 2:    # base: flags or index past next/check
                new = r.choice([0x01000000, 0x40000000, 0x80000000,
                                0x20000000, trans, trans - 255,
                                trans - 256, 0xffffffff])
            elif t.tid in (4, 8, 3):    # default, next, check: a state
                new = r.choice([states, states - 1, states + 1, 0xffff, 0, i])
            elif t.tid == 5:    # equivalence classes
                new = r.choice([0, 0xff, r.getrandbits(8)])
            else:    # accept and the rest
                new = r.choice([0, 1, 0xffff, 0x7fffffff, 0xffffffff,
                                r.getrandbits(8 * size)])
            struct.pack_into(fmt, out, off, new & ((1 << 8 * size) - 1))
            changed.append(f"[{i}]={new & ((1 << 8 * size) - 1):#x}")
        return out, f"dfa at {d.off}: table id {t.tid} " + " ".join(changed)

    def s_diffencode(self, b):
        # Diff-encoded states that loop: set the flag on states whose
        # default state points back.
        r = self.rng
        d = r.choice([d for d in b.dfas if d.table(2) and d.table(4)])
        base, default = d.table(2), d.table(4)
        out = bytearray(b.data)
        struct.pack_into(">H", out, d.off + 12,
                         struct.unpack_from(">H", out, d.off + 12)[0] | 1)
        n = min(base.lolen, default.lolen)
        i = r.randrange(1, n) if n > 1 else 0
        j = r.choice([i, 1, r.randrange(n)])
        v = struct.unpack_from(">I", out, base.doff + 4 * i)[0]
        struct.pack_into(">I", out, base.doff + 4 * i, v | 0x80000000)
        struct.pack_into(">H", out, default.doff + 2 * i, j)
        v = struct.unpack_from(">I", out, base.doff + 4 * j)[0]
        struct.pack_into(">I", out, base.doff + 4 * j, v | 0x80000000)
        struct.pack_into(">H", out, default.doff + 2 * j, i)
        return out, f"dfa at {d.off}: diff-encoded states {i} <-> {j}"

    def s_concat(self, b):
        # Several profiles in one write: two good ones (may load), or a
        # good one and a bad one.
        r = self.rng
        other = self.base()
        how = r.randrange(3)
        if how == 0:
            return b.data + other.data, f"+ {other.name}"
        if how == 1:
            cut = r.randrange(1, len(other.data))
            return b.data + other.data[:cut], f"+ {other.name} cut at {cut}"
        return b.data + r.randbytes(r.choice([1, 4, 16, 300])), "+ random bytes"

    STRUCT = ["typecode", "namelen", "nul", "blobsize", "arraycount", "u32", "small_value", "delete", "duplicate",
              "swap", "structend", "string", "th", "td", "td", "tdata",
              "tdata", "tdata", "diffencode", "concat"]

    def one(self, kind):
        method = getattr(self, "s_" + kind[len("struct-"):]
                         if kind.startswith("struct-") else kind)
        while True:
            b = self.base()
            try:
                data, detail = method(b)
            except (IndexError, ValueError):
                # This base lacks what the mutation needs: take another.
                continue
            return bytes(data), b.name, detail


def plan(count):
    """The kinds, in order: fixed shares of count, the rest structural."""
    shares = [("truncate", 0.13), ("bitflip", 0.13), ("multiflip", 0.10),
              ("header", 0.08), ("table", 0.08), ("garbage", 0.06)]
    kinds = []
    for kind, share in shares:
        kinds += [kind] * int(count * share)
    i = 0
    while len(kinds) < count:
        kinds.append("struct-" + Fuzzer.STRUCT[i % len(Fuzzer.STRUCT)])
        i += 1
    return kinds


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--count", type=int, default=DEFAULT_COUNT)
    ap.add_argument("--corpus", default=os.path.join(top, "build/apparmor/corpus"))
    ap.add_argument("--out", default=os.path.join(top, "build/apparmor/fuzz"))
    args = ap.parse_args()

    names = sorted(f for f in os.listdir(args.corpus) if f.endswith(".bin"))
    if not names:
        sys.exit(f"apparmor-fuzz: no corpus in {args.corpus}; "
                 "run tools/apparmor-corpus.sh")
    bases = []
    for f in names:
        with open(os.path.join(args.corpus, f), "rb") as fh:
            b = Base(f[:-4], fh.read())
        # Structure-aware mutations need the structure.
        if b.elements and b.dfas and len(b.data) > 16:
            bases.append(b)
    if not bases:
        sys.exit("apparmor-fuzz: no corpus blob parses")

    fuzzer = Fuzzer(bases, args.seed)
    os.makedirs(args.out, exist_ok=True)
    for f in os.listdir(args.out):
        if f.endswith(".bin"):
            os.unlink(os.path.join(args.out, f))
    width = max(4, len(str(args.count - 1)))
    originals = {hashlib.sha256(b.data).digest() for b in bases}
    seen = set()
    manifest = []
    total = 0
    for n, kind in enumerate(plan(args.count)):
        # Every blob differs from the corpus and from the others.
        for _ in range(100):
            data, base, detail = fuzzer.one(kind)
            h = hashlib.sha256(data).digest()
            if data and h not in originals and h not in seen:
                break
        seen.add(h)
        name = f"{n:0{width}d}"
        with open(os.path.join(args.out, name + ".bin"), "wb") as fh:
            fh.write(data)
        manifest.append(f"{name} {len(data)} {kind} {base} {detail}")
        total += len(data)
    with open(os.path.join(os.path.dirname(args.out), "fuzz.txt"), "w") as fh:
        fh.write(f"# apparmor-fuzz.py --seed {args.seed} --count {args.count}\n")
        fh.write("# name bytes kind base detail\n")
        fh.write("\n".join(manifest) + "\n")
    print(f"apparmor-fuzz: {args.count} blobs, {total} bytes in "
          f"{os.path.relpath(args.out, top)} (seed {args.seed})")


if __name__ == "__main__":
    main()

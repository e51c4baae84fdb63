#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make bad OpenPGP keys from good ones, for the OpenPGP key parser.

    pgp-fuzz.py [--seed S] [--count N] OUTDIR KEYFILES...

From the transferable public keys KEYFILES (binary, as gpg --export and
tools/pgp-v6.py write them), writes N (default 2000) mutated blobs to
OUTDIR/NNNN.bin and one line per blob to OUTDIR/index.txt:

    NNNN.bin KIND BASE DETAIL

KIND being the mutation, BASE the key it started from ("-" for none) and
DETAIL what exactly changed. The same seed (default 1) and the same keys
give the same blobs, byte for byte, whatever the order of KEYFILES.

The kinds, each taking its turn in a shuffled schedule:
  truncate        cut short anywhere, inside a packet header, inside an
                  MPI, or at a packet boundary
  bitflip         one bit flipped; multiflip: 2 to 32 bits
  overwrite       1 to 8 octets overwritten, random or boundary values
  pktlen-old      the length field of a legacy-format header: wrong
                  values, a different length type for the same octets
  pktlen-new      the length of an OpenPGP-format header (all packets
                  reframed so first): wrong one-, two- and five-octet
                  lengths, a partial-length octet, a cut five-octet one
  mpi-bits        the bit count of an MPI (RSA n, e; EC point; signature)
  subpkt-area     the hashed or unhashed subpacket area length of a
                  self-signature
  subpkt-len      the length octet of one signature subpacket
  oid-len         the curve OID length of an EC key
  v6-matlen       the four-octet key material length of a v6 key
  field           version, algorithm or type octets of the key and the
                  self-signature (v4 and v6 mixed up, unknown algorithms)
  duplicate       a packet repeated (up to past the parser's limits, but
                  within 65535 octets: the X.509 parser, which sees each
                  blob first, refuses larger ones with EMSGSIZE)
  reorder         packets swapped, reversed, or the key moved last
  splice          the key packet of one key with the rest of another
  partial         a packet reframed with partial body lengths, well
                  formed or not (a chunk too long, no last chunk)
  indeterminate   a legacy-format packet of indeterminate length
  random          random octets, 1 to 4096, some starting with a valid
                  packet tag octet
"""

import argparse
import os
import random
import struct
import sys

from pgp_packets import (OID_ALGOS, RSA_ALGOS, TAG_PUBLIC_KEY,
                         TAG_PUBLIC_SUBKEY, TAG_SIGNATURE, Key, new_header,
                         new_length, old_header, parse_packets)

DEFAULT_SEED = 1
DEFAULT_COUNT = 2000
# The X.509 parser comes before the OpenPGP one and refuses what its ASN.1
# decoder cannot take, more than 65535 octets, with EMSGSIZE: the OpenPGP
# parser would never see a larger blob.
MAX_BLOB = 65535
INTERESTING = [0, 1, 2, 3, 0x7f, 0x80, 0xbf, 0xc0, 0xdf, 0xe0, 0xfe, 0xff,
               0x100, 0x1ff, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff,
               0x80000000, 0xfffffffe, 0xffffffff]
# Tag octets a blob may start with: public key, old (1, 2 octet length)
# and new format; signature; user ID.
START_TAGS = [0x98, 0x99, 0x9a, 0x9b, 0xc6, 0x88, 0x89, 0xc2, 0xb4, 0xcd]


class Base:
    """A good key: name, octets, packets, and where its length fields
    are (offset in the blob, octets, value, what it is)."""

    def __init__(self, name, data):
        self.name, self.data = name, data
        self.packets = parse_packets(data)
        self.key = Key(self.packets[0].body)
        self.mpis = []          # (offset, bits, what)
        self.areas = []         # (offset, length, what)
        self.subpkts = []       # (offset, length, what)
        for i, p in enumerate(self.packets):
            if p.partial:
                raise ValueError(f"{name}: packet {i} of partial length")
            if p.tag in (TAG_PUBLIC_KEY, TAG_PUBLIC_SUBKEY):
                self.scan_key(p, i)
            elif p.tag == TAG_SIGNATURE:
                self.scan_sig(p, i)

    def scan_mpis(self, off, end, what):
        while off + 2 <= end:
            bits = struct.unpack_from(">H", self.data, off)[0]
            self.mpis.append((off, bits, what))
            off += 2 + (bits + 7) // 8

    def scan_key(self, p, i):
        key = Key(p.body)
        off = p.body_off + key.material_off
        if key.algo in RSA_ALGOS:
            self.scan_mpis(off, p.end, f"packet {i} key")
        elif key.algo in OID_ALGOS:
            n = self.data[off]
            self.scan_mpis(off + 1 + n, off + 1 + n + 2, f"packet {i} key")

    def scan_sig(self, p, i):
        b = p.body
        if len(b) < 6 or b[0] != 4:
            return
        off = p.body_off + 4
        for area in ("hashed", "unhashed"):
            n = struct.unpack_from(">H", self.data, off)[0]
            self.areas.append((off, n, f"packet {i} {area}"))
            pos = off + 2
            while pos < off + 2 + n:
                # The keys here have only one-octet subpacket lengths.
                sub = self.data[pos]
                if sub >= 192:
                    break
                self.subpkts.append((pos, sub, f"packet {i} {area} type "
                                     f"{self.data[pos + 1] & 0x7f}"))
                pos += 1 + sub
            off += 2 + n
        self.scan_mpis(off + 2, p.end, f"packet {i} sig")

    def pkts(self):
        return [(p.tag, p.body) for p in self.packets]


def near(rng, value, bits):
    """A value of bits bits other than value: near it or a boundary."""
    mask = (1 << bits) - 1
    cands = [value - 1, value + 1, value - 2, value + 2, value * 2,
             value // 2, value + 8, value - 8, mask, mask - 1,
             rng.randrange(mask + 1)]
    cands += [v for v in INTERESTING if v <= mask]
    out = rng.choice(cands) & mask
    return out if out != value else (value + 1) & mask


def build(pkts, fmt):
    """Packets (tag, body) with new or old headers."""
    out = bytearray()
    for tag, body in pkts:
        if fmt == "new" or tag > 15:
            out += new_header(tag, len(body))
        else:
            out += old_header(tag, len(body))
        out += body
    return bytes(out)


def fmt_of(base):
    return "new" if base.packets[0].new else "old"


def put(data, off, value, size):
    out = bytearray(data)
    out[off:off + size] = value.to_bytes(size, "big")
    return bytes(out)


def m_truncate(rng, base, bases):
    d = base.data
    mode = rng.choice(["anywhere", "anywhere", "header", "mpi", "boundary"])
    if mode == "header":
        p = rng.choice(base.packets)
        cut = p.start + rng.randrange(1, p.hdr_len + 1)
    elif mode == "mpi" and base.mpis:
        off, bits, what = rng.choice(base.mpis)
        cut = off + rng.choice([1, 2, 3, 2 + (bits + 7) // 8 - 1])
        mode = f"mpi {what}"
    elif mode == "boundary" and len(base.packets) > 1:
        cut = rng.choice(base.packets[1:]).start
    else:
        cut = rng.randrange(1, len(d))
    cut = max(1, min(cut, len(d) - 1))
    return d[:cut], f"{mode} at {cut} of {len(d)}"


def m_bitflip(rng, base, bases):
    d = bytearray(base.data)
    bit = rng.randrange(8 * len(d))
    d[bit // 8] ^= 0x80 >> (bit % 8)
    return bytes(d), f"bit {bit}"


def m_multiflip(rng, base, bases):
    d = bytearray(base.data)
    n = rng.randint(2, 32)
    for _ in range(n):
        bit = rng.randrange(8 * len(d))
        d[bit // 8] ^= 0x80 >> (bit % 8)
    return bytes(d), f"{n} bits"


def m_overwrite(rng, base, bases):
    d = bytearray(base.data)
    n = rng.randint(1, 8)
    off = rng.randrange(len(d))
    if rng.random() < 0.5:
        new = bytes(rng.randrange(256) for _ in range(n))
    else:
        new = bytes([rng.choice([0, 0x7f, 0x80, 0xff])]) * n
    d[off:off + n] = new
    return bytes(d[:len(base.data)]), f"{n} octets at {off}: {new.hex()}"


def m_pktlen_old(rng, base, bases):
    d = base.data if fmt_of(base) == "old" else build(base.pkts(), "old")
    packets = parse_packets(d)
    i = rng.randrange(len(packets))
    p = packets[i]
    off, size = p.len_field
    old = int.from_bytes(d[off:off + size], "big")
    if rng.random() < 0.7:
        new = near(rng, old, 8 * size)
        return put(d, off, new, size), \
            f"packet {i} length {old} -> {new} ({size} octets)"
    # Another length type over the same octets.
    ltype = rng.choice([t for t in range(3) if t != d[p.start] & 3])
    return put(d, p.start, (d[p.start] & ~3) | ltype, 1), \
        f"packet {i} length type {d[p.start] & 3} -> {ltype}"


def m_pktlen_new(rng, base, bases):
    pkts = base.pkts()
    i = rng.randrange(len(pkts))
    before = build(pkts[:i], "new")
    tag, body = pkts[i]
    after = build(pkts[i + 1:], "new")
    n = len(body)
    mode = rng.choice(["one", "two", "five", "partial", "cut-five",
                       "nonminimal"])
    if mode == "one":
        new = rng.choice([v for v in (0, 1, n - 1, n + 1, 191,
                                      rng.randrange(192)) if v != n and
                          0 <= v < 192] or [0])
        length = bytes([new])
    elif mode == "two":
        new = rng.choice([v for v in (n - 1, n + 1, n + 2, n + 100, 192,
                                      8383, rng.randint(192, 8383))
                          if v != n and 192 <= v < 8384])
        length = new_length(new)
    elif mode == "five":
        new = near(rng, n, 32)
        length = b"\xff" + struct.pack(">I", new)
    elif mode == "partial":
        new = rng.randint(224, 254)
        length = bytes([new])
    elif mode == "cut-five":
        new = n
        length = b"\xff" + struct.pack(">I", n)[:rng.randint(0, 3)]
        return before + bytes([0xc0 | tag]) + length, \
            f"packet {i} five-octet length cut to {len(length)} octets"
    else:
        new = n
        length = b"\xff" + struct.pack(">I", n)
    return before + bytes([0xc0 | tag]) + length + body + after, \
        f"packet {i} {mode} length {n} -> {new} ({length.hex()})"


def m_mpi_bits(rng, base, bases):
    off, bits, what = rng.choice(base.mpis)
    new = near(rng, bits, 16)
    return put(base.data, off, new, 2), f"{what} MPI bits {bits} -> {new}"


def m_subpkt_area(rng, base, bases):
    off, n, what = rng.choice(base.areas)
    new = near(rng, n, 16)
    return put(base.data, off, new, 2), f"{what} area {n} -> {new}"


def m_subpkt_len(rng, base, bases):
    off, n, what = rng.choice(base.subpkts)
    new = rng.choice([0, 1, n - 1, n + 1, n + 2, 191, 192, 223, 254, 255,
                      rng.randrange(256)]) & 0xff
    if new == n:
        new = 0
    return put(base.data, off, new, 1), f"{what} subpacket {n} -> {new}"


def m_oid_len(rng, base, bases):
    p = base.packets[0]
    off = p.body_off + base.key.material_off
    n = base.data[off]
    new = rng.choice([0, 1, n - 1, n + 1, n + 2, 0x7f, 0x80, 0xfe, 0xff,
                      len(p.body), rng.randrange(256)]) & 0xff
    if new == n:
        new = 0xff
    return put(base.data, off, new, 1), f"OID length {n} -> {new}"


def m_v6_matlen(rng, base, bases):
    p = base.packets[0]
    off = p.body_off + 6
    n = struct.unpack_from(">I", base.data, off)[0]
    new = near(rng, n, 32)
    return put(base.data, off, new, 4), f"key material length {n} -> {new}"


def m_field(rng, base, bases):
    p = base.packets[0]
    choices = [("key version", p.body_off, [0, 2, 3, 4, 5, 6, 7, 0xff]),
               ("key algorithm", p.body_off + 5,
                [0, 1, 2, 3, 16, 17, 18, 19, 22, 25, 27, 28, 100, 0xff])]
    for q in base.packets:
        if q.tag == TAG_SIGNATURE:
            choices += [("sig version", q.body_off, [0, 3, 5, 6, 0xff]),
                        ("sig type", q.body_off + 1,
                         [0, 0x10, 0x13, 0x18, 0x1f, 0x20, 0x30, 0xff]),
                        ("sig algorithm", q.body_off + 2,
                         [0, 1, 17, 19, 22, 0xff]),
                        ("sig hash", q.body_off + 3, [0, 1, 2, 8, 10, 0xff])]
            break
    what, off, values = rng.choice(choices)
    old = base.data[off]
    new = rng.choice([v for v in values if v != old])
    return put(base.data, off, new, 1), f"{what} {old} -> {new}"


def m_duplicate(rng, base, bases):
    pkts = base.pkts()
    i = rng.randrange(len(pkts))
    times = rng.choice([1, 1, 2, 3, 130, 200])
    times = max(1, min(times, (MAX_BLOB - len(base.data)) //
                       (len(pkts[i][1]) + 5)))
    at = rng.choice(["after", "end"])
    copies = [pkts[i]] * times
    if at == "after":
        pkts = pkts[:i + 1] + copies + pkts[i + 1:]
    else:
        pkts = pkts + copies
    return build(pkts, fmt_of(base)), \
        f"packet {i} (tag {pkts[i][0]}) {times} more, {at}"


def m_reorder(rng, base, bases):
    pkts = base.pkts()
    mode = rng.choice(["swap", "reverse", "key-last"])
    if mode == "swap" and len(pkts) > 1:
        i, j = rng.sample(range(len(pkts)), 2)
        pkts[i], pkts[j] = pkts[j], pkts[i]
        mode = f"swap {i} {j}"
    elif mode == "key-last":
        pkts = pkts[1:] + pkts[:1]
    else:
        pkts.reverse()
        mode = "reverse"
    return build(pkts, fmt_of(base)), mode


def m_splice(rng, base, bases):
    other = rng.choice([b for b in bases if b is not base])
    pkts = base.pkts()[:1] + other.pkts()[1:]
    return build(pkts, fmt_of(base)), f"key of {base.name}, rest of " \
        f"{other.name}"


def m_partial(rng, base, bases):
    pkts = base.pkts()
    i = rng.randrange(len(pkts))
    tag, body = pkts[i]
    k = rng.randint(0, 9)
    chunk = 1 << k
    mode = rng.choice(["framed", "framed", "no-last", "long-chunk"])
    framed = bytearray([0xc0 | tag])
    pos = 0
    while len(body) - pos > chunk:
        framed += bytes([224 + k]) + body[pos:pos + chunk]
        pos += chunk
    if mode == "no-last":
        framed += bytes([224 + k]) + body[pos:]
    elif mode == "long-chunk":
        framed += bytes([224 + min(k + rng.randint(1, 20), 30)]) + body[pos:]
    else:
        framed += new_length(len(body) - pos) + body[pos:]
    blob = build(pkts[:i], "new") + bytes(framed) + build(pkts[i + 1:], "new")
    return blob, f"packet {i} (tag {tag}) in chunks of {chunk}, {mode}"


def m_indeterminate(rng, base, bases):
    pkts = base.pkts()
    i = rng.choice([0, len(pkts) - 1, rng.randrange(len(pkts))])
    tag, body = pkts[i]
    blob = build(pkts[:i], "old") + old_header(tag, len(body), 0) + body + \
        build(pkts[i + 1:], "old")
    return blob, f"packet {i} (tag {tag}) of indeterminate length"


def m_random(rng, base, bases):
    n = rng.choice([rng.randint(1, 16), rng.randint(1, 512),
                    rng.randint(1, 4096)])
    blob = bytearray(rng.randrange(256) for _ in range(n))
    if rng.random() < 0.5:
        blob[0] = rng.choice(START_TAGS)
        return bytes(blob), f"{n} octets after tag octet {blob[0]:#x}"
    return bytes(blob), f"{n} octets"


# (kind, function, weight in the schedule, which keys it applies to)
KINDS = [
    ("truncate", m_truncate, 14, None),
    ("bitflip", m_bitflip, 10, None),
    ("multiflip", m_multiflip, 6, None),
    ("overwrite", m_overwrite, 8, None),
    ("pktlen-old", m_pktlen_old, 8, None),
    ("pktlen-new", m_pktlen_new, 8, None),
    ("mpi-bits", m_mpi_bits, 8, lambda b: b.mpis),
    ("subpkt-area", m_subpkt_area, 5, lambda b: b.areas),
    ("subpkt-len", m_subpkt_len, 5, lambda b: b.subpkts),
    ("oid-len", m_oid_len, 4, lambda b: b.key.algo in OID_ALGOS),
    ("v6-matlen", m_v6_matlen, 4, lambda b: b.key.version == 6),
    ("field", m_field, 5, None),
    ("duplicate", m_duplicate, 5, None),
    ("reorder", m_reorder, 4, lambda b: len(b.packets) > 1),
    ("splice", m_splice, 3, None),
    ("partial", m_partial, 5, None),
    ("indeterminate", m_indeterminate, 3, None),
    ("random", m_random, 5, None),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--count", type=int, default=DEFAULT_COUNT)
    ap.add_argument("outdir")
    ap.add_argument("keyfiles", nargs="+")
    args = ap.parse_args()

    bases = []
    for path in sorted(args.keyfiles, key=os.path.basename):
        with open(path, "rb") as f:
            name = os.path.basename(path)
            if name.endswith(".pgp"):
                name = name[:-4]
            bases.append(Base(name, f.read()))
    if len(bases) < 2:
        sys.exit("pgp-fuzz: give at least two keys")

    rng = random.Random(args.seed)
    schedule = [k for k in KINDS for _ in range(k[2])]
    rng.shuffle(schedule)
    os.makedirs(args.outdir, exist_ok=True)
    width = max(4, len(str(args.count - 1)))
    index = []
    for i in range(args.count):
        kind, func, _, applies = schedule[i % len(schedule)]
        fit = [b for b in bases if applies is None or applies(b)]
        base = rng.choice(fit)
        blob, detail = func(rng, base, bases)
        assert 0 < len(blob) <= MAX_BLOB, f"{kind}: {len(blob)} octets"
        name = f"{i:0{width}d}.bin"
        with open(os.path.join(args.outdir, name), "wb") as f:
            f.write(blob)
        index.append(f"{name} {kind} "
                     f"{base.name if kind != 'random' else '-'} {detail}\n")
    with open(os.path.join(args.outdir, "index.txt"), "w") as f:
        f.writelines(index)


if __name__ == "__main__":
    main()

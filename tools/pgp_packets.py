# SPDX-License-Identifier: GPL-2.0
"""OpenPGP packets, for the tools that make the OpenPGP test data.

What tools/pgp-sig.py, tools/pgp-v6.py and tools/pgp-fuzz.py share:
packet headers (RFC 9580 section 4.2, the OpenPGP format, called "new"
here, and the legacy format, "old"), MPIs
(section 3.2), public-key packets of versions 4 and 6 (section 5.5.2),
fingerprints (section 5.5.4), the NIST curves, and the bits of DER that
the kernel's signature formats need.
"""

import hashlib
import struct

TAG_SIGNATURE = 2
TAG_PUBLIC_KEY = 6
TAG_USER_ID = 13
TAG_PUBLIC_SUBKEY = 14

ALGO_RSA = 1
ALGO_RSA_SIGN = 3
ALGO_ECDSA = 19
ALGO_EDDSA_LEGACY = 22
RSA_ALGOS = (1, 2, 3)
# Algorithms whose key material starts with a curve OID.
OID_ALGOS = (18, 19, 22)

# Hash algorithms (section 9.5): hashlib's name, the kernel's name, the
# DER OID of the DigestInfo of PKCS #1 v1.5 signatures.
HASHES = {
    2: ("sha1", "sha1", "1.3.14.3.2.26"),
    8: ("sha256", "sha256", "2.16.840.1.101.3.4.2.1"),
    9: ("sha384", "sha384", "2.16.840.1.101.3.4.2.2"),
    10: ("sha512", "sha512", "2.16.840.1.101.3.4.2.3"),
    11: ("sha224", "sha224", "2.16.840.1.101.3.4.2.4"),
}


class Curve:
    """A short Weierstrass curve y^2 = x^3 - 3x + b over GF(p), as
    OpenPGP names it (its OID, without tag and length), with base point
    (gx, gy) of order n."""

    def __init__(self, name, oid, p, b, gx, gy, n):
        self.name, self.oid = name, bytes.fromhex(oid)
        self.p, self.b, self.n = int(p, 16), int(b, 16), int(n, 16)
        self.g = (int(gx, 16), int(gy, 16))
        self.size = (self.p.bit_length() + 7) // 8
        if not self.on_curve(self.g):
            raise ValueError(f"{name}: bad base point")

    def on_curve(self, pt):
        x, y = pt
        return (y * y - (x * x * x - 3 * x + self.b)) % self.p == 0

    def add(self, a, b):
        """a + b, None being the point at infinity."""
        if a is None:
            return b
        if b is None:
            return a
        p = self.p
        if a[0] == b[0]:
            if (a[1] + b[1]) % p == 0:
                return None
            lam = (3 * a[0] * a[0] - 3) * pow(2 * a[1], -1, p) % p
        else:
            lam = (b[1] - a[1]) * pow(b[0] - a[0], -1, p) % p
        x = (lam * lam - a[0] - b[0]) % p
        return (x, (lam * (a[0] - x) - a[1]) % p)

    def mul(self, k, pt):
        out = None
        while k:
            if k & 1:
                out = self.add(out, pt)
            pt = self.add(pt, pt)
            k >>= 1
        return out

    def point(self, blob):
        """The point of an uncompressed SEC1 encoding (0x04 || x || y)."""
        if len(blob) != 1 + 2 * self.size or blob[0] != 4:
            raise ValueError(f"{self.name}: not an uncompressed point")
        pt = (int.from_bytes(blob[1:1 + self.size], "big"),
              int.from_bytes(blob[1 + self.size:], "big"))
        if not self.on_curve(pt):
            raise ValueError(f"{self.name}: point not on the curve")
        return pt

    def ecdsa_verify(self, digest, r, s, q):
        """Whether (r, s) is an ECDSA signature of digest by point q."""
        n = self.n
        if not (0 < r < n and 0 < s < n):
            return False
        e = int.from_bytes(digest, "big")
        excess = 8 * len(digest) - n.bit_length()
        if excess > 0:
            e >>= excess
        w = pow(s, -1, n)
        pt = self.add(self.mul(e * w % n, self.g), self.mul(r * w % n, q))
        return pt is not None and pt[0] % n == r


# The curves of FIPS 186-4 (SEC 2: secp256r1, secp384r1, secp521r1).
CURVES = [
    Curve("nistp256", "2a8648ce3d030107",
          "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
          "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
          "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
          "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5",
          "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"),
    Curve("nistp384", "2b81040022",
          "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe"
          "ffffffff0000000000000000ffffffff",
          "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875a"
          "c656398d8a2ed19d2a85c8edd3ec2aef",
          "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a38"
          "5502f25dbf55296c3a545e3872760ab7",
          "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c0"
          "0a60b1ce1d7e819d7a431d7c90ea0e5f",
          "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf"
          "581a0db248b0a77aecec196accc52973"),
    Curve("nistp521", "2b81040023",
          "01ff" + "ff" * 64,
          "0051953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef1"
          "09e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b50"
          "3f00",
          "00c6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d"
          "3dbaa14b5e77efe75928fe1dc127a2ffa8de3348b3c1856a429bf97e7e31c2e5"
          "bd66",
          "011839296a789a3bc0045c8a5fb42c7d1bd998f54449579b446817afbd17273e"
          "662c97ee72995ef42640c550b9013fad0761353c7086a272c24088be94769fd1"
          "6650",
          "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
          "fffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e9138"
          "6409"),
]
CURVE_BY_OID = {c.oid: c for c in CURVES}


class Packet:
    """One packet: its tag, the offset of its first octet, its header
    length, its body (the chunks of a partial-length body put together),
    where it ends, whether it has the new format, whether its length is
    partial or (old format) indeterminate, and where its (first) length
    field is: offset and size in octets."""

    def __init__(self, tag, start, hdr_len, body, end, new, partial,
                 len_field):
        self.tag, self.start, self.hdr_len, self.body, self.end = \
            tag, start, hdr_len, body, end
        self.new, self.partial, self.len_field = new, partial, len_field

    @property
    def body_off(self):
        return self.start + self.hdr_len


def new_length(n):
    """A new-format body length (one, two or five octets)."""
    if n < 192:
        return bytes([n])
    if n < 8384:
        n -= 192
        return bytes([192 + (n >> 8), n & 0xff])
    return b"\xff" + struct.pack(">I", n)


def new_header(tag, n):
    return bytes([0xc0 | tag]) + new_length(n)


def old_header(tag, n, size=None):
    """A legacy-format header with a length field of size octets (1, 2
    or 4; the smallest that fits if None, 0 for indeterminate)."""
    if size is None:
        size = 1 if n < 0x100 else 2 if n < 0x10000 else 4
    ltype = {1: 0, 2: 1, 4: 2, 0: 3}[size]
    length = n.to_bytes(size, "big") if size else b""
    return bytes([0x80 | (tag << 2) | ltype]) + length


def read_length(data, pos):
    """A new-format length at pos: (length, octets, partial)."""
    o1 = data[pos]
    if o1 < 192:
        return o1, 1, False
    if o1 < 224:
        if pos + 2 > len(data):
            raise ValueError("truncated two-octet length")
        return ((o1 - 192) << 8) + data[pos + 1] + 192, 2, False
    if o1 == 255:
        if pos + 5 > len(data):
            raise ValueError("truncated five-octet length")
        return struct.unpack_from(">I", data, pos + 1)[0], 5, False
    return 1 << (o1 & 0x1f), 1, True


def parse_packets(data):
    """Every packet of data; ValueError if it does not parse."""
    out = []
    pos = 0
    while pos < len(data):
        start = pos
        ctb = data[pos]
        if not ctb & 0x80:
            raise ValueError(f"offset {pos}: not a packet header")
        pos += 1
        if ctb & 0x40:
            tag = ctb & 0x3f
            if pos >= len(data):
                raise ValueError(f"offset {start}: no length")
            n, size, partial = read_length(data, pos)
            len_field = (pos, size)
            any_partial = partial
            pos += size
            hdr_len = pos - start
            body = bytearray()
            while partial:
                if pos + n > len(data):
                    raise ValueError(f"offset {start}: truncated chunk")
                body += data[pos:pos + n]
                pos += n
                if pos >= len(data):
                    raise ValueError(f"offset {start}: no last chunk")
                n, size, partial = read_length(data, pos)
                pos += size
            if pos + n > len(data):
                raise ValueError(f"offset {start}: truncated body")
            body += data[pos:pos + n]
            pos += n
            out.append(Packet(tag, start, hdr_len, bytes(body), pos, True,
                              any_partial, len_field))
            continue
        tag = (ctb >> 2) & 0xf
        size = (1, 2, 4, 0)[ctb & 3]
        if pos + size > len(data):
            raise ValueError(f"offset {start}: truncated length")
        n = int.from_bytes(data[pos:pos + size], "big") if size else \
            len(data) - pos - size
        pos += size
        if pos + n > len(data):
            raise ValueError(f"offset {start}: truncated body")
        out.append(Packet(tag, start, 1 + size, bytes(data[pos:pos + n]),
                          pos + n, False, size == 0, (start + 1, size)))
        pos += n
    return out


def read_mpi(buf, pos):
    """The MPI at pos: (value, octets of the value, offset after it)."""
    if pos + 2 > len(buf):
        raise ValueError("truncated MPI bit count")
    bits = struct.unpack_from(">H", buf, pos)[0]
    n = (bits + 7) // 8
    if pos + 2 + n > len(buf):
        raise ValueError("truncated MPI")
    raw = bytes(buf[pos + 2:pos + 2 + n])
    value = int.from_bytes(raw, "big")
    if value.bit_length() != bits:
        raise ValueError(f"MPI of {bits} bits has {value.bit_length()}")
    return value, raw, pos + 2 + n


def mpi(value):
    """value as an MPI."""
    raw = value.to_bytes((value.bit_length() + 7) // 8, "big")
    return struct.pack(">H", value.bit_length()) + raw


class Key:
    """A public-key packet body, version 4 or 6: version, creation time,
    algorithm, key material (and its offset in the body); for RSA n and
    e; for curves the OID (and its offset), the curve if NIST, the
    point."""

    def __init__(self, body):
        self.body = bytes(body)
        if len(body) < 6:
            raise ValueError("key packet too short")
        self.version = body[0]
        self.created = struct.unpack_from(">I", body, 1)[0]
        self.algo = body[5]
        if self.version == 4:
            self.material_off = 6
        elif self.version == 6:
            if len(body) < 10:
                raise ValueError("v6 key packet too short")
            n = struct.unpack_from(">I", body, 6)[0]
            if 10 + n != len(body):
                raise ValueError(f"v6 key material of {n} octets in "
                                 f"{len(body) - 10}")
            self.material_off = 10
        else:
            raise ValueError(f"key version {self.version}")
        self.material = self.body[self.material_off:]
        m = self.material
        self.curve = None
        if self.algo in RSA_ALGOS:
            self.n, self.n_raw, pos = read_mpi(m, 0)
            self.e, self.e_raw, pos = read_mpi(m, pos)
        elif self.algo in OID_ALGOS:
            if not m or m[0] in (0, 0xff) or 1 + m[0] > len(m):
                raise ValueError("bad curve OID length")
            self.oid = m[1:1 + m[0]]
            self.oid_off = self.material_off + 1
            self.curve = CURVE_BY_OID.get(self.oid)
            _, self.point_raw, pos = read_mpi(m, 1 + m[0])
        else:
            raise ValueError(f"public-key algorithm {self.algo}")
        if self.algo != 18 and pos != len(m):
            raise ValueError("trailing octets after the key material")

    def fingerprint(self):
        """The fingerprint: SHA-1 over 0x99, a two-octet length and the
        body for v4, SHA-256 over 0x9b, a four-octet length and the body
        for v6."""
        if self.version == 4:
            return hashlib.sha1(b"\x99" + struct.pack(">H", len(self.body)) +
                                self.body).digest()
        return hashlib.sha256(b"\x9b" + struct.pack(">I", len(self.body)) +
                              self.body).digest()


def primary_key(data):
    """The primary key of a transferable public key: (Key, packets)."""
    packets = parse_packets(data)
    if not packets or packets[0].tag != TAG_PUBLIC_KEY:
        raise ValueError("does not start with a public-key packet")
    return Key(packets[0].body), packets


def der(tag, content):
    """A DER TLV."""
    n = len(content)
    if n < 0x80:
        length = bytes([n])
    else:
        raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
        length = bytes([0x80 | len(raw)]) + raw
    return bytes([tag]) + length + content


def der_int(value):
    """A positive INTEGER: minimal, with a zero octet before a high bit."""
    raw = value.to_bytes(value.bit_length() // 8 + 1, "big")
    return der(0x02, raw)


def der_oid(dotted):
    arcs = [int(a) for a in dotted.split(".")]
    out = bytearray([40 * arcs[0] + arcs[1]])
    for arc in arcs[2:]:
        chunk = [arc & 0x7f]
        arc >>= 7
        while arc:
            chunk.append(0x80 | (arc & 0x7f))
            arc >>= 7
        out += bytes(reversed(chunk))
    return der(0x06, bytes(out))


def digest_info(hash_algo, digest):
    """The DigestInfo that PKCS #1 v1.5 signs (RFC 8017 section 9.2)."""
    alg = der(0x30, der_oid(HASHES[hash_algo][2]) + b"\x05\x00")
    return der(0x30, alg + der(0x04, digest))

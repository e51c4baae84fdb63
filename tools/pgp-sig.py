#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn gpg's signature of a file into the input of keyctl pkey_verify.

    pgp-sig.py [--key KEY.pgp | --modulus-bytes N] DATA SIGFILE OUTPREFIX

SIGFILE is a detached binary OpenPGP signature of DATA (gpg
--detach-sign): one version 4 signature packet, of type 0x00 (binary
document) or 0x01 (canonical text, taken as it is), by an RSA or ECDSA
key. A version 4 signature (RFC 4880 section 5.2.4, RFC 9580 section
5.2.4) covers

    DATA || the signature packet body from its version octet to the end
    of its hashed subpackets (version, type, public-key algorithm, hash
    algorithm, two-octet hashed area length, hashed area) || 0x04 0xff
    || that part's length, four octets big endian

and the packet carries the first two octets of that digest. This writes:

    OUTPREFIX.digest      the digest, raw
    OUTPREFIX.digest-bad  the digest with one bit flipped
    OUTPREFIX.ksig        the signature as the kernel's keyctl pkey_verify
                          takes it: RSA, the signature value left-padded
                          with zeros to the length of the modulus; ECDSA,
                          the DER SEQUENCE { INTEGER r, INTEGER s }
    OUTPREFIX.params      the info string of keyctl pkey_verify, one line:
                          "enc=pkcs1 hash=sha256" for RSA (EMSA-PKCS1-v1_5
                          over a DigestInfo), "enc=x962 hash=sha384" for
                          ECDSA (the hash names the kernel's)

The two digest octets must match. The modulus length comes from the key
(KEY.pgp, version 4 or 6; by default OUTPREFIX.pgp if it exists) or from
--modulus-bytes. With the key, the signature is also checked here, with
the key's numbers (RSA: s^e mod n is the PKCS #1 v1.5 encoding of the
DigestInfo; ECDSA: the usual verification on NIST P-256, P-384 or P-521),
so that the files are known good before the kernel sees them. Exits 1 if
anything does not match. EdDSA signatures are refused: the kernel has no
Ed25519 verification.
"""

import argparse
import hashlib
import os
import struct
import sys

from pgp_packets import (ALGO_ECDSA, ALGO_EDDSA_LEGACY, HASHES, RSA_ALGOS,
                         TAG_SIGNATURE, der, der_int, digest_info,
                         parse_packets, primary_key, read_mpi)


class Signature:
    """A version 4 signature packet body."""

    def __init__(self, body):
        if len(body) < 6 or body[0] != 4:
            raise ValueError(f"signature version {body[0] if body else '?'}"
                             " (only 4)")
        self.type, self.algo, self.hash_algo = body[1], body[2], body[3]
        hashed_len = struct.unpack_from(">H", body, 4)[0]
        end = 6 + hashed_len
        if end + 2 > len(body):
            raise ValueError("hashed subpacket area past the end")
        self.hashed = body[:end]
        self.hashed_area = body[6:end]
        unhashed_len = struct.unpack_from(">H", body, end)[0]
        pos = end + 2 + unhashed_len
        if pos + 2 > len(body):
            raise ValueError("unhashed subpacket area past the end")
        self.unhashed_area = body[end + 2:pos]
        self.left16 = body[pos:pos + 2]
        pos += 2
        self.mpis = []
        while pos < len(body):
            value, _, pos = read_mpi(body, pos)
            self.mpis.append(value)

    def subpackets(self, area):
        """(type, data) of each subpacket of a subpacket area."""
        pos = 0
        while pos < len(area):
            o1 = area[pos]
            if o1 < 192:
                n, size = o1, 1
            elif o1 < 255:
                n, size = ((o1 - 192) << 8) + area[pos + 1] + 192, 2
            else:
                n, size = struct.unpack_from(">I", area, pos + 1)[0], 5
            pos += size
            if n < 1 or pos + n > len(area):
                raise ValueError("bad subpacket length")
            yield area[pos] & 0x7f, area[pos + 1:pos + n]
            pos += n

    def digest(self, data):
        if self.hash_algo not in HASHES:
            raise ValueError(f"hash algorithm {self.hash_algo}")
        h = hashlib.new(HASHES[self.hash_algo][0])
        h.update(data)
        h.update(self.hashed)
        h.update(b"\x04\xff" + struct.pack(">I", len(self.hashed)))
        return h.digest()


def rsa_check(key, sig, digest, ksig):
    """Whether ksig^e mod n is EMSA-PKCS1-v1_5 of the DigestInfo."""
    k = len(ksig)
    em = pow(int.from_bytes(ksig, "big"), key.e, key.n).to_bytes(k, "big")
    t = digest_info(sig.hash_algo, digest)
    return em == b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x00" + t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--key", help="the signer's public key (binary)")
    ap.add_argument("--modulus-bytes", type=int,
                    help="RSA: octets of the modulus, without --key")
    ap.add_argument("data")
    ap.add_argument("sigfile")
    ap.add_argument("outprefix")
    args = ap.parse_args()
    if not args.key and os.path.exists(args.outprefix + ".pgp"):
        args.key = args.outprefix + ".pgp"

    with open(args.data, "rb") as f:
        data = f.read()
    with open(args.sigfile, "rb") as f:
        packets = parse_packets(f.read())
    if len(packets) != 1 or packets[0].tag != TAG_SIGNATURE:
        sys.exit(f"{args.sigfile}: not one signature packet")
    sig = Signature(packets[0].body)
    if sig.type not in (0, 1):
        sys.exit(f"{args.sigfile}: signature type {sig.type:#x}, "
                 "not of a document")
    if sig.algo == ALGO_EDDSA_LEGACY:
        sys.exit(f"{args.sigfile}: EdDSA, which the kernel cannot verify")
    key = None
    if args.key:
        with open(args.key, "rb") as f:
            key = primary_key(f.read())[0]
        if key.algo != sig.algo and not (key.algo in RSA_ALGOS and
                                         sig.algo in RSA_ALGOS):
            sys.exit(f"{args.sigfile}: algorithm {sig.algo}, "
                     f"{args.key} has {key.algo}")
        # A version 4 key must be the issuer the signature names; the
        # version 6 keys of tools/pgp-v6.py borrow the v4 signatures.
        for t, value in sig.subpackets(sig.hashed_area):
            if t == 33 and key.version == 4 and \
                    value[1:] != key.fingerprint():
                sys.exit(f"{args.sigfile}: issued by {value[1:].hex()}, "
                         f"not by {args.key}")

    digest = sig.digest(data)
    if digest[:2] != sig.left16:
        sys.exit(f"{args.sigfile}: digest starts with {digest[:2].hex()}, "
                 f"the signature says {sig.left16.hex()}")
    hash_name = HASHES[sig.hash_algo][1]

    if sig.algo in RSA_ALGOS:
        if len(sig.mpis) != 1:
            sys.exit(f"{args.sigfile}: {len(sig.mpis)} MPIs for RSA")
        if key:
            size = (key.n.bit_length() + 7) // 8
        elif args.modulus_bytes:
            size = args.modulus_bytes
        else:
            sys.exit("RSA: give --key or --modulus-bytes")
        if sig.mpis[0].bit_length() > 8 * size:
            sys.exit(f"{args.sigfile}: signature longer than the modulus")
        ksig = sig.mpis[0].to_bytes(size, "big")
        params = f"enc=pkcs1 hash={hash_name}"
        if key and not rsa_check(key, sig, digest, ksig):
            sys.exit(f"{args.sigfile}: bad RSA signature")
    elif sig.algo == ALGO_ECDSA:
        if len(sig.mpis) != 2:
            sys.exit(f"{args.sigfile}: {len(sig.mpis)} MPIs for ECDSA")
        r, s = sig.mpis
        ksig = der(0x30, der_int(r) + der_int(s))
        params = f"enc=x962 hash={hash_name}"
        if key:
            if not key.curve:
                sys.exit(f"{args.key}: not a NIST curve")
            q = key.curve.point(key.point_raw)
            if not key.curve.ecdsa_verify(digest, r, s, q):
                sys.exit(f"{args.sigfile}: bad ECDSA signature")
    else:
        sys.exit(f"{args.sigfile}: public-key algorithm {sig.algo}")

    bad = bytearray(digest)
    bad[0] ^= 0x01
    outputs = {".digest": digest, ".digest-bad": bytes(bad), ".ksig": ksig,
               ".params": (params + "\n").encode()}
    for suffix, blob in outputs.items():
        with open(args.outprefix + suffix, "wb") as f:
            f.write(blob)


if __name__ == "__main__":
    main()

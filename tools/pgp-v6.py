#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Re-frame a version 4 OpenPGP key as a version 6 key.

    pgp-v6.py KEY.pgp OUTPREFIX

gpg 2.2 makes no version 6 keys (RFC 9580). From the primary key of
KEY.pgp (a version 4 RSA or ECDSA key, as gpg --export writes it), this
writes:

    OUTPREFIX.pgp  a version 6 Public-Key packet (version 6, the same
                   creation time and algorithm, a four-octet length of
                   the key material, the same key material), then the
                   first User ID packet of KEY.pgp; both with OpenPGP
                   format (new) headers; no signatures, since the v4
                   self-signature does not cover a v6 key and gpg cannot
                   make v6 signatures
    OUTPREFIX.fpr  its fingerprint, upper-case hex: SHA-256 over 0x9b,
                   the four-octet body length of the key packet and the
                   body (RFC 9580 section 5.5.4.3), computed here with
                   hashlib and nothing else
    OUTPREFIX.uid  the user ID
"""

import argparse
import hashlib
import struct
import sys

from pgp_packets import (TAG_PUBLIC_KEY, TAG_USER_ID, Key, new_header,
                         primary_key)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("key")
    ap.add_argument("outprefix")
    args = ap.parse_args()

    with open(args.key, "rb") as f:
        v4, packets = primary_key(f.read())
    if v4.version != 4:
        sys.exit(f"{args.key}: a version {v4.version} key")
    uids = [p.body for p in packets if p.tag == TAG_USER_ID]
    if not uids:
        sys.exit(f"{args.key}: no user ID")

    body = struct.pack(">BIBI", 6, v4.created, v4.algo, len(v4.material)) + \
        v4.material
    v6 = Key(body)
    assert v6.material == v4.material and v6.created == v4.created
    fpr = hashlib.sha256(b"\x9b" + struct.pack(">I", len(body)) +
                         body).hexdigest().upper()
    assert fpr == v6.fingerprint().hex().upper()

    with open(args.outprefix + ".pgp", "wb") as f:
        f.write(new_header(TAG_PUBLIC_KEY, len(body)) + body +
                new_header(TAG_USER_ID, len(uids[0])) + uids[0])
    with open(args.outprefix + ".fpr", "w") as f:
        f.write(fpr + "\n")
    with open(args.outprefix + ".uid", "w") as f:
        f.write(uids[0].decode("utf-8", "replace") + "\n")


if __name__ == "__main__":
    main()

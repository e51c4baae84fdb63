#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the SandBox Mode benchmark table.

    bench-table.py WEAK_RESULTS STRONG_RESULTS

Each file holds the "name size ns" lines of one boot (tools/initramfs/
bench.sh). Times are emulated nanoseconds under QEMU's -icount.
"""

import sys


def load(path):
    results = {}
    with open(path, errors="replace") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
                results[(parts[0], int(parts[1]))] = int(parts[2])
    return results


def size_name(size):
    return f"{size // 1024} KiB" if size < 1 << 20 else f"{size >> 20} MiB"


def main(weak_path, strong_path):
    weak, strong = load(weak_path), load(strong_path)
    if not weak or not strong:
        sys.exit("bench: missing results; see build/*/bench-console.log")

    rows = [("empty call", "call_direct", "call_sbm", 0)]
    sizes = sorted({s for (name, s) in strong if name == "copies_sbm"})
    rows += [(f"IN+OUT copies, {size_name(s)}", "copies_direct",
              "copies_sbm", s) for s in sizes]
    rows.append(("sbm_init + sbm_destroy", None, "init_destroy_sbm", 0))
    rows.append(("kmalloc + kfree (proxied)", "alloc_direct", "alloc_sbm", 0))

    print("SandBox Mode: cost per operation in emulated nanoseconds")
    print("(QEMU TCG with -icount shift=0: one nanosecond per guest "
          "instruction.")
    print(" Emulator figures: they repeat from run to run; compare ratios, "
          "not times.)")
    print()
    print(f"{'scenario':<26}{'direct':>10}{'weak':>10}{'strong':>10}"
          f"{'strong/direct':>15}")
    for label, direct_key, sbm_key, size in rows:
        direct = strong.get((direct_key, size)) if direct_key else None
        w, s = weak.get((sbm_key, size)), strong.get((sbm_key, size))
        ratio = f"{s / direct:.1f}x" if direct and s else "-"
        print(f"{label:<26}{direct if direct is not None else '-':>10}"
              f"{w if w is not None else '-':>10}{s if s is not None else '-':>10}"
              f"{ratio:>15}")
    syscall = strong.get(("null_syscall", 0))
    print(f"{'null system call (user)':<26}{syscall:>10}")
    print()

    call = strong[("call_sbm", 0)]
    verdict = "met" if call <= 3 * syscall else "not met"
    print(f"empty strong call / null system call: {call / syscall:.2f} "
          f"(goal: at most 3, {verdict})")
    for s in sizes:
        if s < 65536:
            continue
        memcpy = strong[("memcpy", s)]
        for name, res in (("weak", weak), ("strong", strong)):
            spent = res[("copies_sbm", s)] - res[("call_sbm", 0)]
            ratio = 2 * memcpy / spent if spent > 0 else float("inf")
            verdict = "met" if ratio >= 0.8 else "not met"
            print(f"{name} copy throughput / memcpy, {size_name(s)}: "
                  f"{ratio:.2f} (goal: at least 0.8, {verdict})")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])

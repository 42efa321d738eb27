#!/usr/bin/env python3
"""Summarises alternated timings: each line of FILE is one round's two times,
A's then B's (seconds). Prints each side's minimum and median and the ratio
A/B pair by pair (min, median, max), after PREFIX.

usage: scripts/pairs.py FILE A B [PREFIX]   (scripts/ab.sh, scripts/scipy-ratio.sh)
"""

import statistics
import sys


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit("usage: scripts/pairs.py FILE A B [PREFIX]")
    path, a, b = sys.argv[1:4]
    prefix = sys.argv[4] if len(sys.argv) == 5 else ""
    pairs = [tuple(map(float, line.split())) for line in open(path) if line.strip()]
    if not pairs:
        sys.exit(f"pairs: no timings in {path}")
    xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
    r = sorted(x / y for x, y in pairs)
    print(f"{prefix}{a} {min(xs):.3f} s (median {statistics.median(xs):.3f}), "
          f"{b} {min(ys):.3f} s (median {statistics.median(ys):.3f}); "
          f"{a}/{b} pair by pair: min {r[0]:.2f}, median {statistics.median(r):.2f}, max {r[-1]:.2f} "
          f"({len(pairs)} rounds)")


if __name__ == "__main__":
    main()

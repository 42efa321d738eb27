#!/usr/bin/env python3
"""Estimate the whole full tier's core-hours on this machine from a sample.

usage: scripts/tier-sample.py [-b REPRO] [-c CPU] [-o FILE]

Strata: each (table, model, 1D or 2D) of the paper's full tier (the tables
`repro list` names), from the published results
(published/results/*.jsonl.gz: every run's time on the machine that made
it). From each stratum the configuration of the median
published time (seed 0) is run again here with `repro solve -json`, pinned
to core CPU (default 0), one at a time; the stratum's published total is
scaled by its run's published/here ratio, and the strata summed (the kappa
runs, seconds in all, are counted as published). Finished runs are kept in
FILE (default tier-sample.jsonl), so an interrupted call resumes. Prints a
line per run, the total per model class and the tier. Run it on a quiet
machine (about 15 minutes of one core on a Zen 4 with AVX-512).
"""
import argparse
import collections
import gzip
import json
import os
import statistics
import subprocess

PARAM = {"oscillator": "-omega0", "laplace": "-nomega", "helmholtz": "-omega"}


def paper_tables(repro):
    """The paper's tables, in `repro list`'s order (the rows after its header)."""
    out = subprocess.run([repro, "list", "-tier", "full"], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("TABLE"))
    return [line.split()[0] for line in lines[head + 1:] if line.strip()]


def strata(root, tables):
    """Each stratum's published total and its runs of seed 0; the kappa runs' total."""
    seen, total, runs, kappa = set(), collections.defaultdict(float), collections.defaultdict(list), 0.0
    for t in tables:
        with gzip.open(os.path.join(root, "published", "results", t + ".jsonl.gz"), "rt") as f:
            for line in f:
                r = json.loads(line)
                sp, key = r["spec"], r["key"]
                if key in seen:  # a run shared by tables counts in the first
                    continue
                seen.add(key)
                if sp.get("kappa"):
                    kappa += r["time"]["total_s"]
                    continue
                k = (t, sp["model"] + "-" + ("1d" if sp["problem"] == "oscillator" else "2d"))
                total[k] += r["time"]["total_s"]
                if sp.get("seed", 0) == 0:
                    runs[k].append((r["time"]["total_s"], sp))
    return total, runs, kappa


def solve_args(sp):
    a = ["solve", "-problem", sp["problem"], "-model", sp["model"], PARAM[sp["problem"]], repr(sp["param"]),
         "-J", ",".join(map(str, sp["J"])), "-K", str(sp["K"]), "-delta", repr(sp["delta"]), "-R", repr(sp["R"]),
         "-iters", str(sp["iters"]), "-seed", "0", "-json"]
    if sp.get("width"):
        a += ["-width", str(sp["width"])]
    return a


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-b", default="bin/repro", help="the repro binary (default bin/repro)")
    ap.add_argument("-c", default="0", help="the core to pin the runs to (default 0)")
    ap.add_argument("-o", default="tier-sample.jsonl", help="where finished runs are kept")
    args = ap.parse_args()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    total, runs, kappa = strata(root, paper_tables(args.b))
    done = {}
    if os.path.exists(args.o):
        with open(args.o) as f:
            for line in f:
                d = json.loads(line)
                done[(d["table"], d["cls"])] = d
    with open(args.o, "a") as out:
        for k in sorted(runs):
            if k in done:
                continue
            lst = sorted(runs[k], key=lambda x: x[0])
            pub, sp = lst[len(lst) // 2]
            res = subprocess.run(["taskset", "-c", args.c, args.b] + solve_args(sp), capture_output=True, text=True)
            if res.returncode != 0:
                raise SystemExit("tier-sample: %s %s: %s" % (k[0], k[1], res.stderr.strip()))
            here = json.loads(res.stdout)["result"]["time"]["total_s"]
            d = {"table": k[0], "cls": k[1], "published_s": pub, "here_s": here, "spec": sp}
            print(json.dumps(d), file=out, flush=True)
            done[k] = d
            print("%-18s %-9s published %7.1f s, here %7.1f s (x%.2f)" % (k[0], k[1], pub, here, pub / here), flush=True)
    by = collections.defaultdict(lambda: [0.0, 0.0])
    for k, tot in total.items():
        f = done[k]["published_s"] / done[k]["here_s"]
        by[k[1]][0] += tot
        by[k[1]][1] += tot / f
    for c in sorted(by):
        print("%-9s published %.3f core-hours, here %.3f (x%.2f)" % (c, by[c][0] / 3600, by[c][1] / 3600, by[c][0] / by[c][1]))
    pub = sum(total.values()) + kappa
    here = sum(b[1] for b in by.values()) + kappa
    ratios = [done[k]["published_s"] / done[k]["here_s"] for k in total]
    print("tier: published %.2f core-hours, here %.2f (%d strata; run ratios %.2f-%.2f, median %.2f)" % (
        pub / 3600, here / 3600, len(total), min(ratios), max(ratios), statistics.median(ratios)))


if __name__ == "__main__":
    main()

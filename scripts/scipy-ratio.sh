#!/usr/bin/env bash
# SciPy's LSQR against ours on the ELM-FBPINN baselines (make scipy-ratio).
#
# usage: scripts/scipy-ratio.sh [-r ROUNDS] [-c CPU] [-b REPRO] [PROBLEM ...]
#
# For each problem (default: laplace helmholtz oscillator, at their paper
# baselines) writes the assembled system with `repro solve -system` and then,
# ROUNDS times (default 5), alternately times our whole run (`repro solve
# -json`: assembly, 15000 LSQR iterations and the 150 test errors; its
# time_s) and SciPy's lsqr call alone on the same CSR matrix
# (scripts/scipy-lsqr.py: atol = btol = conlim = 0, 15000 iterations, one
# BLAS thread), both pinned to core CPU (default 0). Prints each side's
# minimum and median and the ratio SciPy/ours pair by pair (min, median,
# max), after a line naming the machine and kernel path (repro version).
# Then the floor this core puts under our time: our LSQR reads the stored
# entries (repro solve's nnz) once an iteration, 8 bytes each, both
# products in one pass, so 15000 iterations take at least 15000 · 8 · nnz
# bytes at the core's read stream from outside its L2 cache
# (BenchmarkStream's 8 MiB, about a 2D baseline's matrix; the same kernel
# path and core; needs Go, skipped without it), and SciPy's median over
# that floor is the most any run that reads M once an iteration can reach
# here. A matrix under 4 MB (the oscillator's) may stay in a core's cache,
# so no floor is given for it.
# Needs python3 with SciPy (Debian: apt-get install python3-scipy; set
# PYTHON to choose the interpreter). Run it on a quiet machine: other work
# on the core's sibling or on the memory bus shows in both sides' times.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=5 cpu=0 repro=bin/repro
while getopts r:c:b: o; do
	case $o in
	r) rounds=$OPTARG ;;
	c) cpu=$OPTARG ;;
	b) repro=$OPTARG ;;
	*) echo "usage: scripts/scipy-ratio.sh [-r ROUNDS] [-c CPU] [-b REPRO] [PROBLEM ...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
problems=${*:-laplace helmholtz oscillator}
py=${PYTHON:-}
if [ -z "$py" ]; then
	for p in python3 /usr/bin/python3; do
		if "$p" -c 'import scipy' 2>/dev/null; then py=$p; break; fi
	done
fi
if [ -z "$py" ]; then
	echo "scipy-ratio: no python3 with SciPy (apt-get install python3-scipy, or set PYTHON)" >&2
	exit 2
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
version=$("$repro" version)
sed -n '1p;2p;4p' <<<"$version"
kernel=$(sed -n 's/^kernels: //p' <<<"$version")
iters=15000 # the paper's forced iteration count, ours (repro solve's default) and SciPy's
GO=${GO:-go}
stream=""
if command -v "$GO" >/dev/null; then
	stream=$(taskset -c "$cpu" "$GO" test -run '^$' -bench "BenchmarkStream/size=8MiB/path=$kernel\$" -benchtime 10x ./bench/ |
		awk '/GB\/s/ { for (i = 1; i < NF; i++) if ($(i + 1) == "GB/s") print $i }') || stream=""
	[ -n "$stream" ] && echo "stream: $stream GB/s (BenchmarkStream, 8 MiB, path $kernel, core $cpu)"
fi
for p in $problems; do
	nnz=$("$repro" solve -problem "$p" -model elm -iters 1 -system "$dir/$p.mtx" -json | "$py" -c 'import json,sys; print(json.load(sys.stdin)["nnz"])')
	: >"$dir/$p.times"
	for _ in $(seq "$rounds"); do
		ours=$(taskset -c "$cpu" "$repro" solve -problem "$p" -model elm -iters "$iters" -json | "$py" -c 'import json,sys; print(json.load(sys.stdin)["time_s"])')
		theirs=$(taskset -c "$cpu" "$py" scripts/scipy-lsqr.py "$dir/$p.mtx" "$iters" | "$py" -c 'import json,sys; print(json.load(sys.stdin)["seconds"])')
		echo "$theirs $ours" >>"$dir/$p.times"
	done
	"$py" scripts/pairs.py "$dir/$p.times" SciPy ours "$(printf '%-10s ' "$p")"
	if [ -n "$stream" ]; then
		"$py" -c '
import statistics, sys
times, name, mb, gbs, iters = sys.argv[1], sys.argv[2], 8e-6 * int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
if mb < 4:
    print(f"{name:<10} floor: none, {mb:.2f} MB may stay in cache")
else:
    floor = iters * mb / (1e3 * gbs)
    scipy = statistics.median(float(line.split()[0]) for line in open(times) if line.strip())
    print(f"{name:<10} floor: {iters} reads of {mb:.2f} MB at {gbs:g} GB/s = {floor:.2f} s; "
          f"SciPy/floor {scipy / floor:.2f}, the most a run reading M once an iteration reaches here")
' "$dir/$p.times" "$p" "$nnz" "$stream" "$iters"
	fi
done

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
"$repro" version | sed -n '1p;2p;4p'
for p in $problems; do
	"$repro" solve -problem "$p" -model elm -iters 1 -system "$dir/$p.mtx" -json >/dev/null
	: >"$dir/$p.times"
	for _ in $(seq "$rounds"); do
		ours=$(taskset -c "$cpu" "$repro" solve -problem "$p" -model elm -json | "$py" -c 'import json,sys; print(json.load(sys.stdin)["time_s"])')
		theirs=$(taskset -c "$cpu" "$py" scripts/scipy-lsqr.py "$dir/$p.mtx" | "$py" -c 'import json,sys; print(json.load(sys.stdin)["seconds"])')
		echo "$theirs $ours" >>"$dir/$p.times"
	done
	"$py" scripts/pairs.py "$dir/$p.times" SciPy ours "$(printf '%-10s ' "$p")"
done

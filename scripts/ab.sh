#!/usr/bin/env bash
# A/B timing of repro solve: an older commit's build against this tree's.
#
# usage: scripts/ab.sh [-r ROUNDS] [-c CPU] [-t TAGS] [-k KERNEL] REV SOLVE-ARGS...
#
# Builds cmd/repro at commit REV (in a temporary git worktree, with the
# GOAMD64 this tree's Makefile chooses for the CPU: v3 where it has AVX2,
# FMA, BMI2 and MOVBE)
# and from the working tree (with build tags TAGS, e.g. purego, and the
# kernel path KERNEL through ELMFBPINN_KERNEL, e.g. generic), then runs
# `repro solve SOLVE-ARGS -json` with each, alternately, ROUNDS times
# (default 5), pinned to core CPU (default 0), and prints each side's
# time_s (minimum, median) and the ratio old/new pair by pair (min, median,
# max), after a line naming the machine (repro version). Only the new side
# gets TAGS and KERNEL: REV is built and run as it was (with the environment,
# so ELMFBPINN_KERNEL=generic scripts/ab.sh REV ... runs both sides generic).
#
#   scripts/ab.sh -t purego 97a9a17 -problem laplace -model elm
#   scripts/ab.sh HEAD~1 -problem laplace -model fbpinn -steps 300
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=5 cpu=0 tags="" kernel=""
while getopts r:c:t:k: o; do
	case $o in
	r) rounds=$OPTARG ;;
	c) cpu=$OPTARG ;;
	t) tags=$OPTARG ;;
	k) kernel=$OPTARG ;;
	*) echo "usage: scripts/ab.sh [-r ROUNDS] [-c CPU] [-t TAGS] [-k KERNEL] REV SOLVE-ARGS..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ]; then
	echo "usage: scripts/ab.sh [-r ROUNDS] [-c CPU] [-t TAGS] [-k KERNEL] REV SOLVE-ARGS..." >&2
	exit 2
fi
rev=$1
shift
GO=${GO:-go}
amd64=$(make -s --no-print-directory goamd64) # the Makefile's choice for this CPU
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/old" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git worktree add --detach "$tmp/old" "$rev" >/dev/null 2>&1 || { echo "ab: no commit $rev" >&2; exit 2; }
(cd "$tmp/old" && GOAMD64=$amd64 GOEXPERIMENT= "$GO" build -o "$tmp/repro-old" ./cmd/repro)
GOAMD64=$amd64 GOEXPERIMENT= "$GO" build -tags "$tags" -o "$tmp/repro-new" ./cmd/repro
"$tmp/repro-new" version | sed -n '1p;2p;4p'
echo "old: $rev (GOAMD64=$amd64); new: the working tree (GOAMD64=$amd64${tags:+, tags $tags}${kernel:+, ELMFBPINN_KERNEL=$kernel}); solve $*"
timeof() { "$@" -json | python3 -c 'import json,sys; print(json.load(sys.stdin)["time_s"])'; }
: >"$tmp/times"
for _ in $(seq "$rounds"); do
	old=$(timeof taskset -c "$cpu" "$tmp/repro-old" solve "$@")
	if [ -n "$kernel" ]; then
		new=$(ELMFBPINN_KERNEL=$kernel timeof taskset -c "$cpu" "$tmp/repro-new" solve "$@")
	else
		new=$(timeof taskset -c "$cpu" "$tmp/repro-new" solve "$@")
	fi
	echo "$old $new" >>"$tmp/times"
done
python3 scripts/pairs.py "$tmp/times" old new

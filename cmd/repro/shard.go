package main

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"elmfbpinn/experiments"
)

// shardSpec is one part of a split: shard I of N (0 <= I < N).
type shardSpec struct{ I, N int }

func (s shardSpec) String() string { return strconv.Itoa(s.I) + "/" + strconv.Itoa(s.N) }

// parseShard parses "i/n" with 0 <= i < n, both written in decimal digits
// only (no sign, no space).
func parseShard(s string) (shardSpec, error) {
	a, b, ok := strings.Cut(s, "/")
	digits := func(x string) bool {
		return x != "" && !strings.ContainsFunc(x, func(r rune) bool { return r < '0' || r > '9' })
	}
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || !digits(a) || !digits(b) || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return shardSpec{}, usagef("bad -shard %q: want i/n with 0 <= i < n, e.g. 0/4 (Slurm: $SLURM_ARRAY_TASK_ID/n)", s)
	}
	return shardSpec{i, n}, nil
}

// costUnit is the resolution of the costs the split adds up: a millisecond
// of one core. Integer costs make the loads, and so the split, exact and the
// same on every machine.
const costUnit = 1e-3

// cost returns the estimated cost of a run in costUnits (at least 1).
func cost(s experiments.Spec) int64 {
	return max(1, int64(math.Ceil(experiments.Cost(s)/costUnit)))
}

// split assigns each of the specs to one of n shards and returns the shard
// of each spec (by index) and the estimated load of each shard (costUnits).
//
// It is the longest-processing-time rule: the specs in order of decreasing
// estimated cost, ties broken by their key, each go to the shard with the
// least load so far (the lowest-numbered of equals). The result depends only
// on the set of specs, not on their order or on which have results, so every
// task of a job array, and every re-run of a task, computes the same split.
// The largest load is at most the mean plus the largest single cost.
//
// The specs must be distinct (by key).
func split(specs []experiments.Spec, n int) (shard []int, load []int64) {
	type item struct {
		i    int
		cost int64
		key  string
	}
	items := make([]item, len(specs))
	for i, s := range specs {
		items[i] = item{i, cost(s), s.Key()}
	}
	slices.SortFunc(items, func(a, b item) int {
		if c := cmp.Compare(b.cost, a.cost); c != 0 {
			return c
		}
		return strings.Compare(a.key, b.key)
	})
	shard = make([]int, len(specs))
	load = make([]int64, n)
	for _, it := range items {
		best := 0
		for k := 1; k < n; k++ {
			if load[k] < load[best] {
				best = k
			}
		}
		shard[it.i] = best
		load[best] += it.cost
	}
	return shard, load
}

// shardOf returns the specs of shard sh, in the order they were given.
func shardOf(specs []experiments.Spec, sh shardSpec) []experiments.Spec {
	assign, _ := split(specs, sh.N)
	var out []experiments.Spec
	for i, s := range specs {
		if assign[i] == sh.I {
			out = append(out, s)
		}
	}
	return out
}

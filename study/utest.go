package study

import (
	"fmt"
	"math"
	"slices"
)

// This file holds the two-sample Mann-Whitney U test that repro compare runs
// over the seeds of a row, as benchstat does over benchmark samples.

// UTest is the result of a two-sample Mann-Whitney U test.
type UTest struct {
	// U is the Mann-Whitney statistic of the first sample,
	//
	//	U = R1 - n1 (n1+1) / 2,
	//
	// where R1 is the sum of the first sample's ranks in the pooled sample
	// (tied values share their mean rank): the number of pairs (x_i, y_j)
	// with x_i > y_j, ties counting one half. 0 <= U <= n1 n2.
	U float64
	// P is the two-sided p-value: the probability, under the null
	// hypothesis that both samples come from one distribution, of a U at
	// least as far from its mean n1 n2 / 2 as the observed one; exact up to
	// ExactMax pooled values, a normal approximation above.
	P float64
	// Exact says whether P is exact.
	Exact bool
}

// ExactMax is the largest pooled sample (n1 + n2) whose p-value MannWhitney
// computes exactly: 50, ten times the paper's five seeds a side, where the
// exact count costs under a millisecond (it grows as n1 (n1+n2)³). Above it
// the p-value is the normal approximation with the tie correction and a
// continuity correction of 1/2 (scipy.stats.mannwhitneyu's "asymptotic"
// method, which scipy itself uses from 8 values a side), whose error at
// 25 values a side is below 0.005 in p.
const ExactMax = 50

// MannWhitney returns the two-sample Mann-Whitney U test of x against y
// (each of at least one value, none NaN).
//
// Up to ExactMax pooled values the p-value is exact, ties included: it is
// the permutation distribution of the rank sum conditional on the observed
// ranks, so tied values keep their mid-ranks in every permutation (the
// "exact conditional" test; without ties it is the classical exact
// distribution). It is computed by counting, for every subset of n1 of the
// pooled mid-ranks, its rank sum (a dynamic programme over the doubled
// mid-ranks, which are integers), in O(n1 · (n1+n2)³) time, bounded by
// ExactMax: well under a millisecond for the handful of seeds of a table
// row. Above ExactMax it is the normal approximation (normalP), in
// O((n1+n2) log(n1+n2)) time and O(n1+n2) memory: 1000 seeds a side take
// about a millisecond.
//
// Two identical samples give P = 1; two samples of 5 values each that do
// not overlap give the smallest possible P, 2/252 ≈ 0.0079.
func MannWhitney(x, y []float64) (UTest, error) {
	n1, n2 := len(x), len(y)
	if n1 == 0 || n2 == 0 {
		return UTest{}, fmt.Errorf("study: U test needs values on both sides (have %d and %d)", n1, n2)
	}
	type obs struct {
		v     float64
		first bool
	}
	pool := make([]obs, 0, n1+n2)
	for _, v := range x {
		pool = append(pool, obs{v, true})
	}
	for _, v := range y {
		pool = append(pool, obs{v, false})
	}
	for _, o := range pool {
		if math.IsNaN(o.v) {
			return UTest{}, fmt.Errorf("study: U test of a NaN value")
		}
	}
	slices.SortStableFunc(pool, func(a, b obs) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	// Doubled mid-ranks: the tie group at 1-based positions i+1..j has
	// mid-rank (i+1+j)/2, doubled i+1+j, an integer.
	n := n1 + n2
	rank2 := make([]int, n)
	r1 := 0 // doubled rank sum of x
	for i := 0; i < n; {
		j := i + 1
		for j < n && pool[j].v == pool[i].v {
			j++
		}
		for k := i; k < j; k++ {
			rank2[k] = i + 1 + j
			if pool[k].first {
				r1 += rank2[k]
			}
		}
		i = j
	}
	// 2U = 2 R1 - n1 (n1+1); its mean is n1 n2.
	u2 := r1 - n1*(n1+1)
	dev := abs(u2 - n1*n2)
	if n > ExactMax {
		return UTest{U: float64(u2) / 2, P: normalP(n1, n2, float64(u2)/2, rank2)}, nil
	}

	// ways[k][s]: the number of k-subsets of the ranks seen so far whose
	// doubled sum is s.
	maxSum := n * (n + 1)
	ways := make([][]float64, n1+1)
	for k := range ways {
		ways[k] = make([]float64, maxSum+1)
	}
	ways[0][0] = 1
	for i, r := range rank2 {
		for k := min(i+1, n1); k >= 1; k-- {
			for s := maxSum; s >= r; s-- {
				ways[k][s] += ways[k-1][s-r]
			}
		}
	}
	var tail, total float64
	for s, w := range ways[n1] {
		if w == 0 {
			continue
		}
		total += w
		if abs(s-n1*(n1+1)-n1*n2) >= dev {
			tail += w
		}
	}
	return UTest{U: float64(u2) / 2, P: min(1, tail/total), Exact: true}, nil
}

// normalP returns the two-sided p-value of U for samples of n1 and n2
// values by the normal approximation, with rank2 the doubled mid-ranks of
// the pooled sample in order (so that tie groups are runs of equal values):
//
//	z = (|U - n1 n2/2| - 1/2) / σ,   p = 2 (1 - Φ(z)) = erfc(z/√2),
//	σ² = n1 n2/12 ((n+1) - Σ(t³-t)/(n(n-1))),
//
// t the size of each tie group, n = n1 + n2 (as scipy.stats.mannwhitneyu
// with method="asymptotic", use_continuity=True). All values tied (σ = 0)
// give 1.
func normalP(n1, n2 int, u float64, rank2 []int) float64 {
	n := float64(n1 + n2)
	var ties float64
	for i := 0; i < len(rank2); {
		j := i + 1
		for j < len(rank2) && rank2[j] == rank2[i] {
			j++
		}
		t := float64(j - i)
		ties += t*t*t - t
		i = j
	}
	v := float64(n1) * float64(n2) / 12 * ((n + 1) - ties/(n*(n-1)))
	if !(v > 0) {
		return 1
	}
	z := (math.Abs(u-float64(n1)*float64(n2)/2) - 0.5) / math.Sqrt(v)
	return min(1, math.Erfc(z/math.Sqrt2))
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

package study

import (
	"math"
	"testing"
)

// TestMannWhitney checks the U test against cases computed by hand.
func TestMannWhitney(t *testing.T) {
	cases := []struct {
		name string
		x, y []float64
		u, p float64
	}{
		// No overlap, n1 = n2 = 3: U = 0; of the C(6,3) = 20 rank sets only
		// {1,2,3} and {4,5,6} are as extreme, p = 2/20.
		{"separated 3 vs 3", []float64{1, 2, 3}, []float64{4, 5, 6}, 0, 0.1},
		{"separated 3 vs 3, reversed", []float64{4, 5, 6}, []float64{1, 2, 3}, 9, 0.1},
		// No overlap, 5 vs 5: the smallest two-sided p, 2/C(10,5) = 2/252.
		{"separated 5 vs 5", []float64{1, 2, 3, 4, 5}, []float64{10, 20, 30, 40, 50}, 0, 2.0 / 252},
		// Interleaved 2 vs 2: x ranks {1,3}, U = 1, mean 2; the rank sums of
		// the 6 sets give U = 0,1,2,2,3,4, and 4 of them are at least 1 from
		// the mean: p = 4/6.
		{"interleaved 2 vs 2", []float64{1, 3}, []float64{2, 4}, 1, 4.0 / 6},
		// Identical samples: every value tied, U is its mean in every
		// permutation, p = 1.
		{"identical", []float64{7, 7, 7, 7, 7}, []float64{7, 7, 7, 7, 7}, 12.5, 1},
		{"same values", []float64{1, 2, 3, 4, 5}, []float64{1, 2, 3, 4, 5}, 12.5, 1},
		// Ties across the samples: pooled 1 2 2 2 3 4 with mid-ranks
		// 1 3 3 3 5 6; x = {1,2,2} has ranks {1,3,3}, R1 = 7, U = 1 (x=2 vs
		// y=2 counts one half, twice). Of the 20 three-sets of positions,
		// 3 have rank sum 7 (1 and two of the 3s) and 3 have 14 (5, 6 and a
		// 3), the two tails: p = 6/20.
		{"ties", []float64{1, 2, 2}, []float64{2, 3, 4}, 1, 0.3},
		// One value each: both orders are equally extreme, p = 1.
		{"one vs one", []float64{1}, []float64{2}, 0, 1},
		// 1 vs 3 separated: 4 positions for x's rank, two extreme: p = 2/4.
		{"one vs three", []float64{0}, []float64{1, 2, 3}, 0, 0.5},
	}
	for i, tc := range cases {
		got, err := MannWhitney(tc.x, tc.y)
		if err != nil {
			t.Errorf("case %d (%s): %v", i, tc.name, err)
			continue
		}
		if got.U != tc.u || math.Abs(got.P-tc.p) > 1e-12 {
			t.Errorf("case %d (%s): U = %g, p = %.6g; want U = %g, p = %.6g", i, tc.name, got.U, got.P, tc.u, tc.p)
		}
	}
}

// TestMannWhitneyBad checks that an empty side or a NaN is an error.
func TestMannWhitneyBad(t *testing.T) {
	for i, tc := range []struct{ x, y []float64 }{
		{nil, []float64{1}},
		{[]float64{1}, nil},
		{[]float64{1, math.NaN()}, []float64{2}},
	} {
		if _, err := MannWhitney(tc.x, tc.y); err == nil {
			t.Errorf("case %d: no error for %v vs %v", i, tc.x, tc.y)
		}
	}
}

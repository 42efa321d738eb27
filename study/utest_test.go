package study

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
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

// TestMannWhitneyScipy checks U and p against scipy.stats.mannwhitneyu
// (testdata/mannwhitneyu.tsv; testdata/mannwhitneyu.py says how it was
// made): its exact method for samples of at most ExactMax pooled values
// without ties, its asymptotic method (normal, tie and continuity
// corrections) above, with and without ties, up to 1000 values a side.
func TestMannWhitneyScipy(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "mannwhitneyu.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	floats := func(s string) []float64 {
		var out []float64
		for f := range strings.SplitSeq(s, ",") {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
		return out
	}
	n := 0
	for line := range strings.Lines(string(b)) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(strings.TrimSpace(line), "\t")
		x, y := floats(f[1]), floats(f[2])
		u, _ := strconv.ParseFloat(f[3], 64)
		p, _ := strconv.ParseFloat(f[4], 64)
		got, err := MannWhitney(x, y)
		if err != nil {
			t.Fatal(err)
		}
		wantExact := f[0] == "exact"
		// Both are sums of exact counts or one erfc: they agree to a few
		// roundings.
		if got.U != u || math.Abs(got.P-p) > 1e-12+1e-9*p || got.Exact != wantExact {
			t.Errorf("%s %d vs %d: U = %g, p = %.17g (exact %v); scipy U = %g, p = %.17g", f[0], len(x), len(y), got.U, got.P, got.Exact, u, p)
		}
		n++
	}
	if n != 17 {
		t.Errorf("%d cases read, want 17", n)
	}
}

// TestMannWhitneyLarge: 1000 values a side (repro compare -seeds 0-999;
// issue 33, defect 6: 200 a side took 15 s and 380 MB) take milliseconds
// and little memory.
func TestMannWhitneyLarge(t *testing.T) {
	x, y := make([]float64, 1000), make([]float64, 1000)
	for i := range x {
		x[i], y[i] = float64(i%97), float64(i%89)+0.5
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	r, err := MannWhitney(x, y)
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil || r.Exact || !(r.P >= 0 && r.P <= 1) {
		t.Fatalf("U test: %+v, %v", r, err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; d > 200*time.Millisecond || alloc > 1<<20 {
		t.Errorf("1000 vs 1000: %v and %d bytes, want under 200 ms and 1 MiB", d, alloc)
	}
}

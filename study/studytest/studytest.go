// Package studytest holds the results the tests of the study and of its
// renderers (package reports) are built from: hand-made results for a
// declared table, with the values of their statistics computed by hand in
// the comments, and a loader of real result files. It is for tests only
// and must not import the study (whose own tests use it).
package studytest

import (
	"maps"
	"testing"

	"elmfbpinn/core/metric"
	"elmfbpinn/experiments"
)

// Table returns a fresh declared table by id.
func Table(t *testing.T, id string) *experiments.Table {
	t.Helper()
	ts, err := experiments.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return ts[0]
}

// RealResults loads the real result files of dir (reports/testdata/results
// holds a set) for the runs of the given tables in the full tier.
func RealResults(t *testing.T, dir string, ids ...string) map[string]*experiments.Result {
	t.Helper()
	out := make(map[string]*experiments.Result)
	for _, id := range ids {
		runs, err := Table(t, id).Runs(experiments.Full)
		if err != nil {
			t.Fatal(err)
		}
		res, bad, err := experiments.LoadAll(dir, runs)
		if err != nil {
			t.Fatal(err)
		}
		if len(bad) > 0 {
			t.Fatalf("bad test results: %v", bad)
		}
		maps.Copy(out, res)
	}
	return out
}

// Put stores a hand-made solve result for row i of tab and one seed.
func Put(m map[string]*experiments.Result, tab *experiments.Table, i, seed int, el1, total float64) {
	s := tab.Rows[i].Spec(seed)
	m[s.Key()] = &experiments.Result{Key: s.Key(), Spec: s, EL1: el1, Time: experiments.Timing{Total: total}}
}

// PutQuick stores a hand-made solve result of a shortened run (iters
// steps) for row i of tab and one seed.
func PutQuick(m map[string]*experiments.Result, tab *experiments.Table, i, seed, iters int, el1, total float64) {
	s := tab.Rows[i].Spec(seed)
	s.Iters = iters
	m[s.Key()] = &experiments.Result{Key: s.Key(), Spec: s, EL1: el1, Time: experiments.Timing{Total: total}}
}

// PutKappa stores a hand-made κ result for row i of tab, computed with the
// size cap cells (0: the default).
func PutKappa(m map[string]*experiments.Result, tab *experiments.Table, i, cells int, kappa *float64, note string) {
	s := tab.Rows[i].KappaSpec()
	if cells == 0 {
		cells = experiments.DefaultKappaCells
	}
	m[s.Key()] = &experiments.Result{Key: s.Key(), Spec: s, Kappa: kappa, KappaNote: note, KappaCells: cells}
}

// Ptr returns a pointer to x (a κ).
func Ptr(x float64) *float64 { return &x }

// Row indices of osc-scaling in ScalingResults: FBPINN 0-4, one-level
// ELM-FBPINN 5-9 and three-level ELM-FBPINN 10-14, each for (ω0, J) =
// (20, 10), (40, 20), (80, 40), (160, 80), (320, 160).
const (
	ScFB20   = 0
	ScELM20  = 5
	ScELM40  = 6
	ScELM80  = 7
	ScELM160 = 8
	ScELM320 = 9
	ScML20   = 10
)

// ScalingResults is a hand-made set of results for osc-scaling that covers
// every case the study and its renderers distinguish. The published rows it is judged
// against (tab:ch3-harm-j-multiscale, e_L1 median ± range):
//
//	FBPINN     (20, 10)        5.7e-04 ± 4.4e-04, time 11 s
//	ELM-FBPINN (20, 10)        9.5e-07 ± 9.6e-07, time 4.4 s
//	ELM-FBPINN (40, 20)        1.4e-05 ± 1.7e-05
//	ELM-FBPINN (80, 40)        1.3e-04 ± 2.5e-04
//	ELM-FBPINN (20, [1,5,10])  8.8e-07 ± 7.9e-07
func ScalingResults(tab *experiments.Table) map[string]*experiments.Result {
	m := make(map[string]*experiments.Result)
	// FBPINN (20, 10): judged like any other row. e_L1 6e-4 is within
	// 5.7e-4 ± 4.4e-4: match. The other FBPINN rows have no results.
	for seed := range 5 {
		Put(m, tab, ScFB20, seed, 6e-4, 10)
	}
	// ELM (20, 10), seeds 0-4: e_L1 {5,1,4,2,3}e-7 → sorted {1,2,3,4,5}e-7:
	// median 3e-7, min 1e-7, max 5e-7, range 4e-7. Within 9.5e-7 ± 9.6e-7:
	// match. Times {1,2,3,4,5} s: mean 3, deviations {-2,-1,0,1,2}, population
	// variance (4+1+0+1+4)/5 = 2, sd √2 ≈ 1.414. Speed 4.4/3 ≈ 1.47.
	for seed, v := range []float64{5e-7, 1e-7, 4e-7, 2e-7, 3e-7} {
		Put(m, tab, ScELM20, seed, v, float64([]int{1, 2, 3, 4, 5}[seed]))
	}
	PutKappa(m, tab, ScELM20, 0, Ptr(1.0e18), "")
	// ELM (40, 20): median 4e-5 is above 1.4e-5 + 1.7e-5 = 3.1e-5 but below
	// 3 × 1.4e-5 = 4.2e-5: close. κ was above the size cap.
	for seed := range 5 {
		Put(m, tab, ScELM40, seed, 4e-5, 0.5)
	}
	PutKappa(m, tab, ScELM40, 0, nil,
		"not computed: M is 6400 x 4352 (27852800 cells), above the cap of 4000000 cells (raise it with -kappa-cells)")
	// ELM (80, 40): median 2e-2 is 2e-2/1.3e-4 ≈ 154 times the paper's: off.
	// κ is infinite.
	for seed := range 5 {
		Put(m, tab, ScELM80, seed, 2e-2, 0.5)
	}
	PutKappa(m, tab, ScELM80, 0, nil, "infinite: the smallest singular value is 0")
	// ELM (160, 80): 4 of 5 seeds, e_L1 {1,2,3,10}e-3 → median (2+3)/2 =
	// 2.5e-3, range 9e-3; times {2,4,4,6}: mean 4, population variance
	// (4+0+0+4)/4 = 2, sd √2. No verdict; the κ run has no result yet.
	for seed, v := range []float64{1e-3, 2e-3, 3e-3, 10e-3} {
		Put(m, tab, ScELM160, seed, v, float64([]int{2, 4, 4, 6}[seed]))
	}
	// ELM (320, 160): no solve result yet; κ was computed with a larger size
	// cap than the default, and is found anyway.
	PutKappa(m, tab, ScELM320, 50_000_000, Ptr(8.0e19), "")
	// Three-level ELM (20, [1,5,10]): all seeds, 8e-7: match.
	for seed := range 5 {
		Put(m, tab, ScML20, seed, 8e-7, 6)
	}
	PutKappa(m, tab, ScML20, 0, Ptr(6.3e15), "")
	return m
}

// WeightResults is a hand-made set of results for the weight-scaling
// figure: the oscillator rows at R = 0.125 and R = 8 complete (R = 1 would
// be the baseline's run), the laplace
// R = 0.125 row with 2 of 5 seeds, the rest absent. The figure has no
// published rows.
func WeightResults(tab *experiments.Table) map[string]*experiments.Result {
	m := make(map[string]*experiments.Result)
	for i, r := range tab.Rows {
		switch {
		case r.Problem == experiments.Oscillator && (r.R == 0.125 || r.R == 8):
			for seed := range 5 {
				Put(m, tab, i, seed, 1e-4*r.R*float64(seed+1), 0.2)
			}
			PutKappa(m, tab, i, 0, Ptr(1e19*r.R), "")
		case r.Problem == experiments.Laplace && r.R == 0.125:
			Put(m, tab, i, 0, 3e-3, 20)
			Put(m, tab, i, 1, 5e-3, 22)
		}
	}
	return m
}

// Records is an error history: e_L1 vals[i] at iteration iters[i].
func Records(iters []int, vals []float64) []metric.Record {
	out := make([]metric.Record, len(iters))
	for i := range iters {
		out[i] = metric.Record{Iter: iters[i], EL1: vals[i]}
	}
	return out
}

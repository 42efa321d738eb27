package study

import (
	"fmt"
	"maps"
	"testing"

	"elmfbpinn/experiments"
	"elmfbpinn/study/studytest"
)

// TestCompare compares the hand-made osc-scaling results with a copy in
// which one row's errors are ten times larger, one row's times half as
// long and one row's seeds 3 and 4 are gone: the first is worse, the second
// better (five seeds that do not overlap: p = 2/252 < 0.05), the third
// unchanged over its three seeds on both sides with its two runs missing in
// the new set, and a row with no results on either side is left out.
func TestCompare(t *testing.T) {
	tab := studytest.Table(t, "osc-scaling")
	old := studytest.ScalingResults(tab)
	cur := maps.Clone(old)
	for seed := range 5 {
		for _, i := range []int{studytest.ScELM20, studytest.ScML20} {
			k := tab.Rows[i].Spec(seed).Key()
			r := *old[k]
			if i == studytest.ScELM20 {
				r.EL1 *= 10
			} else {
				r.Time.Total /= 2
			}
			cur[k] = &r
		}
	}
	for _, seed := range []int{3, 4} {
		delete(cur, tab.Rows[studytest.ScFB20].Spec(seed).Key())
	}
	rows, err := Compare([]*experiments.Table{tab}, experiments.Full, old, cur, nil)
	if err != nil {
		t.Fatal(err)
	}
	byIndex := map[int]RowComparison{}
	for _, r := range rows {
		byIndex[r.Index] = r
	}
	// A row is named as the report names it everywhere (RowStats.Label).
	if got, want := byIndex[studytest.ScML20].Name, fmt.Sprintf("ELM-FBPINN (L=3) (20, [1,5,10]) K=%d", tab.Rows[studytest.ScML20].K); got != want {
		t.Errorf("three-level row named %q, want %q", got, want)
	}
	if r := byIndex[studytest.ScELM20]; r.Change != Worse || r.EL1.Change != Worse || r.Time.Change != Same ||
		!near(r.EL1.Ratio, 10) || !near(r.EL1.Test.P, 2.0/252) || r.Seeds != 5 {
		t.Errorf("ten times the error: %v (e_L1 %v ratio %g p %g, time %v), %d seeds; want worse at ratio 10, p 2/252",
			r.Change, r.EL1.Change, r.EL1.Ratio, r.EL1.Test.P, r.Time.Change, r.Seeds)
	}
	if r := byIndex[studytest.ScML20]; r.Change != Better || r.Time.Change != Better || !near(r.Time.Ratio, 0.5) {
		t.Errorf("half the time: %v (time %v ratio %g), want better at 0.5", r.Change, r.Time.Change, r.Time.Ratio)
	}
	if r := byIndex[studytest.ScFB20]; r.Change != Same || r.Seeds != 3 || len(r.MissingNew) != 2 || len(r.MissingOld) != 0 ||
		r.MissingNew[0].Seed != 3 || r.EL1.Test.P != 1 {
		t.Errorf("three seeds on both sides: %v, %d seeds, missing new %v old %v, p %g", r.Change, r.Seeds, r.MissingNew, r.MissingOld, r.EL1.Test.P)
	}
	if _, ok := byIndex[studytest.ScFB20+1]; ok {
		t.Error("a row without results on either side is compared")
	}
	if k := Tally(rows); k.Worse != 1 || k.Better != 1 || k.Same != len(rows)-2 || k.NoData != 0 {
		t.Errorf("tally %+v over %d rows", k, len(rows))
	}
	// Thresholds: a tenfold error is not worse beyond a ratio of 20.
	rows, err = Compare([]*experiments.Table{tab}, experiments.Full, old, cur, &CompareOptions{Threshold: 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Index == studytest.ScELM20 && r.Change != Same {
			t.Errorf("threshold 20: %v, want ~", r.Change)
		}
	}
	// A run on one side only, with no seed on both: missing, not compared.
	only := map[string]*experiments.Result{}
	k := tab.Rows[studytest.ScELM40].Spec(0).Key()
	only[k] = old[k]
	rows, err = Compare([]*experiments.Table{tab}, experiments.Full, only, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Change != NoData || len(rows[0].MissingNew) != 1 || rows[0].Change.String() != "missing" {
		t.Errorf("one run on the old side only: %+v", rows)
	}
}

// TestCompareContended: times timed contended (Env.Contended) on either side
// are left out of the time comparison, the e_L1 comparison keeps every seed
// on both sides. The ELM (20, 10) row of ScalingResults has times {1, 2, 3,
// 4, 5} s for seeds 0-4.
func TestCompareContended(t *testing.T) {
	tab := studytest.Table(t, "osc-scaling")
	// edit returns a copy of r changed by f.
	edit := func(r *experiments.Result, f func(*experiments.Result)) *experiments.Result {
		c := *r
		f(&c)
		return &c
	}
	slow := func(r *experiments.Result) { r.Env.Contended, r.Time.Total = true, r.Time.Total*100 }
	cases := []struct {
		name string
		// old and cur change seed s of the row's result on each side.
		old, cur func(s int, r *experiments.Result)

		timed, contOld, contNew int
		time, el1, verdict      Change
		oldMedian, newMedian    float64 // of time; 0: not compared
		timeP                   float64 // 0: not compared
	}{{
		name:    "every new seed contended and slower",
		cur:     func(s int, r *experiments.Result) { slow(r) },
		contNew: 5, time: Contended, el1: Same, verdict: Same,
	}, {
		name: "every old seed contended, e_L1 ten times larger",
		old:  func(s int, r *experiments.Result) { slow(r) },
		cur:  func(s int, r *experiments.Result) { r.EL1 *= 10 },
		// Without the contended times the row is worse by its e_L1 alone.
		contOld: 5, time: Contended, el1: Worse, verdict: Worse,
	}, {
		name: "seed 0 contended in old, seed 1 in new",
		old: func(s int, r *experiments.Result) {
			if s == 0 {
				slow(r)
			}
		},
		cur: func(s int, r *experiments.Result) {
			if s == 1 {
				slow(r)
			}
		},
		// Seeds 2-4 on both sides: times {3, 4, 5}, median 4 (with
		// the contended times, old {100, 2, 3, 4, 5} and new {1, 200,
		// 3, 4, 5}: medians 4 and 4 but p < 1).
		timed: 3, contOld: 1, contNew: 1, time: Same, el1: Same, verdict: Same,
		oldMedian: 4, newMedian: 4, timeP: 1,
	}, {
		name: "seeds 0 and 1 contended in new, the others slower",
		cur: func(s int, r *experiments.Result) {
			if s < 2 {
				r.Env.Contended = true
			} else {
				r.Time.Total *= 2
			}
		},
		// Seeds 2-4: old {3, 4, 5} against new {6, 8, 10}: no overlap,
		// but 3 against 3 seeds cannot reach p < 0.05 (p = 0.1).
		timed: 3, contNew: 2, time: Same, el1: Same, verdict: Same,
		oldMedian: 4, newMedian: 8, timeP: 0.1,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := studytest.ScalingResults(tab)
			cur := maps.Clone(old)
			for seed := range 5 {
				k := tab.Rows[studytest.ScELM20].Spec(seed).Key()
				for _, side := range []struct {
					m map[string]*experiments.Result
					f func(int, *experiments.Result)
				}{{old, tc.old}, {cur, tc.cur}} {
					if side.f != nil {
						side.m[k] = edit(side.m[k], func(r *experiments.Result) { side.f(seed, r) })
					}
				}
			}
			rows, err := Compare([]*experiments.Table{tab}, experiments.Full, old, cur, nil)
			if err != nil {
				t.Fatal(err)
			}
			var r RowComparison
			for _, rc := range rows {
				if rc.Index == studytest.ScELM20 {
					r = rc
				}
			}
			if r.Seeds != 5 || r.Timed != tc.timed || r.ContendedOld != tc.contOld || r.ContendedNew != tc.contNew {
				t.Errorf("%d seeds, %d timed, contended %d old %d new; want 5, %d, %d and %d",
					r.Seeds, r.Timed, r.ContendedOld, r.ContendedNew, tc.timed, tc.contOld, tc.contNew)
			}
			if r.Time.Change != tc.time || r.EL1.Change != tc.el1 || r.Change != tc.verdict {
				t.Errorf("time %v, e_L1 %v, verdict %v; want %v, %v and %v", r.Time.Change, r.EL1.Change, r.Change, tc.time, tc.el1, tc.verdict)
			}
			if r.Time.Old.Median != tc.oldMedian || r.Time.New.Median != tc.newMedian {
				t.Errorf("time medians %g old, %g new; want %g and %g", r.Time.Old.Median, r.Time.New.Median, tc.oldMedian, tc.newMedian)
			}
			if r.Time.Test.P != tc.timeP && !near(r.Time.Test.P, tc.timeP) {
				t.Errorf("time p = %g, want %g", r.Time.Test.P, tc.timeP)
			}
			// The other rows are identical on both sides and timed cleanly.
			untimed, partly := 0, 0
			if tc.timed == 0 {
				untimed = 1
			} else {
				partly = 1
			}
			if k := Tally(rows); k.Untimed != untimed || k.PartlyTimed != partly || k.ContendedOld != tc.contOld || k.ContendedNew != tc.contNew {
				t.Errorf("tally %+v; want %d untimed, %d partly timed", k, untimed, partly)
			}
		})
	}
}

package study

import (
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
		if r.Study == nil || r.Study.Rows[r.Index].Row.Label() != r.Row.Label() {
			t.Errorf("row %d: its study names another row", r.Index)
		}
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

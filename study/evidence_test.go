package study

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
)

// TestNotMatchEvidence prints, for every judged row of a results directory's
// full tier that is not a match, our per-seed e_L1, the paper's median and
// range, and the note declared for it (experiments.Notes): the material the
// notes are written from.
//
//	EVIDENCE_RESULTS=results go test ./study -run TestNotMatchEvidence -v
//
// Skipped without EVIDENCE_RESULTS.
func TestNotMatchEvidence(t *testing.T) {
	dir := os.Getenv("EVIDENCE_RESULTS")
	if dir == "" {
		t.Skip("set EVIDENCE_RESULTS to a results directory")
	}
	var runs []experiments.Run
	for _, tb := range experiments.Tables() {
		rs, err := tb.Runs(experiments.Full)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, rs...)
	}
	results, _, err := experiments.LoadAll(dir, runs)
	if err != nil {
		t.Fatal(err)
	}
	st, err := NewStudy(experiments.Tables(), experiments.Full, results)
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range st.Tables {
		for _, s := range ts.Rows {
			if !s.HasVerdict || s.Verdict == paperdata.Match {
				continue
			}
			var seeds []string
			el1 := make([]float64, 0, len(s.Found))
			for _, r := range s.Found {
				el1 = append(el1, r.EL1)
			}
			slices.Sort(el1)
			for _, v := range el1 {
				seeds = append(seeds, fmt.Sprintf("%.3g", v))
			}
			t.Logf("%s row %d %s %v J=%v K=%d: %s; ours median %.3g [%s]; paper %.3g ± %.3g; note: %q",
				ts.Table.ID, s.Index, s.Row.Model, s.Row.Param, s.Row.J, s.Row.K, s.Verdict,
				s.EL1Median, strings.Join(seeds, ", "), s.Paper.EL1Median, s.Paper.EL1Range, s.Note)
		}
	}
}

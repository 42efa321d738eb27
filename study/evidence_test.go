package study

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
)

// notMatched builds the full tier's study over the results in dir (a
// directory or an archive) and returns its judged rows whose verdict is
// close or off.
func notMatched(t *testing.T, dir string) []RowStats {
	t.Helper()
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
	var out []RowStats
	for _, ts := range st.Tables {
		for _, s := range ts.Rows {
			if s.HasVerdict && s.Verdict != paperdata.Match {
				out = append(out, s)
			}
		}
	}
	return out
}

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
	for _, s := range notMatched(t, dir) {
		el1 := make([]float64, 0, len(s.Found))
		for _, r := range s.Found {
			el1 = append(el1, r.EL1)
		}
		slices.Sort(el1)
		var seeds []string
		for _, v := range el1 {
			seeds = append(seeds, fmt.Sprintf("%.3g", v))
		}
		t.Logf("%s row %d %s %v J=%v K=%d: %s; ours median %.3g [%s]; paper %.3g ± %.3g; note: %q",
			s.Table.ID, s.Index, s.Row.Model, s.Row.Param, s.Row.J, s.Row.K, s.Verdict,
			s.EL1Median, strings.Join(seeds, ", "), s.Paper.EL1Median, s.Paper.EL1Range, s.Note)
	}
}

// TestPublishedNotes requires a declared note (experiments.Notes) on every
// row of the published full tier (published/results) that is not a match
// with the paper, so that the published report says why for each.
func TestPublishedNotes(t *testing.T) {
	dir := filepath.Join("..", "published", "results")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no published results in this checkout")
	}
	for _, s := range notMatched(t, dir) {
		if s.Note == "" {
			t.Errorf("%s row %d (%s, %s): verdict %s with no note; declare one in experiments/notes.go",
				s.Table.ID, s.Index, s.Row.Model, s.Label(), s.Verdict)
		}
	}
}

package reports

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
)

// TestNotes checks the reasons given for missing values in both formats.
func TestNotes(t *testing.T) {
	tab := table(t, "osc-scaling")
	res := scalingResults(tab)
	var md, tex bytes.Buffer
	if err := markdownOf(&md, tab, experiments.Full, res); err != nil {
		t.Fatal(err)
	}
	if err := latexOf(&tex, tab, experiments.Full, res, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"4/5 seeds: statistics over the seeds present; no verdict",
		"0/5 seeds: no results yet",
		"κ not computed: M is 6400 x 4352 (27852800 cells), above the cap of 4000000 cells",
		"κ infinite: the smallest singular value is 0",
		"κ run not done yet",
		"- off: ELM-FBPINN (80, 40) K=12 ours 2.0e-02 vs paper 1.3e-04 (factor 150)",
		"Verdicts: 3 match, 1 close, 1 off; 10 with seeds missing (of 15 rows).",
		"| ELM-FBPINN (L=3) |    (20, [1,5,10]) |",
		" 2.5±9.0e-03 [5] |",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	for _, want := range []string{
		`$\kappa$ not computed: M is 6400 x 4352`,
		`$\infty$$^{`,
		`---$^{`,
		`2.5$\pm$9.0e-03$^{`,
		`0/5 seeds: no results yet`,
	} {
		if !strings.Contains(tex.String(), want) {
			t.Errorf("LaTeX lacks %q", want)
		}
	}
	// Every marker used in the table has its note, and every note is used.
	checkMarkers(t, md.String())
}

// checkMarkers checks that the markers " [n]" of the Markdown table are
// exactly 1..N, where N is the number of notes listed as "- [n] ...".
func checkMarkers(t *testing.T, md string) {
	t.Helper()
	var used, listed []string
	marker := regexp.MustCompile(` \[(\d+)\]`)
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "|"):
			for _, m := range marker.FindAllStringSubmatch(line, -1) {
				used = append(used, m[1])
			}
		case strings.HasPrefix(line, "- ["):
			listed = append(listed, line[3:strings.IndexByte(line, ']')])
		}
	}
	seen := map[string]bool{}
	for _, u := range used {
		seen[u] = true
	}
	if len(seen) != len(listed) {
		t.Errorf("%d distinct markers in the table, %d notes listed", len(seen), len(listed))
	}
	for _, l := range listed {
		if !seen[l] {
			t.Errorf("note [%s] is listed but not used", l)
		}
	}
}

// TestContendedNote: the speed cell of a row with a seed timed contended
// (repro run -oversubscribe) says why it has no speed-up.
func TestContendedNote(t *testing.T) {
	tab := table(t, "osc-baseline")
	res := realResults(t, "osc-baseline")
	s := tab.Rows[2].Spec(3)
	r := *res[s.Key()]
	r.Env.Contended = true
	res[s.Key()] = &r
	var b strings.Builder
	if err := markdownOf(&b, tab, experiments.Full, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "1 of 5 seeds were timed while sharing their core") {
		t.Errorf("no note on the contended times:\n%s", b.String())
	}
}

// TestVerdictNote: the declared reason of a row that is not a match
// (study.RowStats.Note, from experiments.Notes) is a note on its verdict
// cell, in the Markdown and in the LaTeX table with the paper's columns.
func TestVerdictNote(t *testing.T) {
	tab := table(t, "osc-baseline")
	res := realResults(t, "osc-baseline")
	for seed := range 5 { // the ELM-FBPINN row 10 times the paper's median: off
		s := tab.Rows[2].Spec(seed)
		r := *res[s.Key()]
		r.EL1 = 1.1e-3
		res[s.Key()] = &r
	}
	ts, err := studyOf(tab, experiments.Full, res)
	if err != nil {
		t.Fatal(err)
	}
	const why = "A declared reason, with its evidence."
	ts.Rows[2].Note = why
	var md, tex strings.Builder
	if err := Markdown(&md, ts, true); err != nil {
		t.Fatal(err)
	}
	if err := LaTeX(&tex, ts, true); err != nil {
		t.Fatal(err)
	}
	if ts.Rows[2].Verdict != paperdata.Off {
		t.Fatalf("verdict %v, want off", ts.Rows[2].Verdict)
	}
	for name, out := range map[string]string{"Markdown": md.String(), "LaTeX": tex.String()} {
		if !strings.Contains(out, why) {
			t.Errorf("%s table lacks the row's reason:\n%s", name, out)
		}
	}
	checkMarkers(t, md.String())
}

// TestNotMatchName: REPORT.md's list of the rows that are not a match
// names a row as the claims do (study.RowStats.Label), its Markdown
// specials escaped once, by the template: a three-level row's J list
// "[1,5,10]" shows as itself, with no backslash escaped again (the
// renderer must hand the template the plain name).
func TestNotMatchName(t *testing.T) {
	tab := table(t, "osc-scaling")
	res := scalingResults(tab)
	for seed := range 5 { // the three-level row 1000 times the paper's median: off
		s := tab.Rows[scML20].Spec(seed)
		r := *res[s.Key()]
		r.EL1 = 1e-3
		res[s.Key()] = &r
	}
	dir := t.TempDir()
	if _, err := Report(dir, []*experiments.Table{tab}, res, &Options{Formats: []string{FormatMarkdown}}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("(#damped-oscillator-scaling-omega0-with-j) ELM-FBPINN (L=3) (20, \\[1,5,10\\]) K=%d: **off**", tab.Rows[scML20].K)
	if !strings.Contains(string(b), want) {
		t.Errorf("REPORT.md lacks %q:\n%s", want, b)
	}
}

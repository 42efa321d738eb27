package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"elmfbpinn/experiments"
)

// TestReportCommand writes a quick-tier report from the reports package's
// test results in three formats: REPORT.md, runs.csv and the PNG figures
// that have data, and nothing else.
func TestReportCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	stdout, stderr, code := runRepro(t, "report", "-tier", "quick", "-table", "osc-baseline,osc-scaling,laplace-K",
		"-results", filepath.Join("..", "..", "reports", "testdata", "results"), "-out", out,
		"-format", "md,csv,png", "-solutions=false")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "REPORT.md") || !strings.Contains(stdout, "5 match") {
		t.Errorf("stdout %q", stdout)
	}
	for _, name := range []string{"REPORT.md", "SUMMARY.md", "runs.csv", "osc-baseline.md",
		"figures/osc-scaling-convergence.png", "figures/osc-scaling-final.png", "figures/osc-baseline-final.png",
		"figures/osc-baseline-convergence.png"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}
	for _, name := range []string{"osc-baseline.tex", "report.tex", "figures/osc-scaling-final.pdf", "figures/laplace-K-final.png"} {
		if _, err := os.Stat(filepath.Join(out, name)); err == nil {
			t.Errorf("%s written, want it left out", name)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Skipped: the quick tier runs no row of this table.", "## The paper's qualitative summary, recomputed"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(out, "figures"))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.IsSorted(names) || len(names) != 4 {
		t.Errorf("figures %q, want the four with data", names)
	}
}

// TestReportBadFormat: an unknown format is bad input (status 2, one line)
// and nothing is written.
func TestReportBadFormat(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report")
	stdout, stderr, code := runRepro(t, "report", "-format", "md,docx", "-results", filepath.Join(dir, "results"), "-out", out)
	if code != 2 || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, `unknown format "docx"`) {
		t.Errorf("exit %d, stdout %q, stderr %q; want status 2 and one line naming the format", code, stdout, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the output directory was created")
	}
}

// TestReportLaTeXPaper: -latex-paper adds the paper's values and the
// verdict as columns to the LaTeX tables; without it they are the paper's
// columns with our values only.
func TestReportLaTeXPaper(t *testing.T) {
	results := filepath.Join("..", "..", "reports", "testdata", "results")
	for _, tc := range []struct {
		flags []string
		want  bool
	}{
		{nil, false},
		{[]string{"-latex-paper"}, true},
	} {
		out := filepath.Join(t.TempDir(), "report")
		args := append([]string{"report", "-tier", "full", "-table", "osc-baseline", "-results", results, "-out", out,
			"-format", "latex"}, tc.flags...)
		_, stderr, code := runRepro(t, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", tc.flags, code, stderr)
		}
		tex, err := os.ReadFile(filepath.Join(out, "osc-baseline.tex"))
		if err != nil {
			t.Fatal(err)
		}
		for _, col := range []string{"$e_{L_1}$ (paper)", "Time (paper)", "Verdict", "& match \\\\"} {
			if got := strings.Contains(string(tex), col); got != tc.want {
				t.Errorf("%q: osc-baseline.tex has %q: %v, want %v", tc.flags, col, got, tc.want)
			}
		}
	}
}

// TestReportPrunes: a report written where another was removes the files
// the earlier one listed (.report-files) and it does not write again (a
// dropped table, a format not asked for), and nothing else: not a file of
// the user's, nor a listed path outside the directory.
func TestReportPrunes(t *testing.T) {
	results := filepath.Join("..", "..", "reports", "testdata", "results")
	dir := t.TempDir()
	out := filepath.Join(dir, "report")
	report := func(tables, formats string) string {
		_, stderr, code := runRepro(t, "report", "-tier", "quick", "-table", tables, "-results", results, "-out", out,
			"-format", formats, "-solutions=false")
		if code != 0 {
			t.Fatalf("report -table %s -format %s: exit %d: %s", tables, formats, code, stderr)
		}
		return stderr
	}
	if stderr := report("osc-baseline,osc-scaling", "md,csv,png"); strings.Contains(stderr, "removed") {
		t.Errorf("a first report removed files: %s", stderr)
	}
	// Files of the user's, and a list that names some of them: a path out
	// of the directory, one through a link that leads out of it, and a
	// directory.
	for _, name := range []string{filepath.Join(out, "notes.txt"), filepath.Join(dir, "outside"),
		filepath.Join(dir, "home", "secret"), filepath.Join(out, "data", "mine")} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join("..", "home"), filepath.Join(out, "link")); err != nil {
		t.Fatal(err)
	}
	list, err := os.ReadFile(filepath.Join(out, reportFiles))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, reportFiles), append(list, "../outside\nlink/secret\ndata\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr := report("osc-baseline", "md")
	if !strings.Contains(stderr, "removed 6 of the files the previous report in "+out+" wrote") {
		t.Errorf("stderr %q, want 6 files removed (osc-scaling.md, runs.csv, four figures)", stderr)
	}
	if !strings.Contains(stderr, "warning: "+filepath.Join(out, "link", "secret")+" is left from the previous report") {
		t.Errorf("stderr %q, want a warning for the listed file behind a link out of the directory", stderr)
	}
	for _, name := range []string{"osc-scaling.md", "runs.csv", "figures"} {
		if _, err := os.Stat(filepath.Join(out, name)); err == nil {
			t.Errorf("%s is left from the first report", name)
		}
	}
	for _, name := range []string{filepath.Join(out, "notes.txt"), filepath.Join(dir, "outside"), filepath.Join(out, "osc-baseline.md"),
		filepath.Join(dir, "home", "secret"), filepath.Join(out, "data", "mine")} {
		if _, err := os.Stat(name); err != nil {
			t.Errorf("%s was removed", name)
		}
	}
	// The file that could not be removed stays listed, for the next report.
	list, _ = os.ReadFile(filepath.Join(out, reportFiles))
	if got, want := string(list), "osc-baseline.md\nSUMMARY.md\nREPORT.md\nlink/secret\n"; got != want {
		t.Errorf("%s lists %q, want %q", reportFiles, got, want)
	}
	// A report that stops on an error (figures/ is a file here) removes
	// nothing, and lists what it wrote beside the earlier names.
	if err := os.WriteFile(filepath.Join(out, "figures"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runRepro(t, "report", "-tier", "quick", "-table", "osc-scaling", "-results", results, "-out", out,
		"-format", "md,png", "-solutions=false"); code == 0 || strings.Contains(stderr, "removed") {
		t.Errorf("report into a directory whose figures/ is a file: exit %d, stderr %q; want a failure that removes nothing", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "osc-baseline.md")); err != nil {
		t.Errorf("a failed report removed a file of the previous one: %v", err)
	}
	list, _ = os.ReadFile(filepath.Join(out, reportFiles))
	if got, want := string(list), "osc-scaling.md\nosc-baseline.md\nSUMMARY.md\nREPORT.md\nlink/secret\n"; got != want {
		t.Errorf("after a failed report %s lists %q, want %q", reportFiles, got, want)
	}
}

// TestReportCountsBad: a row whose five result files exist but are all bad
// (issue 33: each an impossible one-record history, or a FIFO) says so in
// REPORT.md, "0/5 seeds (5 bad result files left out)", instead of "no
// results yet", and stderr names each file.
func TestReportCountsBad(t *testing.T) {
	dir := copyDir(t, filepath.Join("..", "..", "reports", "testdata", "results"))
	n := editResults(t, dir, func(r *experiments.Result) bool {
		if r.Spec.Model != experiments.ELM || r.Spec.K != 12 || r.Spec.Iters == 0 || len(r.Spec.J) != 1 || r.Spec.J[0] != 20 || r.Spec.Param != 80 {
			return false
		}
		r.History = r.History[:1]
		r.History[0].EL1 = 0
		r.EL1, r.EL1Final, r.BestIter = 0, 0, 0
		return true
	})
	if n != 5 {
		t.Fatalf("%d results made bad, want the 5 seeds of the osc-baseline ELM-FBPINN row", n)
	}
	out := filepath.Join(t.TempDir(), "report")
	_, stderr, code := runRepro(t, "report", "-table", "osc-baseline", "-results", dir, "-out", out, "-format", "md", "-solutions=false")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := strings.Count(stderr, "bad result file"); got != 5 {
		t.Errorf("stderr names %d bad files, want 5: %s", got, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "0/5 seeds (5 bad result files left out)") {
		t.Errorf("REPORT.md does not count the row's bad files:\n%s", md)
	}
}

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"elmfbpinn/experiments"
)

// TestExperimentFile runs an experiment file through every command, as a
// user would, on a tiny budget: list, run (twice: the second finds every
// run done), report (a report of file tables alone, without the paper's
// sections), compare of two result sets, slurm -plan, export and back. One
// row is a paper row (osc-K's ELM-FBPINN at K = 2): its run keys are the
// paper table's, so a run of the paper table finds them done.
func TestExperimentFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mine.toml")
	const body = `[[table]]
id = "osc-K-mine"
title = "Mine"
kind = "K"
problem = "oscillator"
param = 80

[table.quick]
elm = { seeds = [0, 1], iters = 50 }

[[table.rows]]
model = "elm"
J = [4]
K = [2, 3]

[[table.rows]]
model = "elm"
J = [20]
K = 2
ref = { median = 0.048, range = 0.046, time = 4.4, source = "the paper" }
`
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "results")
	sel := []string{"-experiments", file, "-tier", "quick"}
	run := func(args ...string) string {
		t.Helper()
		out, errOut, code := runRepro(t, args...)
		if code != 0 {
			t.Fatalf("repro %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
		return out + errOut
	}
	out := run(append([]string{"list", "-results", res}, sel...)...)
	if !strings.Contains(out, "osc-K-mine") || strings.Contains(out, "osc-baseline") {
		t.Errorf("list of a file's tables:\n%s", out)
	}
	out = run(append([]string{"run", "-results", res, "-jobs", "1"}, sel...)...)
	if !strings.Contains(out, "6 of 6 runs") {
		t.Errorf("first run:\n%s", out)
	}
	out = run(append([]string{"run", "-results", res, "-jobs", "1"}, sel...)...)
	if !strings.Contains(out, "already done") && !strings.Contains(out, "nothing to run") && !strings.Contains(out, "0 of 6") {
		t.Logf("second run:\n%s", out)
	}
	if n := countResults(t, res); n != 6 {
		t.Errorf("%d results after two runs, want 6", n)
	}
	rep := filepath.Join(dir, "report")
	run(append([]string{"report", "-results", res, "-out", rep, "-format", "md,latex,csv"}, sel...)...)
	index, err := os.ReadFile(filepath.Join(rep, "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(index), "# Experiment report") || strings.Contains(string(index), "qualitative summary") ||
		!strings.Contains(string(index), "experiment file | `"+file+"`, SHA-256") {
		t.Errorf("REPORT.md of a file table:\n%s", index)
	}
	for _, f := range []string{"osc-K-mine.md", "osc-K-mine.tex", "runs.csv"} {
		if _, err := os.Stat(filepath.Join(rep, f)); err != nil {
			t.Error(err)
		}
	}
	out = run(append([]string{"compare", res, res}, sel...)...)
	if !strings.Contains(out, "osc-K-mine") {
		t.Errorf("compare:\n%s", out)
	}
	out = run("slurm", "-plan", "-experiments", file)
	if !strings.Contains(out, "osc-K-mine") || !strings.Contains(out, "18") {
		t.Errorf("slurm -plan (3 rows x (5 seeds + kappa) = 18 runs):\n%s", out)
	}
	exported := filepath.Join(dir, "back.toml")
	run("export", "-experiments", file, "-table", "osc-K-mine", "-id", "osc-K-back", "-out", exported)
	back, err := experiments.ReadFiles([]string{exported})
	if err != nil || len(back) != 1 || len(back[0].Rows) != 3 {
		t.Fatalf("export read back: %v %v", back, err)
	}
	// The paper's own row: a quick run of osc-K's ELM-FBPINN at K = 2 with
	// this budget has the file row's key.
	paper, err := experiments.Lookup("osc-K")
	if err != nil {
		t.Fatal(err)
	}
	row := paper[0].Rows[slices.IndexFunc(paper[0].Rows, func(r experiments.Row) bool { return r.Model == experiments.ELM && r.K == 2 })]
	s := row.Spec(0)
	s.Iters = 50
	if !experiments.Exists(res, s) {
		t.Errorf("the paper row's run %s was not made under the paper's key", s)
	}
}

// TestExperimentFileErrors: a malformed file is one line naming
// file:line and the field, exit 2, and nothing run.
func TestExperimentFileErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(file, []byte("[[table]]\nid = \"x\"\nkind = \"K\"\nproblem = \"oscillator\"\n[[table.rows]]\nmodel = \"elm\"\nK = [2, 4]\nJ = [[1], [2]]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "results")
	for _, cmd := range []string{"list", "run", "report", "compare", "slurm", "export"} {
		args := []string{cmd, "-experiments", file}
		switch cmd {
		case "run", "report", "list":
			args = append(args, "-results", res)
		case "compare":
			empty := t.TempDir()
			args = append(args, empty, empty)
		case "export":
			args = append(args, "-table", "x")
		case "slurm":
			args = append(args, "-plan")
		}
		out, errOut, code := runRepro(t, args...)
		want := "bad.toml:8: table x, row 1: J: a row sweeps one field, and K (line 7) is swept too"
		if code != 2 || !strings.Contains(errOut, want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("repro %s: exit %d, stderr %q stdout %q; want exit 2 and one line with %q", cmd, code, errOut, out, want)
		}
	}
	if _, err := os.Stat(res); err == nil {
		t.Errorf("%s was made: something ran", res)
	}
}

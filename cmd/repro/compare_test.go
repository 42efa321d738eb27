package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"elmfbpinn/experiments"
	"elmfbpinn/reports"
)

// baselineOnce holds the quick tier of osc-baseline, run once for the tests
// that need a real result set: the ELM-FBPINN row with 5 seeds at full
// fidelity, the FBPINN and PINN rows with one short training each.
var baselineOnce struct {
	sync.Once
	dir string
	err string
}

// quickBaseline returns a directory with the quick tier of osc-baseline
// (read it, do not write it: copy it with copyDir). Its results are marked
// timed cleanly (env.contended false) even where the machine running the
// tests was busy, as it often is: the tests compare copies of them, whose
// times are the same, and mark the seeds contended they mean to.
func quickBaseline(t *testing.T) string {
	t.Helper()
	baselineOnce.Do(func() {
		dir, err := os.MkdirTemp("", "repro-baseline-")
		if err != nil {
			baselineOnce.err = err.Error()
			return
		}
		baselineOnce.dir = filepath.Join(dir, "results")
		if _, stderr, code := runRepro(t, "run", "-table", "osc-baseline", "-tier", "quick", "-jobs", "1", "-results", baselineOnce.dir); code != 0 {
			baselineOnce.err = stderr
			return
		}
		editResults(t, baselineOnce.dir, func(r *experiments.Result) bool {
			was := r.Env.Contended
			r.Env.Contended = false
			return was
		})
	})
	if baselineOnce.err != "" {
		t.Fatalf("running the quick tier of osc-baseline: %s", baselineOnce.err)
	}
	return baselineOnce.dir
}

// copyDir copies the result files of src into a new directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "results")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range snapshot(t, src) {
		if err := os.WriteFile(filepath.Join(dst, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// editResults rewrites every result in dir for which edit returns true (it
// changes the result in place), and returns how many it rewrote.
func editResults(t *testing.T, dir string, edit func(*experiments.Result) bool) int {
	t.Helper()
	n := 0
	for name, b := range snapshot(t, dir) {
		var r experiments.Result
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if !edit(&r) {
			continue
		}
		out, err := json.MarshalIndent(&r, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), out, 0o644); err != nil {
			t.Fatal(err)
		}
		n++
	}
	return n
}

// scaleEL1 multiplies the errors (e_L1, the final error and every entry of
// the history, so that the file stays consistent) of every result of model
// in dir by f.
func scaleEL1(t *testing.T, dir, model string, f float64) int {
	t.Helper()
	return editResults(t, dir, func(r *experiments.Result) bool {
		if r.Spec.Model != model || r.Spec.Coef {
			return false // not the model's, or the solution figure's run (no table row)
		}
		r.EL1 *= f
		r.EL1Final *= f
		for i := range r.History {
			r.History[i].EL1 *= f
		}
		return true
	})
}

// compareCSV runs repro compare -format csv and returns its records by
// model (the row names start with it), with the exit status and stderr.
func compareCSV(t *testing.T, args ...string) (map[string]map[string]string, int, string) {
	t.Helper()
	stdout, stderr, code := runRepro(t, append([]string{"compare", "-tier", "quick", "-table", "osc-baseline", "-format", "csv"}, args...)...)
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil || len(recs) < 1 {
		t.Fatalf("output is not CSV (%v): %q, stderr %q", err, stdout, stderr)
	}
	out := map[string]map[string]string{}
	for _, rec := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = rec[i]
		}
		model, _, _ := strings.Cut(m["row"], " ")
		out[model] = m
	}
	return out, code, stderr
}

// TestCompareIdentical: two copies of one result set show no change on any
// row, with both medians equal and p = 1, and -fail-on any passes.
func TestCompareIdentical(t *testing.T) {
	src := quickBaseline(t)
	a, b := copyDir(t, src), copyDir(t, src)
	rows, code, stderr := compareCSV(t, "-fail-on", "any", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want the 3 of osc-baseline: %v", len(rows), rows)
	}
	for model, r := range rows {
		if r["verdict"] != "~" || r["eL1_change"] != "~" || r["time_change"] != "~" ||
			r["eL1_p"] != "1" || r["time_p"] != "1" || r["eL1_ratio"] != "1" {
			t.Errorf("%s: %v, want no change, ratio 1 and p = 1", model, r)
		}
	}
	if got := rows["ELM-FBPINN"]["seeds"]; got != "5" {
		t.Errorf("ELM-FBPINN compared over %s seeds, want 5", got)
	}
}

// TestCompareWorse: the ELM-FBPINN row's e_L1 tripled on every seed is
// worse (ratio 3, p = 2/252, the smallest p of 5 against 5 seeds), the other
// rows (one seed each, where no test can be significant) are unchanged, and
// -fail-on worse exits with status 1 in one line; the reverse comparison
// is better, which -fail-on worse lets pass and -fail-on any does not.
func TestCompareWorse(t *testing.T) {
	src := quickBaseline(t)
	old, bad := copyDir(t, src), copyDir(t, src)
	if n := scaleEL1(t, bad, experiments.ELM, 3); n != 5 {
		t.Fatalf("scaled %d results, want the 5 seeds of the ELM-FBPINN row", n)
	}
	rows, code, _ := compareCSV(t, old, bad)
	if code != 0 {
		t.Errorf("exit %d without -fail-on, want 0", code)
	}
	elm := rows["ELM-FBPINN"]
	if elm["verdict"] != "worse" || elm["eL1_change"] != "worse" || elm["time_change"] != "~" {
		t.Errorf("ELM-FBPINN row %v, want e_L1 worse and time unchanged", elm)
	}
	// The ratio of medians is (3 m)/m, 3 to within the two roundings of the
	// scaled result and the quotient.
	if ratio, err := strconv.ParseFloat(elm["eL1_ratio"], 64); elm["eL1_p"] != "0.007936507936507936" || err != nil || math.Abs(ratio-3) > 4e-16*3 {
		t.Errorf("ELM-FBPINN p = %s, ratio = %s; want 2/252 and 3", elm["eL1_p"], elm["eL1_ratio"])
	}
	for _, m := range []string{"FBPINN", "PINN"} {
		if rows[m]["verdict"] != "~" {
			t.Errorf("%s row %v, want unchanged", m, rows[m])
		}
	}

	stdout, stderr, code := runRepro(t, "compare", "-tier", "quick", "-table", "osc-baseline", "-fail-on", "worse", old, bad)
	if code != 1 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "1 of 3 rows are worse") {
		t.Errorf("-fail-on worse: exit %d, stderr %q; want status 1 and one line", code, stderr)
	}
	if !strings.Contains(stdout, "worse") || !strings.Contains(stdout, "3.00") {
		t.Errorf("the table does not show the change:\n%s", stdout)
	}

	if _, _, code := runRepro(t, "compare", "-tier", "quick", "-table", "osc-baseline", "-fail-on", "worse", bad, old); code != 0 {
		t.Errorf("better with -fail-on worse: exit %d, want 0", code)
	}
	rows, code, _ = compareCSV(t, "-fail-on", "any", bad, old)
	if code != 1 || rows["ELM-FBPINN"]["verdict"] != "better" {
		t.Errorf("better with -fail-on any: exit %d, row %v; want status 1 and better", code, rows["ELM-FBPINN"])
	}
}

// cutDir returns a copy of src without seed 0 of the PINN and ELM-FBPINN
// rows of osc-baseline's quick tier (the PINN row's only seed).
func cutDir(t *testing.T, src string) string {
	t.Helper()
	cut := copyDir(t, src)
	tables, _ := experiments.Lookup("osc-baseline")
	for _, r := range tables[0].Rows {
		s := r.Spec(0)
		if r.Model != experiments.ELM {
			s.Iters = tables[0].Quick.Budgets[r.Model].Iters
		}
		if r.Model == experiments.PINN || r.Model == experiments.ELM {
			if err := os.Remove(experiments.Path(cut, s)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return cut
}

// TestCompareMissing: a run removed from NEW is listed as missing and its
// row compared over the seeds left; a row with no seed on both sides is
// shown as missing, not compared.
func TestCompareMissing(t *testing.T) {
	src := quickBaseline(t)
	old, cut := copyDir(t, src), cutDir(t, src)
	rows, code, stderr := compareCSV(t, old, cut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if r := rows["ELM-FBPINN"]; r["seeds"] != "4" || r["missing_new"] != "1" || r["verdict"] != "~" {
		t.Errorf("ELM-FBPINN row %v, want 4 seeds compared, 1 missing in NEW", r)
	}
	if r := rows["PINN"]; r["seeds"] != "0" || r["verdict"] != "missing" {
		t.Errorf("PINN row %v, want missing", r)
	}
	stdout, _, _ := runRepro(t, "compare", "-tier", "quick", "-table", "osc-baseline", old, cut)
	if strings.Contains(stdout, "missing in new: ") || !strings.Contains(unwrapped(stdout), "osc-baseline 0 in new only, 2 in old only") {
		t.Errorf("output does not count the 2 missing runs per table (and list none):\n%s", stdout)
	}
	stdout, _, _ = runRepro(t, "compare", "-tier", "quick", "-table", "osc-baseline", "-missing", old, cut)
	if strings.Count(stdout, "missing in new: ") != 2 {
		t.Errorf("-missing does not list the 2 missing runs:\n%s", stdout)
	}
}

// unwrapped joins the lines the text comparison wraps (continued with an
// indent of two spaces) back into one.
func unwrapped(text string) string { return strings.ReplaceAll(text, "\n  ", " ") }

// TestCompareContended: the ELM-FBPINN row's times made three times
// longer in NEW fail -fail-on worse only where they were timed cleanly; a
// seed timed contended (env.contended) on either side is left out of the
// time comparison, and a row with no seed left has no time comparison, its
// verdict e_L1's alone (identical here).
func TestCompareContended(t *testing.T) {
	src := quickBaseline(t)
	cases := []struct {
		name      string
		contended func(seed int) bool // the NEW seeds marked contended
		code      int
		timeSeeds string
		change    string // time_change
		verdict   string
		note      string // of the text output's footer; "": no note on contended times
	}{
		{"every seed contended", func(int) bool { return true }, 0, "0", "contended", "~",
			"1 rows have no time comparison (their verdict is e_L1's), 0 are timed over fewer seeds than e_L1; contended seeds: 0 in old, 5 in new"},
		// Seeds 2-4 are identical on both sides: ratio 1, p = 1.
		{"seeds 0 and 1 contended", func(seed int) bool { return seed < 2 }, 0, "3", "~", "~",
			"0 rows have no time comparison (their verdict is e_L1's), 1 are timed over fewer seeds than e_L1; contended seeds: 0 in old, 2 in new"},
		{"none contended", func(int) bool { return false }, 1, "5", "worse", "worse", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old, slow := copyDir(t, src), copyDir(t, src)
			n := editResults(t, slow, func(r *experiments.Result) bool {
				if r.Spec.Model != experiments.ELM || r.Spec.Coef {
					return false
				}
				if tc.contended(r.Spec.Seed) {
					r.Env.Contended, r.Env.CPUShare = true, 0.5
				} else if tc.timeSeeds == "3" {
					return false // the clean seeds keep their times
				}
				r.Time.Assembly, r.Time.Solve, r.Time.Total = 3*r.Time.Assembly, 3*r.Time.Solve, 3*r.Time.Assembly+3*r.Time.Solve
				return true
			})
			if n == 0 {
				t.Fatal("no ELM-FBPINN result changed")
			}
			rows, code, stderr := compareCSV(t, "-fail-on", "worse", old, slow)
			elm := rows["ELM-FBPINN"]
			if code != tc.code {
				t.Errorf("-fail-on worse: exit %d, want %d: %s", code, tc.code, stderr)
			}
			if elm["time_seeds"] != tc.timeSeeds || elm["time_change"] != tc.change || elm["verdict"] != tc.verdict || elm["seeds"] != "5" || elm["eL1_change"] != "~" {
				t.Errorf("ELM-FBPINN row %v; want 5 seeds, e_L1 ~, time over %s seeds %s, verdict %s", elm, tc.timeSeeds, tc.change, tc.verdict)
			}
			if tc.timeSeeds == "0" && (elm["time_old_median"] != "" || elm["time_ratio"] != "" || elm["time_p"] != "") {
				t.Errorf("a time with no seed timed cleanly has numbers: %v", elm)
			}
			if tc.timeSeeds == "3" && (elm["time_ratio"] != "1" || elm["time_p"] != "1") {
				t.Errorf("time over the clean seeds: ratio %s, p %s; want 1 and 1", elm["time_ratio"], elm["time_p"])
			}
			for _, m := range []string{"FBPINN", "PINN"} {
				if rows[m]["time_seeds"] != "1" {
					t.Errorf("%s row timed over %q seeds, want 1", m, rows[m]["time_seeds"])
				}
			}
			stdout, _, _ := runRepro(t, "compare", "-tier", "quick", "-table", "osc-baseline", old, slow)
			if tc.note == "" && strings.Contains(stdout, "are left out: ") {
				t.Errorf("a note on contended times without any:\n%s", stdout)
			}
			if tc.note != "" && (!strings.Contains(unwrapped(stdout), tc.note) || !strings.Contains(unwrapped(stdout), "repro run -retime")) {
				t.Errorf("the text does not say which times were left out (want %q):\n%s", tc.note, stdout)
			}
		})
	}
}

// TestCompareFailOnMissing: -fail-on worse or any fails when NEW lacks
// runs of OLD (a candidate that made no result must not pass the gate),
// saying how many in one line, and passes when NEW has runs OLD lacks (new
// rows); -fail-on none never fails.
func TestCompareFailOnMissing(t *testing.T) {
	src := quickBaseline(t)
	full, cut, empty := copyDir(t, src), cutDir(t, src), t.TempDir()
	worse := copyDir(t, cut)
	if n := scaleEL1(t, worse, experiments.ELM, 3); n != 4 {
		t.Fatalf("scaled %d results, want the 4 seeds of the ELM-FBPINN row left", n)
	}
	// lacks is the line's part on n runs missing in dir.
	lacks := func(n int, dir string) string {
		return fmt.Sprintf("NEW has no result for %d runs of OLD (missing in new): run them (repro run -tier quick -results %s,", n, dir)
	}
	cases := []struct {
		name, failOn, old, new string
		code                   int
		want                   string // the one line of stderr, up to NEW's path
	}{
		{"empty NEW, worse", "worse", full, empty, 1, lacks(7, empty)},
		{"empty NEW, any", "any", full, empty, 1, lacks(7, empty)},
		{"empty NEW, none", "none", full, empty, 0, ""},
		{"NEW lacks 2 runs, worse", "worse", full, cut, 1, lacks(2, cut)},
		{"NEW lacks 2 runs and a row is worse", "worse", full, worse, 1, "1 of 3 rows are worse; " + lacks(2, worse)},
		{"NEW a superset of OLD, worse", "worse", cut, full, 0, ""},
		{"NEW a superset of OLD, any", "any", cut, full, 0, ""},
		{"empty OLD, any", "any", empty, full, 0, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runRepro(t, "compare", "-tier", "quick", "-table", "osc-baseline", "-fail-on", tc.failOn, tc.old, tc.new)
			line := strings.TrimSpace(stderr)
			if code != tc.code || strings.Count(line, "\n") != 0 || !strings.Contains(line, tc.want) {
				t.Errorf("exit %d, stderr %q; want status %d and one line with %q", code, stderr, tc.code, tc.want)
			}
			if tc.code == 1 && !strings.HasSuffix(line, "(-fail-on "+tc.failOn+")") {
				t.Errorf("stderr %q does not name -fail-on %s", line, tc.failOn)
			}
		})
	}
}

// TestCompareBadInput: bad arguments exit with status 2 and one line.
func TestCompareBadInput(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	if err := os.Mkdir(a, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{a}, "want two result directories"},
		{[]string{a, a, a}, "want two result directories"},
		{[]string{a, filepath.Join(dir, "nope")}, "no such file"},
		{[]string{a, file}, "neither a directory nor a result archive"},
		{[]string{"-alpha", "0", a, a}, "-alpha"},
		{[]string{"-alpha", "2", a, a}, "-alpha"},
		{[]string{"-threshold", "0.9", a, a}, "-threshold"},
		{[]string{"-time-threshold", "nan", a, a}, "-time-threshold"},
		{[]string{"-format", "html", a, a}, "-format"},
		{[]string{"-fail-on", "better", a, a}, "-fail-on"},
		{[]string{"-tier", "medium", a, a}, "unknown tier"},
		{[]string{"-table", "nope", a, a}, "unknown table"},
	}
	for i, tc := range cases {
		stdout, stderr, code := runRepro(t, append([]string{"compare"}, tc.args...)...)
		if code != 2 || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("case %d (%v): exit %d, stdout %q, stderr %q; want status 2 and one line containing %q", i, tc.args, code, stdout, stderr, tc.want)
		}
	}
}

// TestRunReplacesBadFile: a result file that is not a valid result is
// reported once by list (and counted as missing), then moved to .bad/ by
// run, which computes the run again; compare leaves it out meanwhile.
func TestRunReplacesBadFile(t *testing.T) {
	dir := copyDir(t, quickBaseline(t))
	s := experiments.Tables()[0].Rows[2].Spec(0) // osc-baseline ELM-FBPINN, seed 0
	want := snapshot(t, dir)[s.Key()+".json"]
	if err := os.WriteFile(experiments.Path(dir, s), []byte(`{"key": "`+s.Key()+`", "eL1": 1e308`), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runRepro(t, "list", "-tier", "quick", "-results", dir)
	if code != 0 || strings.Count(stderr, "bad result file") != 1 || !strings.Contains(stderr, experiments.Path(dir, s)) {
		t.Errorf("list: exit %d, stderr %q; want one line naming the bad file", code, stderr)
	}
	if !regexp.MustCompile(`osc-baseline +\S+ +3 +7 +6 +0 `).MatchString(stdout) {
		t.Errorf("list does not count the bad file as missing:\n%s", stdout)
	}
	_, stderr, _ = runRepro(t, "compare", "-tier", "quick", "-table", "osc-baseline", dir, dir)
	if strings.Count(stderr, "bad result file") != 2 {
		t.Errorf("compare: stderr %q, want the bad file reported once per side", stderr)
	}

	_, stderr, code = runRepro(t, "run", "-table", "osc-baseline", "-tier", "quick", "-jobs", "1", "-results", dir)
	if code != 0 || strings.Count(stderr, "bad result file") != 1 || strings.Count(stderr, "] ok ") != 1 {
		t.Fatalf("run: exit %d, stderr %q; want the bad file reported once and its run made again", code, stderr)
	}
	moved, err := os.ReadFile(filepath.Join(dir, experiments.BadDir, s.Key()+".json"))
	if err != nil || !strings.Contains(string(moved), "1e308") {
		t.Errorf("the bad file was not moved to %s/ as it was: %v", experiments.BadDir, err)
	}
	var a, b experiments.Result
	json.Unmarshal(want, &a)
	if err := json.Unmarshal(snapshot(t, dir)[s.Key()+".json"], &b); err != nil || a.EL1 != b.EL1 {
		t.Errorf("the run made again has e_L1 %v, want %v (the same seed gives the same bits)", b.EL1, a.EL1)
	}
	_, stderr, _ = runRepro(t, "list", "-tier", "quick", "-results", dir)
	if strings.Contains(stderr, "bad") {
		t.Errorf("list after run still reports: %q", stderr)
	}
}

// TestCompareOtherMachine: times made on another kind of processor (here:
// NEW's results moved to another model number) are not compared, and
// say so; e_L1 still is. The text output fits TextWidth columns.
func TestCompareOtherMachine(t *testing.T) {
	src := quickBaseline(t)
	old, moved := copyDir(t, src), copyDir(t, src)
	n := editResults(t, moved, func(r *experiments.Result) bool {
		if r.Env.Machine == nil {
			return false
		}
		m := *r.Env.Machine
		m.Model++
		r.Env.Machine = &m
		// Slower there: not a regression of the code (the total stays the sum of its parts).
		r.Time.Assembly, r.Time.Solve, r.Time.Total = 3*r.Time.Assembly, 3*r.Time.Solve, 3*r.Time.Assembly+3*r.Time.Solve
		return true
	})
	if n == 0 {
		t.Fatal("no result records its machine")
	}
	rows, code, stderr := compareCSV(t, "-fail-on", "worse", old, moved)
	if code != 0 {
		t.Errorf("-fail-on worse with times of another machine: exit %d: %s", code, stderr)
	}
	if elm := rows["ELM-FBPINN"]; elm["time_change"] != "other machine" || elm["time_seeds"] != "0" || elm["verdict"] != "~" {
		t.Errorf("ELM-FBPINN row %v, want its time not compared (other machine), verdict ~", elm)
	}
	stdout, _, _ := runRepro(t, "compare", "-tier", "quick", "-table", "osc-baseline", old, moved)
	if !strings.Contains(stdout, "~ (time: other CPU)") {
		t.Errorf("the text does not say the time is of another CPU:\n%s", stdout)
	}
	for line := range strings.Lines(stdout) {
		if w := utf8.RuneCountInString(strings.TrimSuffix(line, "\n")); w > reports.TextWidth {
			t.Errorf("a line of %d columns, more than %d: %q", w, reports.TextWidth, line)
		}
	}
}

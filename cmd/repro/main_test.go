package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"elmfbpinn/core/metric"
	"elmfbpinn/experiments"
)

// repro is the binary under test, built once by TestMain.
var repro string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "repro-test-")
	if err != nil {
		panic(err)
	}
	repro = filepath.Join(dir, "repro")
	if out, err := exec.Command("go", "build", "-o", repro, ".").CombinedOutput(); err != nil {
		panic("building repro: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	if baselineOnce.dir != "" {
		os.RemoveAll(filepath.Dir(baselineOnce.dir))
	}
	os.Exit(code)
}

func runRepro(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runReproIn(t, "", args...)
}

// runReproIn runs repro with args in the working directory dir ("": the
// test's).
func runReproIn(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(repro, args...)
	cmd.Dir = dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// TestBadInput checks that every kind of bad input exits with status 2 and
// one line saying what is wrong, and writes nothing.
func TestBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string // a part of the message
	}{
		{[]string{"solve", "-J", "0"}, "J >= 1"},
		{[]string{"solve", "-J", "1,0,20"}, "J >= 1"},
		{[]string{"solve", "-J", "abc"}, "bad -J"},
		{[]string{"solve", "-K", "0"}, "K"},
		{[]string{"solve", "-K", "-3"}, "K"},
		{[]string{"solve", "-K", "twelve"}, "invalid value"},
		{[]string{"solve", "-delta", "0"}, "delta"},
		{[]string{"solve", "-delta", "-1"}, "delta"},
		{[]string{"solve", "-R", "0"}, "R"},
		{[]string{"solve", "-R", "x"}, "invalid value"},
		{[]string{"solve", "-omega0", "nan"}, "omega0"},
		{[]string{"solve", "-omega0", "1"}, "under-damped"},
		{[]string{"solve", "-seed", "-1"}, "seed"},
		{[]string{"solve", "-seed", "1.5"}, "invalid value"},
		{[]string{"solve", "-iters", "0"}, "positive"},
		{[]string{"solve", "-problem", "wave"}, "unknown problem"},
		{[]string{"solve", "-model", "cnn"}, "unknown model"},
		{[]string{"solve", "-problem", "laplace", "-omega0", "80"}, "-omega0 applies to -problem oscillator"},
		{[]string{"solve", "-problem", "laplace", "-nomega", "9"}, "nomega"},
		{[]string{"solve", "-bogus"}, "flag provided but not defined"},
		{[]string{"solve", "-model", "fbpinn", "-cond"}, "drop -cond"},
		{[]string{"solve", "-model", "pinn", "-width", "0"}, "width"},
		{[]string{"solve", "extra"}, "unexpected argument"},
		{[]string{"run", "-table", "nope"}, "unknown table"},
		{[]string{"run", "-tier", "medium"}, "unknown tier"},
		{[]string{"run", "-seeds", "a,b"}, "bad seed list"},
		{[]string{"run", "-seeds", "3-1"}, "bad seed list"},
		{[]string{"run", "-seeds", "-1"}, "bad seed list"},
		{[]string{"run", "-seeds", "0-99999999"}, "more than 10000 values"},
		{[]string{"run", "-seeds", "0-9223372036854775807"}, "more than 10000 values"},
		{[]string{"run", "-seeds", "0-99999999999999999999"}, "bad seed list"},
		{[]string{"run", "-model", "cnn"}, "unknown model"},
		{[]string{"run", "-table", "osc-K", "-where", "K=7"}, "available: K=2, K=4, K=8, K=16, K=32, K=64"},
		{[]string{"run", "-where", "k=7"}, "unknown key"},
		{[]string{"run", "-tier", "quick", "-table", "laplace-K"}, "no runs in the quick tier"},
		{[]string{"report", "-table", "osc-J", "-model", "pinn"}, "available: elm, fbpinn"},
		{[]string{"list", "-where", "problem=wave"}, "unknown problem"},
		{[]string{"list", "-tier", "quick", "-table", "weight-scaling", "-where", "problem=laplace"}, "available: problem=oscillator"},
		{[]string{"run", "-jobs", "-2"}, "-jobs"},
		{[]string{"run", "-jobs", "4096"}, "-oversubscribe"},
		{[]string{"report", "-table", "osc-X"}, "unknown table"},
		{[]string{"list", "-tier", "x"}, "unknown tier"},
		{[]string{"frobnicate"}, "unknown command"},
		// A repeated flag would silently keep only its last value.
		{[]string{"run", "-where", "K=8", "-where", "J=4"}, "flag -where: given twice"},
		{[]string{"list", "-tier", "quick", "-tier", "full"}, "flag -tier: given twice"},
		{[]string{"report", "-latex-paper", "-latex-paper"}, "flag latex-paper: given twice"},
	}
	for i, tc := range cases {
		dir := t.TempDir()
		args := tc.args
		if args[0] == "run" || args[0] == "report" {
			args = append(args, "-results", filepath.Join(dir, "results"))
		}
		if args[0] == "report" {
			args = append(args, "-out", filepath.Join(dir, "report"))
		}
		checkUsageError(t, fmt.Sprintf("case %d (%v)", i, tc.args), dir, tc.want, args...)
	}
}

// TestResultAndOutDirs checks that the commands that read results refuse a
// -results that names no directory (a misspelt one would read as nothing
// run yet), that report and publish refuse an -out that is empty (the
// current directory) or a file, and a few flags whose zero once meant
// "unset": each with status 2, one line and nothing written.
func TestResultAndOutDirs(t *testing.T) {
	fixtures := t.TempDir()
	file, res := filepath.Join(fixtures, "file"), filepath.Join(fixtures, "results")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(res, 0o755); err != nil {
		t.Fatal(err)
	}
	nope := filepath.Join(fixtures, "nope")
	sel := []string{"-tier", "quick", "-table", "osc-K"}
	cases := []struct {
		cmd  string
		args []string // after sel
		want string
	}{
		{"report", []string{"-results", nope, "-out", "rep"}, "result directory " + nope + ": no such file or directory"},
		{"report", []string{"-results", file, "-out", "rep"}, "neither a directory nor a result archive"},
		{"report", []string{"-results", "", "-out", "rep"}, "flag -results: empty"},
		{"report", []string{"-results", res, "-out", ""}, "flag -out: empty"},
		{"report", []string{"-results", res, "-out", file}, "is a file, not a directory"},
		{"publish", []string{"-results", nope, "-out", "pub"}, "no such file or directory"},
		{"publish", []string{"-results", res, "-out", ""}, "flag -out: empty"},
		{"list", []string{"-results", file}, "neither a directory nor a result archive"},
		{"run", []string{"-results", ""}, "flag -results: empty"},
		{"solve", []string{"-model", "pinn", "-steps", "0"}, "positive"},
		{"solve", []string{"-model", "fbpinn", "-steps", "-5"}, "positive"},
		{"solve", []string{"-progress", "-1s"}, "-progress -1s must not be negative"},
	}
	for i, tc := range cases {
		args := []string{tc.cmd}
		if tc.cmd != "solve" {
			args = append(args, sel...)
		}
		args = append(args, tc.args...)
		checkUsageError(t, fmt.Sprintf("case %d (%v)", i, args), t.TempDir(), tc.want, args...)
	}
	// list on a directory that does not exist yet lists nothing done and
	// says so, with status 0: a fresh clone has no results/.
	stdout, stderr, code := runReproIn(t, t.TempDir(), "list", "-tier", "quick", "-results", nope)
	if code != 0 || !strings.Contains(stderr, "no result directory "+nope+" yet") || !strings.Contains(stdout, "osc-K") {
		t.Errorf("list on a missing directory: exit %d, stderr %q, stdout %q; want 0, a note and the tables", code, stderr, stdout)
	}
	// exec -h is help, not an error.
	if _, stderr, code := runRepro(t, "exec", "-h"); code != 0 {
		t.Errorf("exec -h: exit %d (%s), want 0", code, stderr)
	}
}

// checkUsageError runs repro with args and checks that it exits with status
// 2, prints one line containing want to standard error and nothing to
// standard output, and leaves dir empty.
func checkUsageError(t *testing.T, name, dir, want string, args ...string) {
	t.Helper()
	stdout, stderr, code := runReproIn(t, dir, args...)
	if code != 2 {
		t.Errorf("%s: exit status %d, want 2 (stderr %q)", name, code, stderr)
	}
	if lines := strings.Count(strings.TrimRight(stderr, "\n"), "\n") + 1; lines != 1 || !strings.Contains(stderr, want) {
		t.Errorf("%s: stderr %q, want one line containing %q", name, stderr, want)
	}
	if stdout != "" {
		t.Errorf("%s: wrote %q to stdout, want nothing", name, stdout)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%s: created %d entries in the work directory, want none", name, len(entries))
	}
}

// TestSolveJSON checks the keys of 'repro solve -json' on a small oscillator.
func TestSolveJSON(t *testing.T) {
	stdout, stderr, code := runRepro(t, "solve", "-problem", "oscillator", "-model", "elm",
		"-omega0", "20", "-J", "1,2,4", "-K", "6", "-iters", "300", "-cond", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, stdout)
	}
	for _, k := range []string{"eL1", "eL1_final", "time_s", "rows", "cols", "nnz", "kappa", "result"} {
		if _, ok := out[k]; !ok {
			t.Errorf("key %q missing from %v", k, out)
		}
	}
	// (1 + 2 + 4) subdomains × (K + 1) columns; (K + 1) · 4 collocation
	// points + 2 initial conditions.
	if got, want := out["cols"], float64(7*7); got != want {
		t.Errorf("cols = %v, want %v", got, want)
	}
	if got, want := out["rows"], float64(7*4+2); got != want {
		t.Errorf("rows = %v, want %v", got, want)
	}
	if e := out["eL1"].(float64); !(e > 0 && e <= out["eL1_final"].(float64)) {
		t.Errorf("eL1 = %v should be positive and at most eL1_final = %v", e, out["eL1_final"])
	}
}

// TestSolveSolverOpts checks solve's solver options: they reach the run's
// Spec (and so its key) only when set, a stopping block solve says where it
// stopped, every record carries its time, and an option the solver does not
// take is refused with exit status 2 and one line.
func TestSolveSolverOpts(t *testing.T) {
	args := []string{"solve", "-problem", "oscillator", "-omega0", "20", "-J", "1,2,4", "-K", "6", "-iters", "2000", "-json"}
	type out struct {
		Result experiments.Result `json:"result"`
	}
	cases := []struct {
		flags []string
		want  *experiments.SolverOpts
	}{
		{[]string{"-solver", "lsqr-block"}, nil},
		{[]string{"-solver", "lsqr-block", "-tau", "1e-8"}, nil}, // the default, spelt out: the same run
		{[]string{"-solver", "lsqr-block", "-tau", "1e-10", "-stop", "-atol", "1e-9"}, &experiments.SolverOpts{Tau: 1e-10, Stop: true, ATol: 1e-9}},
		{[]string{"-solver", "lsqr-stop", "-conlim", "1e300"}, &experiments.SolverOpts{ConLim: 1e300}},
		{[]string{"-solver", "lsqr-block", "-heldout", "-patience", "3"}, &experiments.SolverOpts{HeldOut: true, Patience: 3}},
	}
	for i, tc := range cases {
		stdout, stderr, code := runRepro(t, append(slices.Clone(args), tc.flags...)...)
		if code != 0 {
			t.Fatalf("case %d %v: exit %d: %s", i, tc.flags, code, stderr)
		}
		var o out
		if err := json.Unmarshal([]byte(stdout), &o); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		got := o.Result.Spec.SolverOpts
		if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("case %d %v: solver options %+v, want %+v", i, tc.flags, got, tc.want)
		}
		h, e := o.Result.History, o.Result.Elapsed
		if len(h) == 0 || len(e) != len(h) || !(e[len(e)-1] > 0) {
			t.Errorf("case %d %v: history %+v, elapsed %v; want a positive time at the last record", i, tc.flags, h, e)
		}
		if stops := tc.want != nil; stops && h[len(h)-1].Iter >= 2000 {
			t.Errorf("case %d %v: ran to iteration %d (%s), want an earlier stop", i, tc.flags, h[len(h)-1].Iter, o.Result.Status)
		}
	}
	_, stderr, code := runRepro(t, append(slices.Clone(args), "-solver", "lsqr-scaled", "-tau", "1e-3")...)
	if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "tau applies to lsqr-block") {
		t.Errorf("-tau with lsqr-scaled: exit %d, %q; want 2 and one line", code, stderr)
	}
}

// TestSolveProgress: solve -progress prints the run's progress on stderr
// (here every record: 300 LSQR iterations, a record every 100), the history
// as the result holds it, and -progress 0 prints none.
func TestSolveProgress(t *testing.T) {
	args := []string{"solve", "-problem", "oscillator", "-omega0", "20", "-J", "1,2,4", "-K", "6", "-iters", "300", "-json"}
	stdout, stderr, code := runRepro(t, append(args, "-progress", "1ns")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct{ Result experiments.Result }
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, stdout)
	}
	var want []string
	for _, r := range out.Result.History {
		if r.Iter > 0 { // iteration 0's record may come within 1 ns of the start; the others are each a solve's 100 iterations apart
			want = append(want, fmt.Sprintf("repro solve: iteration %d/300: test e_L1 %.3e (best ", r.Iter, r.EL1))
		}
	}
	if len(want) != 3 {
		t.Fatalf("history %v, want records at 0, 100, 200, 300", out.Result.History)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	if _, stderr, code := runRepro(t, append(args, "-progress", "0")...); code != 0 || strings.Contains(stderr, "iteration") {
		t.Errorf("-progress 0: exit %d, stderr %q; want no progress", code, stderr)
	}
}

// TestExecProgress: exec -progress 1ns writes one line per record of the
// run's history to stdout, with the least error so far by metric.Best's
// rule, which progressLines reads back (as repro run does), even when the
// lines arrive cut in pieces; other lines, and a line too long to be one of
// ours, are ignored.
func TestExecProgress(t *testing.T) {
	dir := t.TempDir()
	s := experiments.Spec{Problem: experiments.Oscillator, Model: experiments.ELM, Param: 20, J: []int{1, 2, 4}, K: 6, Delta: 2.9, R: 1, Iters: 250, Seed: 0}
	spec, _ := json.Marshal(s)
	cmd := exec.Command(repro, "exec", "-results", dir, "-progress", "1ns")
	cmd.Stdin = bytes.NewReader(spec)
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("exec -progress: %v", err)
	}
	res, ok, err := experiments.Load(dir, s)
	if err != nil || !ok {
		t.Fatalf("no result: %v", err)
	}
	var got []string
	w := &progressLines{report: func(r progressReport) {
		got = append(got, fmt.Sprintf("%d/%d %g %g", r.Iter, r.Iters, r.EL1, r.Best))
	}}
	long := "\n" + fmt.Sprintf(progressLine, 1, 2, 3.0, 4.0) + strings.Repeat(" ", 5000) + "\n"
	in := append([]byte("noise"+long), stdout...)
	for len(in) > 0 { // in pieces of 7 bytes
		n := min(7, len(in))
		w.Write(in[:n])
		in = in[n:]
	}
	var want []string
	for i, r := range res.History {
		best, _ := metric.Best(res.History[:i+1])
		want = append(want, fmt.Sprintf("%d/%d %g %g", r.Iter, s.Iters, r.EL1, best.EL1))
	}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("progress read back: %v\nwant the history: %v\nstdout: %q", got, want, stdout)
	}
}

// TestRunResumesAfterKill kills 'repro run' with SIGKILL while it runs, then
// runs it again: the second call must run only the missing runs, keep every
// finished result unchanged and leave the full set; each run is pinned to one
// CPU with GOMAXPROCS=1.
func TestRunResumesAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a table twice")
	}
	dir := filepath.Join(t.TempDir(), "results")
	// Two runs at once where two cores are usable (more would be refused
	// as contended).
	jobs := strconv.Itoa(min(2, len(allowedCPUs())))
	args := []string{"run", "-table", "osc-J", "-tier", "quick", "-jobs", jobs, "-results", dir}
	cmd := exec.Command(repro, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for countResults(t, dir) < 10 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no 10 results within 2 minutes")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	time.Sleep(200 * time.Millisecond) // children die by Pdeathsig
	before := snapshot(t, dir)
	tables, _ := experiments.Lookup("osc-J")
	runs, _ := tables[0].Runs(experiments.QuickTier)
	if len(before) >= len(runs) {
		t.Fatalf("the run finished (%d results) before it was killed; the test needs a longer table", len(before))
	}

	_, stderr, code := runRepro(t, args...)
	if code != 0 {
		t.Fatalf("second run: exit %d: %s", code, stderr)
	}
	after := snapshot(t, dir)
	if len(after) != len(runs) {
		t.Errorf("%d results after the rerun, want %d", len(after), len(runs))
	}
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Errorf("result %s changed on the rerun", name)
		}
	}
	if want := "already done"; !strings.Contains(stderr, want) {
		t.Errorf("second run's output %q does not say which runs were done", stderr)
	}
	ran := strings.Count(stderr, "] ok ")
	if ran != len(runs)-len(before) {
		t.Errorf("second run ran %d runs, want the %d missing ones", ran, len(runs)-len(before))
	}
	checkOneCore(t, after)
}

// checkOneCore checks that every result file ran with GOMAXPROCS=1 on one CPU.
func checkOneCore(t *testing.T, results map[string][]byte) {
	t.Helper()
	for name, b := range results {
		var r experiments.Result
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Env.GOMAXPROCS != 1 || len(r.Env.Affinity) != 1 {
			t.Errorf("%s: ran with GOMAXPROCS=%d on CPUs %v, want 1 on one CPU", name, r.Env.GOMAXPROCS, r.Env.Affinity)
		}
	}
}

func countResults(t *testing.T, dir string) int { return len(snapshot(t, dir)) }

// snapshot returns the result files (not temporaries) of dir by name.
func snapshot(t *testing.T, dir string) map[string][]byte {
	out := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if experiments.IsTemp(e.Name()) || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

// TestHelpSynopses: every command's -h synopsis names every flag the
// command takes (the flags listed below it), and repro version says what
// a result would record.
func TestHelpSynopses(t *testing.T) {
	flagLine := regexp.MustCompile(`(?m)^  -([A-Za-z0-9-]+)`)
	for _, cmd := range []string{"list", "run", "report", "solve", "slurm", "digest", "compare", "publish", "export", "version"} {
		out, _, code := runRepro(t, cmd, "-h")
		if code != 0 {
			t.Errorf("repro %s -h: exit %d", cmd, code)
			continue
		}
		synopsis, _, _ := strings.Cut(out, "\n")
		named := map[string]bool{}
		for _, f := range regexp.MustCompile(`-([A-Za-z0-9-]+)`).FindAllStringSubmatch(synopsis, -1) {
			named[f[1]] = true
		}
		for _, f := range flagLine.FindAllStringSubmatch(out, -1) {
			if !named[f[1]] {
				t.Errorf("repro %s -h: the synopsis %q leaves out -%s", cmd, synopsis, f[1])
			}
		}
	}
	out, _, code := runRepro(t, "version")
	if code != 0 || !strings.Contains(out, "numerics: "+experiments.Fingerprints()) || !strings.Contains(out, "kernels: "+experiments.KernelPath()) {
		t.Errorf("repro version: exit %d\n%s", code, out)
	}
}

package main

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"elmfbpinn/experiments"
)

// TestRunUnwritable: a -results that is not a writable directory stops run
// before any run starts, with one line and exit status 3, within a second.
func TestRunUnwritable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, results, want string
		skip                string
	}{
		{"a file", file, "is not a directory", ""},
		{"under a file", filepath.Join(file, "results"), "not a directory", ""},
		{"read-only directory", ro, "permission denied", rootSkip()},
		{"under a read-only directory", filepath.Join(ro, "results"), "permission denied", rootSkip()},
		// Even root cannot create files in sysfs: the read-only case
		// where permissions do not bite.
		{"sysfs", "/sys/kernel", "not writable", sysfsSkip()},
	}
	for i, tc := range cases {
		if tc.skip != "" {
			t.Logf("case %d (%s): skipped: %s", i, tc.name, tc.skip)
			continue
		}
		start := time.Now()
		stdout, stderr, code := runRepro(t, "run", "-table", "osc-baseline", "-tier", "quick", "-results", tc.results)
		el := time.Since(start)
		if code != exitStorage || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("case %d (%s): exit %d, stdout %q, stderr %q; want status %d and one line containing %q", i, tc.name, code, stdout, stderr, exitStorage, tc.want)
		}
		if el > time.Second {
			t.Errorf("case %d (%s): took %v, want under a second", i, tc.name, el)
		}
	}
	if entries, _ := os.ReadDir(ro); len(entries) != 0 {
		t.Errorf("%d entries left in the read-only directory", len(entries))
	}
}

func rootSkip() string {
	if os.Geteuid() == 0 {
		return "running as root: permissions do not bite"
	}
	return ""
}

func sysfsSkip() string {
	f, err := os.CreateTemp("/sys/kernel", ".probe-*")
	if err == nil {
		f.Close()
		os.Remove(f.Name())
		return "/sys/kernel is writable here"
	}
	if _, err := os.Stat("/sys/kernel"); err != nil {
		return "no /sys/kernel"
	}
	return ""
}

// TestRunConcurrent starts two runners together on one directory: every run
// is made exactly once (the runners' "ok" lines add up to the number of
// runs, each run's child made by one of them), the other runner counts it
// as done by another, and both finish with the whole set.
func TestRunConcurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a table")
	}
	dir := filepath.Join(t.TempDir(), "results")
	args := []string{"run", "-table", "osc-baseline", "-tier", "quick", "-jobs", "1", "-results", dir}
	var outs [2]bytes.Buffer
	var cmds [2]*exec.Cmd
	for i := range cmds {
		cmds[i] = exec.Command(repro, args...)
		cmds[i].Stderr = &outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	ran := 0
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("runner %d: %v\n%s", i, err, outs[i].String())
		}
		ok := strings.Count(outs[i].String(), "] ok ")
		other := strings.Count(outs[i].String(), "done by another runner")
		t.Logf("runner %d made %d runs, %d were made by the other", i, ok, other)
		ran += ok
	}
	tables, _ := experiments.Lookup("osc-baseline")
	runs, _ := tables[0].Runs(experiments.QuickTier)
	fig, _ := experiments.SolutionRuns(tables, experiments.QuickTier) // the solution figure's run
	runs = append(runs, fig...)
	if ran != len(runs) {
		t.Errorf("the runners made %d runs together, want each of the %d exactly once", ran, len(runs))
	}
	if n := countResults(t, dir); n != len(runs) {
		t.Errorf("%d results, want %d", n, len(runs))
	}
}

// twoFinishedRuns runs the oscillator baseline's ELM-FBPINN with seeds 0
// and 1 (quick tier) into a new results directory and returns it, the
// selection's flags and the two runs.
func twoFinishedRuns(t *testing.T) (dir string, sel []string, s0, s1 experiments.Spec) {
	t.Helper()
	dir = t.TempDir()
	sel = []string{"-table", "osc-baseline", "-tier", "quick", "-model", "elm", "-seeds", "0,1", "-jobs", "1", "-results", dir}
	if _, stderr, code := runRepro(t, append([]string{"run"}, sel...)...); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	tables, _ := experiments.Lookup("osc-baseline")
	var row experiments.Row
	for _, r := range tables[0].Rows {
		if r.Model == experiments.ELM {
			row = r
		}
	}
	return dir, sel, row.Spec(0), row.Spec(1)
}

// TestRunRetime: a finished run timed contended (env.contended) is made
// again by run -retime, with the same numbers and a clean time, and left
// alone by a plain run; a run timed cleanly is left alone by both.
func TestRunRetime(t *testing.T) {
	dir, sel, s0, s1 := twoFinishedRuns(t)
	before, _, err := experiments.Load(dir, s0)
	if err != nil {
		t.Fatal(err)
	}
	// Mark seed 0's result contended, as a run sharing its core records,
	// and seed 1's clean (the test's runs may themselves have shared a core).
	// The share marked has more digits than a run records (three), so that
	// a run made again, even while sharing its core, cannot record it.
	marked := *before
	marked.Env.Contended, marked.Env.CPUShare = true, 0.5001
	if err := experiments.Save(dir, &marked); err != nil {
		t.Fatal(err)
	}
	r1, _, err := experiments.Load(dir, s1)
	if err != nil {
		t.Fatal(err)
	}
	r1.Env.Contended, r1.Env.CPUShare = false, 1
	if err := experiments.Save(dir, r1); err != nil {
		t.Fatal(err)
	}
	clean1, _ := os.ReadFile(experiments.Path(dir, s1))
	if _, stderr, code := runRepro(t, append([]string{"run"}, sel...)...); code != 0 || !strings.Contains(stderr, "0 to run") {
		t.Fatalf("plain run: exit %d, want nothing to run: %s", code, stderr)
	}
	_, stderr, code := runRepro(t, append([]string{"run", "-retime"}, sel...)...)
	if code != 0 || !strings.Contains(stderr, "1 finished runs were timed contended or on another CPU") || !strings.Contains(stderr, "1 to run") {
		t.Fatalf("run -retime: exit %d, want the contended run made again: %s", code, stderr)
	}
	after, _, err := experiments.Load(dir, s0)
	if err != nil {
		t.Fatal(err)
	}
	if after.Env.CPUShare == 0.5001 || after.Env.Started == "" {
		t.Errorf("seed 0 not made again: env %+v", after.Env)
	}
	if math.Float64bits(after.EL1) != math.Float64bits(before.EL1) || len(after.History) != len(before.History) {
		t.Errorf("made again, e_L1 %x, want the same bits %x", after.EL1, before.EL1)
	}
	if now, _ := os.ReadFile(experiments.Path(dir, s1)); !bytes.Equal(now, clean1) {
		t.Errorf("the cleanly timed seed 1 was rewritten by -retime")
	}
}

// TestRunRetimeCPU: -retime-cpu makes again the finished runs made on
// another CPU (same bits, this machine's CPU recorded) and leaves those made
// here.
func TestRunRetimeCPU(t *testing.T) {
	dir, sel, s0, s1 := twoFinishedRuns(t)
	before, _, err := experiments.Load(dir, s0)
	if err != nil {
		t.Fatal(err)
	}
	moved := *before
	moved.Env.CPU = "Another CPU"
	if before.Env.Machine == nil {
		t.Fatal("a new result records no machine")
	}
	other := *before.Env.Machine
	other.Model++ // another kind of core of the same vendor and family
	moved.Env.Machine = &other
	if err := experiments.Save(dir, &moved); err != nil {
		t.Fatal(err)
	}
	here, _ := os.ReadFile(experiments.Path(dir, s1))
	_, stderr, code := runRepro(t, append([]string{"run", "-retime-cpu"}, sel...)...)
	if code != 0 || !strings.Contains(stderr, "1 finished runs were timed contended or on another CPU") || !strings.Contains(stderr, "1 to run") {
		t.Fatalf("run -retime-cpu: exit %d, want the other CPU's run made again: %s", code, stderr)
	}
	after, _, err := experiments.Load(dir, s0)
	if err != nil {
		t.Fatal(err)
	}
	if after.Env.CPU != cpuModel() {
		t.Errorf("seed 0 made again on %q, want this machine's %q", after.Env.CPU, cpuModel())
	}
	if math.Float64bits(after.EL1) != math.Float64bits(before.EL1) {
		t.Errorf("made again, e_L1 %x, want the same bits %x", after.EL1, before.EL1)
	}
	if now, _ := os.ReadFile(experiments.Path(dir, s1)); !bytes.Equal(now, here) {
		t.Errorf("seed 1, made on this CPU, was rewritten by -retime-cpu")
	}
}

// TestRunSaysContended: a run whose results are timed contended (here:
// -oversubscribe, more runs at once than cores) ends by saying how many and
// that -retime times them again.
func TestRunSaysContended(t *testing.T) {
	dir := t.TempDir()
	_, stderr, code := runRepro(t, "run", "-table", "osc-baseline", "-tier", "quick", "-model", "elm", "-seeds", "0",
		"-jobs", "4096", "-oversubscribe", "-results", dir)
	if code != 0 || !strings.Contains(stderr, "1 of the 1 runs were timed sharing their core") || !strings.Contains(stderr, "-retime") {
		t.Errorf("run -oversubscribe: exit %d, want the contended run said: %s", code, stderr)
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"elmfbpinn/experiments"
)

// The tests in this file run against a real Slurm cluster. They are skipped
// unless REPRO_SLURM_TEST=1: scripts/slurm-test.sh (make slurm-test) brings
// up a single-node cluster, sets SLURM_CONF and runs them.

func needSlurm(t *testing.T) {
	t.Helper()
	if os.Getenv("REPRO_SLURM_TEST") != "1" {
		t.Skip("needs a Slurm cluster: run make slurm-test")
	}
	for _, c := range []string{"sbatch", "squeue", "scancel", "scontrol"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Fatalf("REPRO_SLURM_TEST=1 but %s is not on the PATH", c)
		}
	}
}

// slurmCmd runs a Slurm command and returns its standard output.
func slurmCmd(t *testing.T, name string, args ...string) string {
	t.Helper()
	var o, e bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, e.String())
	}
	return o.String()
}

// cancelAtEnd cancels the jobs when the test ends, so that a failed test
// leaves nothing running in its temporary directory.
func cancelAtEnd(t *testing.T, ids ...string) {
	t.Cleanup(func() {
		if out, _ := exec.Command("squeue", "-h", "-o", "%i", "-j", strings.Join(ids, ",")).Output(); len(bytes.TrimSpace(out)) > 0 {
			exec.Command("scancel", ids...).Run()
			waitJobs(t, 30*time.Second, ids...)
		}
	})
}

// waitJobs waits until none of the jobs (and none of their array tasks) is
// pending or running, at most d; it returns false on the timeout.
func waitJobs(t *testing.T, d time.Duration, ids ...string) bool {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		out, err := exec.Command("squeue", "-h", "-o", "%i %T", "-j", strings.Join(ids, ",")).Output()
		if err == nil && len(bytes.TrimSpace(out)) == 0 {
			return true
		}
		time.Sleep(500 * time.Millisecond)
	}
	return false
}

var stateRE = regexp.MustCompile(`(?m)^JobId=(\d+) (?:ArrayJobId=\d+ ArrayTaskId=(\d+) )?.*?JobState=(\S+)`)

// jobStates returns the state of each task of a job (by array task id, or
// "" for a job that is not an array).
func jobStates(t *testing.T, id string) map[string]string {
	t.Helper()
	out := slurmCmd(t, "scontrol", "show", "job", "-o", id)
	states := map[string]string{}
	for _, m := range stateRE.FindAllStringSubmatch(out, -1) {
		states[m[2]] = m[3]
	}
	if len(states) == 0 {
		t.Fatalf("scontrol show job %s: no JobState in %q", id, out)
	}
	return states
}

// slurmScripts runs 'repro slurm' in dir and returns the paths of the array
// script and the submit script.
func slurmScripts(t *testing.T, dir, name, table string, shards int) (array, submit string) {
	t.Helper()
	array = filepath.Join(dir, "job", name+".sbatch")
	cmd := exec.Command(repro, "slurm", "-table", table, "-tier", "quick", "-shards", fmt.Sprint(shards),
		"-results", "results", "-report-out", "report", "-out", array, "-time", "10", "-mem", "500M", "-name", name)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("repro slurm: %v\n%s", err, out)
	} else {
		t.Logf("repro slurm: %s", out)
	}
	return array, filepath.Join(dir, "job", name+".submit.sh")
}

// taskLogs returns the logs of the tasks of an array job by task id.
func taskLogs(t *testing.T, dir, name, job string) map[string]string {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(dir, "job", "slurm-logs", name+"-"+job+"_*.out"))
	out := map[string]string{}
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		task := strings.TrimSuffix(l[strings.LastIndexByte(l, '_')+1:], ".out")
		out[task] = string(b)
	}
	return out
}

func dumpLogs(t *testing.T, dir string) {
	logs, _ := filepath.Glob(filepath.Join(dir, "job", "slurm-logs", "*.out"))
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		t.Logf("%s:\n%s", filepath.Base(l), b)
	}
}

// TestSlurmArray submits the quick tier of osc-baseline as a 2-task array
// with its report job, as 'repro slurm' writes them, and checks that each
// task ran its shard on one core bound by Slurm, and that the merged results
// and report have the same runs, rows and e_L1 as a local run's.
func TestSlurmArray(t *testing.T) {
	needSlurm(t)
	dir := t.TempDir()
	const name, table = "osc", "osc-baseline"
	_, submit := slurmScripts(t, dir, name, table, 2)
	start := time.Now()
	out := slurmCmd(t, "sh", submit)
	var array, report string
	if _, err := fmt.Sscanf(strings.TrimSpace(out), "array_job=%s report_job=%s", &array, &report); err != nil {
		t.Fatalf("submit script printed %q: %v", out, err)
	}
	cancelAtEnd(t, array, report)
	t.Logf("submitted array job %s and report job %s", array, report)
	if !waitJobs(t, 4*time.Minute, array, report) {
		dumpLogs(t, dir)
		t.Fatalf("jobs %s, %s not done within 4 minutes", array, report)
	}
	t.Logf("array and report done in %.1fs", time.Since(start).Seconds())
	states := jobStates(t, array)
	if len(states) != 2 || states["0"] != "COMPLETED" || states["1"] != "COMPLETED" {
		dumpLogs(t, dir)
		t.Fatalf("array tasks ended %v, want tasks 0 and 1 COMPLETED", states)
	}
	if st := jobStates(t, report); st[""] != "COMPLETED" {
		dumpLogs(t, dir)
		t.Fatalf("report job ended %v, want COMPLETED", st)
	}

	// Each task ran its own shard, knew it was inside Slurm, on one core.
	logs := taskLogs(t, dir, name, array)
	total := 0
	for task, log := range logs {
		if !strings.Contains(log, "shard "+task+"/2: ") {
			t.Errorf("task %s's log does not name shard %s/2:\n%s", task, task, log)
		}
		if !regexp.MustCompile(`in Slurm job \d+_` + task + `: using Slurm's core binding \(CPUs \d+\), not pinning again`).MatchString(log) {
			t.Errorf("task %s did not run on one core bound by Slurm:\n%s", task, log)
		}
		total += strings.Count(log, "] ok ")
	}
	if len(logs) != 2 {
		t.Errorf("%d task logs, want 2", len(logs))
	}
	slurmRes := snapshot(t, filepath.Join(dir, "results"))
	if total != len(slurmRes) {
		t.Errorf("tasks ran %d runs, the results directory has %d", total, len(slurmRes))
	}
	checkOneCore(t, slurmRes)

	// The same tier run locally.
	local := filepath.Join(dir, "local")
	if _, stderr, code := runRepro(t, "run", "-table", table, "-tier", "quick", "-results", local); code != 0 {
		t.Fatalf("local run: exit %d: %s", code, stderr)
	}
	if _, stderr, code := runRepro(t, "report", "-table", table, "-tier", "quick", "-results", local, "-out", local+"-report"); code != 0 {
		t.Fatalf("local report: exit %d: %s", code, stderr)
	}
	compareResults(t, slurmRes, snapshot(t, local))
	a := reportErrors(t, filepath.Join(dir, "report", table+".md"))
	b := reportErrors(t, filepath.Join(local+"-report", table+".md"))
	if !slices.Equal(a, b) {
		t.Errorf("the Slurm report's rows differ from the local one's:\nslurm:\n%s\nlocal:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	t.Logf("report rows (without times), Slurm and local alike:\n%s", strings.Join(a, "\n"))
}

// compareResults checks that two result sets have the same runs with
// bit-identical errors.
func compareResults(t *testing.T, got, want map[string][]byte) {
	t.Helper()
	if k1, k2 := slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)); !slices.Equal(k1, k2) {
		t.Fatalf("result sets differ:\n got %v\nwant %v", k1, k2)
	}
	for name := range want {
		var a, b experiments.Result
		if err := json.Unmarshal(got[name], &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want[name], &b); err != nil {
			t.Fatal(err)
		}
		if a.EL1 != b.EL1 || a.EL1Final != b.EL1Final || a.BestIter != b.BestIter {
			t.Errorf("%s (%s): eL1 %v (final %v, iter %d), want %v (final %v, iter %d) as run locally",
				name, a.Spec, a.EL1, a.EL1Final, a.BestIter, b.EL1, b.EL1Final, b.BestIter)
		}
	}
}

// reportErrors returns the rows of the table in a Markdown report without
// the columns of times (which differ from run to run).
func reportErrors(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	var keep []bool
	for line := range strings.Lines(string(b)) {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if keep == nil { // the header
			for _, c := range cells {
				c = strings.TrimSpace(c)
				keep = append(keep, !strings.HasPrefix(c, "time") && !strings.HasPrefix(c, "speed-up"))
			}
		}
		var row []string
		for i, c := range cells {
			if i < len(keep) && keep[i] {
				row = append(row, strings.TrimSpace(c))
			}
		}
		rows = append(rows, strings.Join(row, " | "))
	}
	if len(rows) < 3 || !strings.Contains(rows[0], "e_L1 ours") {
		t.Fatalf("%s: no table with an e_L1 column:\n%s", path, b)
	}
	return rows
}

// TestSlurmKillResubmit submits the quick tier of osc-J as a 2-task array,
// cancels task 1 after it has finished some runs, then resubmits the whole
// array: the result set must end complete, every file whole and named by
// its spec's key, no result of the first submission rewritten, and the
// second submission must run exactly the missing runs.
func TestSlurmKillResubmit(t *testing.T) {
	needSlurm(t)
	dir := t.TempDir()
	const name, table = "oscj", "osc-J"
	arrayScript, _ := slurmScripts(t, dir, name, table, 2)
	results := filepath.Join(dir, "results")
	tabs, _ := experiments.Lookup(table)
	runs, _ := tabs[0].Runs(experiments.QuickTier)
	want := map[string]bool{}
	for _, r := range runs {
		want[r.Spec.Key()+".json"] = true
	}

	first := strings.TrimSpace(slurmCmd(t, "sbatch", "--parsable", arrayScript))
	cancelAtEnd(t, first)
	task1 := first + "_1"
	deadline := time.Now().Add(3 * time.Minute)
	for {
		log := taskLogs(t, dir, name, first)["1"]
		if n := strings.Count(log, "] ok "); n >= 3 {
			slurmCmd(t, "scancel", task1)
			t.Logf("cancelled task %s after %d runs", task1, n)
			break
		}
		if time.Now().After(deadline) {
			dumpLogs(t, dir)
			t.Fatalf("task %s finished no 3 runs within 3 minutes", task1)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !waitJobs(t, 3*time.Minute, first) {
		dumpLogs(t, dir)
		t.Fatalf("array job %s not done within 3 minutes", first)
	}
	states := jobStates(t, first)
	if states["0"] != "COMPLETED" || states["1"] != "CANCELLED" {
		dumpLogs(t, dir)
		t.Fatalf("first submission ended %v, want task 0 COMPLETED and task 1 CANCELLED", states)
	}
	before := checkStore(t, results, want, true)
	if len(before) >= len(want) {
		t.Fatalf("the cancelled task had already finished (%d of %d results); the test needs a longer table", len(before), len(want))
	}
	t.Logf("after the cancel: %d of %d results", len(before), len(want))
	log1 := taskLogs(t, dir, name, first)["1"]
	if !strings.Contains(log1, "repro run: terminated after") {
		t.Errorf("the cancelled task's log does not say it was terminated:\n%s", log1)
	}

	second := strings.TrimSpace(slurmCmd(t, "sbatch", "--parsable", arrayScript))
	cancelAtEnd(t, second)
	if !waitJobs(t, 3*time.Minute, second) {
		dumpLogs(t, dir)
		t.Fatalf("array job %s not done within 3 minutes", second)
	}
	if st := jobStates(t, second); st["0"] != "COMPLETED" || st["1"] != "COMPLETED" {
		dumpLogs(t, dir)
		t.Fatalf("resubmission ended %v, want both tasks COMPLETED", st)
	}
	after := checkStore(t, results, want, false)
	if len(after) != len(want) {
		t.Errorf("%d results after the resubmission, want %d", len(after), len(want))
	}
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Errorf("result %s was rewritten by the resubmission", name)
		}
	}
	ran := 0
	for task, log := range taskLogs(t, dir, name, second) {
		n := strings.Count(log, "] ok ")
		ran += n
		t.Logf("resubmitted task %s ran %d runs: %s", task, n, firstLine(log, "repro run: shard"))
	}
	if ran != len(want)-len(before) {
		t.Errorf("the resubmission ran %d runs, want the %d missing ones", ran, len(want)-len(before))
	}
	// repro's own view: nothing left to run.
	_, stderr, code := runRepro(t, "run", "-table", table, "-tier", "quick", "-results", results)
	if code != 0 || !strings.Contains(stderr, fmt.Sprintf("%d already done, 0 to run", len(want))) {
		t.Errorf("a local run after the resubmission (exit %d) says %q, want all %d done", code, stderr, len(want))
	}
}

// checkStore checks every file of a result directory: each result parses,
// is named by its spec's key and is one of want, and no temporary file is
// left unless temps (a cancelled task may leave one; readers ignore it and
// the next run of its shard removes it). It returns the results by name.
func checkStore(t *testing.T, dir string, want map[string]bool, temps bool) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		switch {
		case experiments.IsTemp(e.Name()) && temps:
			t.Logf("temporary file %s left by the cancelled task", e.Name())
		case experiments.IsTemp(e.Name()):
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
	out := snapshot(t, dir)
	for name, b := range out {
		var r experiments.Result
		if err := json.Unmarshal(b, &r); err != nil {
			t.Errorf("%s is not a whole result: %v", name, err)
			continue
		}
		if r.Key+".json" != name || r.Spec.Key()+".json" != name {
			t.Errorf("%s holds the result of key %s (spec key %s)", name, r.Key, r.Spec.Key())
		}
		if !want[name] {
			t.Errorf("%s is not a run of the table", name)
		}
	}
	return out
}

func firstLine(s, prefix string) string {
	for line := range strings.Lines(s) {
		if strings.HasPrefix(line, prefix) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

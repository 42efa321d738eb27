package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"elmfbpinn/experiments"
)

// tierSpecs returns the distinct specs of every table in a tier.
func tierSpecs(t *testing.T, tier string) []experiments.Spec {
	t.Helper()
	f := &runFlags{selectFlags: &selectFlags{tables: "all", tier: tier}, cells: experiments.DefaultKappaCells}
	p, err := f.plan()
	if err != nil {
		t.Fatal(err)
	}
	return p.specs
}

// splitCases are the sets of runs the split is checked on: the full tier is
// what a cluster runs (its 2D FBPINN and PINN runs are most of the cost); the
// quick tier is what the Slurm test runs.
var splitCases = []struct {
	name string
	tier string
}{
	{"full tier", experiments.Full},
	{"quick tier", experiments.QuickTier},
}

// TestSplitPartition checks that for n = 1..8 every run is in exactly one
// shard and the shards together are the whole set.
func TestSplitPartition(t *testing.T) {
	for _, c := range splitCases {
		specs := tierSpecs(t, c.tier)
		for n := 1; n <= 8; n++ {
			count := map[string]int{}
			total := 0
			for i := range n {
				part := shardOf(specs, shardSpec{i, n})
				total += len(part)
				for _, s := range part {
					count[s.Key()]++
				}
			}
			if total != len(specs) || len(count) != len(specs) {
				t.Errorf("%s, n=%d: shards hold %d runs (%d distinct), want the %d runs", c.name, n, total, len(count), len(specs))
			}
			for _, s := range specs {
				if count[s.Key()] != 1 {
					t.Errorf("%s, n=%d: %s is in %d shards, want 1", c.name, n, s, count[s.Key()])
				}
			}
		}
	}
}

// TestSplitStable checks that the split depends only on the set of runs:
// the same runs in any order give every run the same shard, and each shard
// keeps the order the runs were given in.
func TestSplitStable(t *testing.T) {
	specs := tierSpecs(t, experiments.Full)
	index := map[string]int{}
	for i, s := range specs {
		index[s.Key()] = i
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 8; n++ {
		ref, refLoad := split(specs, n)
		byKey := map[string]int{}
		for i, s := range specs {
			byKey[s.Key()] = ref[i]
		}
		for trial := range 3 {
			perm := slices.Clone(specs)
			rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
			got, load := split(perm, n)
			for i, s := range perm {
				if got[i] != byKey[s.Key()] {
					t.Fatalf("n=%d, shuffle %d: %s went to shard %d, want %d as unshuffled", n, trial, s, got[i], byKey[s.Key()])
				}
			}
			if !slices.Equal(load, refLoad) {
				t.Errorf("n=%d, shuffle %d: loads %v, want %v", n, trial, load, refLoad)
			}
		}
		for i := range n {
			var pos []int // the positions in specs of the shard's runs
			for _, s := range shardOf(specs, shardSpec{i, n}) {
				pos = append(pos, index[s.Key()])
			}
			if !slices.IsSorted(pos) {
				t.Errorf("n=%d: shard %d is not in the order of the runs", n, i)
			}
		}
	}
}

// TestSplitBalance checks that every shard's estimated cost is within 25%
// of the mean for n = 1..8 on the full tier, and that the heavy 2D FBPINN
// runs are spread over the shards rather than piled into one.
func TestSplitBalance(t *testing.T) {
	for _, c := range splitCases[:1] {
		specs := tierSpecs(t, c.tier)
		for n := 1; n <= 8; n++ {
			assign, load := split(specs, n)
			var sum int64
			for _, l := range load {
				sum += l
			}
			mean := float64(sum) / float64(n)
			for i, l := range load {
				if dev := float64(l)/mean - 1; dev > 0.25 || dev < -0.25 {
					t.Errorf("%s, n=%d: shard %d has %.0f s, %+.0f%% off the mean %.0f s", c.name, n, i, float64(l)*costUnit, 100*dev, mean*costUnit)
				}
			}
			if n < 2 {
				continue
			}
			heavy := make([]int, n) // 2D FBPINN runs per shard
			total := 0
			for i, s := range specs {
				if s.Model == experiments.FBPINN && s.Problem != experiments.Oscillator {
					heavy[assign[i]]++
					total++
				}
			}
			if m := slices.Max(heavy); float64(m) > 1.5*float64(total)/float64(n) {
				t.Errorf("%s, n=%d: 2D FBPINN runs per shard %v: one shard has too many", c.name, n, heavy)
			}
		}
	}
}

// TestCostOrder checks the cost model's proportions that matter for the
// split: a 2D FBPINN run costs more than a 2D ELM-FBPINN run, which costs
// more than a 1D one; more iterations, features or subdomains cost more.
func TestCostOrder(t *testing.T) {
	base := func(problem, model string, j, k int) experiments.Spec {
		return experiments.Spec{Problem: problem, Model: model, J: []int{j}, K: k, Width: 64,
			Delta: 2.9, R: 1, Iters: experiments.FullIters}
	}
	less := []struct{ cheap, dear experiments.Spec }{
		{base("oscillator", "elm", 20, 12), base("laplace", "elm", 16, 16)},
		{base("laplace", "elm", 16, 16), base("laplace", "fbpinn", 16, 16)},
		{base("helmholtz", "elm", 16, 16), base("helmholtz", "fbpinn", 16, 16)},
		{base("oscillator", "fbpinn", 20, 12), base("laplace", "fbpinn", 16, 16)},
		{base("laplace", "elm", 8, 16), base("laplace", "elm", 16, 16)},
		{base("laplace", "elm", 16, 8), base("laplace", "elm", 16, 16)},
		{base("laplace", "elm", 16, 16), base("laplace", "elm", 1, 16)},
	}
	less[len(less)-1].cheap.Iters = 1000
	less[len(less)-1].dear.J = []int{1, 8, 16}
	for i, c := range less {
		if a, b := experiments.Cost(c.cheap), experiments.Cost(c.dear); !(a < b) {
			t.Errorf("case %d: Cost(%s) = %.3g s, not below Cost(%s) = %.3g s", i, c.cheap, a, c.dear, b)
		}
	}
}

func TestParseShard(t *testing.T) {
	good := map[string]shardSpec{"0/1": {0, 1}, "3/8": {3, 8}, "07/08": {7, 8}}
	for in, want := range good {
		if got, err := parseShard(in); err != nil || got != want {
			t.Errorf("parseShard(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	// Spaces and signs are refused since issue 33 ("0 /2" was taken as 0/2).
	for _, in := range []string{"", "1", "1/1", "-1/2", "2/2", "0/0", "a/b", "0/-1", "1/2/3", " 7 / 8 ", "0 /2", "+0/2", "0/+2", "0/2 "} {
		if _, err := parseShard(in); err == nil {
			t.Errorf("parseShard(%q): no error", in)
		}
	}
}

// TestShardsMatchUnsharded runs the two shards of the quick tier of
// osc-baseline at the same time into one directory, as a job array does, and
// the same tier unsharded into another: the result sets must be the same
// runs with bit-identical errors. The shards run with SLURM_JOB_ID set, as
// in a Slurm task: they must not pin (Slurm binds) and still run each child
// with GOMAXPROCS=1.
func TestShardsMatchUnsharded(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a table three times")
	}
	dir := t.TempDir()
	sharded, whole := filepath.Join(dir, "sharded"), filepath.Join(dir, "whole")
	args := []string{"run", "-table", "osc-baseline", "-tier", "quick", "-jobs", "1"}
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for i := range 2 {
		cmd := exec.Command(repro, append(slices.Clone(args), "-results", sharded, "-shard", []string{"0/2", "1/2"}[i])...)
		cmd.Env = append(os.Environ(), "SLURM_JOB_ID=99", "SLURM_ARRAY_JOB_ID=98", "SLURM_ARRAY_TASK_ID="+[]string{"0", "1"}[i])
		var b strings.Builder
		cmd.Stderr = &b
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, &b)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("shard %d/2: %v\n%s", i, err, outs[i])
		}
		if !regexp.MustCompile(`in Slurm job 98_` + []string{"0", "1"}[i] + `: using Slurm's core binding .*not pinning again`).MatchString(outs[i].String()) {
			t.Errorf("shard %d/2 does not say it relies on Slurm's binding:\n%s", i, outs[i])
		}
	}
	if _, stderr, code := runRepro(t, append(args, "-results", whole)...); code != 0 {
		t.Fatalf("unsharded run: exit %d: %s", code, stderr)
	}
	got, want := snapshot(t, sharded), snapshot(t, whole)
	compareResults(t, got, want)
	for name, b := range got {
		var r experiments.Result
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if r.Env.GOMAXPROCS != 1 {
			t.Errorf("%s: GOMAXPROCS=%d, want 1", name, r.Env.GOMAXPROCS)
		}
	}

	// A shard run again has nothing to do.
	_, stderr, code := runRepro(t, append(args, "-results", sharded, "-shard", "1/2")...)
	if code != 0 || !strings.Contains(stderr, "shard 1/2: ") || !strings.Contains(stderr, "0 to run") {
		t.Errorf("rerun of shard 1/2 (exit %d): %q, want nothing to run", code, stderr)
	}
}

// TestSlurmScripts checks the scripts 'repro slurm' writes: the array's
// directives from the flags, its task command (the run flags, one run at a
// time, its shard from SLURM_ARRAY_TASK_ID), the report job, and the submit
// script's dependency; bash must parse all three. Submitting them to a real
// Slurm is TestSlurmArray's part.
func TestSlurmScripts(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "job", "all.sbatch")
	cmd := exec.Command(repro, "slurm", "-table", "osc-K,osc-J", "-tier", "full", "-seeds", "0-2", "-shards", "4",
		"-out", out, "-partition", "short", "-account", "proj42", "-mem", "1G", "-results", "res", "-report-out", "rep")
	cmd.Dir = dir
	stdout, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("repro slurm: %v\n%s", err, stdout)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, "job", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	array, report, submit := read("all.sbatch"), read("all.report.sbatch"), read("all.submit.sh")
	res, rep := filepath.Join(dir, "res"), filepath.Join(dir, "rep")
	checks := []struct {
		name, text string
		want       []string
	}{
		{"array", array, []string{
			"#SBATCH --array=0-3\n", "#SBATCH --cpus-per-task=1\n", "#SBATCH --ntasks=1\n", "#SBATCH --mem=1G\n",
			"#SBATCH --partition=short\n", "#SBATCH --account=proj42\n", "#SBATCH --time=", "#SBATCH --requeue\n",
			"#SBATCH --output=" + filepath.Join(dir, "job", "slurm-logs") + "/%x-%A_%a.out\n",
			" run -table osc-K,osc-J -tier full -results " + res + " -kappa-cells 4000000 -seeds 0-2 -jobs 1 -shard \"${SLURM_ARRAY_TASK_ID}/4\"\n",
		}},
		{"report", report, []string{
			"#SBATCH --cpus-per-task=1\n", "#SBATCH --partition=short\n", "#SBATCH --account=proj42\n",
			" report -table osc-K,osc-J -tier full -results " + res + " -out " + rep + " -seeds 0-2\n",
		}},
		{"submit", submit, []string{
			"array=$(sbatch --parsable \"$@\" " + out + ")\n",
			"--dependency=afterany:\"$array\" \"$@\" " + filepath.Join(dir, "job", "all.report.sbatch") + ")\n",
		}},
	}
	for _, c := range checks {
		for _, w := range c.want {
			if !strings.Contains(c.text, w) {
				t.Errorf("%s script lacks %q:\n%s", c.name, w, c.text)
			}
		}
		if i := strings.Index(c.text, "#SBATCH"); i >= 0 && strings.Contains(c.text[:i], "\nset ") {
			t.Errorf("%s script: #SBATCH lines after a command are ignored by sbatch", c.name)
		}
	}
	for _, name := range []string{"all.sbatch", "all.report.sbatch", "all.submit.sh"} {
		if out, err := exec.Command("bash", "-n", filepath.Join(dir, "job", name)).CombinedOutput(); err != nil {
			t.Errorf("bash -n %s: %v\n%s", name, err, out)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "job", "slurm-logs")); err != nil || !fi.IsDir() {
		t.Errorf("the log directory was not created: %v", err)
	}
}

// TestSlurmBadInput checks that bad flags of 'repro slurm' and 'repro run
// -shard' exit with status 2 and one line, writing nothing.
func TestSlurmBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "-shard", "2/2"}, "bad -shard"},
		{[]string{"run", "-shard", "x"}, "bad -shard"},
		{[]string{"slurm", "-shards", "-1"}, "-shards"},
		{[]string{"slurm", "-mem", "lots"}, "-mem"},
		{[]string{"slurm", "-time", "soon"}, "-time"},
		{[]string{"slurm", "-partition", "a b"}, "-partition"},
		{[]string{"slurm", "-table", "nope"}, "unknown table"},
		{[]string{"slurm", "-tier", "medium"}, "unknown tier"},
		{[]string{"slurm", "-seeds", "3-1"}, "bad seed list"},
		// A control character in any value: one line, nothing written.
		{[]string{"slurm", "-results", "res\nrm -rf ~"}, "invalid value \"res\\nrm -rf ~\" for flag -results: holds a control character"},
		{[]string{"slurm", "-report-out", "rep\r\nx"}, "-report-out"},
		{[]string{"slurm", "-logs", "logs\x1b[2J"}, "-logs"},
		{[]string{"slurm", "-out", "job\n.sbatch"}, "-out"},
		{[]string{"slurm", "-repro", "/bin/repro\nid"}, "-repro"},
		{[]string{"slurm", "-table", "osc-K\nid"}, "-table"},
		{[]string{"slurm", "-where", "K=8\nid"}, "-where"},
		{[]string{"slurm", "-seeds", "0\t1"}, "-seeds"},
		{[]string{"slurm", "-name", "a\x7fb"}, "-name"},
		{[]string{"slurm", "-results", "res\xff"}, "-results"},
		// -out a directory (the work directory): refused before the log
		// folder is made.
		{[]string{"slurm", "-out", "."}, "is a directory: -out names the sbatch script"},
	}
	for i, tc := range cases {
		dir := t.TempDir()
		args := slices.Clone(tc.args)
		if !slices.Contains(args, "-results") {
			args = append(args, "-results", filepath.Join(dir, "results"))
		}
		if tc.args[0] == "slurm" && !slices.Contains(args, "-out") {
			args = append(args, "-out", filepath.Join(dir, "job.sbatch"))
		}
		checkUsageError(t, fmt.Sprintf("case %d (%v)", i, tc.args), dir, tc.want, args...)
	}
}

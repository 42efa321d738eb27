package study

import (
	"fmt"
	"slices"
	"testing"

	"elmfbpinn/experiments"
	"elmfbpinn/study/studytest"
)

// TestResultsBudgets: the baseline's ELM-FBPINN runs are also the R = 1
// oscillator runs of the weight-scaling figure: each is one result of both
// tables. The quick tier trains the PINN and FBPINN baselines shortly over
// one seed, the ELM-FBPINN at the paper's budget over five seeds in both
// tables.
func TestResultsBudgets(t *testing.T) {
	b, w := studytest.Table(t, "osc-baseline"), studytest.Table(t, "weight-scaling")
	res := studytest.RealResults(t, realDir, "osc-baseline")
	st, err := NewStudy([]*experiments.Table{b, w}, experiments.Full, res)
	if err != nil {
		t.Fatal(err)
	}
	rs := st.Results()
	if len(rs) != 6 {
		t.Fatalf("%d results, want the baseline ELM-FBPINN's 5 solves and its κ run", len(rs))
	}
	for i, r := range rs {
		if !slices.Equal(r.Tables, []string{"osc-baseline", "weight-scaling"}) || i < 5 && r.Spec.Seed != i {
			t.Errorf("result %d: %s of %v; want seed %d of osc-baseline and weight-scaling", i, r.Spec, r.Tables, i)
		}
	}
	st, err = NewStudy([]*experiments.Table{b, w}, experiments.QuickTier, res)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range st.Budgets() {
		got = append(got, fmt.Sprintf("%s %v", b.Model(), b))
	}
	want := "[PINN {pinn 200 [0] [osc-baseline]} FBPINN {fbpinn 1000 [0] [osc-baseline]} ELM-FBPINN {elm 15000 [0 1 2 3 4] [osc-baseline weight-scaling]}]"
	if got := fmt.Sprint(got); got != want {
		t.Errorf("quick-tier budgets\n%s\nwant\n%s", got, want)
	}
}

// TestSources counts where the results were made (and the table lists
// the machines that timed them): most frequent first,
// ties in the order met, a fingerprint with its model (row 0 is the PINN),
// an unrecorded value as "unknown", a result without
// an environment apart.
func TestSources(t *testing.T) {
	tab := studytest.Table(t, "osc-K")
	res := map[string]*experiments.Result{}
	envs := []experiments.Env{
		{Started: "2026-01-02T00:00:00Z", Commit: "b", GoVersion: "go1", CPU: "x", GOMAXPROCS: 1, Numerics: "f1", Kernel: "avx512"},
		{Started: "2026-01-01T00:00:00Z", Commit: "a", GoVersion: "go1", CPU: "y", Numerics: "f1", Kernel: "generic"},
		{Started: "2026-01-03T00:00:00Z", Commit: "a", GoVersion: "go1", Kernel: "generic"},
		{},
	}
	for seed, e := range envs {
		studytest.Put(res, tab, 0, seed, 0.1, 1)
		res[tab.Rows[0].Spec(seed).Key()].Env = e
	}
	st, err := NewStudy([]*experiments.Table{tab}, experiments.Full, res)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%+v", st.Sources())
	want := "{Runs:4 WithoutEnv:1 First:2026-01-01T00:00:00Z Last:2026-01-03T00:00:00Z " +
		"Commits:[{Value:a N:2} {Value:b N:1}] GoVersions:[{Value:go1 N:3}] CPUs:[{Value:x N:1} {Value:y N:1} {Value:unknown N:1}] " +
		"Numerics:[{Value:pinn f1 N:2} {Value:unknown N:1}] Kernels:[{Value:generic N:2} {Value:avx512 N:1}]}"
	if got != want {
		t.Errorf("sources\n%s\nwant\n%s", got, want)
	}
	if m := st.Tables[0].Machines(); !slices.Equal(m, []string{"x (GOMAXPROCS=1)", "y"}) {
		t.Errorf("machines %q", m)
	}
}

package reports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"elmfbpinn/core/elm"
	"elmfbpinn/experiments"
)

// solutionResult returns a result of a problem's solution-figure run as
// repro run stores it, with made-up coefficients (one per column of the
// system its spec assembles): assembling needs no solver.
func solutionResult(t *testing.T, prob, tier string) *experiments.Result {
	t.Helper()
	s, err := experiments.SolutionSpec(prob, experiments.SolutionIters(tier, prob))
	if err != nil {
		t.Fatal(err)
	}
	p, err := experiments.NewProblem(s)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := elm.Build(p, experiments.ELMConfig(s))
	if err != nil {
		t.Fatal(err)
	}
	rows, cols := sys.M.Dims()
	coef := make([]float64, cols)
	for i := range coef {
		coef[i] = 1e-3 * float64(i%7-3)
	}
	return &experiments.Result{Key: s.Key(), Spec: s, Coef: coef, Rows: rows, Cols: cols,
		EL1: 0.5, EL1Final: 0.6, Time: experiments.Timing{Total: 1.5}}
}

// TestReportSolvesNothing writes a report whose results hold the runs of
// the solution figures, with the solver replaced by one that panics: the
// solution, basis and sparsity figures are drawn from the results, and no
// solve happens. Without those runs the figures are skipped with a note
// naming the run, still without a solve.
func TestReportSolvesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("assembles two multilevel systems")
	}
	saved := solveELM
	defer func() { solveELM = saved }()
	solveELM = func(*elm.System, int) (*elm.Result, error) { panic("the report ran a solver") }

	tables := []*experiments.Table{table(t, "osc-baseline"), table(t, "helmholtz-baseline")}
	res := realResults(t, "osc-baseline")
	for _, prob := range []string{experiments.Oscillator, experiments.Helmholtz} {
		r := solutionResult(t, prob, experiments.QuickTier)
		res[r.Key] = r
	}
	dir := t.TempDir()
	b, err := Report(dir, tables, res, &Options{Tier: experiments.QuickTier, Formats: []string{FormatMarkdown, FormatPNG},
		Provenance: fixedProvenance})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range b.Solutions {
		names = append(names, e.Name)
		if !e.Written() || !strings.HasPrefix(e.Note, "From the run ") {
			t.Errorf("%s: files %v, note %q", e.Name, e.Files, e.Note)
		}
	}
	if got, want := strings.Join(names, ","), "oscillator-solution,oscillator-basis,oscillator-sparsity,helmholtz-solution"; got != want {
		t.Errorf("solution figures %s, want %s", got, want)
	}
	for _, f := range []string{"oscillator-solution.png", "helmholtz-solution.png"} {
		if _, err := os.Stat(filepath.Join(dir, FigureDir, f)); err != nil {
			t.Error(err)
		}
	}

	// Without the runs: skipped, naming them.
	delete(res, solutionResult(t, experiments.Oscillator, experiments.QuickTier).Key)
	b, err = Report(t.TempDir(), tables[:1], res, &Options{Tier: experiments.QuickTier, Formats: []string{FormatPNG}})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Solutions) != 1 || b.Solutions[0].Written() ||
		!strings.Contains(b.Solutions[0].Note, "no result of their run oscillator/elm param=80 J=[1,10,20] K=12 iters=15000 seed=0 coef") {
		t.Errorf("without the run: %+v", b.Solutions)
	}
}

// TestSolutionOf: the model read from a run's result predicts what the
// solve in this process predicts, bit for bit, from the coefficients the
// run kept.
func TestSolutionOf(t *testing.T) {
	s := experiments.Spec{Problem: experiments.Oscillator, Model: experiments.ELM, Param: 20,
		J: []int{1, 2}, K: 4, Delta: 2.9, R: 1, Iters: 50, Coef: true}
	r, err := experiments.Execute(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := SolutionOf(r)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Solve(s)
	if err != nil {
		t.Fatal(err)
	}
	a, err := got.Curve(101)
	if err != nil {
		t.Fatal(err)
	}
	b, err := want.Curve(101)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Pred {
		if a.Pred[i] != b.Pred[i] {
			t.Fatalf("t = %g: %v from the result, %v solved here", a.T[i], a.Pred[i], b.Pred[i])
		}
	}
	if got.Final != r.EL1Final || got.Best != r.EL1 {
		t.Errorf("errors %g, %g; want the run's %g, %g", got.Final, got.Best, r.EL1Final, r.EL1)
	}
	r.Spec.Coef = false
	if _, err := SolutionOf(r); err == nil {
		t.Error("a result without kept coefficients was accepted")
	}
}

package reports

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"elmfbpinn/core/elm"
	"elmfbpinn/experiments"
)

// solve runs a spec that keeps its coefficients (in this process, for
// tests) and returns its model as the report reads it.
func solve(s experiments.Spec) (*experiments.Solution, error) {
	r, err := experiments.Execute(s, nil)
	if err != nil {
		return nil, err
	}
	return experiments.SolutionOf(r)
}

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

// TestReportSolvesNothing: the report cannot run a solver, and draws the
// solution figures from the results of their runs.
//
// The code of the package and of package study (their non-test files, read
// as Go source) imports no solver (core/elm, core/lsqr, core/train) and
// calls neither experiments.Execute nor a Solve; the models of the
// solution figures come from experiments.SolutionOf, which rebuilds one
// from a result's kept coefficients. A report whose results hold those
// runs, with made-up coefficients no solver would give, draws the solution,
// basis and sparsity figures; without the runs they are skipped with a
// note naming the run.
func TestReportSolvesNothing(t *testing.T) {
	// The report's own source and the study's it computes with.
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	studied, err := filepath.Glob(filepath.Join("..", "study", "*.go"))
	if err != nil || len(studied) == 0 {
		t.Fatalf("the study's source: %v, %v", studied, err)
	}
	files = append(files, studied...)
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, solver := range []string{"elmfbpinn/core/elm", "elmfbpinn/core/lsqr", "elmfbpinn/core/train"} {
				if path == solver {
					t.Errorf("%s imports the solver package %s", name, path)
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Execute" || sel.Sel.Name == "Solve") {
				t.Errorf("%s: a call of %s", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}

	if testing.Short() {
		t.Skip("assembles two multilevel systems")
	}
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

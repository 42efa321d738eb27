package experiments

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"elmfbpinn/core/elm"
	"elmfbpinn/core/metric"
	"elmfbpinn/core/sparse"
)

// TestSolutionRuns: a baseline table with an ELM-FBPINN row in the tier
// brings the run of its problem's solution figure (coefficients kept, the
// tier's iterations); a sweep brings none, nor a baseline whose ELM row the
// selection left out. The flag leaves every table run's key as it was.
func TestSolutionRuns(t *testing.T) {
	for _, tc := range []struct {
		tables string
		tier   string
		want   []string // the specs' String
	}{
		{"osc-baseline", QuickTier, []string{"oscillator/elm param=80 J=[1,10,20] K=12 iters=15000 seed=0 coef"}},
		{"laplace-baseline,osc-K", QuickTier, []string{"laplace/elm param=4 J=[1,8,16] K=16 iters=3000 seed=0 coef"}},
		{"helmholtz-baseline", Full, []string{"helmholtz/elm param=8 J=[1,8,16] K=16 iters=15000 seed=0 coef"}},
		{"osc-K,osc-J,weight-scaling", Full, nil},
	} {
		tables, err := Lookup(tc.tables)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := SolutionRuns(tables, tc.tier)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range runs {
			got = append(got, r.Spec.String())
			if !r.Spec.Coef || r.Table.Rows[r.Row].Model != ELM {
				t.Errorf("%s: run %s of row %d", tc.tables, r.Spec, r.Row)
			}
		}
		if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
			t.Errorf("%s (%s): runs %q, want %q", tc.tables, tc.tier, got, tc.want)
		}
	}
	// Without its ELM-FBPINN row (e.g. -model pinn) a baseline has none.
	base, _ := Lookup("osc-baseline")
	pinn := *base[0]
	pinn.Rows = []Row{base[0].Rows[0]}
	if runs, _ := SolutionRuns([]*Table{&pinn}, Full); len(runs) != 0 {
		t.Errorf("a baseline without its ELM-FBPINN row: %d solution runs", len(runs))
	}
	// Coef off is left out of the encoding: the key is the one without it.
	s := base[0].Rows[2].Spec(0)
	c := s
	c.Coef = true
	if s.Key() == c.Key() || strings.Contains(string(mustJSON(t, s)), "coef") {
		t.Errorf("keys %s and %s; spec %s", s.Key(), c.Key(), mustJSON(t, s))
	}
}

// TestCoef: a run with Spec.Coef keeps one finite coefficient per column of
// M; Validate refuses it for a gradient-trained model or a κ-only run, and
// Check refuses coefficients that are missing, of the wrong count, not
// finite, or not asked for.
func TestCoef(t *testing.T) {
	s := Spec{Problem: Oscillator, Model: ELM, Param: 20, J: []int{1, 2}, K: 4, Delta: 2.9, R: 1, Iters: 20, Coef: true}
	r, err := Execute(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Coef) != r.Cols || r.Cols == 0 {
		t.Fatalf("%d coefficients for %d columns", len(r.Coef), r.Cols)
	}
	if err := Check(r, s.Key()); err != nil {
		t.Errorf("Check: %v", err)
	}
	for _, bad := range []Spec{
		{Problem: Oscillator, Model: PINN, Param: 20, J: []int{2}, K: 4, Width: 8, Delta: 2.9, R: 1, Iters: 20, Coef: true},
		{Problem: Oscillator, Model: ELM, Param: 20, J: []int{2}, K: 4, Delta: 2.9, R: 1, Iters: 0, Coef: true},
	} {
		if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "coef") {
			t.Errorf("%s: Validate = %v, want an error about coef", bad, err)
		}
	}
	for name, f := range map[string]func(r *Result){
		"none":      func(r *Result) { r.Coef = nil },
		"one short": func(r *Result) { r.Coef = r.Coef[1:] },
		"NaN":       func(r *Result) { r.Coef = append([]float64{nan()}, r.Coef[1:]...) },
	} {
		c := *r
		c.Coef = append([]float64(nil), r.Coef...)
		f(&c)
		if err := Check(&c, s.Key()); err == nil {
			t.Errorf("%s: Check accepted %d coefficients", name, len(c.Coef))
		}
	}
	v, _ := validResult(t)
	v.Coef = []float64{1}
	if err := Check(v, v.Key); err == nil || !strings.Contains(err.Error(), "does not ask") {
		t.Errorf("coefficients not asked for: Check = %v", err)
	}
}

func nan() float64 { return math.NaN() }

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// solve runs a spec that keeps its coefficients and returns its model.
func solve(s Spec) (*Solution, error) {
	r, err := Execute(s, nil)
	if err != nil {
		return nil, err
	}
	return SolutionOf(r)
}

func mustProblem(t *testing.T, name string) *Problem {
	t.Helper()
	p, err := ProblemNamed(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// TestSolutionOf: the model read from a run's result predicts, bit for
// bit, what the coefficients of a solve in this process predict; the
// errors are the run's; a result without kept coefficients is refused.
func TestSolutionOf(t *testing.T) {
	s := Spec{Problem: Oscillator, Model: ELM, Param: 20, J: []int{1, 2}, K: 4, Delta: 2.9, R: 1, Iters: 50, Coef: true}
	r, err := Execute(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := SolutionOf(r)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewProblem(s)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := elm.Build(p, ELMConfig(s))
	if err != nil {
		t.Fatal(err)
	}
	want, err := sys.Solve(&elm.Settings{Iters: s.Iters})
	if err != nil {
		t.Fatal(err)
	}
	a, err := got.Curve(101)
	if err != nil {
		t.Fatal(err)
	}
	v, err := sys.Values(a.T)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]float64, len(a.T))
	v.MulVec(b, want.Coef)
	for i := range a.Pred {
		if a.Pred[i] != b[i] {
			t.Fatalf("t = %g: %v from the result, %v solved here", a.T[i], a.Pred[i], b[i])
		}
	}
	if got.Final != r.EL1Final || got.Best != r.EL1 {
		t.Errorf("errors %g, %g; want the run's %g, %g", got.Final, got.Best, r.EL1Final, r.EL1)
	}
	// Made-up coefficients, which no solve gives, are the ones it predicts
	// with: nothing is solved again.
	for i := range r.Coef {
		r.Coef[i] = float64(i%5) - 2
	}
	made, err := SolutionOf(r)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := made.Predict(a.T)
	if err != nil {
		t.Fatal(err)
	}
	v.MulVec(b, r.Coef)
	if !slices.Equal(pred, b) {
		t.Error("the model does not predict with the result's coefficients")
	}
	r.Spec.Coef = false
	if _, err := SolutionOf(r); err == nil {
		t.Error("a result without kept coefficients was accepted")
	}
}

// TestSampleGridLShape masks a 5×5 grid on [0,1]² to the L-shape: the
// points with x > 0.5 and y > 0.5 ({0.75, 1}² : 4 points) are outside.
func TestSampleGridLShape(t *testing.T) {
	inside := mustProblem(t, Helmholtz).Inside
	if inside == nil {
		t.Fatal("Helmholtz has no mask")
	}
	g, pts, idx := SampleGrid([]float64{0, 0}, []float64{1, 1}, 5, inside)
	if len(idx) != 21 || len(pts) != 42 {
		t.Fatalf("%d points inside, want 21", len(idx))
	}
	vals := make([]float64, len(idx))
	for k := range vals {
		vals[k] = pts[2*k] + 10*pts[2*k+1]
	}
	h := g.Fill(idx, vals)
	for j, y := range h.Y {
		for i, x := range h.X {
			z := h.Z[j*5+i]
			out := x > 0.5 && y > 0.5
			if out != math.IsNaN(z) {
				t.Errorf("(%g, %g): z = %g, outside = %v", x, y, z, out)
			}
			if !out && z != x+10*y {
				t.Errorf("(%g, %g): z = %g, want %g", x, y, z, x+10*y)
			}
		}
	}
	if lo, hi := h.Range(); lo != 0 || hi != 1+10*0.5 && hi != 0.5+10*1 {
		t.Errorf("range [%g, %g]", lo, hi)
	}
	if !math.IsNaN(g.Z[0]) {
		t.Error("Fill changed the grid it was called on")
	}
	// The Laplacian's box needs no mask.
	if mustProblem(t, Laplace).Inside != nil {
		t.Error("the Laplacian has a mask")
	}
}

// TestSparsityRaster rasterises a 4×6 matrix of two blocks exactly and on
// a 2×3 raster.
func TestSparsityRaster(t *testing.T) {
	m := sparse.New(4, 6, []sparse.Shape{
		{Rows: []int32{0, 1}, Col0: 0, NCol: 2}, // level 0
		{Rows: []int32{1, 3}, Col0: 4, NCol: 2}, // level 1
	})
	level := func(b int) int { return b }
	r := SparsityRaster(m, level, 10, 10)
	want := []int{
		0, 0, -1, -1, -1, -1,
		0, 0, -1, -1, 1, 1,
		-1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, 1, 1,
	}
	if r.H != 4 || r.W != 6 || !slices.Equal(r.Level, want) || r.Levels != 2 {
		t.Errorf("exact raster %dx%d %v levels %d, want 4x6 %v 2", r.H, r.W, r.Level, r.Levels, want)
	}
	c := SparsityRaster(m, level, 2, 3)
	if want := []int{0, -1, 1, -1, -1, 1}; c.H != 2 || c.W != 3 || !slices.Equal(c.Level, want) {
		t.Errorf("coarse raster %dx%d %v, want 2x3 %v", c.H, c.W, c.Level, want)
	}
}

// TestSolutionData solves small models and checks the figure data read
// from their results: the
// constant basis functions of each level sum to 1/L (the windows are a
// partition of unity on each level), the 1D curve matches the exact
// solution where the solve is good, and the 2D fields are masked.
func TestSolutionData(t *testing.T) {
	spec := Spec{Problem: Oscillator, Model: ELM, Param: 20,
		J: []int{1, 2, 4}, K: 8, Delta: 2.9, R: 1, Iters: 2000, Coef: true}
	sol, err := solve(spec)
	if err != nil {
		t.Fatal(err)
	}
	subs := sol.System.Decomposition.Subdomains
	all := make([]int, len(subs))
	for g := range all {
		all[g] = g
	}
	sets, err := sol.Basis(all, 101)
	if err != nil {
		t.Fatal(err)
	}
	sum := map[[2]int]float64{} // (level, point index by t) → Σ constant functions
	for _, b := range sets {
		if len(b.F) != spec.K+1 {
			t.Fatalf("subdomain %d: %d functions, want K+1 = %d", b.Sub, len(b.F), spec.K+1)
		}
		for i, tt := range b.T {
			sum[[2]int{b.Level, int(math.Round(tt * 100))}] += b.F[0][i]
		}
	}
	for k, v := range sum {
		if math.Abs(v-1.0/3) > 1e-12 {
			t.Errorf("level %d at t = %g: constant functions sum to %g, want 1/3", k[0], float64(k[1])/100, v)
		}
	}
	// The middle subdomain of each level with its neighbours on the level:
	// level 1 has one, level 2 two (centres 0 and 1), level 3 four.
	if mid := sol.MiddleSubdomains(); len(mid) != 3 || !slices.Equal(mid[0], []int{0}) ||
		len(mid[1]) != 2 || len(mid[2]) != 3 || subs[mid[1][0]].Level != 1 || subs[mid[2][0]].Level != 2 {
		t.Errorf("middle subdomains %v", mid)
	}
	c, err := sol.Curve(200)
	if err != nil {
		t.Fatal(err)
	}
	if e := metric.EL1(c.Pred, c.Exact); !(e < 10*sol.Final+1e-3) {
		t.Errorf("curve e_L1 %g against the solve's test error %g", e, sol.Final)
	}
	for i := range c.T {
		if d := math.Abs(c.Pred[i] - c.Exact[i]); !near(c.AbsErr[i], d) {
			t.Errorf("t = %g: |error| %g, want %g", c.T[i], c.AbsErr[i], d)
		}
	}
	if cs := sol.LevelCentres(); len(cs) != 3 || len(cs[2].X) != 4 || cs[0].X[0] != 0.5 || len(cs[0].Y) != 0 {
		t.Errorf("centres %+v", cs)
	}

	h := Spec{Problem: Helmholtz, Model: ELM, Param: 2,
		J: []int{1, 4}, K: 4, Delta: 2.9, R: 1, Iters: 50, Coef: true}
	sh, err := solve(h)
	if err != nil {
		t.Fatal(err)
	}
	f, err := sh.Fields(9)
	if err != nil {
		t.Fatal(err)
	}
	nan := 0
	for i, z := range f.Exact.Z {
		if math.IsNaN(z) {
			nan++
			if !math.IsNaN(f.Pred.Z[i]) || !math.IsNaN(f.AbsErr.Z[i]) {
				t.Errorf("cell %d masked in the exact field only", i)
			}
			continue
		}
		if d := math.Abs(f.Pred.Z[i] - z); !near(f.AbsErr.Z[i], d) {
			t.Errorf("cell %d: |error| %g, want %g", i, f.AbsErr.Z[i], d)
		}
	}
	// 9×9 grid on [0,1]: x, y in {0.625, 0.75, 0.875, 1} (4 values) are
	// > 0.5: 16 cells outside the L.
	if nan != 16 {
		t.Errorf("%d masked cells, want 16", nan)
	}
	// 2D: one level-0 centre and 4×4 - 2×2... (the centres with x, y > 0.5
	// are dropped: of linspace(0,1,4) = {0, 1/3, 2/3, 1}, 2 per axis).
	if cs := sh.LevelCentres(); len(cs[1].X) != 12 || len(cs[1].Y) != 12 {
		t.Errorf("level 2 centres: %d, want 16 - 4 = 12", len(cs[1].X))
	}
	if r := sh.Sparsity(50, 50); r.H != 50 || r.Levels != 2 {
		t.Errorf("sparsity raster %dx%d of %d levels", r.H, r.W, r.Levels)
	}
}

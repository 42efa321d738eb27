package elm_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"elmfbpinn/core/elm"
	"elmfbpinn/core/lsqr"
	"elmfbpinn/core/metric"
	"elmfbpinn/core/problem"
	"elmfbpinn/core/sparse"
)

// fakeSolver returns fixed coefficients after reporting a fixed sequence of
// iterates, and remembers what it was given.
type fakeSolver struct {
	x     []float64 // the answer, reported as iteration 3
	short bool      // return only x[:1] (a bug)
	iters int       // the iteration limit it was given
	rows  int
}

func (f *fakeSolver) Solve(m *sparse.BlockSparse, h []float64, iters int, progress func(int, []float64)) (*elm.Solution, error) {
	f.iters, f.rows = iters, len(h)
	zero := make([]float64, len(f.x))
	progress(0, zero)
	half := slices.Clone(f.x)
	for i := range half {
		half[i] /= 2
	}
	progress(2, half)
	progress(3, f.x)
	x := slices.Clone(f.x)
	if f.short {
		x = x[:1]
	}
	return &elm.Solution{X: x, Iterations: 3, Status: "fake"}, nil
}

// TestSolverSeam checks that System.Solve runs the solver it is given: the
// history is the test error of the iterates the solver reports (every
// Settings.Every iterations and the last), the coefficients and status are
// the solver's, and LSQR's own result is nil.
func TestSolverSeam(t *testing.T) {
	s, err := elm.Build(&problem.Oscillator{Omega0: 20}, elm.Config{J: []int{4}, K: 3, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, s.Cols())
	for i := range x {
		x[i] = float64(i%5) - 2
	}
	f := &fakeSolver{x: x}
	res, err := s.Solve(&elm.Settings{Iters: 7, Every: 2, Solver: f})
	if err != nil {
		t.Fatal(err)
	}
	if rows, _ := s.M.Dims(); f.iters != 7 || f.rows != rows {
		t.Errorf("the solver was given %d iterations and %d rows, want 7 and %d", f.iters, f.rows, rows)
	}
	el1 := func(a []float64) float64 {
		pred := make([]float64, len(s.Exact))
		s.Test.MulVec(pred, a)
		return metric.EL1(pred, s.Exact)
	}
	half := slices.Clone(x)
	for i := range half {
		half[i] /= 2
	}
	want := []metric.Record{{Iter: 0, EL1: el1(make([]float64, len(x)))}, {Iter: 2, EL1: el1(half)}, {Iter: 3, EL1: el1(x)}}
	if !slices.Equal(res.History, want) {
		t.Errorf("history %v, want %v (iterations 0 and 2 by Every, 3 as the last)", res.History, want)
	}
	if !slices.Equal(res.Coef, x) || res.Status != "fake" || res.LSQR != nil || res.Final != want[2].EL1 {
		t.Errorf("result: coefficients equal %v, status %q, LSQR %v, final %g; want the fake's, \"fake\", nil, %g",
			slices.Equal(res.Coef, x), res.Status, res.LSQR, res.Final, want[2].EL1)
	}
	for _, bad := range []*fakeSolver{{x: x[:1]}, {x: x, short: true}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("a solver reporting %d and returning 1 coefficient for %d columns: no panic, want one", len(bad.x), len(x))
				}
			}()
			s.Solve(&elm.Settings{Iters: 7, Solver: bad})
		}()
	}
}

// TestLSQRIsTheDefault checks that the zero Settings.Solver is the paper's
// solver: the same bits as elm.LSQR{} and as lsqr.LSQR forced on M.
func TestLSQRIsTheDefault(t *testing.T) {
	s, err := elm.Build(&problem.Laplace{NOmega: 1}, elm.Config{J: []int{1, 3}, K: 4, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	def, err := s.Solve(&elm.Settings{Iters: 120})
	if err != nil {
		t.Fatal(err)
	}
	named, err := s.Solve(&elm.Settings{Iters: 120, Solver: elm.LSQR{}})
	if err != nil {
		t.Fatal(err)
	}
	direct, err := lsqr.LSQR(s.M, s.RHS, &lsqr.Settings{IterLim: 120, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	bits := func(x []float64) []uint64 {
		b := make([]uint64, len(x))
		for i, v := range x {
			b[i] = math.Float64bits(v)
		}
		return b
	}
	if !slices.Equal(bits(def.Coef), bits(named.Coef)) || !slices.Equal(bits(def.Coef), bits(direct.X)) {
		t.Errorf("the default solver, LSQR{} and lsqr.LSQR(Force) give different coefficients")
	}
	if !slices.Equal(def.History, named.History) || def.Status != direct.Status.String() || def.LSQR == nil {
		t.Errorf("default: status %q, LSQR %v; want the histories equal and status %q", def.Status, def.LSQR, direct.Status)
	}
}

// scaledSystem returns a block-sparse 60 × 15 matrix of three overlapping
// blocks with standard normal entries whose columns are then multiplied by
// 10^e, e uniform on [-3, 3], and a right-hand side.
func scaledSystem(seed uint64) (*sparse.BlockSparse, []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	const m, n = 60, 15
	var shapes []sparse.Shape
	for b := range 3 {
		var rows []int32
		for r := 15 * b; r < min(m, 15*b+30); r++ {
			rows = append(rows, int32(r))
		}
		shapes = append(shapes, sparse.Shape{Rows: rows, Col0: 5 * b, NCol: 5})
	}
	a := sparse.New(m, n, shapes)
	col := make([]float64, n)
	for q := range col {
		col[q] = math.Pow(10, 6*rng.Float64()-3)
	}
	for b, sh := range shapes {
		blk := a.Block(b)
		for i := range blk {
			blk[i] = rng.NormFloat64() * col[sh.Col0+i%sh.NCol]
		}
	}
	h := make([]float64, m)
	for i := range h {
		h[i] = rng.NormFloat64()
	}
	return a, h
}

// TestScaledLSQR checks the column-scaled LSQR on full-rank systems whose
// columns differ in norm by up to 10⁶: after 2n iterations it reaches the
// least-squares solution (gonum's dense QR as the reference) to 1e-12
// relative in every coefficient (measured: 2e-14), as it must since the
// scaled matrix is well conditioned, while plain forced LSQR with the same iterations is at
// least 100 times further from it; its iterates are reported in the
// original unknowns (a = D y): the last one reported is the answer, and
// the first is zero.
func TestScaledLSQR(t *testing.T) {
	for seed := range uint64(3) {
		a, h := scaledSystem(seed)
		_, n := a.Dims()
		var qr mat.QR
		qr.Factorize(a.Dense())
		var xs mat.Dense
		if err := qr.SolveTo(&xs, false, mat.NewDense(len(h), 1, h)); err != nil {
			t.Fatal(err)
		}
		want := mat.Col(nil, 0, &xs)
		var first, last []float64
		calls := 0
		sol, err := elm.ScaledLSQR{}.Solve(a, h, 2*n, func(itn int, x []float64) {
			if itn == 0 {
				first = slices.Clone(x)
			}
			last = slices.Clone(x)
			calls++
		})
		if err != nil {
			t.Fatal(err)
		}
		plain, err := elm.LSQR{}.Solve(a, h, 2*n, nil)
		if err != nil {
			t.Fatal(err)
		}
		relErr := func(x []float64) float64 {
			e := 0.0
			for q := range x {
				e = max(e, math.Abs(x[q]-want[q])/math.Abs(want[q]))
			}
			return e
		}
		es, ep := relErr(sol.X), relErr(plain.X)
		t.Logf("seed %d: largest relative coefficient error after %d iterations: scaled %.3g, plain %.3g", seed, 2*n, es, ep)
		if !(es <= 1e-12) {
			t.Errorf("seed %d: column-scaled LSQR: relative error %.3g, want <= 1e-12", seed, es)
		}
		if !(ep >= 100*es) {
			t.Errorf("seed %d: plain LSQR's error %.3g is not 100 times the scaled one's %.3g; the test system is not badly scaled", seed, ep, es)
		}
		if sol.Iterations != 2*n || calls != 2*n+1 || sol.LSQR != nil {
			t.Errorf("seed %d: %d iterations, %d progress calls, LSQR %v; want %d, %d, nil", seed, sol.Iterations, calls, sol.LSQR, 2*n, 2*n+1)
		}
		if floats.Norm(first, 2) != 0 || !slices.Equal(last, sol.X) {
			t.Errorf("seed %d: first iterate %v (want 0), last reported iterate equal to the answer: %v", seed, first, slices.Equal(last, sol.X))
		}
	}
}

// TestScaledLSQRSystem solves an ELM-FBPINN system with the column-scaled
// LSQR through System.Solve: the history and status are its own, and a
// solve from the same system twice gives the same bits.
func TestScaledLSQRSystem(t *testing.T) {
	s, err := elm.Build(&problem.Oscillator{Omega0: 20}, elm.Config{J: []int{1, 5}, K: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Solve(&elm.Settings{Iters: 1000, Solver: elm.ScaledLSQR{}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Solve(&elm.Settings{Iters: 1000, Solver: elm.ScaledLSQR{}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Coef, b.Coef) || !slices.Equal(a.History, b.History) {
		t.Errorf("two column-scaled solves of one system differ")
	}
	if len(a.History) != 11 || a.Status != "IterLimit (column-scaled)" {
		t.Errorf("%d records, status %q; want 11 and the forced LSQR's, column-scaled", len(a.History), a.Status)
	}
	if !(a.Best.EL1 < 0.1) {
		t.Errorf("best e_L1 %.3g, want < 0.1 (the paper's LSQR gets below 0.1 in 1000 iterations here)", a.Best.EL1)
	}
}

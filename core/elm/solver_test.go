package elm_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
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

// lsSystem returns a block-sparse 60 × 15 system of three overlapping
// blocks (rows 15b to 15b+29, columns 5b to 5b+4) with standard normal
// entries, and a right-hand side that the columns do not fit exactly. With
// within, columns 3 and 4 of each block are 2 × column 0 and column 1 +
// column 2 (every block, and M, has rank 3 per block); with across, block
// 2's rows and entries equal block 1's (each block has full rank, but M has
// two equal column sets).
func lsSystem(seed uint64, within, across bool) (*sparse.BlockSparse, []float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	const m, n = 60, 15
	var shapes []sparse.Shape
	for b := range 3 {
		r0 := 15 * b
		if across && b == 2 {
			r0 = 15
		}
		var rows []int32
		for r := r0; r < min(m, r0+30); r++ {
			rows = append(rows, int32(r))
		}
		shapes = append(shapes, sparse.Shape{Rows: rows, Col0: 5 * b, NCol: 5})
	}
	a := sparse.New(m, n, shapes)
	for b := range shapes {
		blk := a.Block(b)
		for i := range blk {
			blk[i] = rng.NormFloat64()
		}
		if within {
			for r := 0; r < len(blk); r += 5 {
				blk[r+3] = 2 * blk[r]
				blk[r+4] = blk[r+1] + blk[r+2]
			}
		}
		if across && b == 2 {
			copy(blk, a.Block(1))
		}
	}
	h := make([]float64, m)
	for i := range h {
		h[i] = rng.NormFloat64()
	}
	return a, h
}

// minNorm returns the minimum-norm least-squares solution of M a = h by
// gonum's SVD, the singular values below 1e-10 σ_max taken as 0, and the
// rank.
func minNorm(t *testing.T, a *sparse.BlockSparse, h []float64) ([]float64, int) {
	var svd mat.SVD
	if !svd.Factorize(a.Dense(), mat.SVDThin) {
		t.Fatal("gonum SVD failed")
	}
	sv := svd.Values(nil)
	var u, v mat.Dense
	svd.UTo(&u)
	svd.VTo(&v)
	_, n := a.Dims()
	x := make([]float64, n)
	rank := 0
	for k, s := range sv {
		if s <= 1e-10*sv[0] {
			continue
		}
		rank++
		c := mat.Dot(u.ColView(k), mat.NewVecDense(len(h), h)) / s
		for q := range x {
			x[q] += c * v.At(q, k)
		}
	}
	return x, rank
}

// TestSolversAgainstDense checks every solver against the dense
// least-squares solution (gonum's SVD, minNorm) on small systems, full-rank
// and rank-deficient (within blocks, and across blocks with full-rank
// blocks), each with its tolerance:
//   - the residual: |‖h − M a‖ − ‖h − M a*‖| ≤ tolR ‖h‖;
//   - the projection: ‖M a − M a*‖ ≤ tolP ‖h‖ (M a* is the projection of h on
//     range(M), the same for every least-squares solution);
//   - the solution, where it is unique or the method gives the minimum-norm
//     one: ‖a − a*‖ ≤ tolX ‖a*‖. LSQR on M from 0 stays in range(Mᵀ) and so
//     tends to the minimum-norm solution; the block preconditioner's a = P y
//     is a least-squares solution in range(P) but not the minimum-norm one
//     when M is rank-deficient (tolX < 0: not checked).
//
// Forced LSQR runs as many iterations as M's rank on the rank-deficient
// systems: forced on (45 iterations) it leaves the least-squares solution,
// ‖a‖ growing to 1e16 ‖a*‖ along the null space, which is why the paper's
// forced iterations need the minimum over the history. Measured (seeds
// 0-2): residuals within 3e-16 ‖h‖, projections and solutions within 3e-14;
// the tolerances leave a margin of 100 or more.
func TestSolversAgainstDense(t *testing.T) {
	tight := &elm.Stop{ATol: 1e-14, BTol: 1e-14, ConLim: 1e300}
	cases := []struct {
		name           string
		within, across bool
		solver         elm.Solver
		iters          int
		tolR, tolP     float64
		tolX           float64 // < 0: the solution is not compared
		stops          bool    // the solver must stop before iters
	}{
		{"full rank, forced LSQR", false, false, elm.LSQR{}, 45, 1e-12, 1e-10, 1e-10, false},
		{"full rank, stopping LSQR", false, false, elm.StopLSQR{Stop: *tight}, 200, 1e-12, 1e-10, 1e-10, true},
		{"full rank, block", false, false, elm.BlockLSQR{}, 45, 1e-12, 1e-10, 1e-10, false},
		{"full rank, block stopping", false, false, elm.BlockLSQR{Stop: tight}, 200, 1e-12, 1e-10, 1e-10, true},
		{"within blocks, forced LSQR, rank iterations", true, false, elm.LSQR{}, 9, 1e-12, 1e-10, 1e-10, false},
		{"across blocks, forced LSQR, rank iterations", false, true, elm.LSQR{}, 10, 1e-12, 1e-10, 1e-10, false},
		{"across blocks, block", false, true, elm.BlockLSQR{}, 10, 1e-12, 1e-10, -1, false},
		{"within blocks, stopping LSQR", true, false, elm.StopLSQR{Stop: *tight}, 200, 1e-12, 1e-10, 1e-10, true},
		{"within blocks, block", true, false, elm.BlockLSQR{}, 45, 1e-12, 1e-10, -1, false},
		{"within blocks, block stopping", true, false, elm.BlockLSQR{Stop: tight}, 200, 1e-12, 1e-10, -1, true},
		{"across blocks, stopping LSQR", false, true, elm.StopLSQR{Stop: *tight}, 200, 1e-12, 1e-10, 1e-10, true},
		{"across blocks, block stopping", false, true, elm.BlockLSQR{Stop: tight}, 200, 1e-12, 1e-10, -1, true},
		{"full rank, LSMR", false, false, elm.StopLSQR{Stop: *tight, LSMR: true}, 200, 1e-12, 1e-10, 1e-10, true},
		{"within blocks, LSMR", true, false, elm.StopLSQR{Stop: *tight, LSMR: true}, 200, 1e-12, 1e-10, 1e-10, true},
		{"across blocks, LSMR", false, true, elm.StopLSQR{Stop: *tight, LSMR: true}, 200, 1e-12, 1e-10, 1e-10, true},
		{"within blocks, block LSMR", true, false, elm.BlockLSQR{Stop: tight, LSMR: true}, 200, 1e-12, 1e-10, -1, true},
		{"full rank, block LSMR forced", false, false, elm.BlockLSQR{LSMR: true}, 45, 1e-12, 1e-10, 1e-10, false},
	}
	for i, tc := range cases {
		for seed := range uint64(3) {
			a, h := lsSystem(seed, tc.within, tc.across)
			want, _ := minNorm(t, a, h)
			sol, err := tc.solver.Solve(a, h, tc.iters, nil)
			if err != nil {
				t.Fatalf("case %d (%s): %v", i, tc.name, err)
			}
			ma, mw := make([]float64, len(h)), make([]float64, len(h))
			a.MulVec(ma, sol.X)
			a.MulVec(mw, want)
			hn := floats.Norm(h, 2)
			res := math.Abs(floats.Distance(ma, h, 2) - floats.Distance(mw, h, 2))
			proj := floats.Distance(ma, mw, 2)
			dx := floats.Distance(sol.X, want, 2) / floats.Norm(want, 2)
			t.Logf("case %d (%s) seed %d: residual %.2g, projection %.2g, solution %.2g, %d iterations, %s", i, tc.name, seed, res/hn, proj/hn, dx, sol.Iterations, sol.Status)
			if !(res <= tc.tolR*hn) {
				t.Errorf("case %d (%s) seed %d: residual differs by %.3g ‖h‖, want <= %.3g", i, tc.name, seed, res/hn, tc.tolR)
			}
			if !(proj <= tc.tolP*hn) {
				t.Errorf("case %d (%s) seed %d: ‖M a − M a*‖ = %.3g ‖h‖, want <= %.3g", i, tc.name, seed, proj/hn, tc.tolP)
			}
			if tc.tolX >= 0 && !(dx <= tc.tolX) {
				t.Errorf("case %d (%s) seed %d: ‖a − a*‖ = %.3g ‖a*‖, want <= %.3g", i, tc.name, seed, dx, tc.tolX)
			}
			if tc.stops != (sol.Iterations < tc.iters) {
				t.Errorf("case %d (%s) seed %d: %d of %d iterations (status %s), want stopped early: %v", i, tc.name, seed, sol.Iterations, tc.iters, sol.Status, tc.stops)
			}
		}
	}
}

// TestBlockLSQRSystem solves ELM-FBPINN systems, one- and multilevel, with
// the block preconditioner: two solves give the same bits, the first
// iterate reported is zero and the last the answer, a forced run runs every
// iteration and a stopping one stops before 3000 with LSQR's status, and
// the error after 1000 iterations is below a third of the paper's LSQR's
// (measured, ω0 = 40, K = 12: one level 2.5e-5 against 1.7e-3, three
// levels 5.4e-5 against 6.5e-4).
func TestBlockLSQRSystem(t *testing.T) {
	cases := []struct {
		name string
		J    []int
	}{{"one level", []int{20}}, {"three levels", []int{1, 5, 10}}}
	for i, tc := range cases {
		s, err := elm.Build(&problem.Oscillator{Omega0: 40}, elm.Config{J: tc.J, K: 12, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		var first, last []float64
		sol, err := elm.BlockLSQR{}.Solve(s.M, s.RHS, 1000, func(itn int, x []float64) {
			if itn == 0 {
				first = slices.Clone(x)
			}
			last = slices.Clone(x)
		})
		if err != nil {
			t.Fatal(err)
		}
		again, err := elm.BlockLSQR{}.Solve(s.M, s.RHS, 1000, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(sol.X, again.X) {
			t.Errorf("case %d (%s): two block-preconditioned solves differ", i, tc.name)
		}
		if floats.Norm(first, 2) != 0 || !slices.Equal(last, sol.X) || sol.Iterations != 1000 {
			t.Errorf("case %d (%s): first iterate norm %g (want 0), last reported = answer %v, %d iterations (want 1000)",
				i, tc.name, floats.Norm(first, 2), slices.Equal(last, sol.X), sol.Iterations)
		}
		block, err := s.Solve(&elm.Settings{Iters: 1000, Solver: elm.BlockLSQR{}})
		if err != nil {
			t.Fatal(err)
		}
		plain, err := s.Solve(&elm.Settings{Iters: 1000})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("case %d (%s): e_L1 after 1000 iterations: block %.3g, LSQR %.3g; %s", i, tc.name, block.Final, plain.Final, block.Status)
		if !(block.Final < plain.Final/3) {
			t.Errorf("case %d (%s): block-preconditioned e_L1 %.3g, want below a third of LSQR's %.3g", i, tc.name, block.Final, plain.Final)
		}
		stop, err := s.Solve(&elm.Settings{Iters: 3000, Solver: elm.BlockLSQR{Stop: &elm.Stop{}}})
		if err != nil {
			t.Fatal(err)
		}
		last1 := stop.History[len(stop.History)-1].Iter
		if last1 >= 3000 || !strings.HasPrefix(stop.Status, "ResidualSmall") && !strings.HasPrefix(stop.Status, "LeastSquaresSmall") {
			t.Errorf("case %d (%s): the stopping run ended at iteration %d with %q; want before 3000 by a residual test", i, tc.name, last1, stop.Status)
		}
	}
}

// TestTimedHistory checks Settings.Timed: each record carries the seconds
// since Solve began, positive and non-decreasing, and the iterations and
// errors are those of an untimed solve, whose records carry no time.
func TestTimedHistory(t *testing.T) {
	s, err := elm.Build(&problem.Oscillator{Omega0: 20}, elm.Config{J: []int{5}, K: 6, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	timed, err := s.Solve(&elm.Settings{Iters: 300, Every: 50, Timed: true, Solver: elm.BlockLSQR{}})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := s.Solve(&elm.Settings{Iters: 300, Every: 50, Solver: elm.BlockLSQR{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(timed.History) != len(plain.History) {
		t.Fatalf("%d timed records, %d untimed; want equal", len(timed.History), len(plain.History))
	}
	for i, r := range timed.History {
		p := plain.History[i]
		if r.Iter != p.Iter || r.EL1 != p.EL1 || p.T != 0 {
			t.Errorf("record %d: timed %+v, untimed %+v; want the same iteration and error, and no time untimed", i, r, p)
		}
		if !(r.T > 0) || i > 0 && r.T < timed.History[i-1].T {
			t.Errorf("record %d: t = %g after %g, want positive and non-decreasing", i, r.T, timed.History[max(i-1, 0)].T)
		}
	}
}

// TestHeldOut checks the held-out rows and the rule that stops on them.
// System.HeldOut: as many columns as M, and one row per point of the
// finer grid (J+1) that the fit does not use. The rule, on a
// Laplace system whose block-preconditioned LSQR semi-converges: it halts
// long before the iteration limit, returns the iterate of its least
// held-out residual (bit for bit the one reported at Solution.At), and
// System.Solve's Final is that iterate's test error, within a factor 1.5
// of the least over the history (measured: 1.19), which the rule never
// saw.
func TestHeldOut(t *testing.T) {
	s, err := elm.Build(&problem.Laplace{NOmega: 1}, elm.Config{J: []int{4}, K: 16, Seed: 0})
	if err != nil {
		t.Fatal(err)
	}
	hm, hh, err := s.HeldOut()
	if err != nil {
		t.Fatal(err)
	}
	rows, cols := hm.Dims()
	if mrows, mcols := s.M.Dims(); cols != mcols || rows != len(hh) || rows <= mrows/2 {
		t.Fatalf("held-out rows %d x %d with %d right-hand sides; want %d columns, more than half of M's %d rows", rows, cols, len(hh), mcols, mrows)
	}
	fit := map[[2]float64]bool{}
	for _, c := range s.Constraints {
		for i := 0; i < len(c.Points); i += 2 {
			fit[[2]float64{c.Points[i], c.Points[i+1]}] = true
		}
	}
	fresh, shared := 0, 0 // the points of the grid of J+1 = 5 not in the fit, and in it
	for _, c := range s.Problem.Constraints(5, 16) {
		for i := 0; i < len(c.Points); i += 2 {
			if fit[[2]float64{c.Points[i], c.Points[i+1]}] {
				shared++
			} else {
				fresh++
			}
		}
	}
	if rows != fresh || shared == 0 {
		t.Errorf("%d held-out rows; want the %d points of the finer grid that the fit does not use (%d it does are left out)", rows, fresh, shared)
	}
	var iterates = map[int][]float64{}
	var sol *elm.Solution
	solver := elm.BlockLSQR{HeldOut: &elm.HeldOut{M: hm, H: hh, Patience: 5}}
	sol, err = solver.Solve(s.M, s.RHS, 5000, func(itn int, x []float64) {
		if itn%100 == 0 {
			iterates[itn] = slices.Clone(x)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !(sol.At > 0 && sol.At < sol.Iterations && sol.Iterations < 5000) || !strings.Contains(sol.Status, "Halted") {
		t.Fatalf("stopped at %d, returned the iterate of %d, status %q; want halted well before 5000, an earlier iterate", sol.Iterations, sol.At, sol.Status)
	}
	if !slices.Equal(sol.X, iterates[sol.At]) {
		t.Errorf("the returned coefficients are not the iterate reported at iteration %d", sol.At)
	}
	res, err := s.Solve(&elm.Settings{Iters: 5000, Solver: solver})
	if err != nil {
		t.Fatal(err)
	}
	pred := make([]float64, len(s.Exact))
	s.Test.MulVec(pred, res.Coef)
	if e := metric.EL1(pred, s.Exact); res.Final != e || !(res.Final <= 1.5*res.Best.EL1) {
		t.Errorf("final e_L1 %.4g (of the coefficients: %.4g), least over the history %.4g; want equal and within 1.5 of the least", res.Final, e, res.Best.EL1)
	}
}

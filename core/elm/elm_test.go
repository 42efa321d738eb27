package elm_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"

	"elmfbpinn/core/elm"
	"elmfbpinn/core/jet"
	"elmfbpinn/core/metric"
	"elmfbpinn/core/problem"
	"elmfbpinn/core/sparse"
)

// Finite differences of the column functions. First derivatives: central
// differences with step 1e-6 (truncation ~h² f”'/6 ≈ 1e-12·300/6, round-off
// ~eps |f|/h ≈ 2e-10 |f|). Second derivatives: central second differences
// (fd.Central2nd) at steps h = 1e-3 and h/2 combined by one Richardson step,
// (4 D(h/2) - D(h))/3, which cancels the h² term: the plain second
// difference is limited to ~1e-6 absolute here because its truncation
// h² f””/12 with f”” ~ (π/s)⁴ ≈ 1800 (window half-width s ≈ 0.48) does not
// shrink relative to f” where f” is small. With Richardson the error is
// ~h⁴ f⁽⁶⁾/360 + 5 eps |f|/(h/2)² ≈ 1e-8 |f|, and the tolerance below is
// 1e-6 relative to the sum of the magnitudes of the operator's terms.
// Points within 5e-3 of a subdomain edge, where the columns are only C³, are
// skipped (none are, for the systems below).
var fd1 = &fd.Settings{Formula: fd.Central, Step: 1e-6}

func secondDerivative(f func(float64) float64, x float64) float64 {
	const h = 1e-3
	d1 := fd.Derivative(f, x, &fd.Settings{Formula: fd.Central2nd, Step: h})
	d2 := fd.Derivative(f, x, &fd.Settings{Formula: fd.Central2nd, Step: h / 2})
	return (4*d2 - d1) / 3
}

// columnValue returns the value of column col of the model at the point x,
// read from the dense form of Values([x]).
func columnValue(t *testing.T, s *elm.System, col int, x []float64) float64 {
	v, err := s.Values(x)
	if err != nil {
		t.Fatalf("Values(%v): %v", x, err)
	}
	return v.Dense().At(0, col)
}

// fdColumnJet returns the fd jet of column col at x.
func fdColumnJet(t *testing.T, s *elm.System, col int, x []float64) jet.Jet {
	dim := len(x)
	var j jet.Jet
	j.V = columnValue(t, s, col, x)
	y := make([]float64, dim)
	for i := range dim {
		f := func(v float64) float64 {
			copy(y, x)
			y[i] = v
			return columnValue(t, s, col, y)
		}
		j.D1[i] = fd.Derivative(f, x[i], fd1)
		j.D2[i] = secondDerivative(f, x[i])
	}
	return j
}

func absJet(j jet.Jet) jet.Jet {
	a := jet.Jet{V: math.Abs(j.V)}
	for i := range jet.MaxDim {
		a.D1[i], a.D2[i] = math.Abs(j.D1[i]), math.Abs(j.D2[i])
	}
	return a
}

// TestAssembledColumns checks entries of the system matrix against the
// constraint operators applied to fd derivatives of the column functions:
//
//	M[row, col] = sqrt(λ/N) · Op(jet of x ↦ Values(x)[0, col]) at the row's point.
func TestAssembledColumns(t *testing.T) {
	cases := []struct {
		name string
		p    problem.Problem
		c    elm.Config
	}{
		{"oscillator ω0=20 J=[4] K=3", &problem.Oscillator{Omega0: 20}, elm.Config{J: []int{4}, K: 3, Seed: 1}},
		{"oscillator ω0=20 J=[1,2,4] K=3", &problem.Oscillator{Omega0: 20}, elm.Config{J: []int{1, 2, 4}, K: 3, Seed: 2}},
		{"laplace n_ω=1 J=[3] K=3 (hard ansatz)", &problem.Laplace{NOmega: 1}, elm.Config{J: []int{3}, K: 3, Seed: 3}},
		{"helmholtz ω=1 J=[4] K=3", &problem.Helmholtz{Omega: 1}, elm.Config{J: []int{4}, K: 3, Seed: 4}},
	}
	for ci, tc := range cases {
		s, err := elm.Build(tc.p, tc.c)
		if err != nil {
			t.Fatalf("case %d (%s): Build: %v", ci, tc.name, err)
		}
		dim := tc.p.Dim()
		dense := s.M.Dense()
		rows, cols := dense.Dims()
		nb := tc.c.K + 1
		if cols != len(s.Decomposition.Subdomains)*nb || s.Cols() != cols {
			t.Errorf("case %d (%s): %d columns (Cols() %d), want %d subdomains × %d", ci, tc.name, cols, s.Cols(), len(s.Decomposition.Subdomains), nb)
		}
		if len(s.Bases) != len(s.Decomposition.Subdomains) {
			t.Errorf("case %d (%s): %d bases for %d subdomains", ci, tc.name, len(s.Bases), len(s.Decomposition.Subdomains))
		}
		// Rows are the constraints' points stacked in order; RHS is
		// scaled like the rows.
		off := 0
		checked := 0
		for _, con := range s.Constraints {
			n := con.N(dim)
			scale := math.Sqrt(con.Weight / float64(n))
			for i := range n {
				if got, want := s.RHS[off+i], scale*con.RHS[i]; math.Abs(got-want) > 1e-15*math.Abs(want) {
					t.Errorf("case %d (%s): RHS[%d] = %g, want sqrt(λ/N)·%g = %g", ci, tc.name, off+i, got, con.RHS[i], want)
				}
			}
			// A few rows of every constraint: first, last and some in
			// between.
			sel := []int{0, n - 1, n / 3, (2 * n) / 3}
			slices.Sort(sel)
			sel = slices.Compact(sel)
			for _, i := range sel {
				row := off + i
				x := con.Points[i*dim : (i+1)*dim]
				// Columns: the non-zero entries of the row (up to 6,
				// spread out) and one structurally zero column if any.
				var nz, zero []int
				for c := range cols {
					if dense.At(row, c) != 0 {
						nz = append(nz, c)
					} else {
						zero = append(zero, c)
					}
				}
				// A row may be zero: with the hard ansatz A(x)A(y) the
				// Laplacian vanishes at the corners of the square. The fd
				// check below then confirms the zeros.
				var pick []int
				for q := 0; q < 6 && len(nz) > 0; q++ {
					pick = append(pick, nz[q*len(nz)/6])
				}
				if len(nz) == 0 {
					pick = append(pick, 0, cols-1)
				}
				if len(zero) > 0 {
					pick = append(pick, zero[len(zero)/2])
				}
				slices.Sort(pick)
				pick = slices.Compact(pick)
				if d := s.Decomposition.EdgeDistance(x); d < 5e-3 {
					t.Logf("case %d (%s): skipping row %d at %v, %.2g from a subdomain edge", ci, tc.name, row, x, d)
					continue
				}
				for _, col := range pick {
					j := fdColumnJet(t, s, col, x)
					want := scale * con.Op(j)
					tol := 1e-6*scale*con.Op(absJet(j)) + 1e-12
					if got := dense.At(row, col); math.Abs(got-want) > tol {
						t.Errorf("case %d (%s): M[%d, %d] (%s at x=%v) = %.10g, want %.10g from fd (tol %.3g)",
							ci, tc.name, row, col, con.Name, x, got, want, tol)
					}
					checked++
				}
			}
			off += n
		}
		if off != rows || len(s.RHS) != rows {
			t.Errorf("case %d (%s): %d rows and %d RHS entries, want the %d stacked constraint points", ci, tc.name, rows, len(s.RHS), off)
		}
		if checked < 10 {
			t.Errorf("case %d (%s): only %d entries checked", ci, tc.name, checked)
		}
	}
}

// TestValuesByHand recomputes the model's column values
//
//	Values(x)[q] = A(x) · (1/L) · ŵ_g(x)/Σ_{g' in level} ŵ_g'(x) · σ φ_k(x)
//
// with q = g (K+1) + k, from the subdomain boxes and the basis weights,
// independently of the assembly, and checks that putting coefficient 1 on
// every constant basis function gives û = σ A(x) (each level is a partition
// of unity and carries weight 1/L).
func TestValuesByHand(t *testing.T) {
	cases := []struct {
		name string
		p    problem.Problem
		c    elm.Config
		pts  []float64
	}{
		{"oscillator J=[1,2,4]", &problem.Oscillator{Omega0: 20}, elm.Config{J: []int{1, 2, 4}, K: 3, Seed: 2},
			[]float64{0, 0.137, 0.5, 0.91, 1}},
		{"laplace J=[1,3] hard ansatz", &problem.Laplace{NOmega: 2}, elm.Config{J: []int{1, 3}, K: 2, Seed: 3},
			[]float64{0.2, 0.3, 0.71, 0.05, 0.5, 0.5, 0.99, 0.6}},
		{"helmholtz J=[1,2,4] dropped", &problem.Helmholtz{Omega: 1}, elm.Config{J: []int{1, 2, 4}, K: 2, Seed: 4},
			[]float64{0.1, 0.2, 0.5, 0.9, 0.95, 0.3, 0.5, 0.5}},
	}
	bump := func(x, c, s float64) float64 {
		if math.Abs(x-c) > s {
			return 0
		}
		h := (1 + math.Cos(math.Pi*(x-c)/s)) / 2
		return h * h
	}
	for ci, tc := range cases {
		s, err := elm.Build(tc.p, tc.c)
		if err != nil {
			t.Fatalf("case %d (%s): %v", ci, tc.name, err)
		}
		dim := tc.p.Dim()
		d := s.Decomposition
		nl := float64(len(tc.c.J))
		sigma := tc.p.Scale()
		v, err := s.Values(tc.pts)
		if err != nil {
			t.Fatalf("case %d (%s): Values: %v", ci, tc.name, err)
		}
		dense := v.Dense()
		nb := tc.c.K + 1
		ones := make([]float64, s.Cols())
		for q := 0; q < len(ones); q += nb {
			ones[q] = 1
		}
		sum := make([]float64, len(tc.pts)/dim)
		v.MulVec(sum, ones)
		for pi := range len(tc.pts) / dim {
			x := tc.pts[pi*dim : (pi+1)*dim]
			a := 1.0
			if an, ok := tc.p.(problem.Ansatz); ok {
				a = an.Ansatz(x).V
			}
			raw := make([]float64, len(d.Subdomains))
			levelSum := make([]float64, len(tc.c.J))
			for g, sub := range d.Subdomains {
				raw[g] = 1
				for i := range dim {
					raw[g] *= bump(x[i], sub.Centre[i], sub.Half[i])
				}
				levelSum[sub.Level] += raw[g]
			}
			for g, sub := range d.Subdomains {
				b := s.Bases[g]
				w := raw[g] / levelSum[sub.Level]
				for k := range nb {
					phi := sigma
					if k > 0 {
						z := b.B[k-1]
						for i := range dim {
							z += b.W[(k-1)*dim+i] * (x[i] - sub.Centre[i]) / sub.Half[i]
						}
						phi = sigma * math.Tanh(z)
					}
					want := a * w * phi / nl
					if got := dense.At(pi, g*nb+k); math.Abs(got-want) > 1e-14 {
						t.Errorf("case %d (%s): value of column %d (subdomain %d, level %d, k %d) at %v = %.16g, want %.16g",
							ci, tc.name, g*nb+k, g, sub.Level, k, x, got, want)
					}
				}
			}
			if want := sigma * a; math.Abs(sum[pi]-want) > 1e-14 {
				t.Errorf("case %d (%s): sum of constant columns at %v = %.16g, want σ A = %.16g", ci, tc.name, x, sum[pi], want)
			}
		}
	}
}

// TestTestMatrix checks that the test matrix is Values at the problem's test
// points and Exact is the exact solution there.
func TestTestMatrix(t *testing.T) {
	p := &problem.Helmholtz{Omega: 1}
	s, err := elm.Build(p, elm.Config{J: []int{1, 4}, K: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	test := p.Test(4)
	v, err := s.Values(test)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(v.Dense(), s.Test.Dense()) {
		t.Errorf("Test matrix differs from Values(p.Test(J_fine))")
	}
	if len(s.Exact) != len(test)/2 {
		t.Fatalf("len(Exact) = %d, want %d", len(s.Exact), len(test)/2)
	}
	for i := range s.Exact {
		if s.Exact[i] != p.Exact(test[2*i:2*i+2]) {
			t.Errorf("Exact[%d] = %g, want %g", i, s.Exact[i], p.Exact(test[2*i:2*i+2]))
		}
	}
}

// TestSolveOscillatorBaseline runs the paper's oscillator baseline
// (ω0 = 80, J = 20, K = 12, 15000 LSQR iterations).
func TestSolveOscillatorBaseline(t *testing.T) {
	p := &problem.Oscillator{Omega0: 80}
	s, err := elm.Build(p, elm.Config{J: []int{20}, K: 12, Seed: 0})
	if err != nil {
		t.Fatal(err)
	}
	if m, n := s.M.Dims(); m != 260+2 || n != 20*13 {
		t.Errorf("system is %dx%d, want 262x260", m, n)
	}
	if len(s.Exact) != 1000 {
		t.Errorf("%d test points, want 1000", len(s.Exact))
	}
	res, err := s.Solve(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Best e_L1 = %.3g at iteration %d, final %.3g", res.Best.EL1, res.Best.Iter, res.Final)
	// The paper reports a median of 1.1e-4 over seeds.
	if res.Best.EL1 >= 5e-4 || math.IsNaN(res.Best.EL1) {
		t.Errorf("Best.EL1 = %.3g at iteration %d, want < 5e-4", res.Best.EL1, res.Best.Iter)
	}
	if len(res.History) != 151 {
		t.Fatalf("history has %d records, want 151 (iterations 0, 100, ..., 15000)", len(res.History))
	}
	for k, r := range res.History {
		if r.Iter != 100*k {
			t.Errorf("history[%d].Iter = %d, want %d", k, r.Iter, 100*k)
		}
	}
	// At iteration 0 the coefficients are zero: e = Σ|u|/(M ς).
	var sum float64
	for _, u := range s.Exact {
		sum += math.Abs(u)
	}
	if want := sum / (1000 * metric.PopStd(s.Exact)); math.Abs(res.History[0].EL1-want) > 1e-12*want {
		t.Errorf("history[0].EL1 = %.10g, want Σ|u|/(Mς) = %.10g", res.History[0].EL1, want)
	}
	// Best is the minimum of the history, Final its last entry and the
	// error of the returned coefficients.
	minRec := res.History[0]
	for _, r := range res.History {
		if r.EL1 < minRec.EL1 {
			minRec = r
		}
	}
	if res.Best != minRec {
		t.Errorf("Best = %+v, want the history minimum %+v", res.Best, minRec)
	}
	if res.Final != res.History[150].EL1 {
		t.Errorf("Final = %g, want the last history entry %g", res.Final, res.History[150].EL1)
	}
	if len(res.Coef) != s.Cols() {
		t.Fatalf("len(Coef) = %d, want %d", len(res.Coef), s.Cols())
	}
	pred := make([]float64, len(s.Exact))
	s.Test.MulVec(pred, res.Coef)
	if e := metric.EL1(pred, s.Exact); e != res.Final {
		t.Errorf("EL1 of Test·Coef = %g, want Final = %g", e, res.Final)
	}
	if res.LSQR == nil || res.LSQR.Iterations != 15000 {
		t.Errorf("LSQR result %+v, want 15000 iterations", res.LSQR)
	}
}

func TestSolveSettings(t *testing.T) {
	p := &problem.Oscillator{Omega0: 20}
	s, err := elm.Build(p, elm.Config{J: []int{5}, K: 4, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	// 250 iterations every 60: records at 0, 60, 120, 180, 240 and the
	// final iteration 250.
	res, err := s.Solve(&elm.Settings{Iters: 250, Every: 60})
	if err != nil {
		t.Fatal(err)
	}
	var iters []int
	for _, r := range res.History {
		iters = append(iters, r.Iter)
	}
	if want := []int{0, 60, 120, 180, 240, 250}; !slices.Equal(iters, want) {
		t.Errorf("history iterations %v, want %v", iters, want)
	}
	// Progress sees the history as each record is made, and changes
	// nothing.
	var seen []metric.Record
	watched, err := s.Solve(&elm.Settings{Iters: 250, Every: 60, Progress: func(h []metric.Record) {
		if len(h) != len(seen)+1 || !slices.Equal(h[:len(seen)], seen) {
			t.Errorf("Progress saw the history %v after %v, want one record more", h, seen)
		}
		seen = append(seen, h[len(h)-1])
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seen, res.History) || !slices.Equal(watched.History, res.History) || !slices.Equal(watched.Coef, res.Coef) {
		t.Errorf("with Progress: records seen %v, history %v, want the history %v and the same coefficients", seen, watched.History, res.History)
	}
	for _, set := range []elm.Settings{{Iters: -1}, {Every: -5}} {
		if _, err := s.Solve(&set); err == nil {
			t.Errorf("Solve(%+v): got no error, want one for negative settings", set)
		}
	}
}

func TestDeterminism(t *testing.T) {
	p := &problem.Oscillator{Omega0: 20}
	solve := func(seed uint64) []float64 {
		s, err := elm.Build(p, elm.Config{J: []int{1, 3, 6}, K: 5, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Solve(&elm.Settings{Iters: 2000})
		if err != nil {
			t.Fatal(err)
		}
		return res.Coef
	}
	a, b, c := solve(7), solve(7), solve(8)
	if len(a) != len(b) {
		t.Fatalf("lengths %d and %d differ", len(a), len(b))
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			t.Errorf("seed 7 twice: coefficient %d is %x then %x, want bit-identical", i, math.Float64bits(a[i]), math.Float64bits(b[i]))
			break
		}
	}
	if slices.Equal(a, c) {
		t.Errorf("seeds 7 and 8 gave identical coefficients")
	}
}

func TestHelmholtzMultilevelColumns(t *testing.T) {
	p := &problem.Helmholtz{Omega: 8}
	s, err := elm.Build(p, elm.Config{J: []int{1, 8, 16}, K: 16, Seed: 0})
	if err != nil {
		t.Fatal(err)
	}
	// Kept subdomains 1 + 48 + 192 = 241, each with K+1 = 17 columns.
	if got, want := s.Cols(), (1+48+192)*17; got != want {
		t.Errorf("Cols() = %d, want %d", got, want)
	}
	if got := s.Decomposition.Count(); !slices.Equal(got, []int{1, 48, 192}) {
		t.Errorf("Count() = %v, want [1 48 192]", got)
	}
	if m, _ := s.M.Dims(); m != 4800+320 {
		t.Errorf("%d rows, want 4800 + 320", m)
	}
}

// denseByProducts builds the dense form of an operator from its products
// with unit vectors, independently of BlockSparse.Dense.
func denseByProducts(a *sparse.BlockSparse) *mat.Dense {
	m, n := a.Dims()
	d := mat.NewDense(m, n, nil)
	e := make([]float64, n)
	col := make([]float64, m)
	for j := range n {
		clear(e)
		e[j] = 1
		a.MulVec(col, e)
		d.SetCol(j, col)
	}
	return d
}

func TestKappa(t *testing.T) {
	p := &problem.Oscillator{Omega0: 20}
	s, err := elm.Build(p, elm.Config{J: []int{3}, K: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	k, err := elm.Kappa(s.M)
	if err != nil {
		t.Fatal(err)
	}
	if math.IsInf(k, 0) || math.IsNaN(k) || k < 1 {
		t.Fatalf("Kappa = %g, want finite and >= 1", k)
	}
	var svd mat.SVD
	if !svd.Factorize(denseByProducts(s.M), mat.SVDNone) {
		t.Fatal("gonum SVD failed")
	}
	v := svd.Values(nil)
	want := v[0] / v[len(v)-1] // values are in decreasing order
	if math.Abs(k-want) > 1e-8*want {
		t.Errorf("Kappa = %.12g, want s_max/s_min = %.12g from gonum's SVD", k, want)
	}

	// Hand cases: a block-diagonal matrix with singular values 3, 0.5, 2
	// (cond 6) and a rank-deficient one (+Inf).
	a := sparse.New(3, 3, []sparse.Shape{{Rows: []int32{0, 1}, Col0: 0, NCol: 2}, {Rows: []int32{2}, Col0: 2, NCol: 1}})
	copy(a.Block(0), []float64{3, 0, 0, -0.5})
	copy(a.Block(1), []float64{2})
	if k, err := elm.Kappa(a); err != nil || math.Abs(k-6) > 1e-14 {
		t.Errorf("Kappa(diag(3, -0.5, 2)) = %g, %v, want 6", k, err)
	}
	copy(a.Block(0), []float64{1, 2, 2, 4}) // rank 1 block
	if k, err := elm.Kappa(a); err != nil || !(k > 1e15) {
		t.Errorf("Kappa of a rank-deficient matrix = %g, %v, want +Inf (or > 1e15 from round-off)", k, err)
	}
}

func TestBuildErrors(t *testing.T) {
	osc := &problem.Oscillator{Omega0: 20}
	cases := []struct {
		name string
		c    elm.Config
	}{
		{"K=0", elm.Config{J: []int{4}, K: 0}},
		{"K<0", elm.Config{J: []int{4}, K: -3}},
		{"J=[0]", elm.Config{J: []int{0}, K: 3}},
		{"J contains 0", elm.Config{J: []int{1, 0, 4}, K: 3}},
		{"no levels", elm.Config{J: nil, K: 3}},
		{"negative delta", elm.Config{J: []int{4}, K: 3, Delta: -1}},
		{"negative R", elm.Config{J: []int{4}, K: 3, R: -1}},
	}
	for i, tc := range cases {
		if _, err := elm.Build(osc, tc.c); err == nil {
			t.Errorf("case %d (%s): Build succeeded, want an error", i, tc.name)
		}
	}
	s, err := elm.Build(osc, elm.Config{J: []int{4}, K: 3})
	if err != nil {
		t.Fatal(err)
	}
	// δ = 2.9 on [0, 1] with J = 4: subdomains reach to 1 + 0.4833; t = 2 is
	// in none.
	if _, err := s.Values([]float64{0.5, 2}); err == nil {
		t.Errorf("Values at a point outside every subdomain: got no error, want one")
	}
}

// Example builds and solves a small oscillator model and reports its size.
func Example() {
	s, err := elm.Build(&problem.Oscillator{Omega0: 20}, elm.Config{J: []int{5}, K: 4, Seed: 1})
	if err != nil {
		panic(err)
	}
	res, err := s.Solve(&elm.Settings{Iters: 1000})
	if err != nil {
		panic(err)
	}
	m, n := s.M.Dims()
	fmt.Println(m, n, len(res.History), res.Best.EL1 < 0.1)
	// Output: 27 25 11 true
}

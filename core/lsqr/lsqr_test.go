package lsqr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// denseOp is a dense row-major Operator backed by a *mat.Dense. Its
// products are plain loops so that they do not allocate.
type denseOp struct {
	a *mat.Dense
}

func (d denseOp) Dims() (m, n int) { return d.a.Dims() }

func (d denseOp) MulVec(dst, x []float64) {
	raw := d.a.RawMatrix()
	if len(dst) != raw.Rows || len(x) != raw.Cols {
		panic("denseOp.MulVec: length mismatch")
	}
	for i := range dst {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		var s float64
		for j, aij := range row {
			s += aij * x[j]
		}
		dst[i] = s
	}
}

func (d denseOp) MulTransVec(dst, x []float64) {
	raw := d.a.RawMatrix()
	if len(dst) != raw.Cols || len(x) != raw.Rows {
		panic("denseOp.MulTransVec: length mismatch")
	}
	for j := range dst {
		dst[j] = 0
	}
	for i, xi := range x {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for j, aij := range row {
			dst[j] += aij * xi
		}
	}
}

// randDense returns an m×n matrix with standard normal entries plus shift
// on the diagonal.
func randDense(rng *rand.Rand, m, n int, shift float64) *mat.Dense {
	a := mat.NewDense(m, n, nil)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			v := rng.NormFloat64()
			if i == j {
				v += shift
			}
			a.Set(i, j, v)
		}
	}
	return a
}

func randVec(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// qrSolve returns the least-squares solution of a x = b (m ≥ n) by QR.
func qrSolve(t *testing.T, a *mat.Dense, b []float64) []float64 {
	t.Helper()
	var qr mat.QR
	qr.Factorize(a)
	var x mat.Dense
	if err := qr.SolveTo(&x, false, mat.NewDense(len(b), 1, b)); err != nil {
		t.Fatalf("QR solve failed: %v", err)
	}
	return mat.Col(nil, 0, &x)
}

// minNormSolve returns the minimum-norm least-squares solution of
// a x = b via the SVD (pseudo-inverse).
func minNormSolve(t *testing.T, a *mat.Dense, b []float64) []float64 {
	t.Helper()
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDThin) {
		t.Fatal("SVD factorization failed")
	}
	var x mat.VecDense
	svd.SolveVecTo(&x, mat.NewVecDense(len(b), b), svd.Rank(1e-12))
	return mat.Col(nil, 0, &x)
}

func norm(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

// relDiff returns ‖x - y‖ / ‖y‖.
func relDiff(x, y []float64) float64 {
	if len(x) != len(y) {
		panic("relDiff: length mismatch")
	}
	d := make([]float64, len(x))
	for i := range x {
		d[i] = x[i] - y[i]
	}
	return norm(d) / norm(y)
}

// residual returns b - A x.
func residual(op Operator, x, b []float64) []float64 {
	m, _ := op.Dims()
	r := make([]float64, m)
	op.MulVec(r, x)
	for i := range r {
		r[i] = b[i] - r[i]
	}
	return r
}

func allFinite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

func TestLSQRForceMatchesQR(t *testing.T) {
	const tol = 1e-8
	for _, tc := range []struct {
		name       string
		m, n       int
		shift      float64 // added to the diagonal
		consistent bool    // b = A x_true instead of random b
		iterMul    int     // IterLim = iterMul * n
		seed       uint64
	}{
		{name: "40x10", m: 40, n: 10, iterMul: 4, seed: 1},
		{name: "200x60", m: 200, n: 60, iterMul: 4, seed: 2},
		{name: "square60", m: 60, n: 60, shift: 25, iterMul: 4, seed: 3},
		{name: "square60-consistent", m: 60, n: 60, shift: 25, consistent: true, iterMul: 4, seed: 4},
		{name: "tall1000x20", m: 1000, n: 20, iterMul: 3, seed: 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(tc.seed, 99))
			a := randDense(rng, tc.m, tc.n, tc.shift)
			var b []float64
			if tc.consistent {
				b = make([]float64, tc.m)
				denseOp{a}.MulVec(b, randVec(rng, tc.n))
			} else {
				b = randVec(rng, tc.m)
			}
			want := qrSolve(t, a, b)
			iterLim := tc.iterMul * tc.n
			res, err := LSQR(denseOp{a}, b, &Settings{Force: true, IterLim: iterLim})
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if res.Status != IterLimit || res.Iterations != iterLim {
				t.Errorf("got status %v after %d iterations, want IterLimit after %d", res.Status, res.Iterations, iterLim)
			}
			if d := relDiff(res.X, want); !(d <= tol) {
				t.Errorf("‖x - x_qr‖/‖x_qr‖ = %.3g, want ≤ %g", d, tol)
			}
			r := residual(denseOp{a}, res.X, b)
			if d := math.Abs(res.R2Norm-norm(r)) / norm(b); !(d <= tol) {
				t.Errorf("|R2Norm - ‖b-Ax‖|/‖b‖ = %.3g, want ≤ %g", d, tol)
			}
		})
	}
}

func TestLSQRConverges(t *testing.T) {
	const (
		tol      = 1e-8 // R2Norm vs the true residual norm
		xnormTol = 1e-6 // XNorm vs ‖x‖
	)
	for _, tc := range []struct {
		name       string
		m, n       int
		shift      float64
		consistent bool
		seed       uint64
	}{
		{name: "40x10", m: 40, n: 10, seed: 11},
		{name: "200x60", m: 200, n: 60, seed: 12},
		{name: "square60-consistent", m: 60, n: 60, shift: 25, consistent: true, seed: 13},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(tc.seed, 7))
			a := randDense(rng, tc.m, tc.n, tc.shift)
			op := denseOp{a}
			var b []float64
			if tc.consistent {
				b = make([]float64, tc.m)
				op.MulVec(b, randVec(rng, tc.n))
			} else {
				b = randVec(rng, tc.m)
			}
			res, err := LSQR(op, b, &Settings{ATol: 1e-10, BTol: 1e-10})
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if res.Status != ResidualSmall && res.Status != LeastSquaresSmall {
				t.Fatalf("status %v after %d iterations, want ResidualSmall or LeastSquaresSmall", res.Status, res.Iterations)
			}
			if res.Iterations >= 2*tc.n {
				t.Errorf("took %d iterations, want fewer than the default limit %d", res.Iterations, 2*tc.n)
			}
			r := residual(op, res.X, b)
			rn := norm(r)
			// For a consistent system ‖r‖ is tiny and only its size
			// relative to ‖b‖ is meaningful.
			scale := rn
			if tc.consistent {
				scale = norm(b)
			}
			if d := math.Abs(res.R2Norm-rn) / scale; !(d <= tol) {
				t.Errorf("R2Norm = %.17g, ‖b-Ax‖ = %.17g: relative difference %.3g, want ≤ %g", res.R2Norm, rn, d, tol)
			}
			if res.R1Norm != res.R2Norm {
				t.Errorf("R1Norm = %v, R2Norm = %v: want equal without damping", res.R1Norm, res.R2Norm)
			}
			// At convergence ‖Aᵀr‖ is at rounding level; the estimate and
			// the truth need only both be small compared to ‖A‖‖r‖ (or
			// ‖A‖‖b‖ for a consistent system).
			atr := make([]float64, tc.n)
			op.MulTransVec(atr, r)
			bound := 1e-8 * res.ANorm * scale
			if res.ARNorm > bound || norm(atr) > bound {
				t.Errorf("ARNorm = %.3g, ‖Aᵀr‖ = %.3g: want both ≤ %.3g", res.ARNorm, norm(atr), bound)
			}
			if d := math.Abs(res.XNorm-norm(res.X)) / norm(res.X); !(d <= xnormTol) {
				t.Errorf("XNorm = %v, ‖x‖ = %v: relative difference %.3g, want ≤ %g", res.XNorm, norm(res.X), d, xnormTol)
			}
			if want := qrSolve(t, a, b); relDiff(res.X, want) > 1e-6 {
				t.Errorf("‖x - x_qr‖/‖x_qr‖ = %.3g, want ≤ 1e-6", relDiff(res.X, want))
			}
		})
	}
}

// TestLSQREstimatesEarly checks the ARNorm, R2Norm and XNorm estimates
// part-way through the iteration, where the true values are far from
// rounding level.
func TestLSQREstimatesEarly(t *testing.T) {
	const tol = 1e-6
	rng := rand.New(rand.NewPCG(21, 7))
	a := randDense(rng, 200, 60, 0)
	b := randVec(rng, 200)
	op := denseOp{a}
	for _, iters := range []int{1, 3, 8} {
		res, err := LSQR(op, b, &Settings{IterLim: iters})
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		if res.Status != IterLimit || res.Iterations != iters {
			t.Fatalf("IterLim %d: got %v after %d iterations, want IterLimit after %d", iters, res.Status, res.Iterations, iters)
		}
		r := residual(op, res.X, b)
		atr := make([]float64, 60)
		op.MulTransVec(atr, r)
		for _, c := range []struct {
			name      string
			est, true float64
		}{
			{"ARNorm", res.ARNorm, norm(atr)},
			{"R2Norm", res.R2Norm, norm(r)},
			{"XNorm", res.XNorm, norm(res.X)},
		} {
			if d := math.Abs(c.est-c.true) / c.true; !(d <= tol) {
				t.Errorf("IterLim %d: %s = %.17g, true %.17g: relative difference %.3g, want ≤ %g", iters, c.name, c.est, c.true, d, tol)
			}
		}
	}
}

func TestLSQRDamped(t *testing.T) {
	const tol = 1e-8
	for _, tc := range []struct {
		name string
		m, n int
		damp float64
		seed uint64
	}{
		{name: "40x10/0.5", m: 40, n: 10, damp: 0.5, seed: 31},
		{name: "200x60/3", m: 200, n: 60, damp: 3, seed: 32},
		{name: "10x30/1", m: 10, n: 30, damp: 1, seed: 33},
		{name: "60x60/1e-3", m: 60, n: 60, damp: 1e-3, seed: 34},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(tc.seed, 3))
			a := randDense(rng, tc.m, tc.n, 0)
			if tc.m == tc.n {
				a = randDense(rng, tc.m, tc.n, 25)
			}
			b := randVec(rng, tc.m)

			// Stacked system [A; damp I] x = [b; 0].
			stack := mat.NewDense(tc.m+tc.n, tc.n, nil)
			stack.Slice(0, tc.m, 0, tc.n).(*mat.Dense).Copy(a)
			for j := 0; j < tc.n; j++ {
				stack.Set(tc.m+j, j, tc.damp)
			}
			bs := make([]float64, tc.m+tc.n)
			copy(bs, b)
			want := qrSolve(t, stack, bs)

			iterLim := 4 * max(tc.m, tc.n)
			res, err := LSQR(denseOp{a}, b, &Settings{Damp: tc.damp, Force: true, IterLim: iterLim})
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if res.Status != IterLimit {
				t.Errorf("status %v, want IterLimit", res.Status)
			}
			if d := relDiff(res.X, want); !(d <= tol) {
				t.Errorf("‖x - x_stacked‖/‖x_stacked‖ = %.3g, want ≤ %g", d, tol)
			}
			r := residual(denseOp{a}, res.X, b)
			rn, xn := norm(r), norm(res.X)
			r2 := math.Hypot(rn, tc.damp*xn)
			if d := math.Abs(res.R2Norm-r2) / r2; !(d <= tol) {
				t.Errorf("R2Norm = %v, sqrt(‖r‖²+damp²‖x‖²) = %v: relative difference %.3g, want ≤ %g", res.R2Norm, r2, d, tol)
			}
			if d := math.Abs(res.R1Norm-rn) / r2; !(d <= tol) {
				t.Errorf("R1Norm = %v, ‖r‖ = %v: difference relative to R2Norm %.3g, want ≤ %g", res.R1Norm, rn, d, tol)
			}
		})
	}
}

func TestLSQRMinimumNorm(t *testing.T) {
	const tol = 1e-6
	for _, tc := range []struct {
		name string
		m, n int
		seed uint64
	}{
		{name: "10x30", m: 10, n: 30, seed: 41},
		{name: "25x60", m: 25, n: 60, seed: 42},
		{name: "1x5", m: 1, n: 5, seed: 43},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(tc.seed, 5))
			a := randDense(rng, tc.m, tc.n, 0)
			b := make([]float64, tc.m)
			denseOp{a}.MulVec(b, randVec(rng, tc.n)) // consistent
			want := minNormSolve(t, a, b)
			res, err := LSQR(denseOp{a}, b, &Settings{Force: true, IterLim: 3 * tc.n})
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !allFinite(res.X) {
				t.Fatalf("non-finite X %v", res.X)
			}
			if d := relDiff(res.X, want); !(d <= tol) {
				t.Errorf("‖x - pinv(A)b‖/‖pinv(A)b‖ = %.3g, want ≤ %g (status %v)", d, tol, res.Status)
			}
			if rn := norm(residual(denseOp{a}, res.X, b)); rn > tol*norm(b) {
				t.Errorf("‖b - Ax‖ = %.3g, want ≤ %.3g for a consistent system", rn, tol*norm(b))
			}
		})
	}
}

func TestLSQRCallback(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 1))
	a := randDense(rng, 40, 10, 0)
	b := randVec(rng, 40)

	for _, force := range []bool{true, false} {
		t.Run(fmt.Sprintf("force=%t", force), func(t *testing.T) {
			const iterLim = 25
			var (
				itns  []int
				first []float64
				last  []float64
			)
			s := &Settings{Force: force, IterLim: iterLim, Callback: func(itn int, x []float64) {
				if len(x) != 10 {
					t.Errorf("callback %d: len(x) = %d, want 10", itn, len(x))
				}
				if itn == 0 {
					first = append([]float64(nil), x...)
				}
				last = append(last[:0], x...)
				itns = append(itns, itn)
			}}
			res, err := LSQR(denseOp{a}, b, s)
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if force && res.Iterations != iterLim {
				t.Errorf("Iterations = %d, want %d when forced", res.Iterations, iterLim)
			}
			if len(itns) != res.Iterations+1 {
				t.Fatalf("callback called %d times, want Iterations+1 = %d", len(itns), res.Iterations+1)
			}
			for i, itn := range itns {
				if itn != i {
					t.Fatalf("callback itn sequence %v, want 0, 1, ..., %d", itns, res.Iterations)
				}
			}
			for i, v := range first {
				if v != 0 {
					t.Errorf("at itn 0, x[%d] = %v, want 0", i, v)
				}
			}
			for i := range last {
				if last[i] != res.X[i] {
					t.Fatalf("last callback x[%d] = %v, want Result.X[%d] = %v", i, last[i], i, res.X[i])
				}
			}
		})
	}
}

func TestLSQRZeroSolution(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    *mat.Dense
		b    []float64
	}{
		{name: "b=0", a: randDense(rand.New(rand.NewPCG(61, 1)), 8, 4, 0), b: make([]float64, 8)},
		{name: "Aᵀb=0", a: mat.NewDense(2, 2, []float64{1, 0, 0, 0}), b: []float64{0, 1}},
		{name: "empty", a: &mat.Dense{}, b: nil},
	} {
		for _, force := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/force=%t", tc.name, force), func(t *testing.T) {
				var op Operator = denseOp{tc.a}
				if tc.a.IsEmpty() {
					op = emptyOp{}
				}
				_, n := op.Dims()
				calls := 0
				res, err := LSQR(op, tc.b, &Settings{Force: force, IterLim: 10, Callback: func(int, []float64) { calls++ }})
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				if res.Status != ZeroSolution {
					t.Errorf("status %v, want ZeroSolution", res.Status)
				}
				if res.Iterations != 0 {
					t.Errorf("Iterations = %d, want 0", res.Iterations)
				}
				if calls != 1 {
					t.Errorf("callback called %d times, want once (itn 0)", calls)
				}
				if len(res.X) != n {
					t.Fatalf("len(X) = %d, want %d", len(res.X), n)
				}
				for i, v := range res.X {
					if v != 0 {
						t.Errorf("X[%d] = %v, want 0", i, v)
					}
				}
				if want := norm(tc.b); res.R1Norm != want || res.R2Norm != want {
					t.Errorf("R1Norm, R2Norm = %v, %v, want ‖b‖ = %v", res.R1Norm, res.R2Norm, want)
				}
			})
		}
	}
}

// emptyOp is a 0×0 operator.
type emptyOp struct{}

func (emptyOp) Dims() (m, n int)             { return 0, 0 }
func (emptyOp) MulVec(dst, x []float64)      {}
func (emptyOp) MulTransVec(dst, x []float64) {}

// TestLSQRBreakdown uses data for which the bidiagonalisation breaks down
// exactly in floating point (powers of two throughout).
func TestLSQRBreakdown(t *testing.T) {
	const tol = 1e-15
	eye := mat.NewDense(5, 5, nil)
	for i := 0; i < 5; i++ {
		eye.Set(i, i, 1)
	}
	for _, tc := range []struct {
		name      string
		a         *mat.Dense
		b         []float64
		want      []float64
		wantItn   int
		unforced  Status // SciPy's istop for the same problem
		wantAlpha bool   // breakdown through alfa = 0 (else beta = 0)
	}{
		{
			// ‖b‖ = 4, so u = b/4 and alfa = 1 exactly; then beta = 0.
			name: "identity5", a: eye, b: []float64{3, -1, 1, 1, 2},
			want: []float64{3, -1, 1, 1, 2}, wantItn: 1, unforced: ResidualSmall,
		},
		{
			// A = [1; 1], b = [1; 0]: beta = 1 then alfa = 0; x = 1/2.
			name: "column2x1", a: mat.NewDense(2, 1, []float64{1, 1}), b: []float64{1, 0},
			want: []float64{0.5}, wantItn: 1, unforced: LeastSquaresSmall,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := LSQR(denseOp{tc.a}, tc.b, &Settings{Force: true, IterLim: 50})
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if res.Status != Breakdown {
				t.Errorf("forced: status %v, want Breakdown", res.Status)
			}
			if res.Iterations != tc.wantItn {
				t.Errorf("forced: Iterations = %d, want %d", res.Iterations, tc.wantItn)
			}
			if !allFinite(res.X) {
				t.Fatalf("forced: X = %v contains non-finite values", res.X)
			}
			for _, v := range []float64{res.ANorm, res.ACond, res.R1Norm, res.R2Norm, res.ARNorm, res.XNorm} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("forced: non-finite estimate in %+v", *res)
					break
				}
			}
			if d := relDiff(res.X, tc.want); !(d <= tol) {
				t.Errorf("forced: X = %v, want %v (relative difference %.3g, want ≤ %g)", res.X, tc.want, d, tol)
			}

			// Unforced, SciPy's tests fire in the same iteration.
			res, err = LSQR(denseOp{tc.a}, tc.b, &Settings{IterLim: 50})
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if res.Status != tc.unforced || res.Iterations != tc.wantItn {
				t.Errorf("unforced: got %v after %d iterations, want %v after %d", res.Status, res.Iterations, tc.unforced, tc.wantItn)
			}
			if d := relDiff(res.X, tc.want); !(d <= tol) {
				t.Errorf("unforced: X = %v, want %v", res.X, tc.want)
			}
		})
	}
}

// TestLSQRNearBreakdown forces many iterations past the point where the
// Krylov space is exhausted only up to rounding: the iterate must stay
// finite and accurate.
func TestLSQRNearBreakdown(t *testing.T) {
	const tol = 1e-12
	for _, tc := range []struct {
		name string
		diag []float64
	}{
		{name: "identity", diag: []float64{1, 1, 1, 1, 1}},
		{name: "3 distinct", diag: []float64{1, 1, 2, 2, 3}},
		{name: "rank deficient", diag: []float64{1, 0, 2, 0, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.diag)
			a := mat.NewDense(n, n, nil)
			for i, d := range tc.diag {
				a.Set(i, i, d)
			}
			b := []float64{1, 2, 3, 4, 5}
			want := make([]float64, n)
			for i, d := range tc.diag {
				if d != 0 {
					want[i] = b[i] / d
				}
			}
			res, err := LSQR(denseOp{a}, b, &Settings{Force: true, IterLim: 50})
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if res.Status != Breakdown && res.Status != IterLimit {
				t.Errorf("status %v, want Breakdown or IterLimit", res.Status)
			}
			if !allFinite(res.X) {
				t.Fatalf("X = %v contains non-finite values", res.X)
			}
			if d := relDiff(res.X, want); !(d <= tol) {
				t.Errorf("X = %v, want %v (relative difference %.3g, want ≤ %g)", res.X, want, d, tol)
			}
		})
	}
}

func TestLSQRNonFiniteB(t *testing.T) {
	a := randDense(rand.New(rand.NewPCG(71, 1)), 6, 3, 0)
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		b := []float64{1, 2, 3, bad, 5, 6}
		res, err := LSQR(denseOp{a}, b, nil)
		if err == nil {
			t.Errorf("b containing %v: got nil error, want an error", bad)
		}
		if res != nil {
			t.Errorf("b containing %v: got non-nil result with error", bad)
		}
	}
}

func TestLSQRNonFiniteOperator(t *testing.T) {
	a := randDense(rand.New(rand.NewPCG(72, 1)), 6, 3, 0)
	a.Set(2, 1, math.NaN())
	res, err := LSQR(denseOp{a}, []float64{1, 2, 3, 4, 5, 6}, &Settings{Force: true, IterLim: 10})
	if err == nil {
		t.Errorf("NaN in A: got nil error and status %v, want an error", res.Status)
	}
}

func TestLSQRPanics(t *testing.T) {
	a := denseOp{randDense(rand.New(rand.NewPCG(81, 1)), 6, 3, 0)}
	for _, tc := range []struct {
		name string
		b    []float64
		s    *Settings
	}{
		{name: "short b", b: make([]float64, 5)},
		{name: "long b", b: make([]float64, 7)},
		{name: "negative IterLim", b: make([]float64, 6), s: &Settings{IterLim: -1}},
		{name: "negative Damp", b: make([]float64, 6), s: &Settings{Damp: -1}},
		{name: "NaN Damp", b: make([]float64, 6), s: &Settings{Damp: math.NaN()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				msg, ok := r.(string)
				if !ok || !strings.HasPrefix(msg, "lsqr: ") {
					t.Errorf("recovered %v, want a panic with a string starting %q", r, "lsqr: ")
				}
			}()
			LSQR(a, tc.b, tc.s)
		})
	}
}

func TestLSQRDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(91, 1))
	a := randDense(rng, 200, 60, 0)
	b := randVec(rng, 200)
	for _, s := range []*Settings{
		{Force: true, IterLim: 300},
		{ATol: 1e-10, BTol: 1e-10, Damp: 0.1},
	} {
		r1, err1 := LSQR(denseOp{a}, b, s)
		r2, err2 := LSQR(denseOp{a}, b, s)
		if err1 != nil || err2 != nil {
			t.Fatalf("unexpected errors: %v, %v", err1, err2)
		}
		for i := range r1.X {
			if math.Float64bits(r1.X[i]) != math.Float64bits(r2.X[i]) {
				t.Fatalf("X[%d] differs between runs: %v vs %v, want bit-identical", i, r1.X[i], r2.X[i])
			}
		}
		if r1.Status != r2.Status || r1.Iterations != r2.Iterations || r1.R2Norm != r2.R2Norm || r1.ACond != r2.ACond {
			t.Errorf("results differ between runs: %+v vs %+v", *r1, *r2)
		}
	}
}

// TestLSQRSciPyExamples reproduces the examples of SciPy's lsqr docstring
// with SciPy's default tolerances.
func TestLSQRSciPyExamples(t *testing.T) {
	a := denseOp{mat.NewDense(3, 2, []float64{1, 0, 1, 1, 0, 1})}
	scipyDefaults := &Settings{ATol: 1e-6, BTol: 1e-6, ConLim: 1e8}

	res, err := LSQR(a, []float64{1, 0, -1}, scipyDefaults)
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	if res.Status != ResidualSmall || res.Iterations != 1 {
		t.Errorf("b = [1 0 -1]: got %v after %d iterations, want ResidualSmall (istop 1) after 1", res.Status, res.Iterations)
	}
	if d := relDiff(res.X, []float64{1, -1}); d > 1e-15 {
		t.Errorf("b = [1 0 -1]: X = %v, want [1 -1]", res.X)
	}
	if res.R1Norm > 1e-15 {
		t.Errorf("b = [1 0 -1]: R1Norm = %v, want ≈ 4.44e-16 (SciPy)", res.R1Norm)
	}

	res, err = LSQR(a, []float64{1, 0.01, -1}, scipyDefaults)
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	if res.Status != LeastSquaresSmall {
		t.Errorf("b = [1 0.01 -1]: status %v, want LeastSquaresSmall (istop 2)", res.Status)
	}
	if d := relDiff(res.X, []float64{1 + 0.01/3, -1 + 0.01/3}); d > 1e-12 {
		t.Errorf("b = [1 0.01 -1]: X = %v, want [1.00333333 -0.99666667] (relative difference %.3g)", res.X, d)
	}
	if d := math.Abs(res.R1Norm-0.005773502691896255) / 0.005773502691896255; d > 1e-12 {
		t.Errorf("b = [1 0.01 -1]: R1Norm = %.17g, want 0.005773502691896255 (SciPy), relative difference %.3g", res.R1Norm, d)
	}
}

func TestLSQRStopLimits(t *testing.T) {
	rng := rand.New(rand.NewPCG(101, 1))

	t.Run("IterLimit", func(t *testing.T) {
		a := randDense(rng, 200, 60, 0)
		b := randVec(rng, 200)
		res, err := LSQR(denseOp{a}, b, &Settings{IterLim: 3})
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		if res.Status != IterLimit || res.Iterations != 3 {
			t.Errorf("got %v after %d iterations, want IterLimit after 3", res.Status, res.Iterations)
		}
	})

	t.Run("CondLimit", func(t *testing.T) {
		// Columns scaled from 1 to 1e-6: cond(A) ≈ 1e6.
		a := randDense(rng, 50, 20, 0)
		for j := 0; j < 20; j++ {
			s := math.Pow(10, -6*float64(j)/19)
			for i := 0; i < 50; i++ {
				a.Set(i, j, a.At(i, j)*s)
			}
		}
		b := randVec(rng, 50)
		res, err := LSQR(denseOp{a}, b, &Settings{ConLim: 100, IterLim: 1000})
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		if res.Status != CondLimit {
			t.Errorf("status %v, want CondLimit", res.Status)
		}
		if !(res.ACond > 100) {
			t.Errorf("ACond = %v at CondLimit stop, want > ConLim = 100", res.ACond)
		}
		// Forced, the same problem ignores the limit.
		res, err = LSQR(denseOp{a}, b, &Settings{ConLim: 100, IterLim: 40, Force: true})
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		if res.Status != IterLimit || res.Iterations != 40 {
			t.Errorf("forced: got %v after %d iterations, want IterLimit after 40", res.Status, res.Iterations)
		}
	})

	t.Run("machine precision", func(t *testing.T) {
		// Zero tolerances leave only the machine-precision tests.
		a := randDense(rng, 60, 60, 25)
		b := make([]float64, 60)
		denseOp{a}.MulVec(b, randVec(rng, 60))
		res, err := LSQR(denseOp{a}, b, &Settings{IterLim: 1000})
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		if res.Status != ResidualEps && res.Status != LeastSquaresEps {
			t.Errorf("status %v after %d iterations, want ResidualEps or LeastSquaresEps", res.Status, res.Iterations)
		}
	})
}

// TestLSQRHalt checks Settings.Halt: forced or not, LSQR stops at the
// first iteration where Halt returns true, with Status Halted, after
// Callback saw that iterate, and X is bit for bit the iterate of a forced
// run of that many iterations; Halt is not called at iteration 0 nor in an
// iteration whose test stopped LSQR, and a Halt that never fires changes
// nothing.
func TestLSQRHalt(t *testing.T) {
	rng := rand.New(rand.NewPCG(52, 1))
	a := randDense(rng, 40, 10, 0)
	b := randVec(rng, 40)
	ref, err := LSQR(denseOp{a}, b, &Settings{Force: true, IterLim: 6})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		force   bool
		haltAt  int // 0: never
		wantItn int
		want    Status
	}{
		{true, 6, 6, Halted},
		{false, 6, 6, Halted},
		{true, 0, 25, IterLimit},
		{true, 1, 1, Halted},
	}
	for i, tc := range cases {
		var seen, calls []int
		res, err := LSQR(denseOp{a}, b, &Settings{Force: tc.force, IterLim: 25,
			Callback: func(itn int, _ []float64) { seen = append(seen, itn) },
			Halt: func(itn int, _ []float64) bool {
				calls = append(calls, itn)
				return itn == tc.haltAt
			}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Iterations != tc.wantItn || res.Status != tc.want {
			t.Errorf("case %d: %d iterations, %s; want %d, %s", i, res.Iterations, res.Status, tc.wantItn, tc.want)
		}
		wantCalls := res.Iterations // not in an iteration a test stopped
		if res.Status != Halted {
			wantCalls--
		}
		if len(calls) != wantCalls || calls[0] != 1 || len(seen) != res.Iterations+1 {
			t.Errorf("case %d: Halt called at %v, Callback at %v; want Halt at 1..%d and Callback at 0..%d", i, calls, seen, wantCalls, res.Iterations)
		}
		if tc.haltAt == 6 && !floats.Same(res.X, ref.X) {
			t.Errorf("case %d: halted iterate %v, want the forced 6-iteration one %v", i, res.X, ref.X)
		}
	}
}

func TestStatusString(t *testing.T) {
	for _, tc := range []struct {
		s    Status
		want string
	}{
		{ZeroSolution, "ZeroSolution"},
		{ResidualSmall, "ResidualSmall"},
		{LeastSquaresSmall, "LeastSquaresSmall"},
		{CondLimit, "CondLimit"},
		{ResidualEps, "ResidualEps"},
		{LeastSquaresEps, "LeastSquaresEps"},
		{CondEps, "CondEps"},
		{IterLimit, "IterLimit"},
		{Breakdown, "Breakdown"},
		{Halted, "Halted"},
		{Status(42), "Status(42)"},
		{Status(-1), "Status(-1)"},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("Status(%d).String() = %q, want %q", int(tc.s), got, tc.want)
		}
	}
	for i := 0; i <= 7; i++ {
		if int(Status(i)) != i {
			t.Errorf("istop %d does not map to Status %d", i, i)
		}
	}
	if IterLimit != 7 {
		t.Errorf("IterLimit = %d, want SciPy's istop 7", int(IterLimit))
	}
}

// TestLSQRNoAllocsPerIteration checks that the number of allocations does
// not depend on the number of iterations, i.e. the loop does not allocate.
func TestLSQRNoAllocsPerIteration(t *testing.T) {
	rng := rand.New(rand.NewPCG(111, 1))
	op := denseOp{randDense(rng, 40, 10, 0)}
	b := randVec(rng, 40)
	var sink float64
	cb := func(itn int, x []float64) { sink += x[0] }
	allocs := func(iterLim int, force bool) float64 {
		s := &Settings{Force: force, IterLim: iterLim, Callback: cb}
		return testing.AllocsPerRun(20, func() {
			res, err := LSQR(op, b, s)
			if err != nil || (force && res.Iterations != iterLim) {
				panic(fmt.Sprintf("unexpected result %v, %v", res, err))
			}
		})
	}
	short, long := allocs(2, true), allocs(500, true)
	if short != long {
		t.Errorf("forced: %v allocations for 2 iterations, %v for 500: want equal (no allocation per iteration)", short, long)
	}
	if short > 3 {
		t.Errorf("%v allocations per call, want ≤ 3 (x, work block, Result)", short)
	}
	if s, l := allocs(2, false), allocs(500, false); s != l {
		t.Errorf("unforced: %v allocations for 2 iterations, %v for up to 500: want equal", s, l)
	}
	_ = sink
}

func BenchmarkLSQR(b *testing.B) {
	const (
		m, n    = 2000, 500
		iterLim = 100
	)
	rng := rand.New(rand.NewPCG(121, 1))
	op := denseOp{randDense(rng, m, n, 0)}
	rhs := randVec(rng, m)
	s := &Settings{Force: true, IterLim: iterLim}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LSQR(op, rhs, s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*iterLim), "ns/iter")
}

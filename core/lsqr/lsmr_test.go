package lsqr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// TestLSMRAgainstDense checks LSMR against dense least squares (gonum's QR
// for full rank, the SVD's pseudo-inverse for rank-deficient and
// underdetermined systems, QR of [A; damp I] with damping), stopped by its
// own tests at ATol = BTol = 1e-12: the solution within tolX of the
// reference (relative), the residual norm within 1e-10 of the reference's
// (relative to ‖b‖), ‖Aᵀr‖ decreasing at every iteration (its defining
// property; up to 1e-12 ‖A‖‖b‖ of rounding), and the status a residual
// test. Measured: solutions within 1.3e-15, residuals within 1e-15.
func TestLSMRAgainstDense(t *testing.T) {
	cases := []struct {
		name       string
		m, n       int
		rank       int // < n: columns rank..n-1 are combinations of the first
		damp       float64
		consistent bool
		tolX       float64
	}{
		{"overdetermined 60x15", 60, 15, 15, 0, false, 1e-12},
		{"square 30x30", 30, 30, 30, 0, true, 1e-12},
		{"rank-deficient 60x15, rank 9", 60, 15, 9, 0, false, 1e-12},
		{"underdetermined 10x30", 10, 30, 30, 0, true, 1e-12},
		{"damped 40x10", 40, 10, 10, 0.5, false, 1e-12},
	}
	for i, tc := range cases {
		rng := rand.New(rand.NewPCG(uint64(60+i), 9))
		a := randDense(rng, tc.m, tc.n, 0)
		if tc.m == tc.n {
			a = randDense(rng, tc.m, tc.n, 10)
		}
		for c := tc.rank; c < tc.n; c++ {
			for r := range tc.m {
				a.Set(r, c, a.At(r, c-tc.rank)+0.5*a.At(r, (c+1)%tc.rank))
			}
		}
		b := randVec(rng, tc.m)
		if tc.consistent {
			denseOp{a}.MulVec(b, randVec(rng, tc.n))
		}
		var want []float64
		switch {
		case tc.damp > 0:
			stack := mat.NewDense(tc.m+tc.n, tc.n, nil)
			stack.Slice(0, tc.m, 0, tc.n).(*mat.Dense).Copy(a)
			for j := range tc.n {
				stack.Set(tc.m+j, j, tc.damp)
			}
			want = qrSolve(t, stack, append(append([]float64(nil), b...), make([]float64, tc.n)...))
		case tc.rank < tc.n || tc.m < tc.n:
			want = minNormSolve(t, a, b)
		default:
			want = qrSolve(t, a, b)
		}
		var arn []float64
		res, err := LSMR(denseOp{a}, b, &Settings{Damp: tc.damp, ATol: 1e-12, BTol: 1e-12, IterLim: 10 * tc.n,
			Callback: func(_ int, x []float64) {
				r := residual(denseOp{a}, x, b)
				g := make([]float64, tc.n)
				denseOp{a}.MulTransVec(g, r)
				floats.AddScaled(g, -tc.damp*tc.damp, x)
				arn = append(arn, norm(g))
			}})
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("case %d (%s)", i, tc.name)
		t.Logf("%s: %v after %d, dx %.3g", name, res.Status, res.Iterations, relDiff(res.X, want))
		if d := relDiff(res.X, want); !(d <= tc.tolX) {
			t.Errorf("%s: ‖x − x*‖/‖x*‖ = %.3g, want <= %.3g (status %v after %d)", name, d, tc.tolX, res.Status, res.Iterations)
		}
		rg, rw := norm(residual(denseOp{a}, res.X, b)), norm(residual(denseOp{a}, want, b))
		if d := math.Abs(rg-rw) / norm(b); !(d <= 1e-10) {
			t.Errorf("%s: ‖r‖ = %.17g, reference %.17g: differ by %.3g ‖b‖, want <= 1e-10", name, rg, rw, d)
		}
		anb := mat.Norm(a, 2) * norm(b)
		for k := 1; k < len(arn); k++ {
			if arn[k] > arn[k-1]+1e-12*anb {
				t.Errorf("%s: ‖Aᵀr‖ rose from %.3g to %.3g at iteration %d; LSMR's decreases", name, arn[k-1], arn[k], k)
				break
			}
		}
		if res.Status != ResidualSmall && res.Status != LeastSquaresSmall {
			t.Errorf("%s: status %v after %d iterations, want a residual test", name, res.Status, res.Iterations)
		}
	}
}

// TestLSMRForceAndHalt checks the Settings LSMR shares with LSQR: forced
// runs exactly IterLim iterations, reports every iterate to Callback (0 is
// the zero vector, the last is X), Halt stops it with Halted, and a zero
// right-hand side is ZeroSolution without an iteration; two runs give the
// same bits.
func TestLSMRForceAndHalt(t *testing.T) {
	rng := rand.New(rand.NewPCG(70, 1))
	a := randDense(rng, 40, 10, 0)
	b := randVec(rng, 40)
	var calls int
	var first, last []float64
	res, err := LSMR(denseOp{a}, b, &Settings{Force: true, IterLim: 30, Callback: func(itn int, x []float64) {
		if itn == 0 {
			first = append([]float64(nil), x...)
		}
		last = append(last[:0], x...)
		calls++
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Iterations != 30 || res.Status != IterLimit || calls != 31 || norm(first) != 0 || !floats.Same(last, res.X) {
		t.Errorf("forced: %d iterations, %v, %d callbacks, first ‖x‖ %g, last = X %v; want 30, IterLimit, 31, 0, true",
			res.Iterations, res.Status, calls, norm(first), floats.Same(last, res.X))
	}
	again, _ := LSMR(denseOp{a}, b, &Settings{Force: true, IterLim: 30})
	if !floats.Same(again.X, res.X) {
		t.Errorf("two forced runs differ")
	}
	h, _ := LSMR(denseOp{a}, b, &Settings{Force: true, IterLim: 30, Halt: func(itn int, _ []float64) bool { return itn == 4 }})
	f4, _ := LSMR(denseOp{a}, b, &Settings{Force: true, IterLim: 4})
	if h.Status != Halted || h.Iterations != 4 || !floats.Same(h.X, f4.X) {
		t.Errorf("halted at 4: %v after %d, same as forced 4: %v; want Halted, 4, true", h.Status, h.Iterations, floats.Same(h.X, f4.X))
	}
	z, _ := LSMR(denseOp{a}, make([]float64, 40), nil)
	if z.Status != ZeroSolution || z.Iterations != 0 || norm(z.X) != 0 {
		t.Errorf("b = 0: %v after %d, ‖x‖ %g; want ZeroSolution, 0, 0", z.Status, z.Iterations, norm(z.X))
	}
}

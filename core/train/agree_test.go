package train

import (
	"math"
	"testing"

	"elmfbpinn/core/elm"
	"elmfbpinn/core/problem"
)

// TestFBPINNReproducesELM gives every subdomain network of an FBPINN the
// ELM-FBPINN's random features as its hidden layer (W_1 = W, b_1 = b of
// the subdomain's basis) and the ELM-FBPINN's solved coefficients as its
// output layer (w_2 = a_1..a_K, b_2 = a_0), and checks that the FBPINN's
// prediction at the test points and its operator rows at the collocation
// points are the ELM-FBPINN's, Test a and M a (row i scaled back by
// sqrt(λ/N)).
//
// Both compute the same sums of products in another order: the hidden
// values t_k are the same bits (the same normalisation, FMA chain and
// tanh), but the ELM-FBPINN forms each column, weight jet ⊗ σ φ_k, and sums
// the columns times a_k, while the network sums Σ a_k t_k and its jets
// first and multiplies by the weight jet (σ included) last. Each way rounds
// every term a few times and adds at most (K+1) S terms per row (S the
// subdomains covering the point), so the two differ by at most about
// 2 (K+1) S u times the sum of the magnitudes of the terms, u = 2⁻⁵³, the
// worst case of the usual bound of a sum's rounding. The test allows that
// per row, 2 (K+1) S u Σ_q |M_iq a_q|: relative to the magnitudes, not the
// value, because the solved coefficients are large and cancel (κ(M) is
// huge). Measured, the differences are 1 to 2 u of Σ|terms|, 15 to 60
// times below the bound. A missing 1/L, a window, σ, the ansatz or a
// constraint weight applied differently, or a feature matched to the wrong
// subdomain, is an error of order one instead. The losses then agree to
// the bound the rows' differences imply.
func TestFBPINNReproducesELM(t *testing.T) {
	cases := []struct {
		name string
		p    problem.Problem
		j    []int
		k    int
	}{
		{"oscillator J=[5] single-level", &problem.Oscillator{Omega0: 20}, []int{5}, 6},
		{"oscillator J=[1,2,4] multilevel", &problem.Oscillator{Omega0: 20}, []int{1, 2, 4}, 6},
		{"laplace J=[3] single-level, hard ansatz, σ=0.75", &problem.Laplace{NOmega: 2}, []int{3}, 8},
		{"laplace J=[1,2,4] multilevel, hard ansatz", &problem.Laplace{NOmega: 2}, []int{1, 2, 4}, 5},
		{"helmholtz J=[1,4] multilevel, L-shape, soft boundary", &problem.Helmholtz{Omega: 2}, []int{1, 4}, 6},
	}
	const u = 0x1p-53
	for _, tc := range cases {
		sys, err := elm.Build(tc.p, elm.Config{J: tc.j, K: tc.k, Seed: 11})
		if err != nil {
			t.Fatalf("%s: elm.Build: %v", tc.name, err)
		}
		sol, err := sys.Solve(&elm.Settings{Iters: 400})
		if err != nil {
			t.Fatalf("%s: Solve: %v", tc.name, err)
		}
		a := sol.Coef
		m, _, err := buildFBPINN(tc.p, FBPINNConfig{J: tc.j, K: tc.k, Seed: 99})
		if err != nil {
			t.Fatalf("%s: buildFBPINN: %v", tc.name, err)
		}
		if len(m.nets) != len(sys.Bases) {
			t.Fatalf("%s: %d networks for %d ELM subdomains", tc.name, len(m.nets), len(sys.Bases))
		}
		nb := tc.k + 1
		for g, net := range m.nets {
			w1, b1 := net.Layer(net.Params, 1)
			w2, b2 := net.Layer(net.Params, 2)
			copy(w1, sys.Bases[g].W)
			copy(b1, sys.Bases[g].B)
			copy(w2, a[g*nb+1:(g+1)*nb])
			b2[0] = a[g*nb]
		}

		// Subdomains per point: the bound's S, the largest over the rows.
		cover := func(pts []float64) int {
			cov, err := m.local.Cover(pts, 1)
			if err != nil {
				t.Fatal(err)
			}
			per := make([]int, len(pts)/m.dim)
			for _, rows := range cov.Points {
				for _, r := range rows {
					per[r]++
				}
			}
			s := 0
			for _, n := range per {
				s = max(s, n)
			}
			return s
		}

		// magnitudes returns Σ_q |A_iq a_q| per row of the dense A.
		magnitudes := func(dense interface {
			Dims() (int, int)
			At(i, j int) float64
		}) []float64 {
			r, c := dense.Dims()
			mag := make([]float64, r)
			for i := range r {
				for q := range c {
					mag[i] += math.Abs(dense.At(i, q) * a[q])
				}
			}
			return mag
		}
		check := func(what string, got, want, mag []float64, s int) float64 {
			tol := 2 * float64(nb*s) * u
			worst, at := 0.0, -1
			for i := range want {
				if d := math.Abs(got[i]-want[i]) / mag[i]; mag[i] > 0 && d > worst || mag[i] == 0 && got[i] != want[i] {
					worst, at = d, i
				}
			}
			t.Logf("%s: %s: max |FBPINN - ELM| / Σ|terms| = %.3g over %d rows (bound %.3g, S = %d)", tc.name, what, worst, len(want), tol, s)
			if at >= 0 && !(worst <= tol) {
				t.Errorf("%s: %s row %d: FBPINN %.17g, ELM-FBPINN %.17g: difference %.3g of Σ|terms| = %.3g, want <= %.3g",
					tc.name, what, at, got[at], want[at], worst, mag[at], tol)
			}
			return tol
		}

		// The prediction at the test points.
		want := make([]float64, len(sys.Exact))
		sys.Test.MulVec(want, a)
		m.eval(m.test, m.pred)
		check("prediction", m.pred, want, magnitudes(sys.Test.Dense()), cover(tc.p.Test(tc.j[len(tc.j)-1])))

		// The operator rows: M a is sqrt(λ/N) Op[û](x_i), the FBPINN's
		// training rows Op[û](x_i).
		rows, _ := sys.M.Dims()
		ma := make([]float64, rows)
		sys.M.MulVec(ma, a)
		m.eval(m.train, m.r)
		got := make([]float64, rows)
		for i := range got {
			got[i] = math.Sqrt(m.wt[i]) * m.r[i]
		}
		var pts []float64
		for _, con := range sys.Constraints {
			pts = append(pts, con.Points...)
		}
		mag := magnitudes(sys.M.Dense())
		tol := check("operator rows", got, ma, mag, cover(pts))

		// And so the same loss, Σ (M a - h)², to the bound the rows'
		// differences d_i imply, Σ (2 |e_i| + d_i) d_i, plus the
		// rounding of the two sums of squares (n u of the loss).
		var lsq, ltol float64
		for i := range ma {
			e := ma[i] - sys.RHS[i]
			d := tol * mag[i]
			lsq += e * e
			ltol += (2*math.Abs(e) + d) * d
		}
		ltol += 2 * float64(rows) * u * lsq
		if l := m.loss(); !(math.Abs(l-lsq) <= ltol) {
			t.Errorf("%s: FBPINN loss %.12g, ELM-FBPINN ||M a - h||² %.12g, want within %.3g", tc.name, l, lsq, ltol)
		} else {
			t.Logf("%s: loss: FBPINN %.12g, ELM-FBPINN %.12g (bound %.3g)", tc.name, l, lsq, ltol)
		}
	}
}

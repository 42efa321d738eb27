package elm

import (
	"math"
)

// The factorisation of one column block of M for BlockLSQR: a Householder
// QR, B = Q R, then a one-sided (Hestenes) Jacobi SVD of R, R V = U Σ, in
// plain Go with explicit math.FMA and fixed loop orders, so that every
// platform computes the same bits. gonum's mat.SVD and mat.QR are not used
// here: their BLAS kernels (gonum/internal/asm/f64) are assembly on amd64
// and Go elsewhere, where the compiler may fuse a*b + c on arm64 and
// GOAMD64=v3 but not on v1, and LAPACK's rotations use math.Hypot, which
// has assembly on some architectures; the preconditioner P would then differ
// in its last bits from one machine to another, and forced LSQR amplifies
// such differences into different runs. The blocks are small (K+1 columns),
// so the plain loops cost little beside the solve.

// jacobiSweeps caps the sweeps of the one-sided Jacobi SVD. It converges
// quadratically once the columns are nearly orthogonal; small blocks need
// 6 to 10 sweeps. A block that has not converged by then keeps its last
// rotation: P is still a non-singular map onto nearly orthogonal directions.
const jacobiSweeps = 60

// blockPrec returns the right preconditioner of one block B ((rows, p)
// row-major): P ((p, r) row-major) with B P having orthonormal columns,
//
//	B = Q R (Householder),  R V = U Σ (one-sided Jacobi),
//	P = V_k Σ_k⁻¹,  k = { i : σ_i > tau σ_max },
//
// the kept columns in the order of V's (no sorting), and r = |k|. A zero
// block (or one without rows) keeps nothing: r = 0.
func blockPrec(b []float64, rows, p int, tau float64) (pm []float64, r int) {
	// Column-major copy of B: a[c*rows+i] = B[i, c].
	a := make([]float64, rows*p)
	for i := range rows {
		for c := range p {
			a[c*rows+i] = b[i*p+c]
		}
	}
	q := householder(a, rows, p)
	// R, q × p column-major: the upper triangle of the first q rows.
	rm := make([]float64, q*p)
	for c := range p {
		for i := range min(c+1, q) {
			rm[c*q+i] = a[c*rows+i]
		}
	}
	v, sigma := jacobi(rm, q, p)
	smax := 0.0
	for _, s := range sigma {
		smax = max(smax, s)
	}
	var keep []int
	for c, s := range sigma {
		if smax > 0 && s > tau*smax {
			keep = append(keep, c)
		}
	}
	r = len(keep)
	pm = make([]float64, p*r)
	for k, c := range keep {
		inv := 1 / sigma[c]
		for i := range p {
			pm[i*r+k] = v[c*p+i] * inv
		}
	}
	return pm, r
}

// householder reduces a ((rows, p) column-major) in place to R by
// Householder reflections H_j = I − 2 w wᵀ/(wᵀw), w = x − β e₁,
// β = −sign(x₁)‖x‖ (no cancellation in w₁), for j < q = min(rows, p), and
// returns q: the upper triangle of the first q rows of a is R (R_jj = β).
// Every sum is one FMA chain over the rows in increasing order; an update
// is a_i = FMA(−f, w_i, a_i).
func householder(a []float64, rows, p int) int {
	q := min(rows, p)
	w := make([]float64, rows)
	for j := range q {
		x := a[j*rows+j : (j+1)*rows]
		ss := 0.0
		for _, v := range x {
			ss = math.FMA(v, v, ss)
		}
		if ss == 0 {
			continue // the column is already zero below the diagonal
		}
		beta := -math.Copysign(math.Sqrt(ss), x[0])
		wj := w[:len(x)]
		copy(wj, x)
		wj[0] = x[0] - beta
		wtw := 0.0
		for _, v := range wj {
			wtw = math.FMA(v, v, wtw)
		}
		for c := j + 1; c < p; c++ {
			y := a[c*rows+j : (c+1)*rows]
			d := 0.0
			for i, v := range wj {
				d = math.FMA(v, y[i], d)
			}
			f := 2 * d / wtw
			for i, v := range wj {
				y[i] = math.FMA(-f, v, y[i])
			}
		}
		x[0] = beta
		clear(x[1:])
	}
	return q
}

// jacobi runs the one-sided Jacobi SVD on the columns of a ((q, p)
// column-major, q ≤ p or not) in place and returns V ((p, p) column-major)
// and σ (len p), with a V's columns orthogonal and σ_c = ‖(a V) e_c‖.
// Columns i < j are taken in cyclic order; a pair is rotated unless
//
//	|a_iᵀa_j| ≤ tol ‖a_i‖ ‖a_j‖,  tol = q ε,
//
// or one of the two is below ε ‖a‖_F (rounding noise, which would be
// rotated sweep after sweep when q < p: such a direction has σ ≤ ε σ_max
// and is dropped by any tau ≥ ε),
// by the rotation that makes them orthogonal (Demmel and Veselić):
//
//	ζ = (‖a_j‖² − ‖a_i‖²)/(2 a_iᵀa_j),  t = sign(ζ)/(|ζ| + √(1+ζ²)),
//	c = 1/√(1+t²),  s = c t,  (a_i, a_j) ← (c a_i − s a_j, s a_i + c a_j),
//
// the same on V's columns. Sweeps stop when a sweep rotates nothing, or
// after jacobiSweeps. Dot products are FMA chains over the rows in
// increasing order; each rotated entry is one FMA on a rounded product,
// c x − s y = FMA(c, x, −float64(s y)).
func jacobi(a []float64, q, p int) (v, sigma []float64) {
	v = make([]float64, p*p)
	for c := range p {
		v[c*p+c] = 1
	}
	tol := float64(q) * 0x1p-52
	dot := func(x, y []float64) float64 {
		s := 0.0
		for i, xi := range x {
			s = math.FMA(xi, y[i], s)
		}
		return s
	}
	rot := func(x, y []float64, c, s float64) {
		for i, xi := range x {
			yi := y[i]
			x[i] = math.FMA(c, xi, -float64(s*yi))
			y[i] = math.FMA(s, xi, float64(c*yi))
		}
	}
	noise := float64(dot(a, a) * 0x1p-104) // (ε ‖a‖_F)²
	for range jacobiSweeps {
		rotated := false
		for i := range p {
			ai := a[i*q : (i+1)*q]
			for j := i + 1; j < p; j++ {
				aj := a[j*q : (j+1)*q]
				g := dot(ai, aj)
				if g == 0 {
					continue
				}
				ni, nj := dot(ai, ai), dot(aj, aj)
				if ni <= noise || nj <= noise || math.Abs(g) <= tol*math.Sqrt(ni)*math.Sqrt(nj) {
					continue
				}
				zeta := (nj - ni) / (2 * g)
				var t float64
				if math.Abs(zeta) > 1e150 {
					t = 1 / (2 * math.Abs(zeta)) // √(1+ζ²) would overflow
				} else {
					t = 1 / (math.Abs(zeta) + math.Sqrt(math.FMA(zeta, zeta, 1)))
				}
				if zeta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(math.FMA(t, t, 1))
				s := c * t
				rot(ai, aj, c, s)
				rot(v[i*p:(i+1)*p], v[j*p:(j+1)*p], c, s)
				rotated = true
			}
		}
		if !rotated {
			break
		}
	}
	sigma = make([]float64, p)
	for c := range p {
		col := a[c*q : (c+1)*q]
		sigma[c] = math.Sqrt(dot(col, col))
	}
	return v, sigma
}

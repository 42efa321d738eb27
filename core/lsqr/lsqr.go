package lsqr

import (
	"fmt"
	"math"

	"elmfbpinn/core/fp"
)

// eps is the float64 machine epsilon, numpy.finfo(float64).eps.
const eps = 0x1p-52

// Operator is a linear map seen only through its products.
//
// LSQR calls the methods with slices it owns; implementations must
// overwrite dst completely and must not retain either slice.
type Operator interface {
	// Dims returns the number of rows m and columns n of A.
	Dims() (m, n int)
	// MulVec computes dst = A x; len(dst) = m, len(x) = n.
	// dst is overwritten.
	MulVec(dst, x []float64)
	// MulTransVec computes dst = Aᵀ x; len(dst) = n, len(x) = m.
	// dst is overwritten.
	MulTransVec(dst, x []float64)
}

// StepOperator is an Operator that can form the two products of one step
// of the Golub–Kahan bidiagonalisation in one pass over A. LSQR uses it
// when its operator has it.
type StepOperator interface {
	Operator
	// BidiagStep sets u = A v − alpha u and atu = Aᵀ u of the new u,
	// with the bits of MulVec into t, u_i = FMA(−alpha, u_i, t_i), and
	// MulTransVec; len(u) = m, len(atu) = len(v) = n.
	BidiagStep(u, atu, v []float64, alpha float64)
}

// Settings holds the parameters of an LSQR solve. The zero value is valid:
// no damping, tolerance-based tests disabled (ATol = BTol = 0, ConLim = 0,
// which is SciPy's atol=btol=conlim=0 and is not SciPy's default),
// iteration limit 2n and no forcing. The machine-precision tests
// (Status ResidualEps, LeastSquaresEps and CondEps) remain active unless
// Force is set.
type Settings struct {
	// Damp is the damping (Tikhonov) parameter; LSQR then minimises
	// ‖b - A x‖² + Damp² ‖x‖². Zero means no damping. Damp must be
	// non-negative and finite.
	Damp float64

	// ATol and BTol are the stopping tolerances, as SciPy's atol and
	// btol. Iteration stops with ResidualSmall when
	// ‖r‖ ≤ BTol ‖b‖ + ATol ‖A‖ ‖x‖, and with LeastSquaresSmall when
	// ‖Aᵀr‖ ≤ ATol ‖A‖ ‖r‖. Zero disables the tolerance part of those
	// tests.
	ATol, BTol float64

	// ConLim stops iteration with CondLimit when the estimate of
	// cond(A) exceeds ConLim. Zero means no condition-number limit.
	ConLim float64

	// IterLim is the maximum number of iterations. Zero means 2n,
	// SciPy's default. IterLim must not be negative.
	IterLim int

	// Force makes LSQR run exactly IterLim iterations, ignoring every
	// convergence test (SciPy's istop 1 to 6), as the ELM-FBPINN
	// reference does. The only early exits are ZeroSolution (x = 0 is
	// already exact) and Breakdown (the Krylov space is exhausted).
	Force bool

	// Callback, if non-nil, is called with itn = 0 and the starting
	// point x = 0 before iterating, and after every iteration with the
	// iteration number and the current iterate. The callee must neither
	// retain nor modify x.
	Callback func(itn int, x []float64)

	// Halt, if non-nil, is called after every iteration (after Callback)
	// with the iteration number and the current iterate, unless a test has
	// already stopped the iteration; if it returns true, LSQR stops there
	// with Status Halted. It is how a rule that LSQR cannot see (the error
	// on held-out data) stops it, forced or not. The callee must neither
	// retain nor modify x.
	Halt func(itn int, x []float64) bool
}

// Status is the reason LSQR stopped. Values 0 to 7 equal SciPy's istop.
type Status int

const (
	// ZeroSolution (istop 0) means x = 0 is the exact solution:
	// b = 0 or Aᵀb = 0. No iteration is performed.
	ZeroSolution Status = iota
	// ResidualSmall (istop 1) means A x - b is small enough given ATol
	// and BTol; x approximately solves a compatible system.
	ResidualSmall
	// LeastSquaresSmall (istop 2) means the least-squares solution is
	// good enough given ATol.
	LeastSquaresSmall
	// CondLimit (istop 3) means the estimate of cond(Ā) exceeded ConLim.
	CondLimit
	// ResidualEps (istop 4) means A x - b is small enough for this
	// machine.
	ResidualEps
	// LeastSquaresEps (istop 5) means the least-squares solution is
	// good enough for this machine.
	LeastSquaresEps
	// CondEps (istop 6) means cond(Ā) seems too large for this machine.
	CondEps
	// IterLimit (istop 7) means the iteration limit was reached.
	IterLimit
	// Breakdown is reported only when Settings.Force is set. It means
	// the Golub–Kahan bidiagonalisation broke down exactly (β = 0 or
	// α = 0 in the latest iteration): the Krylov space is exhausted and
	// the returned iterate is the exact (damped) least-squares solution.
	// Iterating further would divide by zero, so LSQR stops early and
	// Result.Iterations is less than or equal to IterLim. SciPy has no
	// such code; unforced, its convergence tests fire in that iteration.
	Breakdown
	// Halted means Settings.Halt returned true. SciPy has no such code.
	Halted
)

var statusNames = [...]string{
	ZeroSolution:      "ZeroSolution",
	ResidualSmall:     "ResidualSmall",
	LeastSquaresSmall: "LeastSquaresSmall",
	CondLimit:         "CondLimit",
	ResidualEps:       "ResidualEps",
	LeastSquaresEps:   "LeastSquaresEps",
	CondEps:           "CondEps",
	IterLimit:         "IterLimit",
	Breakdown:         "Breakdown",
	Halted:            "Halted",
}

// String returns the name of the status.
func (s Status) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Result is the outcome of an LSQR solve. The norm fields are LSQR's
// running estimates, as returned by SciPy.
type Result struct {
	// X is the final iterate, of length n. It is owned by the caller.
	X []float64
	// Status is the reason the iteration stopped.
	Status Status
	// Iterations is the number of iterations performed.
	Iterations int

	// ANorm estimates the Frobenius norm of Ā = [A; Damp·I].
	ANorm float64
	// ACond estimates cond(Ā).
	ACond float64
	// R1Norm estimates ‖b - A x‖. With damping it is computed as
	// sqrt(R2Norm² - Damp²‖x‖²) and carries the sign of the quantity
	// under the root if cancellation made it negative, as in SciPy.
	R1Norm float64
	// R2Norm estimates sqrt(‖b - A x‖² + Damp²‖x‖²); equal to R1Norm
	// without damping.
	R2Norm float64
	// ARNorm estimates ‖Āᵀ r̄‖ = ‖Aᵀ(b - A x) - Damp² x‖.
	ARNorm float64
	// XNorm estimates ‖x‖.
	XNorm float64
}

// LSQR solves min ‖b - A x‖² + Damp²‖x‖² starting from x = 0, following
// scipy.sparse.linalg.lsqr. s may be nil, which is the same as the zero
// Settings.
//
// LSQR panics if len(b) differs from the number of rows of a, or if the
// settings are invalid (negative IterLim, negative or non-finite Damp).
// It returns an error if b contains a NaN or an infinity, or if the
// operator produces a non-finite value during the iteration.
func LSQR(a Operator, b []float64, s *Settings) (*Result, error) {
	m, n, set, err := prepare(a, b, s)
	if err != nil {
		return nil, err
	}

	iterLim := set.IterLim
	if iterLim == 0 {
		iterLim = 2 * n
	}
	damp := set.Damp
	dampsq := float64(damp * damp)
	atol, btol := set.ATol, set.BTol
	var ctol float64
	if set.ConLim > 0 {
		ctol = 1 / set.ConLim
	}
	callback := set.Callback

	step, _ := a.(StepOperator)

	// All vectors are allocated here; the loop below does not allocate.
	x := make([]float64, n)
	work := make([]float64, 2*m+3*n)
	u := work[0:m:m]
	av := work[m : 2*m : 2*m]
	v := work[2*m : 2*m+n : 2*m+n]
	atu := work[2*m+n : 2*m+2*n : 2*m+2*n]
	w := work[2*m+2*n : 2*m+3*n : 2*m+3*n]

	var (
		itn    int
		istop  = ZeroSolution
		anorm  float64
		acond  float64
		ddnorm float64
		res2   float64
		xnorm  float64
		xxnorm float64
		z      float64
		cs2    = -1.0
		sn2    float64
	)

	// Set up the first vectors u and v for the bidiagonalisation.
	// These satisfy beta*u = b - A x, alfa*v = Aᵀ u (x = 0).
	beta, alfa, err := bidiagStart(a, b, u, v)
	if err != nil {
		return nil, err
	}
	bnorm := beta
	copy(w, v)

	rhobar := alfa
	phibar := beta
	rnorm := beta
	r1norm := rnorm
	r2norm := rnorm
	arnorm := float64(alfa * beta)

	if callback != nil {
		callback(0, x)
	}
	if arnorm == 0 {
		return &Result{
			X:      x,
			Status: ZeroSolution,
			R1Norm: r1norm,
			R2Norm: r2norm,
		}, nil
	}

	for itn < iterLim {
		itn++

		// Next step of the bidiagonalisation:
		//  beta*u = A v  - alfa*u,
		//  alfa*v = Aᵀu - beta*v.
		// Aᵀu is formed from the unscaled u and then scaled,
		// Aᵀ(u/beta) = (Aᵀu)/beta, so that an operator can form both
		// products in one pass over A (StepOperator).
		alfa0 := alfa
		beta, alfa, err = bidiag(a, step, u, av, v, atu, alfa, itn)
		if err != nil {
			return nil, err
		}
		if beta > 0 {
			anorm = math.Sqrt(float64(anorm*anorm) + float64(alfa0*alfa0) + float64(beta*beta) + dampsq)
		}

		// Plane rotation to eliminate the damping parameter. This alters
		// the diagonal (rhobar) of the lower-bidiagonal matrix.
		var rhobar1, psi float64
		if damp > 0 {
			rhobar1 = math.Sqrt(float64(rhobar*rhobar) + dampsq)
			cs1 := rhobar / rhobar1
			sn1 := damp / rhobar1
			psi = float64(sn1 * phibar)
			phibar = float64(cs1 * phibar)
		} else {
			rhobar1 = rhobar
		}

		// Plane rotation to eliminate the subdiagonal element (beta),
		// giving an upper-bidiagonal matrix.
		cs, sn, rho := symOrtho(rhobar1, beta)
		if rho == 0 && set.Force {
			// rho = 0 needs beta = 0 and rhobar1 = 0, which only
			// underflow can produce before a breakdown is detected.
			// There is nothing left to add to x; stop rather than
			// divide by zero.
			istop = Breakdown
			if callback != nil {
				callback(itn, x)
			}
			break
		}
		theta := float64(sn * alfa)
		rhobar = float64(-cs * alfa)
		phi := float64(cs * phibar)
		phibar = float64(sn * phibar)
		tau := float64(sn * phi)

		// Update x and w, accumulating ‖d_k‖² with d_k = w/rho.
		t1 := phi / rho
		t2 := -theta / rho
		rinv := 1 / rho
		dknorm := math.Sqrt(updateXW(x, w, v, t1, t2, rinv))
		ddnorm += float64(dknorm * dknorm)

		// Plane rotation on the right to eliminate the super-diagonal
		// element (theta) of the upper-bidiagonal matrix, used to
		// estimate ‖x‖.
		delta := float64(sn2 * rho)
		gambar := float64(-cs2 * rho)
		rhs := phi - float64(delta*z)
		zbar := rhs / gambar
		xnorm = math.Sqrt(xxnorm + float64(zbar*zbar))
		gamma := math.Sqrt(float64(gambar*gambar) + float64(theta*theta))
		cs2 = gambar / gamma
		sn2 = theta / gamma
		z = rhs / gamma
		xxnorm += float64(z * z)

		// Estimates of cond(Ā), ‖r̄‖ and ‖Āᵀr̄‖.
		acond = float64(anorm * math.Sqrt(ddnorm))
		res1 := float64(phibar * phibar)
		res2 += float64(psi * psi)
		rnorm = math.Sqrt(res1 + res2)
		arnorm = float64(alfa * math.Abs(tau))

		// r1norm = ‖b - A x‖ estimated as sqrt(r2norm² - damp²‖x‖²).
		if damp > 0 {
			r1sq := float64(rnorm*rnorm) - float64(dampsq*xxnorm)
			r1norm = math.Sqrt(math.Abs(r1sq))
			if r1sq < 0 {
				r1norm = -r1norm
			}
		} else {
			r1norm = rnorm
		}
		r2norm = rnorm

		if set.Force {
			if beta == 0 || alfa == 0 {
				istop = Breakdown
			} else if itn >= iterLim {
				istop = IterLimit
			}
		} else {
			test1 := rnorm / bnorm
			test2 := arnorm / (float64(anorm*rnorm) + eps)
			test3 := 1 / (acond + eps)
			t1 := test1 / (1 + anorm*xnorm/bnorm)
			rtol := btol + atol*anorm*xnorm/bnorm
			istop = stopTests(itn >= iterLim, test1, test2, test3, t1, rtol, atol, ctol)
		}

		if callback != nil {
			callback(itn, x)
		}
		if istop == ZeroSolution && set.Halt != nil && set.Halt(itn, x) {
			istop = Halted
		}
		if istop != ZeroSolution {
			break
		}
	}

	return &Result{
		X:          x,
		Status:     istop,
		Iterations: itn,
		ANorm:      anorm,
		ACond:      acond,
		R1Norm:     r1norm,
		R2Norm:     r2norm,
		ARNorm:     arnorm,
		XNorm:      xnorm,
	}, nil
}

// prepare checks the arguments of LSQR and LSMR and returns the sizes and
// settings: caller bugs panic, a non-finite b is an error.
func prepare(a Operator, b []float64, s *Settings) (m, n int, set Settings, err error) {
	if a == nil {
		panic("lsqr: nil Operator")
	}
	m, n = a.Dims()
	if m < 0 || n < 0 {
		panic(fmt.Sprintf("lsqr: invalid operator dimensions %d×%d", m, n))
	}
	if len(b) != m {
		panic(fmt.Sprintf("lsqr: len(b) = %d, want %d (rows of A)", len(b), m))
	}
	if s != nil {
		set = *s
	}
	if set.IterLim < 0 {
		panic(fmt.Sprintf("lsqr: negative IterLim %d", set.IterLim))
	}
	if !(set.Damp >= 0) || math.IsInf(set.Damp, 1) {
		panic(fmt.Sprintf("lsqr: invalid Damp %v", set.Damp))
	}
	for i, v := range b {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, 0, set, fmt.Errorf("lsqr: b[%d] = %v is not finite", i, v)
		}
	}
	return m, n, set, nil
}

// bidiagStart sets up the first vectors of the bidiagonalisation from
// x = 0, beta u = b and alpha v = Aᵀu, and returns beta = ‖b‖ and alpha.
func bidiagStart(a Operator, b, u, v []float64) (beta, alpha float64, err error) {
	copy(u, b)
	beta = nrm2(b)
	if beta > 0 {
		scal(1/beta, u)
		a.MulTransVec(v, u)
		alpha = nrm2(v)
		if !isFinite(alpha) {
			return 0, 0, fmt.Errorf("lsqr: Aᵀb is not finite (‖Aᵀu‖ = %v)", alpha)
		}
	}
	if alpha > 0 {
		scal(1/alpha, v)
	}
	return beta, alpha, nil
}

// bidiag makes one step of the Golub–Kahan bidiagonalisation,
//
//	beta u = A v − alpha u,  alpha v = Aᵀu − beta v,
//
// with Aᵀu formed from the unscaled u and then scaled, Aᵀ(u/beta) =
// (Aᵀu)/beta, so that a StepOperator forms both products in one pass over
// A, and returns the new beta and alpha (alpha unchanged if beta = 0).
func bidiag(a Operator, step StepOperator, u, av, v, atu []float64, alpha float64, itn int) (beta, alpha1 float64, err error) {
	if step != nil {
		step.BidiagStep(u, atu, v, alpha)
		beta = nrm2(u)
	} else {
		a.MulVec(av, v)
		beta = subNorm(u, av, alpha)
		a.MulTransVec(atu, u)
	}
	if !isFinite(beta) {
		return 0, 0, fmt.Errorf("lsqr: non-finite value in A v at iteration %d", itn)
	}
	if beta > 0 {
		rbeta := 1 / beta
		scal(rbeta, u)
		scal(rbeta, atu)
		alpha = subNorm(v, atu, beta)
		if !isFinite(alpha) {
			return 0, 0, fmt.Errorf("lsqr: non-finite value in Aᵀu at iteration %d", itn)
		}
		if alpha > 0 {
			scal(1/alpha, v)
		}
	}
	return beta, alpha, nil
}

// stopTests returns SciPy's istop of one iteration (ZeroSolution: go on)
// from its test quantities: test1 = ‖r‖/‖b‖, test2 = ‖Aᵀr‖/(‖A‖‖r‖),
// test3 = 1/cond(A), t1 = test1/(1 + ‖A‖‖x‖/‖b‖) and
// rtol = btol + atol ‖A‖‖x‖/‖b‖. The ε tests guard against extremely small
// values of atol, btol or ctol (their effect is that of the user tests
// with atol = eps, btol = eps, conlim = 1/eps); later tests take
// precedence, as in SciPy.
func stopTests(last bool, test1, test2, test3, t1, rtol, atol, ctol float64) Status {
	istop := ZeroSolution
	if last {
		istop = IterLimit
	}
	if 1+test3 <= 1 {
		istop = CondEps
	}
	if 1+test2 <= 1 {
		istop = LeastSquaresEps
	}
	if 1+t1 <= 1 {
		istop = ResidualEps
	}
	// Tolerances set by the user.
	if test3 <= ctol {
		istop = CondLimit
	}
	if test2 <= atol {
		istop = LeastSquaresSmall
	}
	if test1 <= rtol {
		istop = ResidualSmall
	}
	return istop
}

// symOrtho returns c, s and r such that [c s; -s c] [a; b] = [r; 0], with
// r ≥ 0, computed stably as in SciPy's _sym_ortho (Choi's SymOrtho).
func symOrtho(a, b float64) (c, s, r float64) {
	switch {
	case b == 0:
		return sign(a), 0, math.Abs(a)
	case a == 0:
		return 0, sign(b), math.Abs(b)
	case math.Abs(b) > math.Abs(a):
		tau := a / b
		s = sign(b) / math.Sqrt(1+float64(tau*tau))
		c = s * tau
		r = b / s
	default:
		tau := b / a
		c = sign(a) / math.Sqrt(1+float64(tau*tau))
		s = c * tau
		r = a / c
	}
	return c, s, r
}

// sign returns -1, 0 or 1 according to the sign of x, and NaN for NaN,
// as numpy.sign does.
func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	case x == 0:
		return 0
	default:
		return x
	}
}

// subNorm sets y = p - alpha y, each entry FMA(-alpha, y_i, p_i), and
// returns ‖y‖₂ (a plain sum of squares, as numpy's norm) with the lane
// structure of fp.SumSq: lane i mod 8 is the chain FMA(y_i, y_i, lane), the
// lanes combined by fp.Tree.
func subNorm(y, p []float64, alpha float64) float64 {
	p = p[:len(y)]
	na := -alpha
	var l [fp.Lanes]float64
	i := subNormVector(y, p, na, &l)
	for ; i+fp.Lanes <= len(y); i += fp.Lanes {
		yy := y[i : i+fp.Lanes : i+fp.Lanes]
		pp := p[i : i+fp.Lanes : i+fp.Lanes]
		for j := range fp.Lanes {
			t := math.FMA(na, yy[j], pp[j])
			yy[j] = t
			l[j] = math.FMA(t, t, l[j])
		}
	}
	for j := range y[i:] {
		t := math.FMA(na, y[i+j], p[i+j])
		y[i+j] = t
		l[j] = math.FMA(t, t, l[j])
	}
	return math.Sqrt(fp.Tree(&l))
}

// updateXW makes the step x += t1 w, w = v + t2 w, each entry one FMA, and
// returns ‖rinv w‖² of the w it was given, with the lane structure of
// fp.SumSq on d_i = rinv w_i.
func updateXW(x, w, v []float64, t1, t2, rinv float64) float64 {
	x, v = x[:len(w)], v[:len(w)]
	var l [fp.Lanes]float64
	i := updateXWVector(x, w, v, t1, t2, rinv, &l)
	for ; i+fp.Lanes <= len(w); i += fp.Lanes {
		ww := w[i : i+fp.Lanes : i+fp.Lanes]
		xx := x[i : i+fp.Lanes : i+fp.Lanes]
		vv := v[i : i+fp.Lanes : i+fp.Lanes]
		for j := range fp.Lanes {
			wi := ww[j]
			d := rinv * wi
			l[j] = math.FMA(d, d, l[j])
			xx[j] = math.FMA(t1, wi, xx[j])
			ww[j] = math.FMA(t2, wi, vv[j])
		}
	}
	for j, wi := range w[i:] {
		d := rinv * wi
		l[j] = math.FMA(d, d, l[j])
		x[i+j] = math.FMA(t1, wi, x[i+j])
		w[i+j] = math.FMA(t2, wi, v[i+j])
	}
	return fp.Tree(&l)
}

// nrm2 returns sqrt(Σ xᵢ²), as numpy.linalg.norm does for a 1-D array, in
// the order of fp.SumSq.
func nrm2(x []float64) float64 { return fp.Norm(x) }

// scal scales x by alpha in place.
func scal(alpha float64, x []float64) {
	for i := scalVector(alpha, x); i < len(x); i++ {
		x[i] *= alpha
	}
}

// isFinite reports whether x is neither NaN nor an infinity.
func isFinite(x float64) bool {
	return !math.IsNaN(x) && !math.IsInf(x, 0)
}

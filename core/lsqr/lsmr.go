package lsqr

import (
	"math"
)

// LSMR solves min ‖b - A x‖² + Damp²‖x‖² starting from x = 0 by the LSMR
// algorithm of Fong and Saunders, following scipy.sparse.linalg.lsmr
// (itself a transcription of their MATLAB code): the same Golub–Kahan
// bidiagonalisation as LSQR, but the iterate minimises ‖Aᵀr_k‖ over the
// Krylov space K_k(AᵀA, Aᵀb) instead of ‖r_k‖, so that ‖Aᵀr_k‖ decreases
// monotonically (and ‖r_k‖ too), which makes its stopping tests safer to
// act on at any iteration. It takes the same Settings (ATol, BTol, ConLim,
// IterLim, Force, Callback, Halt; IterLim 0 means min(m, n), SciPy's
// default for LSMR) and returns the same Result and Status codes, SciPy's
// istop of lsmr, which mean the same as LSQR's:
//
//	test1 = ‖r‖/‖b‖ ≤ BTol + ATol ‖A‖‖x‖/‖b‖   (ResidualSmall),
//	test2 = ‖Aᵀr‖/(‖A‖‖r‖) ≤ ATol              (LeastSquaresSmall),
//	1/cond(A) ≤ 1/ConLim                       (CondLimit),
//
// with the machine-precision variants. R2Norm is ‖r‖ as R1Norm (LSMR has
// no damped estimate of its own). One step is rearranged as in LSQR (Aᵀu
// scaled after it is formed), so a StepOperator forms A v and Aᵀu in one
// pass; vector updates are FMA chains, norms fp.Norm, scalars rounded
// explicitly, so every platform computes the same bits.
//
// Reference: D. C.-L. Fong and M. A. Saunders, LSMR: An iterative algorithm
// for sparse least-squares problems, SIAM J. Sci. Comput. 33(5), 2950–2971
// (2011).
func LSMR(a Operator, b []float64, s *Settings) (*Result, error) {
	m, n, set, err := prepare(a, b, s)
	if err != nil {
		return nil, err
	}
	iterLim := set.IterLim
	if iterLim == 0 {
		iterLim = min(m, n)
	}
	damp, atol, btol := set.Damp, set.ATol, set.BTol
	var ctol float64
	if set.ConLim > 0 {
		ctol = 1 / set.ConLim
	}
	step, _ := a.(StepOperator)

	x := make([]float64, n)
	work := make([]float64, 2*m+4*n)
	u := work[0:m:m]
	av := work[m : 2*m : 2*m]
	v := work[2*m : 2*m+n : 2*m+n]
	atu := work[2*m+n : 2*m+2*n : 2*m+2*n]
	h := work[2*m+2*n : 2*m+3*n : 2*m+3*n]
	hbar := work[2*m+3*n : 2*m+4*n : 2*m+4*n]

	beta, alpha, err := bidiagStart(a, b, u, v)
	if err != nil {
		return nil, err
	}
	normb := beta

	itn := 0
	zetabar := float64(alpha * beta)
	alphabar := alpha
	rho, rhobar, cbar, sbar := 1.0, 1.0, 1.0, 0.0
	copy(h, v)
	// Estimation of ‖r‖.
	betadd, betad, rhodold, tautildeold, thetatilde, zeta, d := beta, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0
	// Estimation of ‖A‖ and cond(A).
	normA2 := float64(alpha * alpha)
	maxrbar, minrbar := 0.0, 1e100
	normA, condA, normx := math.Sqrt(normA2), 1.0, 0.0
	istop := ZeroSolution
	normr := beta
	normar := float64(alpha * beta)

	if set.Callback != nil {
		set.Callback(0, x)
	}
	if normar == 0 || normb == 0 {
		return &Result{X: x, Status: ZeroSolution, ANorm: normA, ACond: condA, R1Norm: normr, R2Norm: normr, ARNorm: normar}, nil
	}

	for itn < iterLim {
		itn++
		// beta u = A v − alpha u,  alpha v = Aᵀu − beta v.
		beta, alpha, err = bidiag(a, step, u, av, v, atu, alpha, itn)
		if err != nil {
			return nil, err
		}

		// Rotation Qhat eliminating the damping, then Q turning B into R.
		chat, shat, alphahat := symOrtho(alphabar, damp)
		rhoold := rho
		c, s, rhoNew := symOrtho(alphahat, beta)
		rho = rhoNew
		if rho == 0 {
			// Only an exact breakdown (alphahat = beta = 0) gives it: the
			// iterate is exact; stop rather than divide by zero.
			istop = Breakdown
			if set.Callback != nil {
				set.Callback(itn, x)
			}
			break
		}
		thetanew := float64(s * alpha)
		alphabar = float64(c * alpha)

		// Rotation Qbar turning Rᵀ into Rbar.
		rhobarold := rhobar
		zetaold := zeta
		thetabar := float64(sbar * rho)
		rhotemp := float64(cbar * rho)
		cbar, sbar, rhobar = symOrtho(rhotemp, thetanew)
		zeta = float64(cbar * zetabar)
		zetabar = float64(-sbar * zetabar)

		// hbar = h − (thetabar rho/(rhoold rhobarold)) hbar; x += (zeta/(rho rhobar)) hbar;
		// h = v − (thetanew/rho) h.
		fh := -(float64(thetabar*rho) / float64(rhoold*rhobarold))
		fx := zeta / float64(rho*rhobar)
		fv := -(thetanew / rho)
		for i := range x {
			hb := math.FMA(fh, hbar[i], h[i])
			hbar[i] = hb
			x[i] = math.FMA(fx, hb, x[i])
			h[i] = math.FMA(fv, h[i], v[i])
		}

		// Estimate ‖r‖: rotations Qhat, Q and Qtilde on the right-hand side.
		betaacute := float64(chat * betadd)
		betacheck := float64(-shat * betadd)
		betahat := float64(c * betaacute)
		betadd = float64(-s * betaacute)
		thetatildeold := thetatilde
		ctildeold, stildeold, rhotildeold := symOrtho(rhodold, thetabar)
		thetatilde = float64(stildeold * rhobar)
		rhodold = float64(ctildeold * rhobar)
		betad = math.FMA(-stildeold, betad, float64(ctildeold*betahat))
		tautildeold = math.FMA(-thetatildeold, tautildeold, zetaold) / rhotildeold
		taud := math.FMA(-thetatilde, tautildeold, zeta) / rhodold
		d = math.FMA(betacheck, betacheck, d)
		bt := betad - taud
		normr = math.Sqrt(math.FMA(betadd, betadd, math.FMA(bt, bt, d)))

		// Estimate ‖A‖ and cond(A).
		normA2 = math.FMA(beta, beta, normA2)
		normA = math.Sqrt(normA2)
		normA2 = math.FMA(alpha, alpha, normA2)
		maxrbar = max(maxrbar, rhobarold)
		if itn > 1 {
			minrbar = min(minrbar, rhobarold)
		}
		condA = max(maxrbar, rhotemp) / min(minrbar, rhotemp)

		normar = math.Abs(zetabar)
		normx = nrm2(x)

		if set.Force {
			if beta == 0 || alpha == 0 {
				istop = Breakdown
			} else if itn >= iterLim {
				istop = IterLimit
			}
		} else {
			test1 := normr / normb
			test2 := math.Inf(1)
			if an := float64(normA * normr); an != 0 {
				test2 = normar / an
			}
			test3 := 1 / condA
			anx := float64(normA*normx) / normb
			t1 := test1 / (1 + anx)
			rtol := math.FMA(atol, anx, btol)
			istop = stopTests(itn >= iterLim, test1, test2, test3, t1, rtol, atol, ctol)
		}
		if set.Callback != nil {
			set.Callback(itn, x)
		}
		if istop == ZeroSolution && set.Halt != nil && set.Halt(itn, x) {
			istop = Halted
		}
		if istop != ZeroSolution {
			break
		}
	}
	return &Result{X: x, Status: istop, Iterations: itn, ANorm: normA, ACond: condA,
		R1Norm: normr, R2Norm: normr, ARNorm: normar, XNorm: normx}, nil
}

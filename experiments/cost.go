package experiments

import (
	"math"
)

// Cost returns an estimate, in seconds on one core, of the wall time of the
// run s, from its Spec alone (nothing is assembled). It is what shards are
// balanced by and what job time limits are derived from, so it needs to be
// right in proportion rather than exact: it is within a factor 2 of the
// measured time on the configurations it was checked against (1D and 2D,
// one and three levels, K from 2 to 64, κ-only runs).
//
// The model counts the collocation points N and test points T of the finest
// level as core/problem lays them out, the subdomains a point lies in per
// level, ov(J) per dimension (1 for J = 1, else about δ (1 - 0.4/J), at most
// J), and from them the nonzeros of M:
//
//	nnz = N Σ_ℓ ov(J_ℓ)^d (K+1)
//
// ELM-FBPINN (LSQR): each iteration applies M and Mᵀ once, at a cost per
// nonzero (higher for the part of the products' packed copy, 8 bytes a
// nonzero, beyond a cache of C bytes: two runs side by side share the L3
// cache) plus a cost per dense block row of K+1 entries, and LSQR's vector
// updates cost per row and column of M; the test error is evaluated every
// 100 iterations; assembly is a cost per nonzero (a test point, values only,
// costs a quarter of a collocation point's jets); κ(M), when asked for and
// M has at most DefaultKappaCells cells, is a dense SVD of 4mn² - 4n³/3
// flops (m >= n):
//
//	t = iters (nnz (a + a' max(0, 1 - C/(8 nnz)) + b/(K+1)) + β (N + cols)) (1 + T/(100 N))
//	    + c nnz (1 + T/(4N)) + f flops
//
// with a = 3.1e-10 s, a' = 9.0e-10 s, C = 8 MB, b = 7.4e-10 s, β = 8.6e-9 s,
// c = 1.5e-7 s and f = 1.8e-10 s, fitted to single-core runs of this
// implementation (GOMAXPROCS=1): a, a', C, b and β to the LSQR time of the
// 573 timed ELM-FBPINN runs of the full tier's re-run (2026-11-26, AVX2
// panel kernels on an AMD EPYC Zen 3 core, two runs at a time on its two
// cores; a least-squares fit of the relative error, C the best of 2-24 MB:
// about 0.45 ms per iteration on the Laplacian baseline, nnz = 868292,
// K = 16, 1.9-2.1 ms on its three-level J = 1, 8, 16, nnz = 1.8e6, and 6 ms
// on J = 1, 14, 28, nnz = 5.7e6, whose packed copies do not stay in cache;
// the AVX-512 kernels took 0.18 ms on the baseline on a Zen 5 core, and the
// generic kernels are about 3.5x slower than the AVX2 ones); c to the
// assembly of the re-run's κ-only runs, 1.5-2.4e-7 s per nonzero on the 2D
// problems, whose M is mostly above the κ cap so that assembly is their
// whole time.
//
// FBPINN and PINN (Adam): every step evaluates each network at each of its
// points with the 1+2d jet channels, forward and backward, at a cost per
// multiply-add of the networks (one hidden layer of width K for an FBPINN
// subdomain network, two of width Width for the PINN), for the PINN also a
// cost per hidden unit (tanh and its jets, which dominate at small widths),
// plus a fixed cost per step. The constants are fitted to this
// implementation's measured time per step at the baselines with the AVX2
// kernels (core/train's BenchmarkStep, one AMD EPYC Zen 3 core, 2026-11-26,
// a1c6bff: FBPINN 0.094 ms on the oscillator, 5.1-5.5 ms on the Laplacian,
// 3.6-3.7 ms on the Helmholtz problem; PINN [d,64,64,1] 0.77-0.80 ms on the
// oscillator and 27.6-30.9 ms on the Laplacian's 6400 points, [2,14,14,1]
// 3.5 ms on the Helmholtz problem), times 1.2 for what a whole run adds to
// its steps (test errors, set-up, a neighbour on the other core): whole runs
// of the full tier (2026-11-26, the re-run's) took a median 1.19-1.25 times
// the steps' estimate (TestCostFit).
//
// Two terms follow what the kernels do where the counts above miss it. A 2D
// PINN whose width is not a multiple of 8 runs its products on the next
// multiple with scalar tails, about twice the step time of that multiple
// (measured: width 6 2.08 ms against width 8 0.80 ms, 14 2.10 against 16
// 1.14, Helmholtz, AVX-512, 2026-11; 1.8-3x on a Zen 4): its estimate is
// twice that of the next multiple of 8 (in 1D too above 8: width 14 0.40 s
// against 16 0.22 s for 3000 steps; but widths 2 and 4 took less than 8). A 1D FBPINN adds a cost per point,
// subdomain and step, g = 1.1e-9 s, which is small at the baseline's J = 20
// (5% of a step) and grows with J² (J = 92-160 took 1.6-2.2 times the
// estimate without it).
//
// The 1D networks' constants were refitted on 2026-11-28 (a Zen 4 with
// AVX-512, the full tier's osc-K rows, seeds 0 and 1, one run at a time):
// the fixed cost per step of the Zen 3 fit (6.5e-5 s) was 5-6 times what
// the oscillator's small networks take now, so a K or width of 2 was
// estimated 4-5 times too long and K = 64 half as long; now
// fb = 6.8e-10 s, a step 1.05e-5 s (FBPINN); pinn = 1.32e-10 s, unit =
// 9.7e-10 s, a step 1.2e-5 s (PINN). A Calibration scales each class by
// its own factor, so the 1D and 2D constants need only be right in
// proportion within their class.
//
// Cost is the estimate of the machine it was fitted on; a Calibration
// scales it to another.
func Cost(s Spec) float64 {
	d, n, t, cover := sizes(s)
	k1 := float64(s.K + 1)
	iters := float64(s.Iters)
	switch s.Model {
	case ELM:
		const (
			a     = 3.1e-10 // per nonzero and iteration (M and Mᵀ), in cache
			aOut  = 9.0e-10 // the same, added for the share beyond cache
			cache = 8e6     // bytes of the packed copy that stay in cache
			b     = 7.4e-10 // per block row and iteration
			beta  = 8.6e-9  // per row and column of M and iteration (LSQR's vectors)
			c     = 1.5e-7  // assembly, per nonzero
			f     = 1.8e-10 // dense SVD, per flop
		)
		nnz, rows, cols := n*cover*k1, n, float64(cols(s)) // M's nonzeros and shape
		perNZ := a + aOut*max(0, 1-cache/(8*nnz)) + b/k1
		sec := iters*(nnz*perNZ+beta*(rows+cols))*(1+t/(100*n)) + c*nnz*(1+t/(4*n))
		if s.Kappa && rows*cols <= DefaultKappaCells { // the estimate assumes the default cap
			m, k := max(rows, cols), min(rows, cols)
			sec += f * (4*m*k*k - 4*k*k*k/3)
		}
		return sec + runOverhead
	case FBPINN, PINN:
		// 2D (fitted on the Zen 3, 2026-11-26) and 1D (refitted on a
		// Zen 4, 2026-11-28: see above) constants.
		fb, pinn, unit, step := 1.2*3.0e-10, 1.2*8.6e-11, 1.2*4.0e-9, 1.2*6.5e-5
		if d == 1 {
			fb, pinn, unit = 6.8e-10, 1.32e-10, 9.7e-10
			step = 1.05e-5 // FBPINN
			if s.Model == PINN {
				step = 1.2e-5
			}
		}
		const g = 1.1e-9 // 1D FBPINN, per point, subdomain and step
		ch := float64(1 + 2*d)
		var sec float64
		if s.Model == FBPINN {
			sec = fb * n * cover * float64(s.K) * float64(d+2) * ch
			if d == 1 {
				sec += g * n * float64(cols(s)/(s.K+1))
			}
		} else {
			w, tails := float64(s.Width), s.Width%8 != 0 && (d == 2 || s.Width > 8)
			if tails {
				// The products run on the next multiple of 8, with
				// scalar tails.
				w = float64((s.Width + 7) / 8 * 8)
			}
			sec = (pinn*(w*w+float64(d+2)*w) + unit*2*w) * n * ch
			if tails {
				sec *= 2
			}
		}
		return iters*(sec+step) + runOverhead
	}
	return runOverhead
}

// runOverhead is the part of Cost that a run's measured times leave out:
// the process's start and its result's write, in seconds.
const runOverhead = 0.05

// sizes returns what the estimates start from: the problem's dimension d,
// the collocation points n and test points t of the finest level (the
// problem's Points), and cover = Σ_ℓ ov(J_ℓ)^d, the subdomains a point lies
// in. An unknown problem counts as 1D with (K+1) points per subdomain.
func sizes(s Spec) (d int, n, t float64, cover float64) {
	jf := 1
	if len(s.J) > 0 {
		jf = s.J[len(s.J)-1]
	}
	d, n, t = 1, float64(jf*(s.K+1)), float64(jf)
	if p, err := ProblemNamed(s.Problem); err == nil {
		d = p.Dim
		n, t = p.Points(jf, s.K)
	}
	delta := s.Delta
	if !(delta > 0) {
		delta = fullDelta
	}
	for _, j := range s.J {
		cover += math.Pow(overlap(j, delta), float64(d))
	}
	return d, n, t, cover
}

// overlap is the mean number of subdomains of a level with j subdomains per
// dimension that cover a point, along one dimension.
func overlap(j int, delta float64) float64 {
	if j <= 1 {
		return 1
	}
	return min(float64(j), delta*(1-0.4/float64(j)))
}

// cols returns the number of columns of M: K+1 per subdomain kept.
func cols(s Spec) int {
	p, err := ProblemNamed(s.Problem)
	n := 0
	for _, j := range s.J {
		if err != nil {
			n += j
			continue
		}
		n += p.Subdomains(j)
	}
	return n * (s.K + 1)
}

// Package basis holds the random-feature bases of the ELM-FBPINN: per
// subdomain a constant and K features tanh(W x_n + b) of the input x_n
// normalised to the subdomain, with hidden weights drawn once and then fixed.
// The package does no I/O.
package basis

import (
	"fmt"
	"math"
	"math/rand/v2"

	"elmfbpinn/core/fp"
	"elmfbpinn/core/jet"
)

// Basis is the random-feature basis of one subdomain (one hidden layer):
//
//	φ_0(x) = σ,  φ_k(x) = σ tanh(W_k · x_n + b_k),  k = 1..K,
//	x_n = (x - c)/s,
//
// with c the subdomain centre, s its half-width and σ the output scale.
type Basis struct {
	Dim, K int
	W      []float64 // (K, Dim) row-major hidden weights
	B      []float64 // (K) hidden biases
}

// Random draws a basis with LeCun-uniform weights of scale r: every entry of
// W and then of b is drawn by Uniform with the bound v = r sqrt(1/dim).
//
// The networks of core/nn draw with the bound r/sqrt(fan_in) (nn.MLP.Init);
// the two bounds are the same number for dim = 1 but one ulp apart for
// dim = 2 (sqrt(1/2) rounds up, 1/sqrt(2) down), and the ELM-FBPINN keeps
// its own so that its results do not change.
func Random(rng *rand.Rand, dim, k int, r float64) *Basis {
	b := &Basis{Dim: dim, K: k, W: make([]float64, k*dim), B: make([]float64, k)}
	v := r * math.Sqrt(1/float64(dim))
	Uniform(rng, b.W, v)
	Uniform(rng, b.B, v)
	return b
}

// Uniform is the initialisation rule of every random weight of
// elmfbpinn, the ELM-FBPINN's features and the networks' parameters alike:
// it sets dst[i], in increasing i, to a draw uniform on (-v, v),
//
//	dst[i] = v (2u - 1),  u = rng.Float64(),
//
// with 2u - 1 one FMA (exact: u is a multiple of 2⁻⁵³). nn.MLP.Init draws
// each layer by this rule with v = R/sqrt(fan_in).
func Uniform(rng *rand.Rand, dst []float64, v float64) {
	for i := range dst {
		dst[i] = v * math.FMA(2, rng.Float64(), -1)
	}
}

// WeightScale returns the weight scale R of the initialisation, r with its
// default: 0 means 1. Any other r must be positive and finite.
func WeightScale(r float64) (float64, error) {
	if r == 0 {
		return 1, nil
	}
	if !(r > 0) || math.IsInf(r, 0) {
		return 0, fmt.Errorf("weight scale R = %v must be positive and finite", r)
	}
	return r, nil
}

// NewRNG returns the deterministic generator used for a run's seed: the
// random features of the ELM-FBPINN and the initial parameters of the
// networks are drawn from it.
func NewRNG(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
}

// RandomSet draws n bases in order from one generator seeded by seed.
func RandomSet(seed uint64, n, dim, k int, r float64) []*Basis {
	rng := NewRNG(seed)
	set := make([]*Basis, n)
	for i := range set {
		set[i] = Random(rng, dim, k, r)
	}
	return set
}

// Size returns the number of basis functions, K + 1.
func (b *Basis) Size() int { return b.K + 1 }

// Jets writes into out (len K+1) the jets of the K+1 basis functions at the
// point x of a subdomain with centre c and half-width s, scaled by sigma.
// Derivatives are with respect to x (the chain rule through x_n gives the
// factors W_ki/s_i):
//
//	∂φ_k/∂x_i = σ (1 - t²) W_ki/s_i,  ∂²φ_k/∂x_i² = -2σ t (1 - t²) (W_ki/s_i)²,
//
// with t = tanh(W_k · x_n + b_k), the inner product an FMA chain from b_k in
// increasing i.
//
// This is the one jet of a random tanh feature on the numerical path. A
// network's first hidden unit is the same function for σ = 1: core/nn
// computes it in its own batched and vector kernels (for a deeper network
// with the same operations in the same order as here, by reading of the
// code), and fuses it with the output layer in a network of one hidden
// layer (the FBPINN's), where the two then agree to rounding, not bit for
// bit: TestFBPINNReproducesELM in core/train checks that they do. The
// hard-constraint factors of problem.Laplace, tanh(a x + b) of one
// coordinate, are another function with their own order of products.
func (b *Basis) Jets(out []jet.Jet, x []float64, c, s *[jet.MaxDim]float64, sigma float64) {
	if len(out) != b.K+1 || len(x) != b.Dim {
		panic("basis: Jets: wrong lengths")
	}
	var xn, inv [jet.MaxDim]float64
	for i := range b.Dim {
		inv[i] = 1 / s[i]
		xn[i] = (x[i] - c[i]) * inv[i]
	}
	out[0] = jet.Const(sigma)
	for k := range b.K {
		w := b.W[k*b.Dim : (k+1)*b.Dim]
		z := b.B[k]
		for i := range b.Dim {
			z = math.FMA(w[i], xn[i], z)
		}
		t := fp.Tanh(z)
		d := 1 - float64(t*t)
		var f jet.Jet
		f.V = sigma * t
		for i := range b.Dim {
			a := w[i] * inv[i]
			f.D1[i] = sigma * d * a
			f.D2[i] = -2 * sigma * t * d * a * a
		}
		out[k+1] = f
	}
}

package nn

import (
	"fmt"
	"math"
)

// AdamSettings are the hyper-parameters of Adam. The zero value is the
// paper's (and optax's and PyTorch's defaults): each field that is 0 takes
// its default.
type AdamSettings struct {
	// LR is the learning rate η; 0 means 1e-3.
	LR float64
	// Beta1 and Beta2 are the decay rates of the moment estimates; 0 means
	// 0.9 and 0.999.
	Beta1, Beta2 float64
	// Eps is added to the root of the second moment; 0 means 1e-8.
	Eps float64
}

// Adam is the Adam optimiser (Kingma and Ba) over a flat parameter vector,
// bias-corrected as optax.adam and torch.optim.Adam do. Step t = 1, 2, ...
// with gradient g does
//
//	m ← β1 m + (1-β1) g,  v ← β2 v + (1-β2) g²,
//	m̂ = m/(1-β1^t),  v̂ = v/(1-β2^t),  θ ← θ - η m̂/(sqrt(v̂) + ε).
type Adam struct {
	// LR, Beta1, Beta2 and Eps are the hyper-parameters in use (defaults
	// filled in).
	LR, Beta1, Beta2, Eps float64
	// T is the number of steps taken.
	T    int
	m, v []float64
}

// NewAdam returns the optimiser for n parameters with zero moments.
func NewAdam(n int, s *AdamSettings) *Adam {
	if s == nil {
		s = &AdamSettings{}
	}
	def := func(x, d float64) float64 {
		if x == 0 {
			return d
		}
		return x
	}
	return &Adam{
		LR:    def(s.LR, 1e-3),
		Beta1: def(s.Beta1, 0.9),
		Beta2: def(s.Beta2, 0.999),
		Eps:   def(s.Eps, 1e-8),
		m:     make([]float64, n),
		v:     make([]float64, n),
	}
}

// Step updates params in place with the gradient grad taken at params.
func (a *Adam) Step(params, grad []float64) {
	if len(params) != len(a.m) || len(grad) != len(a.m) {
		panic(fmt.Sprintf("nn: Adam.Step: %d parameters and %d gradients, want %d", len(params), len(grad), len(a.m)))
	}
	a.T++
	b1, b2 := a.Beta1, a.Beta2
	c1 := 1 - powInt(b1, a.T)
	c2 := 1 - powInt(b2, a.T)
	k := [8]float64{b1, 1 - b1, b2, 1 - b2, c1, c2, a.LR, a.Eps}
	m, v := a.m, a.v[:len(a.m)]
	grad = grad[:len(m)]
	params = params[:len(m)]
	i := adamVector(params, grad, m, v, &k)
	adamGeneric(params[i:], grad[i:], m[i:], v[i:], &k)
}

// adamGeneric is Adam's update of every parameter: k holds β1, 1−β1, β2,
// 1−β2, the bias corrections c1 and c2, the learning rate and ε. The vector
// kernels (adamVector) do the same operations in the same order on four or
// eight parameters at a time, so the bits are these.
func adamGeneric(params, grad, m, v []float64, k *[8]float64) {
	b1, omb1, b2, omb2, c1, c2, lr, eps := k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7]
	m, v, params = m[:len(grad)], v[:len(grad)], params[:len(grad)]
	for i, g := range grad {
		mi := math.FMA(b1, m[i], float64(omb1*g))
		vi := math.FMA(b2, v[i], float64(omb2*g*g))
		m[i], v[i] = mi, vi
		params[i] -= lr * (mi / c1) / (math.Sqrt(vi/c2) + eps)
	}
}

// powInt returns x^n for n ≥ 0 by binary powering (squarings from the lowest
// bit up, one rounding per product): a fixed sequence of multiplications, so
// the bias corrections need no pow function (package math's Pow is not the
// same on every platform).
func powInt(x float64, n int) float64 {
	p := 1.0
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			p *= x
		}
		x *= x
	}
	return p
}

// Package jet holds second-order jets: the value of a scalar function of up to
// two variables together with its first and second derivative along each
// input dimension (no mixed derivatives, which no operator of the paper needs).
//
// Jets compose by the product and quotient rules, which is how the windows,
// the partition of unity, the random features and the hard-constraint ansatz
// are differentiated exactly. The package does no I/O.
package jet

import "math"

// MaxDim is the largest input dimension a Jet carries.
const MaxDim = 2

// Jet is a function's value with its first and second derivatives along each
// input dimension at one point:
//
//	V = f(x),  D1[i] = ∂f/∂x_i,  D2[i] = ∂²f/∂x_i².
//
// Entries beyond the problem's dimension are zero.
type Jet struct {
	V  float64
	D1 [MaxDim]float64
	D2 [MaxDim]float64
}

// Const returns the jet of the constant function c.
func Const(c float64) Jet { return Jet{V: c} }

// Scale returns the jet of c f.
func Scale(c float64, f Jet) Jet {
	f.V *= c
	for i := range MaxDim {
		f.D1[i] *= c
		f.D2[i] *= c
	}
	return f
}

// Add returns the jet of f + g.
func Add(f, g Jet) Jet {
	f.V += g.V
	for i := range MaxDim {
		f.D1[i] += g.D1[i]
		f.D2[i] += g.D2[i]
	}
	return f
}

// Mul returns the jet of f g by the product rule:
//
//	(fg)' = f'g + fg',  (fg)'' = f''g + 2f'g' + fg'',
//
// each sum an FMA chain left to right from the first product rounded.
func Mul(f, g Jet) Jet {
	var h Jet
	h.V = f.V * g.V
	for i := range MaxDim {
		h.D1[i] = math.FMA(f.V, g.D1[i], float64(f.D1[i]*g.V))
		h.D2[i] = math.FMA(f.V, g.D2[i], math.FMA(2*f.D1[i], g.D1[i], float64(f.D2[i]*g.V)))
	}
	return h
}

// Div returns the jet of f / g by the quotient rule. With q = f/g,
//
//	q' = (f' - q g')/g,  q'' = (f'' - 2 q' g' - q g'')/g.
//
// g.V must be non-zero. The numerators are FMA chains left to right.
func Div(f, g Jet) Jet {
	var q Jet
	inv := 1 / g.V
	q.V = f.V * inv
	for i := range MaxDim {
		q.D1[i] = math.FMA(-q.V, g.D1[i], f.D1[i]) * inv
		q.D2[i] = math.FMA(-q.V, g.D2[i], math.FMA(-2*q.D1[i], g.D1[i], f.D2[i])) * inv
	}
	return q
}

// Laplacian returns Σ_i ∂²f/∂x_i².
func (f Jet) Laplacian() float64 {
	var s float64
	for i := range MaxDim {
		s += f.D2[i]
	}
	return s
}

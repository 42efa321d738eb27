package nn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"elmfbpinn/core/jet"
)

// MLP is a fully connected network with tanh hidden layers and a linear
// scalar output layer with bias:
//
//	x_n = (x - Centre)/Half,
//	h_1 = tanh(W_1 x_n + b_1),  h_l = tanh(W_l h_{l-1} + b_l),  l = 2..m,
//	N(x) = W_{m+1} h_m + b_{m+1}.
//
// The input normalisation is fixed (not trained). The parameters live in one
// flat slice, layer by layer, each layer's weights W_l (Sizes[l], Sizes[l-1])
// row-major followed by its biases b_l (Sizes[l]); Params may be a view into
// a larger vector shared by several networks and their optimiser.
type MLP struct {
	// Sizes are the layer widths [d, h_1, ..., h_m, 1] with 1 <= d <= jet.MaxDim
	// and m >= 1 hidden layers.
	Sizes []int
	// Params holds the NumParams(Sizes) weights and biases.
	Params []float64
	// Centre and Half (len d) define the input normalisation
	// x_n = (x - Centre)/Half; every Half must be non-zero.
	Centre, Half []float64
}

// NumParams returns the number of weights and biases of a network of the
// given sizes, Σ_l Sizes[l] (Sizes[l-1] + 1).
func NumParams(sizes []int) int {
	n := 0
	for l := 1; l < len(sizes); l++ {
		n += sizes[l] * (sizes[l-1] + 1)
	}
	return n
}

// CheckSizes returns an error unless sizes describe a network this package
// supports: input dimension 1..jet.MaxDim, at least one hidden layer, every
// width at least 1 and one output.
func CheckSizes(sizes []int) error {
	if len(sizes) < 3 {
		return fmt.Errorf("nn: sizes %v: want [d, h_1, ..., h_m, 1] with at least one hidden layer", sizes)
	}
	if d := sizes[0]; d < 1 || d > jet.MaxDim {
		return fmt.Errorf("nn: sizes %v: input dimension %d not in 1..%d", sizes, d, jet.MaxDim)
	}
	for l, h := range sizes {
		if h < 1 {
			return fmt.Errorf("nn: sizes %v: layer %d has width %d; widths must be at least 1", sizes, l, h)
		}
	}
	if o := sizes[len(sizes)-1]; o != 1 {
		return fmt.Errorf("nn: sizes %v: %d outputs; only scalar networks are supported", sizes, o)
	}
	return nil
}

// New returns the network of the given sizes on the parameter slice params
// (allocated if nil) with input normalisation (x - centre)/half. The slices
// are used, not copied. It panics if the sizes or lengths are inconsistent.
func New(sizes []int, params, centre, half []float64) *MLP {
	if err := CheckSizes(sizes); err != nil {
		panic(err.Error())
	}
	n := NumParams(sizes)
	if params == nil {
		params = make([]float64, n)
	}
	if len(params) != n {
		panic(fmt.Sprintf("nn: New: %d parameters, want %d for sizes %v", len(params), n, sizes))
	}
	d := sizes[0]
	if len(centre) != d || len(half) != d {
		panic(fmt.Sprintf("nn: New: normalisation of length %d, %d, want %d", len(centre), len(half), d))
	}
	for i, s := range half {
		if s == 0 {
			panic(fmt.Sprintf("nn: New: Half[%d] = 0", i))
		}
	}
	return &MLP{Sizes: sizes, Params: params, Centre: centre, Half: half}
}

// Dim returns the input dimension d.
func (m *MLP) Dim() int { return m.Sizes[0] }

// Layer returns views of the weights W_l ((Sizes[l], Sizes[l-1]) row-major)
// and biases b_l (Sizes[l]) of layer l = 1..len(Sizes)-1 within p, a slice
// laid out like Params (the parameters themselves or their gradient).
func (m *MLP) Layer(p []float64, l int) (w, b []float64) {
	off := 0
	for k := 1; k < l; k++ {
		off += m.Sizes[k] * (m.Sizes[k-1] + 1)
	}
	nw := m.Sizes[l] * m.Sizes[l-1]
	return p[off : off+nw : off+nw], p[off+nw : off+nw+m.Sizes[l] : off+nw+m.Sizes[l]]
}

// InitSettings controls the initialisation. The zero value is the paper's.
type InitSettings struct {
	// R scales the bound of the uniform distribution; 0 means 1.
	R float64
}

// Init draws every weight and bias of layer l uniform on (-v, v),
//
//	v = R / sqrt(Sizes[l-1])   (the layer's fan-in),
//
// layer by layer, weights (row-major) before biases, from rng.
func (m *MLP) Init(rng *rand.Rand, s *InitSettings) {
	r := 1.0
	if s != nil && s.R != 0 {
		r = s.R
	}
	for l := 1; l < len(m.Sizes); l++ {
		v := r / math.Sqrt(float64(m.Sizes[l-1]))
		w, b := m.Layer(m.Params, l)
		for i := range w {
			w[i] = v * math.FMA(2, rng.Float64(), -1)
		}
		for i := range b {
			b[i] = v * math.FMA(2, rng.Float64(), -1)
		}
	}
}

package basis_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"elmfbpinn/core/basis"
	"elmfbpinn/core/jet"
	"elmfbpinn/core/nn"
)

// Finite differences: central first differences with step 1e-6 and central
// second differences with step 1e-4. The features vary on the length scale
// s/|W| >= 0.05 here, so the truncation error of the second difference is
// ≲ h² (|W|/s)⁴ /12 ≈ 1e-8·1.6e5/12 ≈ 1e-4 relative to (|W|/s)² ≈ 400 at
// worst; the tolerances below are 1e-7 (first) and 1e-5 (second) relative
// to the derivative scale σ (|W|/s)^n plus 1e-6 relative to the value.
var (
	fd1 = &fd.Settings{Formula: fd.Central, Step: 1e-6}
	fd2 = &fd.Settings{Formula: fd.Central2nd, Step: 1e-4}
)

// feature is an independent transcription of φ_k(x) = σ tanh(W_k·(x-c)/s + b_k).
func feature(b *basis.Basis, k int, x []float64, c, s [2]float64, sigma float64) float64 {
	z := b.B[k]
	for i := range b.Dim {
		z += b.W[k*b.Dim+i] * (x[i] - c[i]) / s[i]
	}
	return sigma * math.Tanh(z)
}

func TestJets(t *testing.T) {
	hand1 := &basis.Basis{Dim: 1, K: 3, W: []float64{1.3, -0.4, 2}, B: []float64{0.2, -0.9, 0}}
	hand2 := &basis.Basis{Dim: 2, K: 2, W: []float64{0.7, -1.1, -0.3, 0.5}, B: []float64{-0.1, 0.6}}
	cases := []struct {
		name  string
		b     *basis.Basis
		x     []float64
		c, s  [2]float64
		sigma float64
	}{
		{"1D hand, unit box", hand1, []float64{0.3}, [2]float64{0}, [2]float64{1}, 1},
		{"1D hand, shifted/scaled", hand1, []float64{0.61}, [2]float64{0.5}, [2]float64{0.12}, 0.75},
		{"1D random", basis.Random(basis.NewRNG(11), 1, 8, 1), []float64{-0.2}, [2]float64{0.1}, [2]float64{0.3}, 2},
		{"2D hand", hand2, []float64{0.2, 0.9}, [2]float64{0.25, 0.75}, [2]float64{0.4, 0.2}, 1},
		{"2D random sigma 0.75", basis.Random(basis.NewRNG(12), 2, 6, 1), []float64{0.55, 0.05}, [2]float64{0.6, 0.1}, [2]float64{0.09, 0.18}, 0.75},
		{"2D random R=3", basis.Random(basis.NewRNG(13), 2, 5, 3), []float64{-1, 2}, [2]float64{-0.5, 1.5}, [2]float64{1.5, 2.5}, 1.3},
	}
	for ci, tc := range cases {
		b := tc.b
		out := make([]jet.Jet, b.Size())
		c, s := tc.c, tc.s
		b.Jets(out, tc.x, &c, &s, tc.sigma)
		if out[0] != jet.Const(tc.sigma) {
			t.Errorf("case %d (%s): φ_0 = %+v, want Const(σ=%g)", ci, tc.name, out[0], tc.sigma)
		}
		for k := range b.K {
			got := out[k+1]
			x := slices.Clone(tc.x)
			if v := feature(b, k, x, c, s, tc.sigma); math.Abs(got.V-v) > 1e-14*math.Abs(tc.sigma) {
				t.Errorf("case %d (%s): φ_%d value got %.16g, want %.16g", ci, tc.name, k+1, got.V, v)
			}
			for i := range b.Dim {
				f := func(y float64) float64 {
					xx := slices.Clone(tc.x)
					xx[i] = y
					return feature(b, k, xx, c, s, tc.sigma)
				}
				a := math.Abs(b.W[k*b.Dim+i]) / s[i] // derivative scale along dim i
				d1 := fd.Derivative(f, tc.x[i], fd1)
				d2 := fd.Derivative(f, tc.x[i], fd2)
				if tol := 1e-7*math.Abs(d1) + 1e-7*math.Abs(tc.sigma)*(a+1); math.Abs(got.D1[i]-d1) > tol {
					t.Errorf("case %d (%s): φ_%d ∂/∂x_%d got %.10g, want %.10g (tol %.3g)", ci, tc.name, k+1, i, got.D1[i], d1, tol)
				}
				if tol := 1e-5*math.Abs(d2) + 1e-5*math.Abs(tc.sigma)*(a*a+1); math.Abs(got.D2[i]-d2) > tol {
					t.Errorf("case %d (%s): φ_%d ∂²/∂x_%d² got %.10g, want %.10g (tol %.3g)", ci, tc.name, k+1, i, got.D2[i], d2, tol)
				}
			}
			for i := b.Dim; i < jet.MaxDim; i++ {
				if got.D1[i] != 0 || got.D2[i] != 0 {
					t.Errorf("case %d (%s): φ_%d has non-zero derivative along unused dimension %d: %+v", ci, tc.name, k+1, i, got)
				}
			}
		}
	}
}

func TestJetsPanicsOnWrongLengths(t *testing.T) {
	b := basis.Random(basis.NewRNG(1), 2, 4, 1)
	c, s := [2]float64{0, 0}, [2]float64{1, 1}
	for i, tc := range []struct {
		nout int
		x    []float64
	}{{4, []float64{0, 0}}, {6, []float64{0, 0}}, {5, []float64{0}}, {5, []float64{0, 0, 0}}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("case %d: Jets with len(out)=%d, len(x)=%d did not panic, want a panic (K+1=5, dim=2)", i, tc.nout, len(tc.x))
				}
			}()
			b.Jets(make([]jet.Jet, tc.nout), tc.x, &c, &s, 1)
		}()
	}
}

func TestRandomRange(t *testing.T) {
	cases := []struct {
		dim, k int
		r      float64
	}{{1, 200, 1}, {2, 200, 1}, {2, 100, 2.5}, {1, 50, 0.1}}
	for i, tc := range cases {
		b := basis.Random(basis.NewRNG(uint64(i)), tc.dim, tc.k, tc.r)
		v := tc.r * math.Sqrt(1/float64(tc.dim))
		if b.Dim != tc.dim || b.K != tc.k || len(b.W) != tc.k*tc.dim || len(b.B) != tc.k || b.Size() != tc.k+1 {
			t.Errorf("case %d: Dim %d K %d len(W) %d len(B) %d Size %d, want %d %d %d %d %d",
				i, b.Dim, b.K, len(b.W), len(b.B), b.Size(), tc.dim, tc.k, tc.k*tc.dim, tc.k, tc.k+1)
			continue
		}
		all := append(slices.Clone(b.W), b.B...)
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, w := range all {
			if !(w > -v && w < v) {
				t.Errorf("case %d (dim %d, R %g): entry %g outside (-%g, %g)", i, tc.dim, tc.r, w, v, v)
			}
			lo, hi = min(lo, w), max(hi, w)
		}
		// With >= 50 uniform draws the extremes are within 20% of the
		// bounds with probability > 1 - 2·0.9^50 ≈ 0.99; the draws are
		// deterministic, so this is a check of the scale, not a flaky
		// statistical test.
		if lo > -0.8*v || hi < 0.8*v {
			t.Errorf("case %d (dim %d, R %g): entries span [%g, %g], want them to fill (-%g, %g)", i, tc.dim, tc.r, lo, hi, v, v)
		}
	}
}

func TestRandomSetDeterminism(t *testing.T) {
	a := basis.RandomSet(42, 5, 2, 8, 1)
	b := basis.RandomSet(42, 5, 2, 8, 1)
	c := basis.RandomSet(43, 5, 2, 8, 1)
	if len(a) != 5 {
		t.Fatalf("RandomSet returned %d bases, want 5", len(a))
	}
	for i := range a {
		if !slices.Equal(a[i].W, b[i].W) || !slices.Equal(a[i].B, b[i].B) {
			t.Errorf("basis %d: same seed gave different bases", i)
		}
		if slices.Equal(a[i].W, c[i].W) || slices.Equal(a[i].B, c[i].B) {
			t.Errorf("basis %d: seeds 42 and 43 gave identical weights or biases", i)
		}
	}
	// Bases within a set differ from one another.
	if slices.Equal(a[0].W, a[1].W) {
		t.Errorf("bases 0 and 1 of one set are identical")
	}
	// The set is drawn in order from one generator: a shorter set is a
	// prefix of a longer one.
	p := basis.RandomSet(42, 3, 2, 8, 1)
	for i := range p {
		if !slices.Equal(p[i].W, a[i].W) || !slices.Equal(p[i].B, a[i].B) {
			t.Errorf("basis %d of RandomSet(n=3) differs from basis %d of RandomSet(n=5)", i, i)
		}
	}
}

// ExampleBasis_Jets evaluates a one-feature basis tanh(x_n) at its
// subdomain centre: φ_0 = σ, φ_1 = σ tanh(0) = 0 with slope σ W/s = 2/0.5 = 4.
func ExampleBasis_Jets() {
	b := &basis.Basis{Dim: 1, K: 1, W: []float64{1}, B: []float64{0}}
	out := make([]jet.Jet, b.Size())
	c, s := [jet.MaxDim]float64{0.5}, [jet.MaxDim]float64{0.5}
	b.Jets(out, []float64{0.5}, &c, &s, 2)
	fmt.Println(out[0].V, out[1].V, out[1].D1[0])
	// Output: 2 0 4
}

// TestOneInitialisationRule checks that the random features and the
// networks are drawn by one rule, Uniform: nn.MLP.Init draws every layer l
// by Uniform with v = R/sqrt(fan_in), weights then biases, bit for bit from
// the same generator; Random draws W then b by Uniform with
// v = R sqrt(1/dim). In 1D the two bounds are the same number, so a
// network [1, K, ...] and a basis of K features drawn from the same
// generator state have the same hidden layer.
func TestOneInitialisationRule(t *testing.T) {
	cases := []struct {
		sizes []int
		r     float64
	}{{[]int{1, 6, 1}, 1}, {[]int{2, 5, 1}, 1.7}, {[]int{2, 4, 3, 1}, 0.5}}
	for i, tc := range cases {
		net := nn.New(tc.sizes, nil, make([]float64, tc.sizes[0]), slices.Repeat([]float64{1}, tc.sizes[0]))
		net.Init(basis.NewRNG(uint64(i)), &nn.InitSettings{R: tc.r})
		rng := basis.NewRNG(uint64(i))
		want := make([]float64, len(net.Params))
		for l := 1; l < len(tc.sizes); l++ {
			w, b := net.Layer(want, l)
			v := tc.r / math.Sqrt(float64(tc.sizes[l-1]))
			basis.Uniform(rng, w, v)
			basis.Uniform(rng, b, v)
		}
		if !slices.Equal(net.Params, want) {
			t.Errorf("case %d (sizes %v, R %g): nn.MLP.Init differs from Uniform with v = R/sqrt(fan_in)", i, tc.sizes, tc.r)
		}
		dim, k := tc.sizes[0], tc.sizes[1]
		b := basis.Random(basis.NewRNG(uint64(i)), dim, k, tc.r)
		rng = basis.NewRNG(uint64(i))
		w, bias := make([]float64, k*dim), make([]float64, k)
		basis.Uniform(rng, w, tc.r*math.Sqrt(1/float64(dim)))
		basis.Uniform(rng, bias, tc.r*math.Sqrt(1/float64(dim)))
		if !slices.Equal(b.W, w) || !slices.Equal(b.B, bias) {
			t.Errorf("case %d: Random differs from Uniform with v = R sqrt(1/dim)", i)
		}
		if w1, b1 := net.Layer(net.Params, 1); dim == 1 && (!slices.Equal(w1, b.W) || !slices.Equal(b1, b.B)) {
			t.Errorf("case %d: in 1D the network's first layer %v, %v differs from the basis %v, %v", i, w1, b1, b.W, b.B)
		}
	}
}

func TestWeightScale(t *testing.T) {
	cases := []struct {
		r, want float64
		ok      bool
	}{{0, 1, true}, {1, 1, true}, {2.5, 2.5, true}, {-1, 0, false}, {math.Inf(1), 0, false}, {math.NaN(), 0, false}}
	for _, tc := range cases {
		got, err := basis.WeightScale(tc.r)
		if (err == nil) != tc.ok || tc.ok && got != tc.want {
			t.Errorf("WeightScale(%v) = %v, %v; want %v (ok %v)", tc.r, got, err, tc.want, tc.ok)
		}
	}
}

package nn

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"elmfbpinn/core/fp"
)

// TestGemm checks the products on every kernel path against the plainest
// loops of the arithmetic gemm defines (one FMA chain per entry, p
// ascending, from 0 or from init, then one addition when accumulating), bit
// for bit: shapes that exercise every remainder of the 6 × 8 and 4 × 8
// tiles, row-major and transposed views of a, rows of c and b longer than
// n, overwriting and accumulating, with and without init, k = 0, and
// contractions cut into blocks of p (k above 256, with and without a
// partial last block).
func TestGemm(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sh := range [][3]int{{1, 1, 1}, {2, 3, 3}, {5, 7, 4}, {6, 64, 65}, {9, 2, 8}, {4, 5, 1},
		{6, 8, 1}, {10, 16, 7}, {13, 17, 33}, {64, 64, 786}, {786, 64, 64}, {3, 9, 0}, {11, 24, 5},
		{10, 16, 513}, {4, 8, 256}, {6, 8, 257}, {12, 40, 300}, {20, 24, 9},
		{100, 14, 70}, {52, 22, 129}, {6, 15, 1}, {4, 13, 300}, {58, 30, 64}, {68, 18, 20}, {20, 10, 68},
		// m mod 6 = 2: the last rows as two blocks of four on the AVX2 path.
		{14, 14, 700}, {8, 9, 5}, {50, 14, 20}, {98, 22, 9}, {2, 9, 3}, {50, 14, 300}, {98, 22, 70}} {
		checkGemm(t, rng, sh[0], sh[1], sh[2])
	}
}

// TestGemmEdges is TestGemm for every m and n from 1 to 17 (each remainder
// of the AVX-512 path's masked tiles, 8 rows by 8 or 16 columns, and of the
// AVX2 path's 6 × 8 and 4 × 8 tiles and padded columns), with contractions
// of 1, 7 and 300 terms (two blocks of p), and for the products of a
// PINN's hidden layer of every width from 1 to 17 over 340 rows (a part of
// 68 points of a 2D problem), in the three forms a training step uses.
func TestGemmEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for m := 1; m <= 17; m++ {
		for n := 1; n <= 17; n++ {
			for _, k := range []int{1, 7, 300} {
				checkGemm(t, rng, m, n, k)
			}
		}
	}
	for h := 1; h <= 17; h++ {
		checkGemm(t, rng, 340, h, h)
		checkGemm(t, rng, h, h, 340)
	}
}

// checkGemm is TestGemm for one shape: both views of a, the four modes of
// init and acc, on every kernel path, exact bits.
func checkGemm(t *testing.T, rng *rand.Rand, m, n, k int) {
	t.Helper()
	sh := [3]int{m, n, k}
	for _, trans := range []bool{false, true} {
		ldc, ldb := n+3, n+1
		av := make([]float64, m*k+5)
		b := make([]float64, max(k, 1)*ldb)
		for i := range av {
			av[i] = 2*rng.Float64() - 1
		}
		for i := range b {
			b[i] = 2*rng.Float64() - 1
		}
		a := rowMajor(av, k)
		if trans {
			a = transposed(av, m)
		}
		for _, mode := range []struct{ init, acc bool }{{false, false}, {false, true}, {true, false}, {true, true}} {
			acc := mode.acc
			c0 := make([]float64, m*ldc)
			for i := range c0 {
				c0[i] = 2*rng.Float64() - 1
			}
			var init []float64
			if mode.init {
				init = make([]float64, m*n)
				for i := range init {
					init[i] = 2*rng.Float64() - 1
				}
			}
			want := append([]float64(nil), c0...)
			for i := range m {
				for j := range n {
					var s float64
					if init != nil {
						s = init[i*n+j]
					}
					for p := range k {
						s = math.FMA(a.at(i, p), b[p*ldb+j], s)
					}
					if acc {
						want[i*ldc+j] += s
					} else {
						want[i*ldc+j] = s
					}
				}
			}
			for _, path := range fp.KernelPaths() {
				c := append([]float64(nil), c0...)
				func() {
					defer fp.SetKernelPath(fp.SetKernelPath(path))
					gemm(c, ldc, a, b, ldb, m, n, k, init, acc, make([]float64, m*n))
				}()
				for i := range c {
					if math.Float64bits(c[i]) != math.Float64bits(want[i]) {
						t.Fatalf("path %s, shape %v, transposed %v, %+v: c[%d] = %x, want %x", path, sh, trans, mode, i, c[i], want[i])
					}
				}
			}
		}
	}
}

// netOnRandomBox returns a network of these sizes on a random box, initialised
// from rng.
func netOnRandomBox(rng *rand.Rand, sizes []int) *MLP {
	d := sizes[0]
	centre, half := make([]float64, d), make([]float64, d)
	for i := range d {
		centre[i], half[i] = rng.Float64(), 0.5+rng.Float64()
	}
	m := New(sizes, nil, centre, half)
	m.Init(rng, nil)
	return m
}

// TestBatchPathsSameBits checks that Forward and Backward give the same
// bits on every kernel path: one-hidden-layer networks (the FBPINN's, whose
// 2D kernels work across points and units), deeper ones (the products), at
// point counts around the vector widths, and the PINN [d, w, w, 1] of both
// input dimensions at every width w from 1 to 17.
func TestBatchPathsSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	nets := [][]int{{2, 16, 1}, {2, 12, 1}, {2, 20, 1}, {2, 7, 1}, {2, 3, 1}, {1, 12, 1}, {2, 64, 64, 1}, {1, 64, 64, 1}, {2, 5, 3, 1},
		// Widths that are not multiples of 4 (16 for the last hidden
		// layer): the kernels take the first units and the last four,
		// overlapping (or, below 4, the scalar code all).
		{2, 14, 14, 1}, {1, 6, 10, 1}, {2, 20, 18, 1}, {2, 17, 21, 1}, {1, 18, 35, 1},
		{2, 7, 5, 1}, {1, 11, 9, 1}, {1, 5, 6, 1}, {2, 4, 6, 1}, {2, 13, 7, 9, 1}, {2, 6, 14, 1}, {1, 14, 6, 1}}
	for w := 1; w <= 17; w++ {
		nets = append(nets, []int{1, w, w, 1}, []int{2, w, w, 1})
	}
	for _, sizes := range nets {
		d := sizes[0]
		m := netOnRandomBox(rng, sizes)
		for _, n := range []int{1, 3, 4, 8, 9, 13, 28, 225} {
			x := make([]float64, n*d)
			for i := range x {
				x[i] = 4*rng.Float64() - 2
			}
			gout := make([]float64, n*Channels(d))
			for i := range gout {
				gout[i] = 2*rng.Float64() - 1
			}
			var wantOut, wantGrad []float64
			for _, path := range fp.KernelPaths() {
				grad := make([]float64, len(m.Params))
				for i := range grad {
					grad[i] = float64(i%7) - 3 // Backward adds to it
				}
				var out []float64
				clean := true // Z16-Z31 zero after each pass (fp.HighZMMZero)
				func() {
					defer fp.SetKernelPath(fp.SetKernelPath(path))
					b := NewBatch(m, n)
					out = append([]float64(nil), b.Forward(m, x)...)
					clean = fp.HighZMMZero()
					b.Backward(m, gout, grad)
					clean = clean && fp.HighZMMZero()
				}()
				if !clean {
					t.Fatalf("sizes %v, %d points: path %s: a kernel left Z16-Z31 dirty", sizes, n, path)
				}
				if wantOut == nil {
					wantOut, wantGrad = out, grad
					continue
				}
				for i := range out {
					if math.Float64bits(out[i]) != math.Float64bits(wantOut[i]) {
						t.Fatalf("sizes %v, %d points: path %s: out[%d] = %x, path %s: %x", sizes, n, path, i, out[i], fp.KernelPaths()[0], wantOut[i])
					}
				}
				for i := range grad {
					if math.Float64bits(grad[i]) != math.Float64bits(wantGrad[i]) {
						t.Fatalf("sizes %v, %d points: path %s: grad[%d] = %x, path %s: %x", sizes, n, path, i, grad[i], fp.KernelPaths()[0], wantGrad[i])
					}
				}
			}
		}
	}
}

// TestSetPointsShare checks, on every kernel path, that a batch whose
// points were set once (SetPoints) and whose scratch is shared with another
// batch (Share) gives, with Eval after the other batch has run in between
// on other points with another network, the bits of a batch of its own with
// Forward: outputs, and the gradient of a Backward after them.
func TestSetPointsShare(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, sizes := range [][]int{{2, 16, 1}, {2, 7, 1}, {1, 12, 1}, {2, 14, 14, 1}} {
		d := sizes[0]
		m := netOnRandomBox(rng, sizes)
		other := netOnRandomBox(rng, []int{d, 20, 1})
		for _, n := range []int{3, 13, 64} {
			x, y := make([]float64, n*d), make([]float64, 2*n*d)
			for i := range x {
				x[i] = 4*rng.Float64() - 2
			}
			for i := range y {
				y[i] = 4*rng.Float64() - 2
			}
			gout := make([]float64, n*Channels(d))
			for i := range gout {
				gout[i] = 2*rng.Float64() - 1
			}
			for _, path := range fp.KernelPaths() {
				func() {
					defer fp.SetKernelPath(fp.SetKernelPath(path))
					own := NewBatch(m, n)
					want := slices.Clone(own.Forward(m, x))
					wantGrad := make([]float64, len(m.Params))
					own.Backward(m, gout, wantGrad)

					var s Scratch
					b, o := NewBatch(m, n), NewBatch(other, 2*n)
					b.Share(&s)
					o.Share(&s)
					b.SetPoints(m, x)
					for range 2 { // the other batch between, and Eval twice
						o.Forward(other, y)
						got := b.Eval(m)
						grad := make([]float64, len(m.Params))
						b.Backward(m, gout, grad)
						for i := range want {
							if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
								t.Fatalf("sizes %v, %d points, path %s: Eval out[%d] = %v, Forward %v", sizes, n, path, i, got[i], want[i])
							}
						}
						for i := range grad {
							if math.Float64bits(grad[i]) != math.Float64bits(wantGrad[i]) {
								t.Fatalf("sizes %v, %d points, path %s: grad[%d] = %v after Eval, %v after Forward", sizes, n, path, i, grad[i], wantGrad[i])
							}
						}
					}
				}()
			}
		}
	}
}

// TestForwardBackwardParts checks that ForwardBackward, taking the points a
// part of Cap at a time, gives the bits of one Forward, the same output
// gradients and one Backward over all the points, on every kernel path:
// networks with one hidden layer and deeper ones, parts of one point, of
// sizes around the vector widths, and one part for all. The output
// gradient depends on the outputs, as a loss's does.
func TestForwardBackwardParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 37
	for _, sizes := range [][]int{{2, 16, 1}, {1, 12, 1}, {2, 7, 1}, {2, 64, 64, 1}, {1, 64, 64, 1}, {2, 5, 3, 1}, {2, 16, 8, 12, 1}, {2, 14, 14, 1}, {2, 20, 18, 1}, {1, 6, 10, 1}, {2, 7, 5, 1}} {
		d := sizes[0]
		m := netOnRandomBox(rng, sizes)
		x := make([]float64, n*d)
		for i := range x {
			x[i] = 4*rng.Float64() - 2
		}
		lossGrad := func(out, gout []float64) {
			for i, o := range out {
				gout[i] = math.FMA(0.75, o, -0.25*float64(i%5))
			}
		}
		for _, path := range fp.KernelPaths() {
			prev := fp.SetKernelPath(path)
			start := func() []float64 {
				grad := make([]float64, len(m.Params))
				for i := range grad {
					grad[i] = float64(i%7) - 3 // both add to it
				}
				return grad
			}
			b := NewBatch(m, n)
			out := b.Forward(m, x)
			gout := make([]float64, len(out))
			for p := 0; p < n; p++ { // the gradient of each point's outputs, as parts would see them
				c := Channels(d)
				lossGrad(out[p*c:(p+1)*c], gout[p*c:(p+1)*c])
			}
			want := start()
			b.Backward(m, gout, want)
			for _, part := range []int{1, 4, 8, 13, 36, n, 64} {
				got := start()
				pb := NewBatch(m, part)
				seen := 0
				pb.ForwardBackward(m, x, got, func(p0 int, out, gout []float64) {
					if p0 != seen {
						t.Fatalf("%v, parts of %d: part at %d, want %d", sizes, part, p0, seen)
					}
					c := Channels(d)
					for p := range len(out) / c {
						lossGrad(out[p*c:(p+1)*c], gout[p*c:(p+1)*c])
					}
					seen += len(out) / c
				})
				if seen != n {
					t.Fatalf("%v, parts of %d: %d points seen, want %d", sizes, part, seen, n)
				}
				for i := range got {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("path %s, %v, parts of %d: grad[%d] = %x, want %x", path, sizes, part, i, got[i], want[i])
					}
				}
			}
			fp.SetKernelPath(prev)
		}
	}
}

package nn

import (
	"fmt"
	"math"

	"elmfbpinn/core/fp"
)

// Channels returns the number of jet channels per point for input dimension
// d, 1 + 2d: the value, then ∂/∂x_i for each i, then ∂²/∂x_i² for each i.
func Channels(d int) int { return 1 + 2*d }

// Batch is the workspace of one network evaluated over up to Cap points at
// once: the activations the backward pass needs and its scratch. Every slice
// is allocated by NewBatch but the forward scratch of the vector kernels,
// allocated by the first evaluation that needs it (see Scratch), so later
// Forward, Eval and Backward calls allocate nothing.
//
// Layout: hidden layer q (width h) keeps its pre-activation jets Z and
// activation jets H as (points·channels, h) row-major matrices, row p·C + ch
// for channel ch of point p; the first layer, whose input jets are constant
// (∂x_n/∂x_i = 1/Half_i, no second derivative), keeps only tanh values
// (points, h_1).
type Batch struct {
	sizes []int
	cap   int
	n     int // points of the last SetPoints (Forward, ForwardBackward's part)
	d, c  int

	xn  []float64   // (cap, d) normalised inputs
	inv []float64   // (d) 1/Half
	a0  []float64   // (h_1, d) first-layer input jets W_1[k,i]/Half_i
	t0  []float64   // (cap, h_1) first-layer tanh values
	z   [][]float64 // z[q], q = 1..m-1: (cap·c, h_{q+1}) pre-activation jets
	h   [][]float64 // h[q], q = 0..m-1: (cap·c, h_{q+1}) activation jets (h[0] only if m >= 2)
	out []float64   // (cap, c) output jets

	gh, gz []float64       // (cap·c, max h) backward scratch
	gout   []float64       // (cap, c) ForwardBackward's output gradients
	chains [][]float64     // chains[q], q = 1..m-1: (h_{q+1}, h_q) the weight gradient's sums over the points so far
	gbias  float64         // backward1's output-bias gradient sum over the points so far
	wt     []float64       // (max h, max h) a hidden layer's Wᵀ for the forward product
	tmp    []float64       // the products' scratch (see scratch)
	ga     []float64       // (h_1, d) gradient with respect to a0
	wd, ad []float64       // (d, h_1) W_1 and a0 by input (vector kernels)
	zb     *Scratch        // first-layer values in blocks of four points (vector kernels): own or shared
	xs     [][2][4]float64 // (cap/4) the points' coordinates in blocks of four (vector kernels)
	wtab   [][4]float64    // (h_1·8) the first layer's weights spread over four lanes (vector kernels)
	wa, wb []float64       // (h_1, d) output-layer products for one hidden layer
}

// NewBatch returns a workspace for evaluating m (or any network of the same
// sizes) on up to n points.
func NewBatch(m *MLP, n int) *Batch {
	if n < 0 {
		panic("nn: NewBatch: negative point count")
	}
	sizes := m.Sizes
	d := sizes[0]
	c := Channels(d)
	hid := len(sizes) - 2 // m hidden layers
	h1 := sizes[1]
	b := &Batch{
		sizes: append([]int(nil), sizes...),
		cap:   n, d: d, c: c,
		xn:   make([]float64, n*d),
		inv:  make([]float64, d),
		a0:   make([]float64, h1*d),
		t0:   make([]float64, n*h1),
		z:    make([][]float64, hid),
		h:    make([][]float64, hid),
		out:  make([]float64, n*c),
		gout: make([]float64, n*c),
		ga:   make([]float64, h1*d),
		wd:   make([]float64, h1*d),
		ad:   make([]float64, h1*d),
		zb:   new(Scratch),
		xs:   make([][2][4]float64, n/4),
		wtab: make([][4]float64, 8*h1),
		wa:   make([]float64, h1*d),
		wb:   make([]float64, h1*d),
	}
	if hid >= 2 {
		maxh := 0
		b.chains = make([][]float64, hid)
		for q := range hid {
			w := sizes[q+1]
			maxh = max(maxh, w)
			b.h[q] = make([]float64, n*c*w)
			if q >= 1 {
				b.z[q] = make([]float64, n*c*w)
				b.chains[q] = make([]float64, w*sizes[q])
			}
		}
		b.gh = make([]float64, n*c*maxh)
		b.gz = make([]float64, n*c*maxh)
		b.wt = make([]float64, maxh*maxh)
	}
	return b
}

// scratch returns scratch for a product of a hidden layer: the vector
// kernels use at most (max h)² of it, so only that much is kept for them;
// the generic path is given the n values it asks for (the operands laid out
// along the contraction), allocated on first use.
func (b *Batch) scratch(n int) []float64 {
	if fp.AVX() {
		n = min(n, len(b.wt))
	}
	if len(b.tmp) < n {
		b.tmp = make([]float64, n)
	}
	return b.tmp[:n]
}

// PartPoints returns how many points ForwardBackward should take at a time
// for a network of these sizes: as many as keep the activations the passes
// read and write (about 30 KiB a point for a [2, 64, 64, 1] network's jets,
// all layers) within partBytes, so that they stay in a core's L2 cache from
// the forward to the backward pass, and at least 8.
func PartPoints(sizes []int) int {
	c := Channels(sizes[0])
	per := 0
	for _, h := range sizes[1 : len(sizes)-1] {
		per += 6 * c * h * 8 // a hidden layer's z, h, gz and gh, and the products' reads
	}
	return max(8, partBytes/max(per, 1))
}

// partBytes is the activations ForwardBackward keeps per part. Measured on
// the 2D PINN's step (6400 points, [2, 64, 64, 1], one Intel Xeon core with
// 2 MiB of L2): 19-21 ms at 1 MiB, 16.2 ms at 2 MiB, 18.6-19 ms at 4 MiB,
// 22-27 ms at 8-16 MiB, 41-42 ms in one part.
const partBytes = 2 << 20

// Scratch is working memory of the forward pass that batches used one after
// another, never at once, may share (Batch.Share). The FBPINN evaluates
// hundreds of small networks a step: a buffer of its own for each would
// carry the whole set through the cache, one shared buffer stays in it (on
// a Zen 3 the 2D FBPINN steps took 4-8% less time). The zero value is
// ready to use.
type Scratch struct{ v []float64 }

// get returns n values of s.
func (s *Scratch) get(n int) []float64 {
	if len(s.v) < n {
		s.v = make([]float64, n)
	}
	return s.v[:n]
}

// Share makes b use s for the scratch of its forward pass instead of its
// own, so that batches used one after another can share it. It does not
// change what b computes.
func (b *Batch) Share(s *Scratch) { b.zb = s }

// Cap returns the largest number of points the batch holds.
func (b *Batch) Cap() int { return b.cap }

func (b *Batch) check(m *MLP) {
	if len(m.Sizes) != len(b.sizes) {
		panic("nn: network and batch sizes differ")
	}
	for i, s := range m.Sizes {
		if s != b.sizes[i] {
			panic(fmt.Sprintf("nn: network sizes %v, batch built for %v", m.Sizes, b.sizes))
		}
	}
}

// Forward evaluates m and its jets at the points x ((n, d) row-major,
// n <= Cap) and returns the output jets, (n, Channels(d)) row-major:
//
//	out[p·C + 0] = N(x_p),  out[p·C + 1 + i] = ∂N/∂x_i,  out[p·C + 1 + d + i] = ∂²N/∂x_i².
//
// The returned slice is the batch's own and is overwritten by the next call.
func (b *Batch) Forward(m *MLP, x []float64) []float64 {
	b.SetPoints(m, x)
	return b.Eval(m)
}

// SetPoints keeps the points x ((n, d) row-major, n <= Cap) normalised by
// m's input normalisation, for Eval. A network trained on fixed points
// normalises them once instead of at every evaluation.
func (b *Batch) SetPoints(m *MLP, x []float64) {
	b.check(m)
	d := b.d
	if len(x)%d != 0 || len(x)/d > b.cap {
		panic(fmt.Sprintf("nn: SetPoints: %d coordinates for dimension %d and capacity %d", len(x), d, b.cap))
	}
	n := len(x) / d
	b.n = n
	for i := range d {
		b.inv[i] = 1 / m.Half[i]
	}
	xn := b.xn[:n*d]
	for p := range n {
		for i := range d {
			xn[p*d+i] = (x[p*d+i] - m.Centre[i]) * b.inv[i]
		}
	}
	if d == 2 && len(b.sizes) == 3 { // forward2Vector's blocks of four points
		for i := range b.xs[:n/4] {
			x := xn[8*i : 8*i+8]
			b.xs[i] = [2][4]float64{{x[0], x[2], x[4], x[6]}, {x[1], x[3], x[5], x[7]}}
		}
	}
}

// Eval is Forward at the points of the last SetPoints (or Forward, or the
// last part of ForwardBackward): it returns the output jets of m there.
// m's Centre and Half must be those the points were normalised with (they
// are not trained).
func (b *Batch) Eval(m *MLP) []float64 {
	b.check(m)
	d, c, n := b.d, b.c, b.n
	w1, _ := m.Layer(m.Params, 1)
	for k := range b.sizes[1] {
		for i := range d {
			b.a0[k*d+i] = w1[k*d+i] * b.inv[i]
		}
	}
	if len(b.sizes) == 3 {
		b.forward1(m)
		return b.out[:n*c]
	}
	b.forwardInput(m)
	hid := len(b.sizes) - 2
	for q := 1; q < hid; q++ {
		w, bias := m.Layer(m.Params, q+1)
		hin, hout := b.sizes[q], b.sizes[q+1]
		rows := n * c
		z := b.z[q][:rows*hout]
		transpose(b.wt, w, hout, hin) // so the product reads rows of Wᵀ
		gemm(z, hout, rowMajor(b.h[q-1][:rows*hin], hin), b.wt, hout, rows, hout, hin, nil, false, b.scratch(hin*hout))
		for p := range n {
			zr := z[p*c*hout : p*c*hout+hout]
			for k := range zr {
				zr[k] += bias[k]
			}
		}
		tanhJets(b.h[q][:rows*hout], z, n, d, hout)
	}
	// Linear output layer.
	w, bias := m.Layer(m.Params, hid+1)
	hl := b.sizes[hid]
	hlast := b.h[hid-1]
	out := b.out[:n*c]
	outputValues(out, w, hlast, hl)
	for p := range n {
		out[p*c] += bias[0]
	}
	return out
}

// outputValues sets out[r] to the output layer's product with row r of h
// (rows of length hl), dot(w, row) for every row: four rows at a time, so
// that four independent FMA chains are in flight instead of one; each row's
// chain is dot's, so the bits are.
func outputValues(out, w, h []float64, hl int) {
	w = w[:hl]
	r := 0
	for ; r+4 <= len(out); r += 4 {
		h0, h1 := h[r*hl:(r+1)*hl], h[(r+1)*hl:(r+2)*hl]
		h2, h3 := h[(r+2)*hl:(r+3)*hl], h[(r+3)*hl:(r+4)*hl]
		h0, h1, h2, h3 = h0[:len(w)], h1[:len(w)], h2[:len(w)], h3[:len(w)]
		var s0, s1, s2, s3 float64
		for k, v := range w {
			s0 = math.FMA(v, h0[k], s0)
			s1 = math.FMA(v, h1[k], s1)
			s2 = math.FMA(v, h2[k], s2)
			s3 = math.FMA(v, h3[k], s3)
		}
		out[r], out[r+1], out[r+2], out[r+3] = s0, s1, s2, s3
	}
	for ; r < len(out); r++ {
		out[r] = dot(w, h[r*hl:(r+1)*hl])
	}
}

// forwardInput fills t0 and the activation jets h[0] of the first layer.
func (b *Batch) forwardInput(m *MLP) {
	w1, b1 := m.Layer(m.Params, 1)
	b.inputValues(w1, b1, b.inputValuesVector(w1, b1))
	t0 := b.t0[:b.n*b.sizes[1]]
	fp.TanhSlice(t0, t0)
	b.inputJets(b.inputJetsVector())
}

// inputValues sets t0 of the units k0, k0+1, ... of every point to the
// first layer's pre-activation values.
func (b *Batch) inputValues(w1, b1 []float64, k0 int) {
	d, h := b.d, b.sizes[1]
	if k0 >= h {
		return // the vector kernels took every unit
	}
	for p := range b.n {
		xp := b.xn[p*d : p*d+d]
		tp := b.t0[p*h : p*h+h]
		for k := k0; k < h; k++ {
			z := b1[k]
			for i, xi := range xp {
				z = math.FMA(w1[k*d+i], xi, z)
			}
			tp[k] = z
		}
	}
}

// inputJets sets the activation jets h[0] of the units k0, k0+1, ... of
// every point from their tanh values in t0.
func (b *Batch) inputJets(k0 int) {
	d, c, h := b.d, b.c, b.sizes[1]
	if k0 >= h {
		return
	}
	for p := range b.n {
		tp := b.t0[p*h : p*h+h]
		row := b.h[0][p*c*h : (p+1)*c*h]
		for k := k0; k < h; k++ {
			t := tp[k]
			dd := 1 - float64(t*t)
			row[k] = t
			for i := range d {
				a := b.a0[k*d+i]
				row[(1+i)*h+k] = dd * a
				row[(1+d+i)*h+k] = -2 * t * dd * a * a
			}
		}
	}
}

// tanhJets applies tanh to the pre-activation jets z ((n·c, h)) by the chain
// rule, ∂t = (1 - t²) ∂z,  ∂²t = (1 - t²) ∂²z - 2 t (1 - t²) (∂z)².
func tanhJets(hj, z []float64, n, d, h int) {
	c := 1 + 2*d
	for p := range n {
		fp.TanhSlice(hj[p*c*h:p*c*h+h], z[p*c*h:p*c*h+h])
	}
	jetDerivatives(hj, z, n, d, h, jetDerivativesVector(hj, z, n, d, h))
}

// jetDerivatives sets the derivative rows of hj of the units k0, k0+1, ...
// from the value rows (tanhJets).
func jetDerivatives(hj, z []float64, n, d, h, k0 int) {
	if k0 >= h {
		return
	}
	c := 1 + 2*d
	for p := range n {
		zr := z[p*c*h : (p+1)*c*h]
		hr := hj[p*c*h : (p+1)*c*h]
		hv := hr[:h]
		for i := range d {
			z1, z2 := zr[(1+i)*h:(2+i)*h], zr[(1+d+i)*h:(2+d+i)*h]
			h1, h2 := hr[(1+i)*h:(2+i)*h], hr[(1+d+i)*h:(2+d+i)*h]
			for k := k0; k < h; k++ {
				t := hv[k]
				dd := 1 - float64(t*t)
				a := z1[k]
				h1[k] = dd * a
				h2[k] = dd * math.FMA(-2*t*a, a, z2[k])
			}
		}
	}
}

// Backward adds to grad (laid out like m.Params) the gradient of a loss L
// with respect to every parameter, given gout ((n, Channels(d)), n the point
// count of the last Forward or Eval), the gradient of L with respect to the
// output jets that it returned. It must follow a Forward or Eval of the same
// network with the same parameters.
func (b *Batch) Backward(m *MLP, gout, grad []float64) {
	b.backward(m, gout, grad, true, true)
}

// ForwardBackward is Forward at the points x ((n, d) row-major, any n)
// followed by Backward, taken Cap points at a time so that a wide network's
// activations stay in cache: for each part of the points in order it calls
// fn(p0, out, gout) with the output jets of points p0, p0+1, ... (as
// Forward returns them), and fn sets gout (of out's length) to the gradient
// of the loss with respect to them. The bits are those of one Forward, fn
// over all the points and one Backward: every gradient sum over the points
// is one chain carried from part to part.
func (b *Batch) ForwardBackward(m *MLP, x, grad []float64, fn func(p0 int, out, gout []float64)) {
	d := b.d
	if len(x)%d != 0 || (b.cap == 0 && len(x) > 0) {
		panic(fmt.Sprintf("nn: ForwardBackward: %d coordinates for dimension %d and capacity %d", len(x), d, b.cap))
	}
	n := len(x) / d
	for p0 := 0; p0 == 0 || p0 < n; p0 += b.cap {
		p1 := min(n, p0+b.cap)
		out := b.Forward(m, x[p0*d:p1*d])
		gout := b.gout[:len(out)]
		fn(p0, out, gout)
		b.backward(m, gout, grad, p0 == 0, p1 == n)
	}
}

// backward is Backward for one part of the points (ForwardBackward): the
// first part starts the gradient's sums over the points, the last adds
// those that are kept apart (a hidden layer's weight gradient, the first
// layer's input-jet part) to grad.
func (b *Batch) backward(m *MLP, gout, grad []float64, first, last bool) {
	b.check(m)
	n, c := b.n, b.c
	if len(gout) != n*c || len(grad) != len(m.Params) {
		panic(fmt.Sprintf("nn: Backward: %d output gradients and %d parameters, want %d and %d", len(gout), len(grad), n*c, len(m.Params)))
	}
	if len(b.sizes) == 3 {
		b.backward1(m, gout, grad, first, last)
		return
	}
	hid := len(b.sizes) - 2
	rows := n * c
	// Output layer: out = H w + b (value rows).
	w, _ := m.Layer(m.Params, hid+1)
	gw, gbias := m.Layer(grad, hid+1)
	hl := b.sizes[hid]
	hlast := b.h[hid-1]
	gh := b.gh[:rows*hl]
	outputBack(gw, gh, hlast, gout, w, hl, outputBackVector(gw, gh, hlast, gout, w, hl))
	for p := range n {
		gbias[0] += gout[p*c]
	}
	for q := hid - 1; q >= 1; q-- {
		hin, hout := b.sizes[q], b.sizes[q+1]
		gz := b.gz[:rows*hout]
		tanhJetsBack(gz, b.gh[:rows*hout], b.z[q][:rows*hout], b.h[q][:rows*hout], n, b.d, hout)
		w, _ := m.Layer(m.Params, q+1)
		gw, gbias := m.Layer(grad, q+1)
		// gW += gzᵀ H_{q-1}, reading gz transposed in place (the
		// contraction over every point's jets is cut into blocks in wt),
		// its chains carried over the parts in b.chains[q].
		var init []float64
		if !first {
			init = b.chains[q]
		}
		dst, ld := b.chains[q], hin
		if last {
			dst, ld = gw, hin
		}
		gemm(dst, ld, transposed(gz, hout), b.h[q-1][:rows*hin], hin, hout, hin, rows, init, last, b.scratch(rows*(hin+hout)))
		for p := range n {
			gr := gz[p*c*hout : p*c*hout+hout]
			for k, g := range gr {
				gbias[k] += g
			}
		}
		// gH_{q-1} = gz W.
		gemm(b.gh[:rows*hin], hin, rowMajor(gz, hout), w, hin, rows, hin, hout, nil, false, b.scratch(hin*hout))
	}
	b.backwardInput(m, b.gh[:rows*b.sizes[1]], grad, first, last)
}

// tanhJetsBack maps the gradient gh with respect to the activation jets of a
// hidden layer to the gradient gz with respect to its pre-activation jets,
// the transpose of tanhJets' derivative at (z, hj).
func tanhJetsBack(gz, gh, z, hj []float64, n, d, h int) {
	jetsBack(gz, gh, z, hj, n, d, h, tanhJetsBackVector(gz, gh, z, hj, n, d, h))
}

// jetsBack is tanhJetsBack for the units k0, k0+1, ... .
func jetsBack(gz, gh, z, hj []float64, n, d, h, k0 int) {
	if k0 >= h {
		return
	}
	c := 1 + 2*d
	for p := range n {
		o := p * c * h
		zr, hr, ghr, gzr := z[o:o+c*h], hj[o:o+c*h], gh[o:o+c*h], gz[o:o+c*h]
		tv, gtv, gzv := hr[:h], ghr[:h], gzr[:h]
		for k := k0; k < h; k++ {
			t := tv[k]
			gzv[k] = gtv[k] * (1 - float64(t*t))
		}
		for i := range d {
			z1, z2 := zr[(1+i)*h:(2+i)*h], zr[(1+d+i)*h:(2+d+i)*h]
			g1, g2 := ghr[(1+i)*h:(2+i)*h], ghr[(1+d+i)*h:(2+d+i)*h]
			gz1, gz2 := gzr[(1+i)*h:(2+i)*h], gzr[(1+d+i)*h:(2+d+i)*h]
			for k := k0; k < h; k++ {
				t := tv[k]
				dd := 1 - float64(t*t)
				a, b, u, v := z1[k], z2[k], g1[k], g2[k]
				// ∂t = dd a, ∂²t = dd (b - 2 t a²); d dd/dz = -2 t dd.
				w3 := 1 - float64(3*t*t)
				inner := math.FMA(a*a*w3, v, float64(t*math.FMA(b, v, float64(a*u))))
				gzv[k] = math.FMA(-2*dd, inner, gzv[k])
				gz1[k] = dd * math.FMA(-4*t*a, v, u)
				gz2[k] = dd * v
			}
		}
	}
}

// outputBack is the output layer's backward pass for the units k0, k0+1,
// ...: per row r, gw[k] = FMA(g_r, hlast[r, k], gw[k]), gh[r, k] = g_r w[k].
func outputBack(gw, gh, hlast, gout, w []float64, hl, k0 int) {
	if k0 >= hl {
		return
	}
	for r, g := range gout {
		hr := hlast[r*hl : (r+1)*hl]
		ghr := gh[r*hl : (r+1)*hl]
		for k := k0; k < hl; k++ {
			gw[k] = math.FMA(g, hr[k], gw[k])
			ghr[k] = g * w[k]
		}
	}
}

// backwardInput adds the first layer's parameter gradient given gh, the
// gradient with respect to its activation jets ((n·c, h_1)); its input-jet
// part ga is summed over the parts (backward) and added on the last.
func (b *Batch) backwardInput(m *MLP, gh, grad []float64, first, last bool) {
	d, h := b.d, b.sizes[1]
	gw1, gb1 := m.Layer(grad, 1)
	ga := b.ga
	if first {
		clear(ga)
	}
	b.inputBack(gh, gw1, gb1, b.backwardInputVector(gh, gw1, gb1))
	if !last {
		return
	}
	for k := range h {
		for i := range d {
			gw1[k*d+i] = math.FMA(ga[k*d+i], b.inv[i], gw1[k*d+i])
		}
	}
}

// inputBack is backwardInput's sums over the points for the units k0, k0+1,
// ... .
func (b *Batch) inputBack(gh, gw1, gb1 []float64, k0 int) {
	n, d, c := b.n, b.d, b.c
	h := b.sizes[1]
	if k0 >= h {
		return
	}
	ga := b.ga
	for p := range n {
		xp := b.xn[p*d : p*d+d]
		tp := b.t0[p*h : p*h+h]
		row := gh[p*c*h : (p+1)*c*h]
		for k := k0; k < h; k++ {
			t := tp[k]
			dd := 1 - float64(t*t)
			w3 := 1 - float64(3*t*t)
			s := row[k]
			for i := range d {
				a := b.a0[k*d+i]
				u, v := row[(1+i)*h+k], row[(1+d+i)*h+k]
				s = math.FMA(-2*a, math.FMA(a*w3, v, float64(t*u)), s)
				ga[k*d+i] = math.FMA(dd, math.FMA(-4*t*a, v, u), ga[k*d+i])
			}
			gz := float64(dd * s)
			for i, xi := range xp {
				gw1[k*d+i] = math.FMA(gz, xi, gw1[k*d+i])
			}
			gb1[k] += gz
		}
	}
}

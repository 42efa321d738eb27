package nn

import (
	"math"

	"elmfbpinn/core/fp"
)

// The one-hidden-layer network [d, h, 1] is the FBPINN's subdomain network
// and the hot loop of its training. Its jets need no matrices: with
//
//	t_k = tanh(z_k),  z_k = W_1[k]·x_n + b_1[k],  a_ki = W_1[k,i]/Half_i,
//	N = Σ_k w_k t_k + b,  ∂N/∂x_i = Σ_k w_k (1-t_k²) a_ki,
//	∂²N/∂x_i² = -2 Σ_k w_k t_k (1-t_k²) a_ki²,
//
// only t (points, h) is kept, and the backward pass is fused per unit.

// forward1 evaluates a one-hidden-layer network into b.out.
func (b *Batch) forward1(m *MLP) {
	h := b.sizes[1]
	w1, b1 := m.Layer(m.Params, 1)
	w2, b2 := m.Layer(m.Params, 2)
	d := b.d
	for k := range h {
		for i := range d {
			a := b.a0[k*d+i]
			b.wa[k*d+i] = w2[k] * a
			b.wb[k*d+i] = -2 * w2[k] * a * a
		}
	}
	n := b.n
	bias := b2[0]
	switch d {
	case 1:
		w1, b1, w2 := w1[:h], b1[:h], w2[:h]
		wa, wb := b.wa[:h], b.wb[:h]
		out := b.out[:3*n]
		for p := range n {
			x := b.xn[p]
			tp := b.t0[p*h : p*h+h]
			var v, d1, d2 float64
			for k := range tp {
				tp[k] = math.FMA(w1[k], x, b1[k])
			}
			fp.TanhSlice(tp, tp)
			for k, t := range tp {
				dd := 1 - float64(t*t)
				v = math.FMA(w2[k], t, v)
				d1 = math.FMA(wa[k], dd, d1)
				d2 = math.FMA(wb[k], t*dd, d2)
			}
			o := out[3*p : 3*p+3]
			o[0], o[1], o[2] = v+bias, d1, d2
		}
	case 2:
		w1, b1, w2 := w1[:2*h], b1[:h], w2[:h]
		wa, wb := b.wa[:2*h], b.wb[:2*h]
		out := b.out[:5*n]
		p0 := 0
		if fp.AVX() {
			p0 = b.forward2Vector(w1, b1, w2, bias)
		}
		for p := p0; p < n; p++ {
			x0, x1 := b.xn[2*p], b.xn[2*p+1]
			tp := b.t0[p*h : p*h+h]
			var v, d10, d11, d20, d21 float64
			for k := range tp {
				tp[k] = math.FMA(w1[2*k+1], x1, math.FMA(w1[2*k], x0, b1[k]))
			}
			fp.TanhSlice(tp, tp)
			for k, t := range tp {
				dd := 1 - float64(t*t)
				td := t * dd
				v = math.FMA(w2[k], t, v)
				d10 = math.FMA(wa[2*k], dd, d10)
				d11 = math.FMA(wa[2*k+1], dd, d11)
				d20 = math.FMA(wb[2*k], td, d20)
				d21 = math.FMA(wb[2*k+1], td, d21)
			}
			o := out[5*p : 5*p+5]
			o[0], o[1], o[2], o[3], o[4] = v+bias, d10, d11, d20, d21
		}
	default:
		panic("nn: unsupported input dimension")
	}
}

// backward1 adds the parameter gradient of a one-hidden-layer network. Per
// point and unit, with g = (g_V, g_1i, g_2i) the output-jet gradient,
// dd = 1 - t² and w = w_k:
//
//	∂L/∂w_k  += g_V t + dd Σ_i a_i (g_1i - 2 t a_i g_2i),
//	∂L/∂z_k   = w dd (g_V - 2 Σ_i a_i (t g_1i + a_i (1 - 3t²) g_2i)),
//	∂L/∂a_ki += w dd (g_1i - 4 t a_i g_2i),
//
// and ∂L/∂W_1[k,i] = Σ_p ∂L/∂z_k x_n,i + (Σ_p ∂L/∂a_ki)/Half_i.
//
// With parts of the points (backward), ga and the output bias's sum are
// carried from the first part to the last, which adds them.
func (b *Batch) backward1(m *MLP, gout, grad []float64, first, last bool) {
	h := b.sizes[1]
	w2, _ := m.Layer(m.Params, 2)
	gw1, gb1 := m.Layer(grad, 1)
	gw2, gb2 := m.Layer(grad, 2)
	d := b.d
	n := b.n
	ga := b.ga
	if first {
		clear(ga)
		b.gbias = 0
	}
	gbias := b.gbias
	switch d {
	case 1:
		a0, w2, ga := b.a0[:h], w2[:h], ga[:h]
		gw1, gb1, gw2 := gw1[:h], gb1[:h], gw2[:h]
		for p := range n {
			g := gout[3*p : 3*p+3]
			gv, g1, g2 := g[0], g[1], g[2]
			x := b.xn[p]
			tp := b.t0[p*h : p*h+h]
			gbias += gv
			for k, t := range tp {
				dd := 1 - float64(t*t)
				a := a0[k]
				ta := t * a
				gw2[k] += math.FMA(dd*a, math.FMA(-2*ta, g2, g1), float64(gv*t))
				wd := w2[k] * dd
				u := 1 - float64(3*t*t)
				gz := float64(wd * math.FMA(-2*a, math.FMA(a*u, g2, float64(t*g1)), gv))
				ga[k] = math.FMA(wd, math.FMA(-4*ta, g2, g1), ga[k])
				gw1[k] = math.FMA(gz, x, gw1[k])
				gb1[k] += gz
			}
		}
		if !last {
			break
		}
		inv := b.inv[0]
		for k := range gw1 {
			gw1[k] = math.FMA(ga[k], inv, gw1[k])
		}
	case 2:
		a0, w2, ga := b.a0[:2*h], w2[:h], ga[:2*h]
		gw1, gb1, gw2 := gw1[:2*h], gb1[:h], gw2[:h]
		k0 := 0 // the units from k0 on are done here
		if fp.AVX() {
			k0 = b.backward2Vector(gout, w2, gw1, gb1, gw2)
		}
		for p := range n { // the output bias's sum, a chain of its own
			gbias += gout[5*p]
		}
		for p := 0; p < n && k0 < h; p++ { // the units the kernels left
			g := gout[5*p : 5*p+5]
			gv, g10, g11, g20, g21 := g[0], g[1], g[2], g[3], g[4]
			x0, x1 := b.xn[2*p], b.xn[2*p+1]
			tp := b.t0[p*h : p*h+h]
			for k := k0; k < h; k++ {
				t := tp[k]
				dd := 1 - float64(t*t)
				a, e := a0[2*k], a0[2*k+1]
				// −2 t a as t (−2a) and −4 t a as its double, FMA(−2,
				// X, gv) as gv − (X + X), with the vector kernel's
				// operations: the same values, doubling being exact,
				// unless t a is subnormal or |a|, |X| ≥ 2^1023, which a
				// network's values never reach.
				ta2, te2 := float64(t*(-2*a)), float64(t*(-2*e))
				s := math.FMA(e, math.FMA(te2, g21, g11), float64(a*math.FMA(ta2, g20, g10)))
				gw2[k] += math.FMA(dd, s, float64(gv*t))
				wd := w2[k] * dd
				u := 1 - float64(3*t*t)
				in0 := math.FMA(a*u, g20, float64(t*g10))
				in1 := math.FMA(e*u, g21, float64(t*g11))
				x := math.FMA(e, in1, float64(a*in0))
				gz := float64(wd * (gv - (x + x)))
				ga[2*k] = math.FMA(wd, math.FMA(ta2+ta2, g20, g10), ga[2*k])
				ga[2*k+1] = math.FMA(wd, math.FMA(te2+te2, g21, g11), ga[2*k+1])
				gw1[2*k] = math.FMA(gz, x0, gw1[2*k])
				gw1[2*k+1] = math.FMA(gz, x1, gw1[2*k+1])
				gb1[k] += gz
			}
		}
		if !last {
			break
		}
		inv0, inv1 := b.inv[0], b.inv[1]
		for k := range h {
			gw1[2*k] = math.FMA(ga[2*k], inv0, gw1[2*k])
			gw1[2*k+1] = math.FMA(ga[2*k+1], inv1, gw1[2*k+1])
		}
	default:
		panic("nn: unsupported input dimension")
	}
	b.gbias = gbias
	if last {
		gb2[0] += gbias
	}
}

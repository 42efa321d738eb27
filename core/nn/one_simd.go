//go:build amd64 && !purego

package nn

import "elmfbpinn/core/fp"

//go:generate python3 ../../scripts/asmgen/widen.py

// The AVX2 versions of forward1 and backward1 for two input dimensions
// (the FBPINN's subdomain networks in 2D), in assembly (one_amd64.s); they
// run on CPUs with AVX-512 too. Each keeps the arithmetic of the scalar
// code exactly:
//
//   - forward2Vector works across four points: each lane holds one point's
//     chains over the units, in the scalar order, so t and the output jets
//     have the scalar bits;
//   - backward2Vector works across four units: each lane holds one unit's
//     chains over the points, in the scalar order.

// forward2Vector is forward1 for d = 2 on the first n &^ 3 points, in
// blocks of four points: the first layer's values (forward2Z), one
// TanhSlice over all of them, then the output jets and the transposed
// store of t (forward2Out). It returns how many points it did.
func (b *Batch) forward2Vector(w1, b1, w2 []float64, bias float64) int {
	h, n := b.sizes[1], b.n&^3
	if n == 0 {
		return 0
	}
	wa, wb := b.wa[:2*h], b.wb[:2*h]
	tab := b.wtab[:8*h]
	for k := range h {
		for i, v := range [8]float64{w1[2*k], w1[2*k+1], b1[k], w2[k], wa[2*k], wa[2*k+1], wb[2*k], wb[2*k+1]} {
			tab[8*k+i] = [4]float64{v, v, v, v}
		}
	}
	nblk := n / 4
	z := b.zb.get(n * h) // blocks of (h, 4); xs is made by SetPoints
	forward2Z(&tab[0], &b.xs[0], &z[0], nblk, h)
	fp.TanhSlice(z, z)
	bv := [4]float64{bias, bias, bias, bias}
	forward2Out(&tab[0], &z[0], &b.t0[0], &b.out[0], nblk, h, &bv)
	for k := h &^ 3; k < h; k++ { // the units forward2Out does not transpose
		for p := range n {
			b.t0[p*h+k] = z[(p/4)*4*h+4*k+p%4]
		}
	}
	return n
}

//go:noescape
func forward2Z(tab *[4]float64, xs *[2][4]float64, z *float64, nblk, h int)

//go:noescape
func forward2Out(tab *[4]float64, z, t0, out *float64, nblk, h int, bias *[4]float64)

// backward2Vector is backward1 for d = 2 on the first h &^ 3 units: eight
// at a time on the AVX-512 path (backward2Asm512, the AVX2 kernel on eight
// lanes), then four at a time (backward2Asm); it returns how many units it
// did (their ga is left in b.ga, as the scalar code leaves it).
func (b *Batch) backward2Vector(gout, w2, gw1, gb1, gw2 []float64) int {
	h, n := b.sizes[1], b.n
	hv := h &^ 3
	if n == 0 {
		return hv
	}
	k0 := 0
	if fp.KernelPath() == fp.AVX512 {
		for ; k0+8 <= hv; k0 += 8 {
			b.backward2Units(gout, w2, gw1, gb1, gw2, k0, 8)
		}
	}
	for ; k0 < hv; k0 += 4 {
		b.backward2Units(gout, w2, gw1, gb1, gw2, k0, 4)
	}
	return hv
}

// backward2Units runs the kernel for the w = 4 or 8 units from k0
// (backward2Asm or backward2Asm512): it gathers their first-layer input
// jets, output weights and gradient sums into blocks of w lanes, and puts
// the sums back.
func (b *Batch) backward2Units(gout, w2, gw1, gb1, gw2 []float64, k0, w int) {
	h, n := b.sizes[1], b.n
	a0, ga := b.a0[:2*h], b.ga[:2*h]
	gout, xn, t0 := gout[:5*n], b.xn[:2*n], b.t0[:n*h]
	var blk [5 * 8]float64 // a, e, w, −2a, −2e: blocks of w lanes
	var acc [6 * 8]float64 // gw2, ga0, ga1, gw10, gw11, gb1
	for q := range w {
		k := k0 + q
		blk[q], blk[w+q], blk[2*w+q] = a0[2*k], a0[2*k+1], w2[k]
		blk[3*w+q], blk[4*w+q] = -2*a0[2*k], -2*a0[2*k+1]
		acc[q], acc[w+q], acc[2*w+q] = gw2[k], ga[2*k], ga[2*k+1]
		acc[3*w+q], acc[4*w+q], acc[5*w+q] = gw1[2*k], gw1[2*k+1], gb1[k]
	}
	if w == 8 {
		backward2Asm512(&blk[0], &acc[0], &gout[0], &xn[0], &t0[k0], n, h)
	} else {
		backward2Asm(&blk[0], &acc[0], &gout[0], &xn[0], &t0[k0], n, h)
	}
	for q := range w {
		k := k0 + q
		gw2[k], ga[2*k], ga[2*k+1] = acc[q], acc[w+q], acc[2*w+q]
		gw1[2*k], gw1[2*k+1], gb1[k] = acc[3*w+q], acc[4*w+q], acc[5*w+q]
	}
}

// backward2Asm runs the points of backward2Vector for four units: blk
// holds a, e, w, −2a and −2e, acc the six sums, each four lanes.
//
//go:noescape
func backward2Asm(blk, acc, gout, xn, t *float64, n, ldt int)

// backward2Asm512 runs the points of backward2Vector for eight units
// (one512_amd64.s, generated from backward2Asm by scripts/asmgen/widen.py).
//
//go:noescape
func backward2Asm512(blk, acc, gout, xn, t *float64, n, ldt int)

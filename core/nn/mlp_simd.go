//go:build goexperiment.simd && amd64

package nn

import "elmfbpinn/core/fp"

// The vector paths of the multi-layer networks' elementwise passes (the
// kernels are in mlp_amd64.s; the AVX2 instructions run on AVX-512 CPUs
// too). Each returns false, leaving the work to the scalar code, where its
// kernel does not apply: the generic path, an input dimension other than 1
// or 2, or a width that is not a multiple of 4 (16 for the output layer).

func vectorOK(d, h, mult int) bool {
	return fp.KernelPath() != fp.Generic && (d == 1 || d == 2) && h%mult == 0 && h > 0
}

// spread sets dst[i·h + k] = src[k·d + i]: a (h, d) matrix by input.
func spread(dst, src []float64, h, d int) {
	for k := range h {
		for i := range d {
			dst[i*h+k] = src[k*d+i]
		}
	}
}

// forwardInputVector is forwardInput: the first layer's values, one
// TanhSlice over all points, then their jets.
func (b *Batch) forwardInputVector(w1, b1 []float64) bool {
	n, d, h := b.n, b.d, b.sizes[1]
	if !vectorOK(d, h, 4) {
		return false
	}
	if n == 0 {
		return true
	}
	spread(b.wd, w1, h, d)
	spread(b.ad, b.a0, h, d)
	t0 := b.t0[:n*h]
	if d == 1 {
		inputZ1(&t0[0], &b.xn[0], &b.wd[0], &b1[0], n, h)
	} else {
		inputZ2(&t0[0], &b.xn[0], &b.wd[0], &b1[0], n, h)
	}
	fp.TanhSlice(t0, t0)
	if d == 1 {
		inputJets1(&b.h[0][0], &t0[0], &b.ad[0], n, h)
	} else {
		inputJets2(&b.h[0][0], &t0[0], &b.ad[0], n, h)
	}
	return true
}

// tanhJetsVector is tanhJets.
func tanhJetsVector(hj, z []float64, n, d, h int) bool {
	if !vectorOK(d, h, 4) {
		return false
	}
	c := 1 + 2*d
	for p := range n {
		fp.TanhSlice(hj[p*c*h:p*c*h+h], z[p*c*h:p*c*h+h])
	}
	if n == 0 {
		return true
	}
	if d == 1 {
		jets1(&hj[0], &z[0], n, h)
	} else {
		jets2(&hj[0], &z[0], n, h)
	}
	return true
}

// tanhJetsBackVector is tanhJetsBack.
func tanhJetsBackVector(gz, gh, z, hj []float64, n, d, h int) bool {
	if !vectorOK(d, h, 4) {
		return false
	}
	if n == 0 {
		return true
	}
	if d == 1 {
		jetsBack1(&gz[0], &gh[0], &z[0], &hj[0], n, h)
	} else {
		jetsBack2(&gz[0], &gh[0], &z[0], &hj[0], n, h)
	}
	return true
}

// backwardInputVector is the loop over the points of backwardInput (ga
// cleared before), four units at a time.
func (b *Batch) backwardInputVector(gh, gw1, gb1 []float64) bool {
	n, d, h := b.n, b.d, b.sizes[1]
	if !vectorOK(d, h, 4) {
		return false
	}
	if n == 0 {
		return true
	}
	ga, a0 := b.ga, b.a0
	for k0 := 0; k0 < h; k0 += 4 {
		var a [2][4]float64
		var acc [5][4]float64 // ga_i, gw1_i, gb1
		for q := range 4 {
			k := k0 + q
			for i := range d {
				a[i][q] = a0[k*d+i]
				acc[i][q] = ga[k*d+i]
				acc[d+i][q] = gw1[k*d+i]
			}
			acc[2*d][q] = gb1[k]
		}
		t0, g := &b.t0[k0], &gh[k0]
		if d == 1 {
			inputBack1((*[1][4]float64)(a[:1]), (*[3][4]float64)(acc[:3]), t0, g, &b.xn[0], n, h)
		} else {
			inputBack2(&a, &acc, t0, g, &b.xn[0], n, h)
		}
		for q := range 4 {
			k := k0 + q
			for i := range d {
				ga[k*d+i] = acc[i][q]
				gw1[k*d+i] = acc[d+i][q]
			}
			gb1[k] = acc[2*d][q]
		}
	}
	return true
}

// outputBackVector is the output layer's backward pass over the rows.
func outputBackVector(gw, gh, hlast, gout, w []float64, hl int) bool {
	if fp.KernelPath() == fp.Generic || hl%16 != 0 || hl == 0 {
		return false
	}
	rows := len(gout)
	if rows == 0 {
		return true
	}
	for k0 := 0; k0 < hl; k0 += 16 {
		outBack(&gw[k0], &gh[k0], &hlast[k0], &gout[0], &w[k0], rows, hl)
	}
	return true
}

//go:noescape
func inputZ1(t0, xn, w1d, b1 *float64, np, h int)

//go:noescape
func inputZ2(t0, xn, w1d, b1 *float64, np, h int)

//go:noescape
func inputJets1(h0, t0, a0d *float64, np, h int)

//go:noescape
func inputJets2(h0, t0, a0d *float64, np, h int)

//go:noescape
func jets1(hj, z *float64, np, h int)

//go:noescape
func jets2(hj, z *float64, np, h int)

//go:noescape
func jetsBack1(gz, gh, z, hj *float64, np, h int)

//go:noescape
func jetsBack2(gz, gh, z, hj *float64, np, h int)

//go:noescape
func inputBack1(a *[1][4]float64, acc *[3][4]float64, t0, gh, xn *float64, np, h int)

//go:noescape
func inputBack2(a *[2][4]float64, acc *[5][4]float64, t0, gh, xn *float64, np, h int)

//go:noescape
func outBack(gw, gh, hl, gout, w *float64, rows, h int)

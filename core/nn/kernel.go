package nn

import "math"

// The dense products below follow the arithmetic rule of package core/fp:
// every output entry is one FMA chain over the contracted index in increasing
// order, starting from 0; an accumulating product adds the finished chain to
// its destination with one addition. Register tiles across output entries
// change no chain, so a vector kernel working across output entries computes
// the same bits.

// dot returns Σ_i a_i b_i (len(b) >= len(a)) as one FMA chain.
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for i, v := range a {
		s = math.FMA(v, b[i], s)
	}
	return s
}

// gemmNT sets z = a wᵀ, or adds a wᵀ to z if acc: z (r, o), a (r, in),
// w (o, in), all row-major. Each entry is a dot product of two contiguous
// rows; blocks of 2 × 4 entries share their loads, eight independent FMA
// chains in flight (enough to hide the FMA latency; larger blocks spill
// registers in Go's code generator).
func gemmNT(z, a, w []float64, r, in, o int, acc bool) {
	i := 0
	for ; i+2 <= r; i += 2 {
		a0 := a[i*in : i*in+in]
		a1 := a[(i+1)*in : (i+1)*in+in][:len(a0)]
		z0 := z[i*o : i*o+o]
		z1 := z[(i+1)*o : (i+1)*o+o][:len(z0)]
		j := 0
		for ; j+4 <= len(z0); j += 4 {
			w0 := w[j*in : j*in+in][:len(a0)]
			w1 := w[(j+1)*in : (j+1)*in+in][:len(a0)]
			w2 := w[(j+2)*in : (j+2)*in+in][:len(a0)]
			w3 := w[(j+3)*in : (j+3)*in+in][:len(a0)]
			var s00, s01, s02, s03, s10, s11, s12, s13 float64
			for k, x0 := range a0 {
				x1, y0, y1, y2, y3 := a1[k], w0[k], w1[k], w2[k], w3[k]
				s00 = math.FMA(x0, y0, s00)
				s01 = math.FMA(x0, y1, s01)
				s02 = math.FMA(x0, y2, s02)
				s03 = math.FMA(x0, y3, s03)
				s10 = math.FMA(x1, y0, s10)
				s11 = math.FMA(x1, y1, s11)
				s12 = math.FMA(x1, y2, s12)
				s13 = math.FMA(x1, y3, s13)
			}
			if acc {
				z0[j] += s00
				z0[j+1] += s01
				z0[j+2] += s02
				z0[j+3] += s03
				z1[j] += s10
				z1[j+1] += s11
				z1[j+2] += s12
				z1[j+3] += s13
			} else {
				z0[j], z0[j+1], z0[j+2], z0[j+3] = s00, s01, s02, s03
				z1[j], z1[j+1], z1[j+2], z1[j+3] = s10, s11, s12, s13
			}
		}
		for ; j < len(z0); j++ {
			w0 := w[j*in : j*in+in]
			s0, s1 := dot(a0, w0), dot(a1, w0)
			if acc {
				z0[j] += s0
				z1[j] += s1
			} else {
				z0[j], z1[j] = s0, s1
			}
		}
	}
	for ; i < r; i++ {
		a0 := a[i*in : i*in+in]
		z0 := z[i*o : i*o+o]
		for j := range z0 {
			s := dot(a0, w[j*in:j*in+in])
			if acc {
				z0[j] += s
			} else {
				z0[j] = s
			}
		}
	}
}

// transpose sets dst (c, r) to srcᵀ, src (r, c) row-major.
func transpose(dst, src []float64, r, c int) {
	dst = dst[:r*c]
	for i := range r {
		row := src[i*c : i*c+c]
		for j, v := range row {
			dst[j*r+i] = v
		}
	}
}

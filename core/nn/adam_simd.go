//go:build amd64 && !purego

package nn

import "elmfbpinn/core/fp"

// adamVector runs Adam's update (adamGeneric's operations, in its order) on
// the first parameters in blocks of eight (AVX-512) or four (AVX2) and
// returns how many it did: VDIVPD and VSQRTPD are correctly rounded per
// lane, like the scalar divide and square root, so the bits are
// adamGeneric's. Scalar, the update took about 35 cycles a parameter (its
// three divides and a square root, one at a time).
func adamVector(params, grad, m, v []float64, k *[8]float64) int {
	switch fp.KernelPath() {
	case fp.AVX512:
		if n := len(grad) &^ 7; n > 0 {
			adamAsm512(&params[0], &grad[0], &m[0], &v[0], n, k)
			return n
		}
	case fp.AVX2:
		if n := len(grad) &^ 3; n > 0 {
			adamAsm(&params[0], &grad[0], &m[0], &v[0], n, k)
			return n
		}
	}
	return 0
}

// adamAsm updates n parameters, n > 0 a multiple of 4 (adam_amd64.s).
//
//go:noescape
func adamAsm(params, grad, m, v *float64, n int, k *[8]float64)

// adamAsm512 updates n parameters, n > 0 a multiple of 8 (adam512_amd64.s,
// generated from adamAsm by scripts/asmgen/widen.py).
//
//go:noescape
func adamAsm512(params, grad, m, v *float64, n int, k *[8]float64)

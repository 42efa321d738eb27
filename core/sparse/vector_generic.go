//go:build !amd64 || purego

package sparse

// Off amd64, or with the purego tag, there are no AVX kernels and the
// kernel path is never AVX512 or AVX2: this is never called.
func (pk *packed) sweepVector(avx2, mul, trans bool, u, v []float64, alpha float64) {
	panic("sparse: no vector kernels")
}

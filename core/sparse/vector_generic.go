//go:build !(goexperiment.simd && amd64)

package sparse

// Without GOEXPERIMENT=simd on amd64 there are no vector kernels and the
// kernel path is generic: this is never called.
func (pk *packed) sweepVector(avx2, mul, trans bool, u, v []float64, alpha float64) {
	panic("sparse: no vector kernels")
}

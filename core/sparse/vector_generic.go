//go:build !(goexperiment.simd && amd64)

package sparse

// Without GOEXPERIMENT=simd on amd64 there are no vector kernels and
// fp.Vector() is false: this is never called.
func (pk *packed) sweepVector(mul, trans bool, u, v []float64, alpha float64) {
	panic("sparse: no vector kernels")
}

//go:build !arm64 || purego

package sparse

// Off arm64, or with the purego tag, there are no NEON kernels and the
// kernel path is never NEON: this is never called.
func (pk *packed) sweepNEON(mul, trans bool, u, v []float64, alpha float64) {
	panic("sparse: no NEON kernels")
}

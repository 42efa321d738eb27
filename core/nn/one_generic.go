//go:build !amd64 || purego

package nn

// Without amd64 vector kernels fp.AVX is false: these are never called.
func (b *Batch) forward2Vector(w1, b1, w2 []float64, bias float64) int {
	panic("nn: no vector kernels")
}
func (b *Batch) backward2Vector(gout, w2, gw1, gb1, gw2 []float64) int {
	panic("nn: no vector kernels")
}

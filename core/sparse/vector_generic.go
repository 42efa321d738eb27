//go:build !(goexperiment.simd && amd64)

package sparse

// Without GOEXPERIMENT=simd on amd64 there are no vector kernels and
// fp.Vector() is false: these are never called.

func (a *BlockSparse) mulVecVector(dst, x []float64)      { panic("sparse: no vector kernels") }
func (a *BlockSparse) mulTransVecVector(dst, x []float64) { panic("sparse: no vector kernels") }

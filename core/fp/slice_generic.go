//go:build !(goexperiment.simd && amd64)

package fp

// haveVector is false: this build has no vector kernels (they need
// GOEXPERIMENT=simd on amd64).
const haveVector = false

// tanhVector is never called without vector kernels.
func tanhVector(dst, x []float64) int { return 0 }

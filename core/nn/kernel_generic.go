//go:build !amd64 || purego

package nn

// Without amd64 vector kernels fp.AVX is false: this is never called.
func gemmVector(c []float64, ldc int, a mat, b []float64, ldb int, m, n, k int, init []float64, acc bool, tmp []float64) int {
	panic("nn: no vector kernels")
}

//go:build !amd64 || purego

package bench

// Without vector kernels the kernel path is generic: this is never called.
func streamVector(x []float64) float64 { panic("bench: no vector kernels") }

//go:build !amd64 || purego

package nn

// Without vector kernels Adam's update runs in adamGeneric alone.
func adamVector(params, grad, m, v []float64, k *[8]float64) int { return 0 }

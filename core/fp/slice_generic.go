//go:build !amd64 || purego

package fp

// Off amd64, or with the purego tag, this build has no vector kernels.
const haveAVX512, haveAVX2 = false, false

// The vector kernels are never called without vector kernels.
func tanhAVX512(dst, x []float64) int                 { return 0 }
func tanhAVX2(dst, x []float64) int                   { return 0 }
func scaleRows5(dst, x, s []float64, idx []int32) int { return 0 }

func dotVector(x, y []float64, l *[Lanes]float64) int { return 0 }
func drainVector(dst, l []float64) int                { return 0 }

//go:build amd64 && !purego

package bench

import "unsafe"

// streamVector returns the sum of x (len(x) a multiple of 16) in four AVX2
// accumulators (the order does not matter: it is a bandwidth probe).
func streamVector(x []float64) float64 {
	var s [4]float64
	streamAsm(unsafe.SliceData(x), len(x), &s)
	return s[0] + s[1] + s[2] + s[3]
}

//go:noescape
func streamAsm(x *float64, n int, s *[4]float64)

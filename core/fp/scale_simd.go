//go:build amd64 && !purego

package fp

import "unsafe"

// scaleRows5 is ScaleRows for rows of five values on the vector paths
// (scale_amd64.s, AVX2 on both): it returns how many rows it did, all of
// them unless an index is out of range (the scalar code then panics on it).
func scaleRows5(dst, x, s []float64, idx []int32) int {
	if len(idx) == 0 {
		return 0
	}
	return scaleRows5Asm(unsafe.SliceData(dst), unsafe.SliceData(x), unsafe.SliceData(idx), unsafe.SliceData(s), len(idx), len(s))
}

// scaleRows5Asm sets dst[5q+j] = s[idx[q]] x[5q+j] for q < n (n > 0) up to
// the first index not in [0, ns), and returns the rows done.
//
//go:noescape
func scaleRows5Asm(dst, x *float64, idx *int32, s *float64, n, ns int) int

//go:build amd64 && !purego

package fp

import "unsafe"

// tanhAVX2 sets dst[i] = Tanh(x[i]) for all i and returns len(x), four
// lanes at a time in assembly (tanh_amd64.s); a tail of fewer than 4 values
// goes through a zero-filled block.
func tanhAVX2(dst, x []float64) int {
	n := len(x) &^ 3
	if n > 0 {
		tanhAVX2Asm(unsafe.SliceData(dst), unsafe.SliceData(x), n)
	}
	if n < len(x) {
		var b [4]float64
		copy(b[:], x[n:])
		tanhAVX2Asm(&b[0], &b[0], 4)
		copy(dst[n:len(x)], b[:])
	}
	return len(x)
}

// tanhAVX2Asm sets dst[i] = Tanh(x[i]) for i < n, n a multiple of 4.
//
//go:noescape
func tanhAVX2Asm(dst, x *float64, n int)

//go:build goexperiment.simd && amd64

package fp

import (
	"simd/archsimd"
	"unsafe"
)

//go:generate python3 ../../scripts/asmgen/tanh512.py

// haveAVX512 and haveAVX2 report whether the CPU runs the AVX-512 and the
// AVX2 (with FMA) kernels.
var (
	haveAVX512 = archsimd.X86.AVX512()
	haveAVX2   = archsimd.X86.AVX2() && archsimd.X86.FMA()
)

// tanhAVX512 sets dst[i] = Tanh(x[i]) for all i and returns len(x), eight
// lanes at a time in assembly (tanh512_amd64.s, generated from the AVX2
// kernel: the same instructions on eight lanes); a tail of fewer than 8
// values goes through a zero-filled block. The archsimd version of this
// kernel took 2.3 ns a value on this project's Zen 5 machine: its constants
// were broadcast again in every iteration.
func tanhAVX512(dst, x []float64) int {
	n := len(x) &^ 7
	if n > 0 {
		tanhAVX512Asm(unsafe.SliceData(dst), unsafe.SliceData(x), n)
	}
	if n < len(x) {
		var b [8]float64
		copy(b[:], x[n:])
		tanhAVX512Asm(&b[0], &b[0], 8)
		copy(dst[n:len(x)], b[:])
	}
	return len(x)
}

// tanhAVX512Asm sets dst[i] = Tanh(x[i]) for i < n, n a multiple of 8.
//
//go:noescape
func tanhAVX512Asm(dst, x *float64, n int)

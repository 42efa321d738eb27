//go:build amd64 && !purego

package fp

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

//go:generate python3 ../../scripts/asmgen/tanh512.py
//go:generate python3 ../../scripts/asmgen/lanes8.py dot

// haveAVX512 and haveAVX2 report whether the CPU (and the OS, which must
// save the registers) runs the AVX-512 and the AVX2 (with FMA) kernels.
// AVX-512 is the set Go's runtime itself requires before it uses AVX-512
// (foundation, CD, BW, DQ and VL).
var (
	haveAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512CD && cpu.X86.HasAVX512BW &&
		cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL
	haveAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA
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

// dotVector adds x_i y_i for the first len(x) &^ 7 elements to the lanes
// l (lane i mod 8, one FMA each, in order) on the AVX-512 and AVX2 paths
// (dot_amd64.s) and returns how many it took: none on the generic path.
func dotVector(x, y []float64, l *[Lanes]float64) int {
	n := len(x) &^ 7
	if n == 0 {
		return 0
	}
	switch path {
	case AVX512:
		dotAVX512(unsafe.SliceData(x), unsafe.SliceData(y), n, l)
	case AVX2:
		dotAVX2(unsafe.SliceData(x), unsafe.SliceData(y), n, l)
	default:
		return 0
	}
	return n
}

//go:noescape
func dotAVX2(x, y *float64, n int, lanes *[Lanes]float64)

//go:noescape
func dotAVX512(x, y *float64, n int, lanes *[Lanes]float64)

// drainVector is DrainLanes's rows in multiples of eight (AVX-512) or four
// (AVX2) in assembly (drain_amd64.s); it returns how many it did, none on
// the generic path.
func drainVector(dst, l []float64) int {
	switch path {
	case AVX512:
		n := len(dst) &^ 7
		if n > 0 {
			drainAVX512(unsafe.SliceData(dst), unsafe.SliceData(l), n)
		}
		return n
	case AVX2:
		n := len(dst) &^ 3
		if n > 0 {
			drainAVX2(unsafe.SliceData(dst), unsafe.SliceData(l), n)
		}
		return n
	}
	return 0
}

//go:noescape
func drainAVX512(dst, l *float64, n int)

//go:noescape
func drainAVX2(dst, l *float64, n int)

//go:build amd64 && !purego

package lsqr

//go:generate python3 ../../scripts/asmgen/lanes8.py lsqr

import (
	"unsafe"

	"elmfbpinn/core/fp"
)

// The vector updates (vector_amd64.s) take the first len &^ 7 elements on
// the AVX2 and AVX-512 paths and return how many they took; the scalar
// code does the rest (and everything on the generic path), continuing the
// same lanes.

func updateXWVector(x, w, v []float64, t1, t2, rinv float64, l *[fp.Lanes]float64) int {
	n := len(w) &^ 7
	if n == 0 {
		return 0
	}
	switch fp.KernelPath() {
	case fp.AVX512:
		updateXWAVX512(unsafe.SliceData(x), unsafe.SliceData(w), unsafe.SliceData(v), n, t1, t2, rinv, l)
	case fp.AVX2:
		updateXWAVX2(unsafe.SliceData(x), unsafe.SliceData(w), unsafe.SliceData(v), n, t1, t2, rinv, l)
	default:
		return 0
	}
	return n
}

func subNormVector(y, p []float64, na float64, l *[fp.Lanes]float64) int {
	n := len(y) &^ 7
	if n == 0 {
		return 0
	}
	switch fp.KernelPath() {
	case fp.AVX512:
		subNormAVX512(unsafe.SliceData(y), unsafe.SliceData(p), n, na, l)
	case fp.AVX2:
		subNormAVX2(unsafe.SliceData(y), unsafe.SliceData(p), n, na, l)
	default:
		return 0
	}
	return n
}

func scalVector(alpha float64, x []float64) int {
	n := len(x) &^ 7
	if n == 0 {
		return 0
	}
	switch fp.KernelPath() {
	case fp.AVX512:
		scalAVX512(unsafe.SliceData(x), n, alpha)
	case fp.AVX2:
		scalAVX2(unsafe.SliceData(x), n, alpha)
	default:
		return 0
	}
	return n
}

//go:noescape
func updateXWAVX2(x, w, v *float64, n int, t1, t2, rinv float64, lanes *[fp.Lanes]float64)

//go:noescape
func updateXWAVX512(x, w, v *float64, n int, t1, t2, rinv float64, lanes *[fp.Lanes]float64)

//go:noescape
func subNormAVX2(y, p *float64, n int, na float64, lanes *[fp.Lanes]float64)

//go:noescape
func subNormAVX512(y, p *float64, n int, na float64, lanes *[fp.Lanes]float64)

//go:noescape
func scalAVX2(x *float64, n int, a float64)

//go:noescape
func scalAVX512(x *float64, n int, a float64)

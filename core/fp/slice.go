package fp

import (
	"fmt"
	"os"
	"slices"
)

// KernelEnv is the environment variable that caps the kernel path:
// ELMFBPINN_KERNEL=generic forces the generic kernels, ELMFBPINN_KERNEL=avx2
// the AVX2 ones on a CPU that also has AVX-512. Every path computes the same
// bits; the variable exists to measure and test the slower paths.
const KernelEnv = "ELMFBPINN_KERNEL"

// The kernel paths, fastest first. A path runs when the binary has its
// kernels (AVX512 and AVX2: amd64 without the purego tag; NEON: arm64
// without it) and the CPU its instructions. KernelEnv caps the path in this
// order: on amd64 ELMFBPINN_KERNEL=neon runs the generic kernels, on arm64
// =avx2 the NEON ones.
const (
	AVX512  = "avx512" // eight float64 lanes per register
	AVX2    = "avx2"   // four lanes per register (with FMA)
	NEON    = "neon"   // two lanes per register (arm64): the block-sparse products only
	Generic = "generic"
)

var allPaths = []string{AVX512, AVX2, NEON, Generic}

// paths lists the paths this binary and CPU run, fastest first.
var paths = func() []string {
	var p []string
	if haveAVX512 {
		p = append(p, AVX512)
	}
	if haveAVX2 {
		p = append(p, AVX2)
	}
	if haveNEON {
		p = append(p, NEON)
	}
	return append(p, Generic)
}()

// path is the path in use: the fastest that runs and that KernelEnv allows.
var path = func() string {
	cap := slices.Index(allPaths, os.Getenv(KernelEnv))
	for _, p := range paths {
		if slices.Index(allPaths, p) >= cap {
			return p
		}
	}
	return Generic
}()

// KernelPath returns the kernel path in use: AVX512, AVX2, NEON or Generic.
func KernelPath() string { return path }

// AVX reports whether the kernel path in use is one of amd64's vector paths
// (AVX512 or AVX2), whose kernels cover more than the NEON path's.
func AVX() bool { return path == AVX512 || path == AVX2 }

// KernelPaths returns the kernel paths this binary runs on this CPU, fastest
// first; the last is always Generic.
func KernelPaths() []string { return slices.Clone(paths) }

// CheckKernelEnv returns an error if KernelEnv is set to something that is
// not a kernel path, naming the valid values.
func CheckKernelEnv() error {
	v, ok := os.LookupEnv(KernelEnv)
	if !ok || v == "" || slices.Contains(allPaths, v) {
		return nil
	}
	return fmt.Errorf("%s=%q is not a kernel path; use one of %v (or unset it for the fastest this CPU runs: %s)", KernelEnv, v, allPaths, paths[0])
}

// SetKernelPath makes p the kernel path of the process and returns the
// previous one; it is for tests and benchmarks that compare the paths, and
// must not be called while kernels run. It panics if p does not run here.
func SetKernelPath(p string) (prev string) {
	if !slices.Contains(paths, p) {
		panic(fmt.Sprintf("fp: kernel path %q does not run here (paths: %v)", p, paths))
	}
	prev, path = path, p
	return prev
}

// TanhSlice sets dst[i] = Tanh(x[i]) (len(dst) ≥ len(x)), with the same bits
// as Tanh on every path: the vector kernels evaluate Tanh's straight-line
// code on four or eight lanes at once, both of its branches, and select.
func TanhSlice(dst, x []float64) {
	dst = dst[:len(x)]
	i := 0
	switch path {
	case AVX512:
		i = tanhAVX512(dst, x)
	case AVX2:
		i = tanhAVX2(dst, x)
	}
	for ; i < len(x); i++ {
		dst[i] = Tanh(x[i])
	}
}

// ScaleRows sets dst's rows of w values to x's times a factor per row:
// dst[w q + j] = s[idx[q]] x[w q + j] for q < len(idx), j < w (dst and x
// hold at least w len(idx) values). An index out of s's range panics. The
// vector paths (AVX-512 and AVX2) compute rows of five values, the 2D
// networks' output jets, in an AVX2 kernel; every product is the scalar one,
// so the bits are the same on every path.
func ScaleRows(dst, x []float64, w int, s []float64, idx []int32) {
	n := len(idx)
	dst, x = dst[:w*n], x[:w*n]
	if w == 5 {
		q := 0
		if AVX() {
			q = scaleRows5(dst, x, s, idx)
		}
		for ; q < n; q++ {
			d, c, r := (*[5]float64)(dst[5*q:]), (*[5]float64)(x[5*q:]), s[idx[q]]
			d[0], d[1], d[2], d[3], d[4] = r*c[0], r*c[1], r*c[2], r*c[3], r*c[4]
		}
		return
	}
	for q := range n {
		r := s[idx[q]]
		for j, c := range x[w*q : w*(q+1)] {
			dst[w*q+j] = r * c
		}
	}
}

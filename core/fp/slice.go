package fp

import "os"

// KernelEnv is the environment variable that forces the generic kernels:
// ELMFBPINN_KERNEL=generic. Both paths compute the same bits; the variable
// exists to measure and test the generic path on a machine with AVX-512.
const KernelEnv = "ELMFBPINN_KERNEL"

// vector reports whether the vector kernels run: the binary was built with
// them (GOEXPERIMENT=simd on amd64), the CPU has AVX-512, and KernelEnv does
// not force the generic path.
var vector = haveVector && os.Getenv(KernelEnv) != "generic"

// KernelPath returns the kernel path in use: "avx512" or "generic".
func KernelPath() string {
	if vector {
		return "avx512"
	}
	return "generic"
}

// TanhSlice sets dst[i] = Tanh(x[i]) (len(dst) ≥ len(x)), with the same bits
// as Tanh on every path: the vector kernel evaluates Tanh's straight-line
// code on eight lanes at once, both of its branches, and selects.
func TanhSlice(dst, x []float64) {
	dst = dst[:len(x)]
	i := 0
	if vector {
		i = tanhVector(dst, x)
	}
	for ; i < len(x); i++ {
		dst[i] = Tanh(x[i])
	}
}

// Vector reports whether the vector kernels run (KernelPath is "avx512"):
// packages with kernels of their own (sparse) dispatch on it.
func Vector() bool { return vector }

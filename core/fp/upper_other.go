//go:build !amd64 || purego

package fp

// HighZMMZero reports whether the AVX-512 registers Z16-Z31 are all zero:
// always true here (no AVX-512 kernels). See the amd64 version.
func HighZMMZero() bool { return true }

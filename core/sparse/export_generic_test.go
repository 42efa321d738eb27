//go:build !amd64 || purego

package sparse

// Prefetching is a no-op without the vector kernels.
func Prefetching(on bool) (restore func()) { return func() {} }

//go:build amd64 && !purego

package sparse

// Prefetching makes the M v kernels prefetch whatever the copy's size (on),
// or as they choose (off), and returns the previous setting's restorer.
func Prefetching(on bool) (restore func()) {
	old := prefetchAbove
	if on {
		prefetchAbove = -1
	}
	return func() { prefetchAbove = old }
}

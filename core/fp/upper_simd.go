//go:build amd64 && !purego

package fp

// HighZMMZero reports whether the AVX-512 registers Z16-Z31 are all zero
// (true on a CPU without AVX-512). VZEROUPPER clears the upper halves of
// Z0-Z15 only, so a kernel that uses Z16-Z31 zeroes them before it returns:
// dirty upper halves cost Intel CPUs on every later legacy-SSE instruction,
// which is all of Go's scalar floating point (docs/arithmetic.md, "Clean
// upper halves"). Go code does not touch Z16-Z31, so the kernels' tests
// call it right after a kernel to check that it left them clean.
func HighZMMZero() bool {
	if !haveAVX512 {
		return true
	}
	return highZMMZeroAsm()
}

//go:noescape
func highZMMZeroAsm() bool

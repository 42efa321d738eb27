//go:build !arm64 || purego

package fp

// haveNEON reports whether this build has the NEON kernels (arm64 without
// the purego tag).
const haveNEON = false

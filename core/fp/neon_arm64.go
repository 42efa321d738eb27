//go:build arm64 && !purego

package fp

// haveNEON reports whether this build has the NEON kernels: every arm64 CPU
// runs them (Advanced SIMD is part of ARMv8-A, and Go's arm64 port assumes it).
const haveNEON = true

package experiments

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"sync"

	"elmfbpinn/core/fp"
)

// KernelPath returns the kernel path this process runs: "avx512" or "avx2"
// (the vector kernels of an amd64 build on a CPU with AVX-512, or
// with AVX2 and FMA) or "generic" (ELMFBPINN_KERNEL caps the path). All
// compute the same bits, so it is recorded with a result but is not part of
// its identity.
func KernelPath() string { return fp.KernelPath() }

// CheckKernelEnv returns an error if the environment names a kernel path
// that does not exist (see fp.KernelEnv).
func CheckKernelEnv() error { return fp.CheckKernelEnv() }

// canaries are tiny runs, one per problem and model, whose bits define the
// numerics fingerprint.
var canaries = func() []Spec {
	var specs []Spec
	for _, p := range Problems {
		base := Spec{Problem: p.Name, Param: p.Base.Param, J: []int{2}, K: 4, Delta: fullDelta, R: fullR}
		elm, fb, pinn := base, base, base
		elm.Model, elm.Iters = ELM, 30
		fb.Model, fb.Iters = FBPINN, 3
		pinn.Model, pinn.Iters, pinn.Width = PINN, 3, 8
		specs = append(specs, elm, fb, pinn)
	}
	return specs
}()

// Fingerprint returns a short hash of what this binary's numerics compute:
// the bits of the e_L1 histories and final errors of the canary runs (one
// tiny run per problem and model, a few milliseconds in all, computed once).
// Any change to the computed bits (a kernel, an elementary function, a
// summation order, a default setting) changes it; comments, reports and the
// command line do not. Results record it, and a result with another
// fingerprint is stale: repro run computes it again.
func Fingerprint() string { return fingerprint() }

var fingerprint = sync.OnceValue(func() string {
	h := sha256.New()
	for _, s := range canaries {
		res, err := Execute(s, nil)
		if err != nil {
			// A canary never fails on a working build; say so in the
			// fingerprint rather than pretending to know the numerics.
			return fmt.Sprintf("canary-failed(%s)", s)
		}
		fmt.Fprintf(h, "%s %s %s\n", s.Key(), Digest(res), strconv.FormatUint(math.Float64bits(res.EL1Final), 16))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
})

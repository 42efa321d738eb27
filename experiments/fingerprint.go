package experiments

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	"strconv"
	"strings"
	"sync"

	"elmfbpinn/core/fp"
)

// KernelPath returns the kernel path this process runs: "avx512" or "avx2"
// (the vector kernels of an amd64 build on a CPU with AVX-512, or
// with AVX2 and FMA), "neon" (an arm64 build's) or "generic"
// (ELMFBPINN_KERNEL caps the path). All
// compute the same bits, so it is recorded with a result but is not part of
// its identity.
func KernelPath() string { return fp.KernelPath() }

// CheckKernelEnv returns an error if the environment names a kernel path
// that does not exist (see fp.KernelEnv).
func CheckKernelEnv() error { return fp.CheckKernelEnv() }

// canaries are tiny runs, one per problem and model, whose bits define the
// numerics fingerprints: a model's are the runs of that model.
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

// Fingerprint returns a short hash of what this binary's numerics compute
// for a model (ELM, FBPINN or PINN): the bits of the e_L1 histories and
// final errors of that model's canary runs (one tiny run per problem, a few
// milliseconds in all, computed once). Any change to the bits the model
// computes (a kernel, an elementary function, a summation order, a default
// setting) changes it; comments, reports, the command line and changes that
// only other models see do not. Results record the fingerprint of their
// model, and a result with another is stale: repro run computes it again.
// An unknown model has none ("").
func Fingerprint(model string) string { return fingerprints()[model] }

// Fingerprints returns the fingerprint of every model, "elm a, fbpinn b,
// pinn c", for messages.
func Fingerprints() string {
	parts := make([]string, len(Models))
	for i, m := range Models {
		parts[i] = m + " " + Fingerprint(m)
	}
	return strings.Join(parts, ", ")
}

var fingerprints = sync.OnceValue(func() map[string]string {
	hs := map[string]hash.Hash{}
	failed := map[string]string{}
	for _, s := range canaries {
		h, ok := hs[s.Model]
		if !ok {
			h = sha256.New()
			hs[s.Model] = h
		}
		res, err := Execute(s, nil)
		if err != nil {
			// A canary never fails on a working build; say so in the
			// fingerprint rather than pretending to know the numerics.
			failed[s.Model] = fmt.Sprintf("canary-failed(%s)", s)
			continue
		}
		fmt.Fprintf(h, "%s %s %s\n", s.Key(), Digest(res), strconv.FormatUint(math.Float64bits(res.EL1Final), 16))
	}
	fps := map[string]string{}
	for m, h := range hs {
		fps[m] = hex.EncodeToString(h.Sum(nil))[:16]
		if f, ok := failed[m]; ok {
			fps[m] = f
		}
	}
	return fps
})

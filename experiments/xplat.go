package experiments

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
)

// Case is a named run of the cross-platform check.
type Case struct {
	Name string
	Spec Spec
}

// CrossPlatform lists the runs whose e_L1 histories must be bit-identical on
// amd64 (any GOAMD64 level), arm64 and every kernel path (scripts/xplat.sh
// runs `repro digest` built each way and compares): the oscillator
// ELM-FBPINN baseline for three seeds with the full 15000 LSQR iterations, a
// multilevel oscillator run, the two 2D ELM-FBPINN baselines with 300 LSQR
// iterations, the least-squares solvers besides the paper's (LSQR stopped by
// its tests; the block preconditioner forced and stopping, on the
// oscillator baseline, the multilevel oscillator and the three-level
// Laplace with 300 iterations: their factorisations and products must
// give the same bits everywhere too), and Adam trainings of the FBPINN and the PINN on each problem:
// 300 steps on the oscillator, 40 (FBPINN) and 5 (PINN) in 2D, where one
// step takes 40-400 ms here and qemu's arm64 emulation is about 16 times
// slower (the whole check stays within a few minutes).
var CrossPlatform = func() []Case {
	elm := func(b *Problem, js []int, iters, seed int) Spec {
		s := b.row(ELM, b.Base.Param, js, b.Base.K, 0).Spec(seed)
		s.Iters = iters
		return s
	}
	trained := func(b *Problem, model string, steps int) Spec {
		s := b.row(model, b.Base.Param, b.Base.J, b.Base.K, fullWidth).Spec(0)
		s.Iters = steps
		return s
	}
	solved := func(s Spec, solver string, o *SolverOpts) Spec {
		s.Solver, s.SolverOpts = solver, o
		return s
	}
	named := func(name string) *Problem {
		p, err := ProblemNamed(name)
		if err != nil {
			panic(err)
		}
		return p
	}
	oscBase, lapBase, helmBase := named(Oscillator), named(Laplace), named(Helmholtz)
	oscJ, lapJ, helmJ := oscBase.Base.J[0], lapBase.Base.J[0], helmBase.Base.J[0]
	return []Case{
		{"osc-elm-s0", elm(oscBase, []int{oscJ}, FullIters, 0)},
		{"osc-elm-s1", elm(oscBase, []int{oscJ}, FullIters, 1)},
		{"osc-elm-s2", elm(oscBase, []int{oscJ}, FullIters, 2)},
		{"osc-elm-multilevel", elm(oscBase, []int{1, 5, oscJ}, FullIters, 0)},
		{"laplace-elm-300", elm(lapBase, []int{lapJ}, 300, 0)},
		{"helmholtz-elm-300", elm(helmBase, []int{helmJ}, 300, 0)},
		{"osc-elm-stop", solved(elm(oscBase, []int{oscJ}, FullIters, 0), StopSolver, &SolverOpts{ConLim: 1e300})},
		{"osc-elm-block", solved(elm(oscBase, []int{oscJ}, FullIters, 0), BlockSolver, nil)},
		{"osc-elm-block-multilevel-stop", solved(elm(oscBase, []int{1, 5, oscJ}, FullIters, 0), BlockSolver, &SolverOpts{Stop: true})},
		{"laplace-elm-block-300", solved(elm(lapBase, []int{1, lapJ / 2, lapJ}, 300, 0), BlockSolver, nil)},
		{"osc-fbpinn-300", trained(oscBase, FBPINN, 300)},
		{"osc-pinn-300", trained(oscBase, PINN, 300)},
		{"laplace-fbpinn-40", trained(lapBase, FBPINN, 40)},
		{"laplace-pinn-5", trained(lapBase, PINN, 5)},
		{"helmholtz-fbpinn-40", trained(helmBase, FBPINN, 40)},
		{"helmholtz-pinn-5", trained(helmBase, PINN, 5)},
	}
}()

// Digest returns the SHA-256, in hex, of the bits of a result's whole e_L1
// history (each record's iteration and e_L1 as little-endian 64-bit words):
// two runs computed the same numbers if and only if their digests agree.
func Digest(r *Result) string {
	h := sha256.New()
	var b [16]byte
	for _, rec := range r.History {
		binary.LittleEndian.PutUint64(b[:8], uint64(rec.Iter))
		binary.LittleEndian.PutUint64(b[8:], math.Float64bits(rec.EL1))
		h.Write(b[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

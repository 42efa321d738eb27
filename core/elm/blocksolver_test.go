package elm

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"elmfbpinn/core/problem"
	"elmfbpinn/core/sparse"
)

// TestBlockPrec checks one block's factorisation against gonum's SVD on
// small blocks, full-rank and rank-deficient, tall and wide: the number of
// kept directions is the numerical rank (σ > tau σ_max by gonum), B P has
// orthonormal columns (‖(BP)ᵀ(BP) − I‖_max ≤ 1e-12) and ‖B P‖ e_k's
// singular values, ‖B v_k‖ = σ_k, match gonum's kept values to 1e-12
// relative to σ_max (measured: about 1e-15).
func TestBlockPrec(t *testing.T) {
	cases := []struct {
		name     string
		rows, p  int
		dup      bool    // make column p-1 = 2 col 0 and column p-2 = col 1 + col 2
		scale    float64 // column c scaled by scale^c
		tau      float64
		wantRank int
	}{
		{"square", 9, 9, false, 1, 1e-8, 9},
		{"tall", 40, 7, false, 1, 1e-8, 7},
		{"tall graded", 40, 7, false, 10, 1e-8, 7},
		{"tall graded, tau drops", 40, 7, false, 10, 1e-4, 5},
		{"tall duplicated", 40, 7, true, 1, 1e-8, 5},
		{"wide", 4, 9, false, 1, 1e-8, 4},
		{"wide duplicated", 5, 9, true, 1, 1e-8, 5},
		{"one row", 1, 5, false, 1, 1e-8, 1},
	}
	for i, tc := range cases {
		rng := rand.New(rand.NewPCG(uint64(i), 3))
		b := make([]float64, tc.rows*tc.p)
		for r := range tc.rows {
			for c := range tc.p {
				b[r*tc.p+c] = rng.NormFloat64() * math.Pow(tc.scale, float64(c))
			}
			if tc.dup {
				b[r*tc.p+tc.p-1] = 2 * b[r*tc.p]
				b[r*tc.p+tc.p-2] = b[r*tc.p+1] + b[r*tc.p+2]
			}
		}
		bm := mat.NewDense(tc.rows, tc.p, slices.Clone(b))
		var svd mat.SVD
		if !svd.Factorize(bm, mat.SVDNone) {
			t.Fatal("gonum SVD failed")
		}
		sv := svd.Values(nil)
		rank := 0
		for _, s := range sv {
			if s > tc.tau*sv[0] {
				rank++
			}
		}
		pm, r := blockPrec(b, tc.rows, tc.p, tc.tau)
		if r != tc.wantRank || r != rank {
			t.Errorf("case %d (%s): %d directions kept, want %d (gonum's numerical rank %d, σ %.3g)", i, tc.name, r, tc.wantRank, rank, sv)
			continue
		}
		var bp, g mat.Dense
		bp.Mul(bm, mat.NewDense(tc.p, r, pm))
		g.Mul(bp.T(), &bp)
		dev := 0.0
		for k := range r {
			for l := range r {
				want := 0.0
				if k == l {
					want = 1
				}
				dev = max(dev, math.Abs(g.At(k, l)-want))
			}
		}
		if dev > 1e-12 {
			t.Errorf("case %d (%s): ‖(BP)ᵀBP − I‖_max = %.3g, want <= 1e-12", i, tc.name, dev)
		}
		// σ_k = 1/‖P e_k‖ when V is orthogonal: compare the sorted set.
		got := make([]float64, r)
		for k := range r {
			got[k] = 1 / mat.Norm(mat.NewDense(tc.p, r, pm).ColView(k), 2)
		}
		slices.Sort(got)
		slices.Reverse(got)
		for k := range r {
			if d := math.Abs(got[k] - sv[k]); d > 1e-12*sv[0] {
				t.Errorf("case %d (%s): σ_%d = %.17g, gonum %.17g (difference %.3g σ_max, want <= 1e-12)", i, tc.name, k, got[k], sv[k], d/sv[0])
			}
		}
	}
}

// TestBlockPrecZero checks that a zero block, and a block without rows,
// keep no direction.
func TestBlockPrecZero(t *testing.T) {
	if _, r := blockPrec(make([]float64, 12), 4, 3, 1e-8); r != 0 {
		t.Errorf("zero block: %d directions kept, want 0", r)
	}
	if _, r := blockPrec(nil, 0, 3, 1e-8); r != 0 {
		t.Errorf("block without rows: %d directions kept, want 0", r)
	}
}

// unformed is M P applied without forming it, for the benchmark that
// chose to form M P: the step is M's one-pass step between a = P y and
// Pᵀ(Mᵀu).
type unformed struct {
	pre     *preconditioner
	m       *sparse.BlockSparse
	a, atmu []float64
}

func (o *unformed) step(u, atu, y []float64, alpha float64) {
	o.m.BidiagStep(u, o.atmu, o.pre.back(o.a, y), alpha)
	for j, sh := range o.pre.shape {
		pm := o.pre.p[j]
		r := len(pm) / max(sh.NCol, 1)
		for k := range r {
			t := 0.0
			for c := range sh.NCol {
				t = math.FMA(pm[c*r+k], o.atmu[sh.Col0+c], t)
			}
			atu[o.pre.ycol[j]+k] = t
		}
	}
}

// BenchmarkBlockStep compares one LSQR step on M P formed once (what
// BlockLSQR does) with the same step applied as P, M, Pᵀ around M's own
// step, on the Helmholtz baseline's M (3264 columns, all kept) and the
// oscillator's (260 columns, 181 kept), and the whole set-up
// (factorisations and forming). Measured on this session's AMD EPYC
// (AVX-512 path, pinned to one core of a machine at load 7): Helmholtz
// 0.44 ms a step formed against 0.71 ms unformed, the oscillator 5 µs
// against 14 µs; set-up 83 ms and 2.8 ms (about 190 and 560 formed steps,
// most of it the factorisations, which the unformed operator needs too).
func BenchmarkBlockStep(b *testing.B) {
	for _, tc := range []struct {
		name string
		p    problem.Problem
		c    Config
	}{
		{"problem=helmholtz", &problem.Helmholtz{Omega: 8}, Config{J: []int{16}, K: 16}},
		{"problem=oscillator", &problem.Oscillator{Omega0: 80}, Config{J: []int{20}, K: 12}},
	} {
		s, err := Build(tc.p, tc.c)
		if err != nil {
			b.Fatal(err)
		}
		pre := newPreconditioner(s.M, DefaultTau)
		rows, n := s.M.Dims()
		_, ny := pre.mp.Dims()
		u, atu, y := make([]float64, rows), make([]float64, ny), make([]float64, ny)
		for i := range y {
			y[i] = 1 / float64(i+1)
		}
		b.Run(tc.name+"/form=once", func(b *testing.B) {
			for b.Loop() {
				pre.mp.BidiagStep(u, atu, y, 0.5)
			}
		})
		o := &unformed{pre: pre, m: s.M, a: make([]float64, n), atmu: make([]float64, n)}
		b.Run(tc.name+"/form=never", func(b *testing.B) {
			for b.Loop() {
				o.step(u, atu, y, 0.5)
			}
		})
		b.Run(tc.name+"/setup", func(b *testing.B) {
			for b.Loop() {
				newPreconditioner(s.M, DefaultTau)
			}
		})
	}
}

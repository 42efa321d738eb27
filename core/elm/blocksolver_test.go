package elm

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
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

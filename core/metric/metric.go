// Package metric holds the error measures and the error-history rule of the
// paper. The package does no I/O.
package metric

import (
	"math"

	"elmfbpinn/core/fp"
)

// EL1 returns the relative L1 test error of the paper,
//
//	e_L1 = (1/(M ς)) Σ_i |û(x_i) - u(x_i)|,
//
// where ς is the population standard deviation of the exact values u. A NaN
// prediction counts as 0 (the reference zeroes NaN coefficients before it
// predicts, which elm.Solve does too; this is the last guard).
func EL1(pred, exact []float64) float64 {
	if len(pred) != len(exact) {
		panic("metric: EL1: length mismatch")
	}
	var l [fp.Lanes]float64 // the lane structure of fp.Sum
	for i, p := range pred {
		if math.IsNaN(p) {
			p = 0
		}
		l[i%fp.Lanes] += math.Abs(p - exact[i])
	}
	return fp.Tree(&l) / (float64(len(exact)) * PopStd(exact))
}

// PopStd returns the population standard deviation sqrt(mean((u - mean u)²)),
// both sums in the lane order of fp.Sum and fp.SumSq.
func PopStd(u []float64) float64 {
	m := fp.Sum(u) / float64(len(u))
	var l [fp.Lanes]float64
	for i, v := range u {
		d := v - m
		l[i%fp.Lanes] = math.FMA(d, d, l[i%fp.Lanes])
	}
	return math.Sqrt(fp.Tree(&l) / float64(len(u)))
}

// Record is one entry of an error history.
type Record struct {
	Iter int     `json:"iter"`
	EL1  float64 `json:"eL1"`
	// T is the seconds the solve had taken when the record was made
	// (set-up included); 0, and left out of the encoding, where the
	// history was not timed (results made before it was recorded).
	T float64 `json:"t,omitempty"`
}

// Reached returns the first record of h whose e_L1 is at most target (NaN
// never is), and whether there is one: with a timed history, its T is the
// time the run took to reach the target.
func Reached(h []Record, target float64) (Record, bool) {
	for _, r := range h {
		if r.EL1 <= target {
			return r, true
		}
	}
	return Record{}, false
}

// Best returns the smallest error of a history (the run's error by the
// reference's "minimum over the recorded history" rule) and its iteration.
// NaN entries are ignored; an empty or all-NaN history gives NaN.
func Best(h []Record) (Record, bool) {
	best := Record{EL1: math.NaN()}
	ok := false
	for _, r := range h {
		if math.IsNaN(r.EL1) {
			continue
		}
		if !ok || r.EL1 < best.EL1 {
			best, ok = r, true
		}
	}
	return best, ok
}

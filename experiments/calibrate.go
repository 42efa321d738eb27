package experiments

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Cost is fitted to one machine (see its doc); others are faster or slower
// by a factor that depends on the kind of run: the vector kernels of the
// LSQR products, the network steps' tanh and products, and the dense SVD
// of a κ run scale differently from one processor to the next. A
// Calibration holds those factors for one machine and kernel path, from
// the machine's own finished runs, or from a few seconds of small runs
// made for the purpose (CalibrationSpecs).

// Calibration scales Cost to a machine: per class of run (CostClass), the
// median of measured time / Cost over the runs it was made from.
type Calibration struct {
	// Model is the CostModel whose estimates the factors scale: a
	// calibration of another is void.
	Model   string             `json:"model"`
	Machine string             `json:"machine"` // Machine.ID of the machine it holds for
	Kernel  string             `json:"kernel"`  // the kernel path (Env.Kernel)
	Scale   map[string]float64 `json:"scale"`   // class -> measured/estimated
	Runs    map[string]int     `json:"runs"`    // class -> runs the factor is the median of
	// From says what the factors come from: "results" (finished runs of
	// the machine), "calibration runs", or both.
	From string `json:"from"`
}

// CostModel names the version of Cost's constants: change it with them,
// so that calibrations made against the old ones are made again.
const CostModel = "2026-11-28"

// CostClass is the class of a run whose time Cost predicts with one factor
// per machine: the model, the problem's dimension and, for the
// ELM-FBPINN, whether the run is κ-only (a dense SVD): "elm-2d",
// "elm-kappa", "fbpinn-1d", "pinn-2d".
func CostClass(s Spec) string {
	if s.Model == ELM && s.Iters == 0 {
		return "elm-kappa"
	}
	d := 1
	if p, err := ProblemNamed(s.Problem); err == nil {
		d = p.Dim
	}
	return fmt.Sprintf("%s-%dd", s.Model, d)
}

// Cost returns Cost(s) scaled by the factor of its class (1 if c is nil or
// has none for the class).
func (c *Calibration) Cost(s Spec) float64 {
	f := 1.0
	if c != nil {
		if x, ok := c.Scale[CostClass(s)]; ok && x > 0 && !math.IsInf(x, 0) {
			f = x
		}
	}
	return runOverhead + (Cost(s)-runOverhead)*f
}

// Measured is the time of a run to calibrate from: its Spec and the
// measured seconds of what Cost estimates (Total + Kappa of its result).
type Measured struct {
	Spec Spec
	Sec  float64
}

// NewCalibration returns the factors of the runs ms, made on machine with
// the kernel path kernel, each class's the median of sec / (Cost -
// runOverhead) over its runs; classes with fewer than minRuns runs are
// left out. from says where the runs come from.
func NewCalibration(machine, kernel, from string, ms []Measured, minRuns int) *Calibration {
	ratios := map[string][]float64{}
	for _, m := range ms {
		est := Cost(m.Spec) - runOverhead
		if !(m.Sec > 0) || !(est > 0) || math.IsInf(m.Sec, 0) {
			continue
		}
		k := CostClass(m.Spec)
		ratios[k] = append(ratios[k], m.Sec/est)
	}
	c := &Calibration{Model: CostModel, Machine: machine, Kernel: kernel, Scale: map[string]float64{}, Runs: map[string]int{}, From: from}
	for k, rs := range ratios {
		if len(rs) < max(1, minRuns) {
			continue
		}
		sort.Float64s(rs)
		med := rs[len(rs)/2]
		if len(rs)%2 == 0 {
			med = (rs[len(rs)/2-1] + rs[len(rs)/2]) / 2
		}
		c.Scale[k], c.Runs[k] = med, len(rs)
	}
	return c
}

// Merge returns c with the classes of o that c lacks (c's own factors,
// from more runs or better ones, are kept); a nil or empty c or o gives
// the other.
func (c *Calibration) Merge(o *Calibration) *Calibration {
	if c == nil || len(c.Scale) == 0 {
		return o
	}
	if o == nil || len(o.Scale) == 0 {
		return c
	}
	out := &Calibration{Model: c.Model, Machine: c.Machine, Kernel: c.Kernel, Scale: map[string]float64{}, Runs: map[string]int{}, From: c.From}
	added := false
	for _, src := range []*Calibration{o, c} {
		for k, v := range src.Scale {
			if src == o {
				if _, ok := c.Scale[k]; ok {
					continue
				}
				added = true
			}
			out.Scale[k], out.Runs[k] = v, src.Runs[k]
		}
	}
	if added && o.From != c.From {
		out.From = c.From + " and " + o.From
	}
	return out
}

// Classes returns the classes with a factor, sorted.
func (c *Calibration) Classes() []string {
	if c == nil {
		return nil
	}
	var ks []string
	for k := range c.Scale {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// String lists the factors: "elm-1d 0.41 (5 runs), ...".
func (c *Calibration) String() string {
	if c == nil || len(c.Scale) == 0 {
		return "none"
	}
	var parts []string
	for _, k := range c.Classes() {
		runs := "runs"
		if c.Runs[k] == 1 {
			runs = "run"
		}
		parts = append(parts, fmt.Sprintf("%s %.2g (%d %s)", k, c.Scale[k], c.Runs[k], runs))
	}
	return strings.Join(parts, ", ")
}

// CalibrationSpecs are the small runs a calibration makes, a few of each
// class, about five seconds in all: short budgets of the paper's baselines
// and a κ run of the oscillator.
func CalibrationSpecs() []Spec {
	var out []Spec
	// Long enough that a run's set-up (a network's, about 0.1-0.3 s) is
	// a small part of it: 500 steps of the oscillator's PINN took twice
	// their estimate, 15000 steps the estimate.
	short := map[string][2]int{ // model -> iterations (1D, 2D): 0.2-1.5 s each
		ELM:    {FullIters, 600},
		FBPINN: {10000, 40},
		PINN:   {3000, 10},
	}
	for _, p := range Problems {
		if p.Name == Helmholtz {
			continue // the Laplacian stands for the 2D problems
		}
		for _, m := range Models {
			r := Row{Problem: p.Name, Model: m, Param: p.Base.Param, J: slices.Clone(p.Base.J), K: p.Base.K, R: fullR, Delta: fullDelta}
			widths := []int{0}
			if m == PINN {
				widths = []int{fullWidth, 14} // the baseline's, and a width that is not a multiple of 8
			}
			for _, w := range widths {
				r.Width = w
				s := r.Spec(0)
				s.Iters = short[m][p.Dim-1]
				out = append(out, s)
			}
		}
	}
	osc := knownProblem(Oscillator)
	k := Row{Problem: Oscillator, Model: ELM, Param: osc.Base.Param, J: []int{8}, K: osc.Base.K, R: fullR, Delta: fullDelta}
	return append(out, k.KappaSpec())
}

package experiments

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"elmfbpinn/core/metric"
	"elmfbpinn/paperdata"
)

// Models a Spec may name.
const (
	ELM    = "elm"
	FBPINN = "fbpinn"
	PINN   = "pinn"
)

// Models lists the model names.
var Models = []string{ELM, FBPINN, PINN}

// schema versions the Spec encoding; bump it when a change to the code makes
// old results invalid, so that they are not found in the cache.
const schema = 1

// DefaultKappaCells is the default size cap (rows × columns of the dense
// matrix) above which κ(M) is not computed.
const DefaultKappaCells = 4_000_000

// Settings are how runs are made, not what they are: they are no part of
// a run's key (Spec.Key). The zero value (or a nil *Settings) is the
// default.
type Settings struct {
	// KappaCells is the largest dense M (rows × columns) whose κ is
	// computed; 0 means DefaultKappaCells. A κ run whose M is larger
	// records "not computed" and the cap it was made with
	// (Result.KappaCells), and is made again by a run with a larger cap.
	KappaCells int
	// Progress, if set, is called as a solving run of iters iterations
	// (LSQR) or steps (Adam) goes, from the goroutine of Execute, each time
	// its history of test errors gains a record, with the history so far
	// (the new record last; read it during the call only). It observes
	// only: the result does not depend on it.
	Progress func(iters int, history []metric.Record)
}

// Cells returns the κ size cap of set (DefaultKappaCells for a nil set or a
// zero KappaCells).
func (set *Settings) Cells() int {
	if set == nil || set.KappaCells == 0 {
		return DefaultKappaCells
	}
	return set.KappaCells
}

// Fulfils reports whether r is the result set would make of r.Spec: it is
// not if r is a κ run left uncomputed because M was above a smaller cap than
// set's.
func (set *Settings) Fulfils(r *Result) bool {
	cells := r.Rows * r.Cols
	capped := r.Spec.Kappa && r.Kappa == nil && r.KappaCells > 0 && cells > r.KappaCells
	return !capped || cells > set.Cells()
}

// Spec is everything that determines one run's result, and nothing else.
type Spec struct {
	Problem string  `json:"problem"`
	Model   string  `json:"model"`
	Param   float64 `json:"param"` // ω0 (oscillator), n_ω (laplace) or ω (helmholtz)
	J       []int   `json:"J"`     // subdomains per dimension of each level; collocation follows the last
	K       int     `json:"K"`     // features per subdomain; fixes the collocation count for every model
	Width   int     `json:"width,omitempty"`
	Delta   float64 `json:"delta"`
	R       float64 `json:"R"`
	// Iters is the number of LSQR iterations or Adam steps. A κ-only run has
	// Iters = 0: it assembles M and computes κ(M) without solving.
	Iters int `json:"iters"`
	Seed  int `json:"seed"`
	// Kappa asks for κ(M) by a dense SVD (when M is small enough: see
	// Settings.KappaCells).
	Kappa bool `json:"kappa,omitempty"`
	// Coef keeps the solve's final coefficients in the result
	// (Result.Coef): the run of a solution figure (SolutionSpec), which
	// the report draws without solving anything. False for every table
	// run, and left out of the encoding then, so no table run's key
	// changes.
	Coef bool `json:"coef,omitempty"`
	// Solver names the ELM-FBPINN's least-squares method (one of
	// SolverNames); "" is the paper's forced LSQR, left out of the
	// encoding, so that no run of the paper's solver changes its key.
	Solver string `json:"solver,omitempty"`
	// SolverOpts are the named solver's options; nil takes every default,
	// and is left out of the encoding, so a run without options keeps its
	// key. A non-nil SolverOpts must set at least one option.
	SolverOpts *SolverOpts `json:"solver_opts,omitempty"`
}

// SolverOpts are the options of the least-squares methods of SolverNames.
// A zero field is the method's documented default (elm.DefaultTau,
// elm.Stop's SciPy values) and is left out of the encoding; a field the
// named method does not take is refused by Spec.Validate.
type SolverOpts struct {
	// Tau is lsqr-block's drop tolerance (elm.BlockLSQR.Tau), in [0, 1).
	Tau float64 `json:"tau,omitempty"`
	// Stop makes lsqr-block stop by LSQR's tests on M P instead of running
	// every iteration.
	Stop bool `json:"stop,omitempty"`
	// ATol, BTol and ConLim are LSQR's stopping tolerances (elm.Stop), for
	// lsqr-stop, lsmr-stop and lsqr-block with Stop; non-negative, ConLim
	// 0 or above 1.
	ATol   float64 `json:"atol,omitempty"`
	BTol   float64 `json:"btol,omitempty"`
	ConLim float64 `json:"conlim,omitempty"`
	// HeldOut makes lsqr-block also stop by the residual at held-out
	// collocation points (elm.HeldOut, checked every 100 iterations) and
	// return the iterate where it was least.
	HeldOut bool `json:"heldout,omitempty"`
	// Patience is HeldOut's number of checks without a new least residual
	// before it stops; 0 means 10. It needs HeldOut.
	Patience int `json:"patience,omitempty"`
	// LSMR makes lsqr-block run LSMR on M P instead of LSQR.
	LSMR bool `json:"lsmr,omitempty"`
}

// Key returns the content hash that names the run's result file. A Spec
// holds only what a run is (its identity); how it is made (Settings) is not
// part of it, so one run has one key whatever the settings it was made with.
func (s Spec) Key() string {
	b, err := json.Marshal(struct {
		Schema int  `json:"schema"`
		Spec   Spec `json:"spec"`
	}{schema, s})
	if err != nil {
		panic(err) // a Spec always encodes
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// MaxScale bounds a Spec's delta, R and problem parameter (ω0, n_ω, ω):
// beyond it the problems are not representable in float64 (the
// oscillator's ω0 = 1e9 gives a NaN error, delta = 1e300 a subdomain
// width that overflows), while 1e6 still solves and is four orders of
// magnitude above the paper's largest values (δ 2.9, R 8, ω0 320).
const MaxScale = 1e6

// Validate checks a Spec for values no run can use and says what is wrong.
func (s Spec) Validate() error {
	p, err := ProblemNamed(s.Problem)
	if err != nil {
		return err
	}
	if !slices.Contains(Models, s.Model) {
		return fmt.Errorf("unknown model %q (want one of %s)", s.Model, strings.Join(Models, ", "))
	}
	if len(s.J) == 0 {
		return fmt.Errorf("J is empty; give subdomains per level, e.g. 20 or 1,10,20")
	}
	for _, j := range s.J {
		if j < 1 {
			return fmt.Errorf("J = %s: every level needs at least 1 subdomain", paperdata.FormatJ(s.J))
		}
	}
	if s.K < 1 {
		return fmt.Errorf("K = %d: need at least 1 feature per subdomain", s.K)
	}
	if !(s.Delta > 0) || math.IsInf(s.Delta, 0) {
		return fmt.Errorf("delta = %v: the width ratio must be positive", s.Delta)
	}
	if s.Delta > MaxScale {
		return fmt.Errorf("delta = %v: the width ratio must be at most %g", s.Delta, MaxScale)
	}
	if !(s.R > 0) || math.IsInf(s.R, 0) {
		return fmt.Errorf("R = %v: the weight scale must be positive", s.R)
	}
	if s.R > MaxScale {
		return fmt.Errorf("R = %v: the weight scale must be at most %g", s.R, MaxScale)
	}
	if math.Abs(s.Param) > MaxScale {
		return fmt.Errorf("%s = %v: must be at most %g", p.Param.Flag, s.Param, MaxScale)
	}
	if s.Iters < 0 {
		return fmt.Errorf("iters = %d must not be negative", s.Iters)
	}
	if s.Seed < 0 {
		return fmt.Errorf("seed = %d must not be negative", s.Seed)
	}
	if _, err := p.New(s.Param); err != nil {
		return err
	}
	if s.Coef && (s.Model != ELM || s.Iters < 1) {
		return fmt.Errorf("coef keeps the coefficients of an ELM-FBPINN solve; want model elm and iters >= 1")
	}
	if s.Solver != "" {
		if _, ok := solvers[s.Solver]; !ok {
			return fmt.Errorf("unknown solver %q (want one of %s, or none for the paper's forced LSQR)", s.Solver, strings.Join(SolverNames(), ", "))
		}
		if s.Model != ELM || s.Iters < 1 {
			return fmt.Errorf("solver %s solves the ELM-FBPINN's least-squares system; want model elm and iters >= 1", s.Solver)
		}
	}
	if err := s.SolverOpts.check(s.Solver); err != nil {
		return err
	}
	if s.Kappa && s.Model != ELM {
		return fmt.Errorf("kappa(M) belongs to the ELM-FBPINN's least-squares system; %s has none (drop -cond)", PaperModel(s.Model))
	}
	if s.Iters == 0 && s.Model != ELM {
		return fmt.Errorf("%s needs at least one training step", PaperModel(s.Model))
	}
	if s.Model != PINN && s.Width != 0 {
		return fmt.Errorf("width = %d applies to the PINN only; %s has one network per subdomain of K features", s.Width, PaperModel(s.Model))
	}
	if s.Model == PINN && s.Width < 1 {
		return fmt.Errorf("width = %d: the PINN needs at least 1 hidden unit", s.Width)
	}
	return nil
}

// plainName returns a problem or model name as it is if it is a plain word,
// else quoted, so that a Spec read from a bad file names itself on one line.
func plainName(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return strconv.Quote(s)
		}
	}
	return s
}

// String is a short human-readable name for progress lines and errors.
func (s Spec) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%s param=%g J=%s K=%d", plainName(s.Problem), plainName(s.Model), s.Param, paperdata.FormatJ(s.J), s.K)
	if s.Model == PINN {
		fmt.Fprintf(&b, " width=%d", s.Width)
	}
	if s.R != 1 {
		fmt.Fprintf(&b, " R=%g", s.R)
	}
	if s.Iters == 0 {
		b.WriteString(" kappa-only")
	} else {
		fmt.Fprintf(&b, " iters=%d", s.Iters)
	}
	fmt.Fprintf(&b, " seed=%d", s.Seed)
	if s.Coef {
		b.WriteString(" coef")
	}
	if s.Solver != "" {
		b.WriteString(" solver=" + plainName(s.Solver))
	}
	if o := s.SolverOpts; o != nil {
		for _, f := range []struct {
			name string
			v    float64
		}{{"tau", o.Tau}, {"atol", o.ATol}, {"btol", o.BTol}, {"conlim", o.ConLim}} {
			if f.v != 0 {
				fmt.Fprintf(&b, " %s=%g", f.name, f.v)
			}
		}
		if o.Stop {
			b.WriteString(" stop")
		}
		if o.HeldOut {
			b.WriteString(" heldout")
		}
		if o.LSMR {
			b.WriteString(" lsmr")
		}
		if o.Patience != 0 {
			fmt.Fprintf(&b, " patience=%d", o.Patience)
		}
	}
	return b.String()
}

package train

import (
	"fmt"
	"math"
	"time"

	"elmfbpinn/core/basis"
	"elmfbpinn/core/local"
	"elmfbpinn/core/metric"
	"elmfbpinn/core/nn"
	"elmfbpinn/core/problem"
)

// FBPINNConfig fixes one FBPINN run: one network [d, K, 1] per kept
// subdomain of every level, its input normalised to the subdomain,
// (x - c)/s, its output scaled by the problem's σ, combined as
//
//	û(x) = A(x) (1/L) Σ_ℓ Σ_j w_j(x) σ N_j((x - c_j)/s_j)
//
// over the subdomains whose closed box holds x, with the normalised windows
// w_j of core/domain and the hard-constraint factor A of problems that have
// one (A = 1 otherwise).
type FBPINNConfig struct {
	// J lists the subdomains per dimension of each level, coarse to fine.
	// Points follow the last (finest) level, as in core/elm.
	J []int
	// K is the hidden width of each subdomain network; it also chooses the
	// collocation points, p.Constraints(J_fine, K), as for the ELM.
	K int
	// Delta is the width ratio δ; 0 means 2.9.
	Delta float64
	// R scales the initialisation bound R/sqrt(fan_in); 0 means 1.
	R float64
	// Seed seeds the initialisation.
	Seed uint64
	// Steps is the number of Adam steps; 0 means 15000.
	Steps int
	// LR is Adam's learning rate; 0 means 1e-3.
	LR float64
	// Every is the interval of the test-error history: the error is
	// recorded at step 0, every Every steps and after the last step; 0
	// means 1000.
	Every int
	// Progress, if set, is called each time the history gains a record,
	// with the history so far (the new record last), from the goroutine of
	// the training. The slice is the training's own: it is read during the
	// call only. It observes only.
	Progress func(history []metric.Record)
	// Timed stamps each record of the history with the seconds since the
	// training began (metric.Record.T; building the networks included).
	// Off, the records carry no time.
	Timed bool
}

// PINNConfig fixes one PINN run: one network [d, Width, Width, 1] on the
// input normalised from the problem's box to [-1, 1], its output scaled by
// the problem's σ and multiplied by the hard-constraint factor A(x) where
// the problem has one.
type PINNConfig struct {
	// J and K choose the collocation points p.Constraints(J, K) and test
	// points p.Test(J), mirroring an FBPINN row; they do not shape the
	// network.
	J, K int
	// Width is the width of both hidden layers.
	Width int
	// R scales the initialisation bound R/sqrt(fan_in); 0 means 1.
	R float64
	// Seed seeds the initialisation.
	Seed uint64
	// Steps is the number of Adam steps; 0 means 15000.
	Steps int
	// LR is Adam's learning rate; 0 means 1e-3.
	LR float64
	// Every is the interval of the test-error history (see
	// FBPINNConfig.Every); 0 means 1000.
	Every int
	// Progress, if set, is called each time the history gains a record
	// (see FBPINNConfig.Progress).
	Progress func(history []metric.Record)
	// Timed stamps the history's records with their time (see
	// FBPINNConfig.Timed).
	Timed bool
}

// Result is the outcome of a training run.
type Result struct {
	// History is the test e_L1 after 0, Every, 2 Every, ... and Steps
	// parameter updates.
	History []metric.Record
	// Loss is the training loss at the parameters of each History entry.
	Loss []float64
	// Best is the minimum of History: the run's error by the paper's rule.
	Best metric.Record
	// Final is the test e_L1 after the last step.
	Final float64
	// Steps is the number of Adam steps taken.
	Steps int
	// Diverged reports that the loss became non-finite, which ended the
	// training after Steps steps; History holds the records made until then.
	Diverged bool
	// Params is the number of trained parameters.
	Params int
}

// schedule holds the defaulted optimisation settings shared by both models.
type schedule struct {
	steps, every int
	lr           float64
	progress     func([]metric.Record)
	start        time.Time // when the training began; zero: the records are not timed
}

func newSchedule(steps int, lr float64, every int, progress func([]metric.Record)) (schedule, error) {
	if steps < 0 || every < 0 || lr < 0 || math.IsNaN(lr) || math.IsInf(lr, 0) {
		return schedule{}, fmt.Errorf("train: steps %d, history interval %d and learning rate %v must not be negative", steps, every, lr)
	}
	s := schedule{steps: steps, every: every, lr: lr, progress: progress}
	if s.steps == 0 {
		s.steps = 15000
	}
	if s.every == 0 {
		s.every = 1000
	}
	if s.lr == 0 {
		s.lr = 1e-3
	}
	return s, nil
}

// FBPINN trains the FBPINN c on problem p.
func FBPINN(p problem.Problem, c FBPINNConfig) (*Result, error) {
	start := time.Now()
	m, s, err := buildFBPINN(p, c)
	if err != nil {
		return nil, err
	}
	if c.Timed {
		s.start = start
	}
	return m.run(s)
}

// PINN trains the PINN c on problem p.
func PINN(p problem.Problem, c PINNConfig) (*Result, error) {
	start := time.Now()
	m, s, err := buildPINN(p, c)
	if err != nil {
		return nil, err
	}
	if c.Timed {
		s.start = start
	}
	return m.run(s)
}

func buildFBPINN(p problem.Problem, c FBPINNConfig) (*model, schedule, error) {
	s, err := newSchedule(c.Steps, c.LR, c.Every, c.Progress)
	if err != nil {
		return nil, s, err
	}
	if len(c.J) == 0 {
		return nil, s, fmt.Errorf("train: FBPINN: no levels")
	}
	for l, j := range c.J {
		if j < 1 {
			return nil, s, fmt.Errorf("train: FBPINN: level %d has J = %d; J must be at least 1", l, j)
		}
	}
	if c.K < 1 {
		return nil, s, fmt.Errorf("train: FBPINN: K = %d hidden units; K must be at least 1", c.K)
	}
	r, err := basis.WeightScale(c.R)
	if err != nil {
		return nil, s, fmt.Errorf("train: %w", err)
	}
	lm, err := local.New(p, c.J, c.Delta)
	if err != nil {
		return nil, s, fmt.Errorf("train: FBPINN: %w", err)
	}
	dec := lm.Decomposition
	dim := p.Dim()
	jFine := c.J[len(c.J)-1]
	sizes := []int{dim, c.K, 1}
	if err := nn.CheckSizes(sizes); err != nil {
		return nil, s, fmt.Errorf("train: FBPINN: %w", err)
	}
	nets := make([]*nn.MLP, len(dec.Subdomains))
	for g := range nets {
		sub := &dec.Subdomains[g]
		nets[g] = nn.New(sizes, nil, sub.Centre[:dim:dim], sub.Half[:dim:dim])
	}
	m, err := newModel(lm, nets, r, c.Seed)
	if err != nil {
		return nil, s, err
	}
	if err := m.setPoints(p.Constraints(jFine, c.K), p.Test(jFine)); err != nil {
		return nil, s, err
	}
	return m, s, nil
}

func buildPINN(p problem.Problem, c PINNConfig) (*model, schedule, error) {
	s, err := newSchedule(c.Steps, c.LR, c.Every, c.Progress)
	if err != nil {
		return nil, s, err
	}
	if c.J < 1 || c.K < 1 || c.Width < 1 {
		return nil, s, fmt.Errorf("train: PINN: J = %d, K = %d and Width = %d must be at least 1", c.J, c.K, c.Width)
	}
	r, err := basis.WeightScale(c.R)
	if err != nil {
		return nil, s, fmt.Errorf("train: %w", err)
	}
	lm, err := local.Global(p)
	if err != nil {
		return nil, s, fmt.Errorf("train: PINN: %w", err)
	}
	dim := p.Dim()
	lo, hi := p.Box()
	if len(lo) != dim || len(hi) != dim {
		return nil, s, fmt.Errorf("train: PINN: box of dimension %d, %d for a problem of dimension %d", len(lo), len(hi), dim)
	}
	centre, half := make([]float64, dim), make([]float64, dim)
	for i := range dim {
		if !(hi[i] > lo[i]) {
			return nil, s, fmt.Errorf("train: PINN: empty box in dimension %d: [%v, %v]", i, lo[i], hi[i])
		}
		centre[i], half[i] = (lo[i]+hi[i])/2, (hi[i]-lo[i])/2
	}
	sizes := []int{dim, c.Width, c.Width, 1}
	if err := nn.CheckSizes(sizes); err != nil {
		return nil, s, fmt.Errorf("train: PINN: %w", err)
	}
	net := nn.New(sizes, nil, centre, half)
	m, err := newModel(lm, []*nn.MLP{net}, r, c.Seed)
	if err != nil {
		return nil, s, err
	}
	if err := m.setPoints(p.Constraints(c.J, c.K), p.Test(c.J)); err != nil {
		return nil, s, err
	}
	return m, s, nil
}

package experiments

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"elmfbpinn/paperdata"
)

// Table is one table of the paper (or the weight-scaling figure) as data.
type Table struct {
	ID    string // our name, e.g. "osc-K"
	Paper string // the paper's label, e.g. "tab:ch3-harm-c-ablation"; "" for the figure
	Title string
	// Description, if set, says in prose what the table measures and what
	// it shows (an experiment file's description); reports print it under
	// the title.
	Description string
	Kind        Kind // what the table compares, and so its axis (X)
	Rows        []Row
	// Quick is the table's part of the quick tier; nil leaves the table out
	// of it.
	Quick *Quick
	// Seeds, if non-nil, replaces the seeds of every row in every tier (a
	// selection's seeds, see Select); the κ run of an ELM row in the full
	// tier is then kept only if Seeds holds KappaSeed. Nil keeps the tier's
	// seeds (a row's own Seeds, else FullSeeds in the full tier; Quick's
	// budgets in the quick tier).
	Seeds []int
	// NoKappa leaves out the κ(M) runs of the table's ELM rows in the full
	// tier (an experiment file's kappa = false); the paper's tables have
	// them.
	NoKappa bool
	// Source is the experiment file that declared the table (ReadFiles);
	// nil for the paper's tables, which are declared in Go.
	Source *Source
}

// Source is an experiment file as read: its path and the SHA-256 of its
// bytes, which a report's provenance names.
type Source struct {
	Path   string
	SHA256 string // hex
	Line   int    // the line of the table's id in the file
}

// Kind is what a table compares. The report chooses a table's figures and
// the paper's claims choose their tables by kind.
type Kind int

const (
	Baseline Kind = iota // the three models at the problem's baseline
	SweepK               // K varies (the PINN's hidden width with it)
	SweepJ               // the subdomains per dimension J vary
	Scaling              // the problem's parameter grows with J; one and three levels
	Weights              // the weight scale R varies (the paper's weight-scaling figure)
	Solvers              // the least-squares solver varies (a study beyond the paper)
)

// String returns the kind's name: "baseline", "K", "J", "scaling" or "R".
func (k Kind) String() string {
	switch k {
	case Baseline:
		return "baseline"
	case SweepK:
		return "K"
	case SweepJ:
		return "J"
	case Scaling:
		return "scaling"
	case Weights:
		return "R"
	case Solvers:
		return "solver"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// X returns the value of row r on the table's axis: K as the paper lists
// it (the PINN's width), the finest level's J, the weight scale R, or the
// problem's parameter (a baseline's or a scaling table's).
func (t *Table) X(r Row) float64 {
	switch t.Kind {
	case SweepK:
		_, _, k := r.PaperKey()
		return float64(k)
	case SweepJ:
		return float64(r.J[len(r.J)-1])
	case Weights:
		return r.R
	}
	return r.Param
}

// Row is one row of a table.
type Row struct {
	Problem string
	Model   string  // ELM, FBPINN or PINN
	Param   float64 // ω0, n_ω or ω
	J       []int   // subdomains per level; for the PINN, the J whose collocation points it shares
	K       int     // features per subdomain; for the PINN, fixes the collocation points
	Width   int     // PINN hidden width (both hidden layers)
	R       float64 // weight scale
	Delta   float64
	// Iters is the row's full budget of LSQR iterations or Adam steps; 0
	// means FullIters, the paper's.
	Iters int
	// Solver names the ELM-FBPINN's least-squares method (Spec.Solver);
	// "" is the paper's forced LSQR. SolverOpts are its options
	// (Spec.SolverOpts); nil: its defaults.
	Solver     string
	SolverOpts *SolverOpts
	// Seeds, if non-nil, are the row's seeds in the full tier instead of
	// FullSeeds (a selection's Table.Seeds still replaces them).
	Seeds []int
	// Ref, if non-nil, is the row's reference values (an experiment file's
	// ref: a median e_L1 with its range and a mean time, and their source),
	// against which the row is judged as a paper row is; it takes the
	// place of the paper's row.
	Ref *paperdata.Row
}

// Budget returns the row's full budget of iterations (Iters, or FullIters
// if 0).
func (r Row) Budget() int {
	if r.Iters > 0 {
		return r.Iters
	}
	return FullIters
}

// Quick says which rows, seeds and budgets a table runs in the quick tier.
type Quick struct {
	// Budgets gives, for each model whose rows run in the quick tier, the
	// seeds and the iteration budget (0 keeps the full budget).
	Budgets map[string]Budget
	// Only, if non-nil, keeps the rows for which it returns true.
	Only func(Row) bool
}

// Budget is the seeds and iterations (LSQR iterations or Adam steps) of a
// model's runs in a tier; Iters = 0 means the full budget.
type Budget struct {
	Seeds []int
	Iters int
}

// Tier names.
const (
	Full      = "full"
	QuickTier = "quick"
	FullIters = 15000
	KappaSeed = 5
	fullWidth = 64 // the PINN's hidden width at baseline
	fullDelta = 2.9
	fullR     = 1.0
)

// Tiers lists the tier names.
var Tiers = []string{Full, QuickTier}

// FullSeeds are the seeds of every statistic in the paper.
var FullSeeds = []int{0, 1, 2, 3, 4}

// PaperModel returns the paper's name of a model.
func PaperModel(m string) string {
	switch m {
	case ELM:
		return paperdata.ModelELMFBPINN
	case FBPINN:
		return paperdata.ModelFBPINN
	case PINN:
		return paperdata.ModelPINN
	}
	return m
}

// Optimiser returns how a model is fitted and what one of a run's Iters
// is: LSQR and its iteration for the ELM-FBPINN, Adam and its step for the
// networks (FBPINN, PINN).
func Optimiser(m string) (name, step string) {
	if m == ELM {
		return "LSQR", "iteration"
	}
	return "Adam", "step"
}

// Label is the row's model as the report shows it: the paper's name, with
// "(L=3)" for a multilevel ELM-FBPINN and the solver's name for one that
// is not the paper's LSQR ("(L=3, lsqr-scaled)").
func (r Row) Label() string {
	var parts []string
	if len(r.J) > 1 {
		parts = append(parts, fmt.Sprintf("L=%d", len(r.J)))
	}
	if r.Solver != "" {
		parts = append(parts, r.SolverLabel())
	}
	if len(parts) == 0 {
		return PaperModel(r.Model)
	}
	return PaperModel(r.Model) + " (" + strings.Join(parts, ", ") + ")"
}

// SolverLabel names the row's solver with the options set, e.g. "lsqr"
// (the paper's forced LSQR), "lsqr-block", "lsqr-block+stop",
// "lsqr-block+heldout+tau=1e-06".
func (r Row) SolverLabel() string {
	name := r.solverName()
	o := r.SolverOpts
	if o == nil {
		return name
	}
	for _, f := range []struct {
		on   bool
		text string
	}{{o.Stop, "stop"}, {o.HeldOut, "heldout"}, {o.LSMR, "lsmr"},
		{o.Tau != 0, "tau=" + num(o.Tau)}, {o.ATol != 0, "atol=" + num(o.ATol)}, {o.BTol != 0, "btol=" + num(o.BTol)},
		{o.ConLim != 0, "conlim=" + num(o.ConLim)}, {o.Patience != 0, "patience=" + strconv.Itoa(o.Patience)}} {
		if f.on {
			name += "+" + f.text
		}
	}
	return name
}

// PaperKey returns the keys under which the paper lists the row: the PINN
// is listed with J = 1 and K = its hidden width.
func (r Row) PaperKey() (param float64, J []int, K int) {
	if r.Model == PINN {
		return r.Param, []int{1}, r.Width
	}
	return r.Param, r.J, r.K
}

// RefName is what the table's rows are judged against, as reports name
// it: "paper" for a table of the paper, "reference" for one declared in an
// experiment file (its rows' reference values).
func (t *Table) RefName() string {
	if t.Source != nil {
		return "reference"
	}
	return "paper"
}

// PaperRow returns the row r of table t is judged against, if it has one:
// its reference values (Row.Ref), else the paper's row of a paper table.
func (t *Table) PaperRow(r Row) (paperdata.Row, bool) {
	if r.Ref != nil {
		p := *r.Ref
		p.J = slices.Clone(p.J)
		return p, true
	}
	if t.Paper == "" {
		return paperdata.Row{}, false
	}
	p, j, k := r.PaperKey()
	return paperdata.Find(t.Paper, PaperModel(r.Model), p, j, k)
}

// Spec returns the run of row r for one seed at the full budget.
func (r Row) Spec(seed int) Spec {
	s := Spec{
		Problem: r.Problem, Model: r.Model, Param: r.Param,
		J: slices.Clone(r.J), K: r.K, Delta: r.Delta, R: r.R,
		Iters: r.Budget(), Seed: seed, Solver: r.Solver,
	}
	if r.SolverOpts != nil {
		o := *r.SolverOpts
		s.SolverOpts = &o
	}
	if r.Model == PINN {
		s.Width = r.Width
	}
	return s
}

// KappaSpec returns the κ-only run of an ELM row (seed 5, as the
// reference). κ is of M, which no solver changes: the run is the same for
// every solver of the row.
func (r Row) KappaSpec() Spec {
	s := r.Spec(KappaSeed)
	s.Iters = 0
	s.Kappa = true
	s.Solver, s.SolverOpts = "", nil
	return s
}

// Run is one run a table needs: a spec and the row it belongs to.
type Run struct {
	Table *Table
	Row   int
	Spec  Spec
}

// Runs expands the table into its runs for a tier: every row for every seed,
// plus the κ run of each ELM row in the full tier.
func (t *Table) Runs(tier string) ([]Run, error) {
	var runs []Run
	switch tier {
	case Full:
		for i, r := range t.Rows {
			seeds := FullSeeds
			switch {
			case t.Seeds != nil:
				seeds = t.Seeds
			case r.Seeds != nil:
				seeds = r.Seeds
			}
			for _, seed := range seeds {
				runs = append(runs, Run{t, i, r.Spec(seed)})
			}
			kappa := !t.NoKappa && (t.Seeds == nil && r.Seeds == nil || slices.Contains(seeds, KappaSeed))
			if r.Model == ELM && kappa {
				runs = append(runs, Run{t, i, r.KappaSpec()})
			}
		}
	case QuickTier:
		q := t.Quick
		if q == nil {
			return nil, nil
		}
		for i, r := range t.Rows {
			b, ok := q.Budgets[r.Model]
			if !ok || (q.Only != nil && !q.Only(r)) {
				continue
			}
			seeds := b.Seeds
			if t.Seeds != nil {
				seeds = t.Seeds
			}
			for _, seed := range seeds {
				s := r.Spec(seed)
				if b.Iters > 0 {
					s.Iters = b.Iters
				}
				runs = append(runs, Run{t, i, s})
			}
		}
	default:
		return nil, fmt.Errorf("unknown tier %q (want %s)", tier, strings.Join(Tiers, " or "))
	}
	return runs, nil
}

// InTier reports whether row r of t has runs in a tier: every row in the
// full tier, the rows Quick keeps in the quick tier.
func (t *Table) InTier(tier string, r Row) bool {
	switch tier {
	case Full:
		return true
	case QuickTier:
		if t.Quick == nil {
			return false
		}
		_, ok := t.Quick.Budgets[r.Model]
		return ok && (t.Quick.Only == nil || t.Quick.Only(r))
	}
	return false
}

// Lookup returns the paper's tables named in a comma-separated list; "all"
// (or "") names every table.
func Lookup(list string) ([]*Table, error) { return LookupIn(Tables(), list) }

// LookupIn returns the tables of all named in a comma-separated list; "all"
// (or "") names every one.
func LookupIn(all []*Table, list string) ([]*Table, error) {
	if list == "" || list == "all" {
		return all, nil
	}
	var out []*Table
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		i := slices.IndexFunc(all, func(t *Table) bool { return t.ID == name })
		if i < 0 {
			ids := make([]string, len(all))
			for k, t := range all {
				ids[k] = t.ID
			}
			return nil, fmt.Errorf("unknown table %q (known: %s)", name, strings.Join(ids, ", "))
		}
		if !slices.Contains(out, all[i]) {
			out = append(out, all[i])
		}
	}
	return out, nil
}

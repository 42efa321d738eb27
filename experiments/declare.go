package experiments

import "slices"

// This file declares every table of the paper as data. The values follow the
// paper's Section 4 and the reference implementation's sweeps.

// Swept values.
var (
	oscKs    = []int{2, 4, 8, 16, 32, 64}
	oscJs    = []int{2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 24, 32, 48, 64, 92, 128}
	oscScale = [][2]int{{20, 10}, {40, 20}, {80, 40}, {160, 80}, {320, 160}} // (ω0, J)
	twoDKs   = []int{2, 4, 6, 8, 10, 12, 14, 16, 18, 20}
	twoDJs   = []int{2, 4, 6, 8, 10, 12, 14, 16, 18, 20}
	weightRs = []float64{0.125, 0.25, 0.5, 1, 2, 4, 8}
)

// row returns the row of a model at (param, J, K) with the PINN's width
// following the table's convention.
func (p *Problem) row(model string, param float64, js []int, k, width int) Row {
	r := Row{Problem: p.Name, Model: model, Param: param, J: slices.Clone(js), K: k, R: fullR, Delta: fullDelta}
	if model == PINN {
		r.Width = width
	}
	return r
}

func (p *Problem) baseline() []Row {
	var rows []Row
	for _, m := range []string{PINN, FBPINN, ELM} {
		rows = append(rows, p.row(m, p.Base.Param, p.Base.J, p.Base.K, fullWidth))
	}
	return rows
}

// sweepK: PINN (width K, sharing the collocation points of (J, K)), FBPINN
// and ELM-FBPINN for every K.
func (p *Problem) sweepK(ks []int) []Row {
	var rows []Row
	for _, m := range []string{PINN, FBPINN, ELM} {
		for _, k := range ks {
			rows = append(rows, p.row(m, p.Base.Param, p.Base.J, k, k))
		}
	}
	return rows
}

func (p *Problem) sweepJ(js []int) []Row {
	var rows []Row
	for _, m := range []string{FBPINN, ELM} {
		for _, j := range js {
			rows = append(rows, p.row(m, p.Base.Param, []int{j}, p.Base.K, 0))
		}
	}
	return rows
}

// scaling: FBPINN and ELM-FBPINN with one level, then the ELM-FBPINN with
// three levels [1, J/2, J], for each (param, J).
func (p *Problem) scaling(pairs [][2]float64) []Row {
	var rows []Row
	for _, m := range []string{FBPINN, ELM} {
		for _, pr := range pairs {
			rows = append(rows, p.row(m, pr[0], []int{int(pr[1])}, p.Base.K, 0))
		}
	}
	for _, pr := range pairs {
		j := int(pr[1])
		rows = append(rows, p.row(ELM, pr[0], []int{1, j / 2, j}, p.Base.K, 0))
	}
	return rows
}

func (p *Problem) weights() []Row {
	var rows []Row
	for _, r := range weightRs {
		row := p.row(ELM, p.Base.Param, p.Base.J, p.Base.K, 0)
		row.R = r
		rows = append(rows, row)
	}
	return rows
}

// The quick tier (what CI checks). Every ELM-FBPINN row of the oscillator
// tables runs at full fidelity (they take well under a second); the
// gradient-trained models run a short training of one seed, checked against
// golden values only (their errors after a few hundred steps are not the
// paper's).
var (
	oscQuick = func() *Quick {
		return &Quick{Budgets: map[string]Budget{
			ELM:    {Seeds: FullSeeds},
			FBPINN: {Seeds: []int{0}, Iters: 1000},
			PINN:   {Seeds: []int{0}, Iters: 200},
		}}
	}
	// One 2D ELM solve takes 5-10 s: the quick tier keeps the 2D baselines'
	// ELM-FBPINN at full fidelity for two seeds, and a few steps of the
	// gradient-trained models.
	twoDQuick = func() *Quick {
		return &Quick{Budgets: map[string]Budget{
			ELM:    {Seeds: []int{0, 1}},
			FBPINN: {Seeds: []int{0}, Iters: 20},
			PINN:   {Seeds: []int{0}, Iters: 20},
		}}
	}
)

// tableSet declares the four tables of a problem: its baseline, the K and
// J sweeps and the scaling of its parameter with J.
type tableSet struct {
	id, title string    // "osc", "Damped oscillator": "osc-K", "Damped oscillator, varying K"
	label     string    // the paper's labels: this, then each of suffix
	suffix    [4]string // of the baseline, K, J and scaling tables
	ks, js    []int
	pairs     [][2]float64 // (parameter, J) of the scaling table
	quick     func(Kind) *Quick
}

// tables returns the set's tables of problem p.
func (ts tableSet) tables(p *Problem) []*Table {
	return []*Table{
		{ID: ts.id + "-baseline", Paper: ts.label + ts.suffix[0], Title: ts.title + ", baseline", Kind: Baseline,
			Rows: p.baseline(), Quick: ts.quick(Baseline)},
		{ID: ts.id + "-K", Paper: ts.label + ts.suffix[1], Title: ts.title + ", varying K", Kind: SweepK,
			Rows: p.sweepK(ts.ks), Quick: ts.quick(SweepK)},
		{ID: ts.id + "-J", Paper: ts.label + ts.suffix[2], Title: ts.title + ", varying J", Kind: SweepJ,
			Rows: p.sweepJ(ts.js), Quick: ts.quick(SweepJ)},
		{ID: ts.id + "-scaling", Paper: ts.label + ts.suffix[3], Title: ts.title + ", scaling " + p.Param.Name + " with J",
			Kind: Scaling, Rows: p.scaling(ts.pairs), Quick: ts.quick(Scaling)},
	}
}

// Tables returns every table, in the paper's order, then the weight-scaling
// figure. Each call returns fresh values.
func Tables() []*Table {
	var oscPairs, lapPairs, helmPairs [][2]float64
	for _, p := range oscScale {
		oscPairs = append(oscPairs, [2]float64{float64(p[0]), float64(p[1])})
	}
	for n := 1; n <= 7; n++ {
		lapPairs = append(lapPairs, [2]float64{float64(n), float64(4 * n)})
	}
	for w := 4; w <= 16; w += 2 {
		helmPairs = append(helmPairs, [2]float64{float64(w), float64(2 * w)})
	}
	// The quick tier runs every oscillator table, and the 2D baselines.
	everyOsc := func(Kind) *Quick { return oscQuick() }
	twoDBase := func(k Kind) *Quick {
		if k == Baseline {
			return twoDQuick()
		}
		return nil
	}
	var out []*Table
	for _, d := range []struct {
		problem string
		set     tableSet
	}{
		{Oscillator, tableSet{"osc", "Damped oscillator", "tab:ch3-harm-",
			[4]string{"p0-results", "c-ablation", "j-ablation", "j-multiscale"}, oscKs, oscJs, oscPairs, everyOsc}},
		{Laplace, tableSet{"laplace", "Multi-scale Laplacian", "tab:ch3-laplace-",
			[4]string{"p0-results", "C-results", "J-results", "low_to_high-results"}, twoDKs, twoDJs, lapPairs, twoDBase}},
		{Helmholtz, tableSet{"helmholtz", "Helmholtz on the L-shape", "tab:ch3-helmholtz-",
			[4]string{"p0-results", "C-results", "J-results", "scaling-results"}, twoDKs, twoDJs, helmPairs, twoDBase}},
	} {
		p, err := ProblemNamed(d.problem)
		if err != nil {
			panic(err)
		}
		out = append(out, d.set.tables(p)...)
	}
	var weightRows []Row
	for _, p := range Problems {
		weightRows = append(weightRows, p.weights()...)
	}
	return append(out, &Table{ID: "weight-scaling", Title: "ELM-FBPINN, varying the weight scale R (figure)", Kind: Weights,
		Rows: weightRows, Quick: &Quick{Budgets: map[string]Budget{ELM: {Seeds: FullSeeds}},
			Only: func(r Row) bool { return r.Problem == Oscillator }}})
}

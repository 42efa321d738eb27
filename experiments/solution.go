package experiments

import (
	"fmt"
	"math"
	"slices"

	"elmfbpinn/core/elm"
	"elmfbpinn/core/problem"
	"elmfbpinn/core/sparse"
)

// SolutionIters returns the LSQR iterations of a problem's solution-figure
// run in a tier: the paper's 15000, or in the quick tier the problem's
// QuickIters if it has any (3000 for the 2D problems: a few seconds instead
// of 15-25 s each). The figures say which was used.
func SolutionIters(tier, prob string) int {
	if p, err := ProblemNamed(prob); err == nil && tier == QuickTier && p.QuickIters > 0 {
		return p.QuickIters
	}
	return FullIters
}

// SolutionSpec returns the run of the paper's solution figure of a problem
// (its Solution configuration, seed 0, keeping its coefficients:
// Spec.Coef): the oscillator with ω0 = 80, J = [1, 10, 20], K = 12; the
// Laplacian with n_ω = 4 and the Helmholtz problem with ω = 8, both
// J = [1, 8, 16], K = 16.
func SolutionSpec(prob string, iters int) (Spec, error) {
	p, err := ProblemNamed(prob)
	if err != nil {
		return Spec{}, fmt.Errorf("no solution figure: %w", err)
	}
	c := p.Solution
	s := Spec{Problem: prob, Model: ELM, Param: c.Param, J: slices.Clone(c.J), K: c.K, Delta: fullDelta, R: fullR,
		Iters: iters, Coef: true}
	return s, s.Validate()
}

// SolutionRuns returns the runs of the solution figures that belong to the
// given tables in a tier: one per problem whose baseline table has an ELM-FBPINN row in the tier, tied
// to that row. repro run makes them beside the table runs; the report reads
// them like any result.
func SolutionRuns(tables []*Table, tier string) ([]Run, error) {
	var runs []Run
	done := map[string]bool{}
	for _, t := range tables {
		if t.Kind != Baseline {
			continue
		}
		i := slices.IndexFunc(t.Rows, func(r Row) bool { return r.Model == ELM && t.InTier(tier, r) })
		if i < 0 || done[t.Rows[i].Problem] {
			continue
		}
		prob := t.Rows[i].Problem
		s, err := SolutionSpec(prob, SolutionIters(tier, prob))
		if err != nil {
			return nil, err
		}
		done[prob] = true
		runs = append(runs, Run{t, i, s})
	}
	return runs, nil
}

// Solution is the model of a solution-figure run rebuilt from its result,
// with the data its figures draw: the system its spec assembles and the
// coefficients the run kept (nothing is solved again). Its methods sample
// the model: curves, masked grids, subdomain centres, basis functions, the
// sparsity of M.
type Solution struct {
	Spec    Spec
	Problem *Problem // the registry's
	Core    problem.Problem
	System  *elm.System
	Coef    []float64 // the coefficients after Spec.Iters iterations
	Final   float64   // test e_L1 of Coef
	Best    float64   // the minimum test e_L1 over the history
	Seconds float64   // the run's assembly + solve
}

// SolutionOf returns the model of a result made with Spec.Coef (a solution
// figure's run, SolutionSpec): the system its spec assembles with the
// coefficients the run kept. It solves nothing: the errors and the time are
// the run's.
func SolutionOf(r *Result) (*Solution, error) {
	s := r.Spec
	if s.Model != ELM || !s.Coef {
		return nil, fmt.Errorf("solution figures need an ELM-FBPINN run that kept its coefficients, got %s", s)
	}
	p, err := ProblemNamed(s.Problem)
	if err != nil {
		return nil, err
	}
	cp, err := p.New(s.Param)
	if err != nil {
		return nil, err
	}
	sys, err := elm.Build(cp, ELMConfig(s))
	if err != nil {
		return nil, err
	}
	if _, cols := sys.M.Dims(); cols != len(r.Coef) {
		return nil, fmt.Errorf("%s: %d coefficients for %d columns", s, len(r.Coef), cols)
	}
	return &Solution{Spec: s, Problem: p, Core: cp, System: sys, Coef: r.Coef, Final: r.EL1Final,
		Best: r.EL1, Seconds: r.Time.Total}, nil
}

// Predict evaluates the model at the points pts ((n, Dim) row-major).
func (s *Solution) Predict(pts []float64) ([]float64, error) {
	v, err := s.System.Values(pts)
	if err != nil {
		return nil, err
	}
	m, _ := v.Dims()
	out := make([]float64, m)
	v.MulVec(out, s.Coef)
	return out, nil
}

// Exact evaluates the exact solution at the points pts.
func (s *Solution) Exact(pts []float64) []float64 {
	dim := s.Core.Dim()
	out := make([]float64, len(pts)/dim)
	for i := range out {
		out[i] = s.Core.Exact(pts[i*dim : (i+1)*dim])
	}
	return out
}

// Curve is a 1D solution on points T of its interval, exact and predicted,
// and the absolute error |Pred - Exact| (as Fields' AbsErr).
type Curve struct {
	T, Exact, Pred, AbsErr []float64
}

// Curve returns the exact and predicted 1D solution on n points, and its
// error.
func (s *Solution) Curve(n int) (*Curve, error) {
	if s.Core.Dim() != 1 {
		return nil, fmt.Errorf("%s is not 1D", s.Spec.Problem)
	}
	lo, hi := s.Core.Box()
	t := problem.Linspace(lo[0], hi[0], n)
	pred, err := s.Predict(t)
	if err != nil {
		return nil, err
	}
	exact := s.Exact(t)
	return &Curve{T: t, Exact: exact, Pred: pred, AbsErr: absErr(pred, exact)}, nil
}

// absErr returns |pred - exact|, pointwise.
func absErr(pred, exact []float64) []float64 {
	abs := make([]float64, len(pred))
	for i := range pred {
		abs[i] = math.Abs(pred[i] - exact[i])
	}
	return abs
}

// Grid is a field on a tensor grid, masked outside the problem's domain:
//
//	Z[j*len(X) + i] is the value at (X[i], Y[j]); NaN outside the domain.
type Grid struct {
	X, Y []float64
	Z    []float64 // (len(Y), len(X)) row-major
}

// SampleGrid returns an empty (all NaN) n×n grid over the box [lo, hi] with
// both endpoints, the points of the grid that lie inside the domain
// ((m, 2) row-major) and the index in Z of each of them. inside nil means
// the whole box.
func SampleGrid(lo, hi []float64, n int, inside func(x, y float64) bool) (g *Grid, pts []float64, idx []int) {
	g = &Grid{X: problem.Linspace(lo[0], hi[0], n), Y: problem.Linspace(lo[1], hi[1], n), Z: make([]float64, n*n)}
	for j, y := range g.Y {
		for i, x := range g.X {
			g.Z[j*n+i] = math.NaN()
			if inside == nil || inside(x, y) {
				pts = append(pts, x, y)
				idx = append(idx, j*n+i)
			}
		}
	}
	return g, pts, idx
}

// Fill returns a copy of g with the values vals at the indices idx.
func (g *Grid) Fill(idx []int, vals []float64) *Grid {
	h := &Grid{X: g.X, Y: g.Y, Z: slices.Clone(g.Z)}
	for k, i := range idx {
		h.Z[i] = vals[k]
	}
	return h
}

// Range returns the smallest and largest finite value of the grid.
func (g *Grid) Range() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, z := range g.Z {
		if !math.IsNaN(z) && !math.IsInf(z, 0) {
			lo, hi = math.Min(lo, z), math.Max(hi, z)
		}
	}
	return lo, hi
}

// Fields are the exact solution, the prediction and the absolute error of
// a 2D solution on an n×n grid, masked outside the domain (Problem.Inside).
type Fields struct {
	Exact, Pred, AbsErr *Grid
}

// Fields returns the 2D fields of the solution on an n×n grid.
func (s *Solution) Fields(n int) (*Fields, error) {
	if s.Core.Dim() != 2 {
		return nil, fmt.Errorf("%s is not 2D", s.Spec.Problem)
	}
	lo, hi := s.Core.Box()
	g, pts, idx := SampleGrid(lo, hi, n, s.Problem.Inside)
	pred, err := s.Predict(pts)
	if err != nil {
		return nil, err
	}
	exact := s.Exact(pts)
	return &Fields{Exact: g.Fill(idx, exact), Pred: g.Fill(idx, pred), AbsErr: g.Fill(idx, absErr(pred, exact))}, nil
}

// Centres are the subdomain centres of one level of a decomposition.
type Centres struct {
	Level, J int       // level index and its subdomains per dimension
	X, Y     []float64 // Y is empty for a 1D decomposition
}

// LevelCentres returns the centres of the kept subdomains, level by level.
func (s *Solution) LevelCentres() []Centres {
	d := s.System.Decomposition
	out := make([]Centres, len(d.Levels))
	for l := range out {
		out[l] = Centres{Level: l, J: d.Levels[l].J}
	}
	for _, sub := range d.Subdomains {
		c := &out[sub.Level]
		c.X = append(c.X, sub.Centre[0])
		if d.Dim > 1 {
			c.Y = append(c.Y, sub.Centre[1])
		}
	}
	return out
}

// BasisSet is the localised basis of one subdomain of a 1D model on the
// points of its support:
//
//	F[k][i] = (1/L) w_j(T[i]) φ_jk(T[i]),  k = 0..K (k = 0 is the constant)
//
// which are the model's columns of subdomain j evaluated at T.
type BasisSet struct {
	Sub, Level int
	Centre     float64
	T          []float64
	F          [][]float64
}

// Basis returns the basis functions of the given subdomains (global
// indices) on n points of the interval.
func (s *Solution) Basis(subs []int, n int) ([]BasisSet, error) {
	if s.Core.Dim() != 1 {
		return nil, fmt.Errorf("%s is not 1D", s.Spec.Problem)
	}
	lo, hi := s.Core.Box()
	t := problem.Linspace(lo[0], hi[0], n)
	v, err := s.System.Values(t)
	if err != nil {
		return nil, err
	}
	var out []BasisSet
	for _, g := range subs {
		if g < 0 || g >= v.Blocks() {
			return nil, fmt.Errorf("subdomain %d of %d", g, v.Blocks())
		}
		sh, blk := v.Shape(g), v.Block(g)
		sub := s.System.Decomposition.Subdomains[g]
		b := BasisSet{Sub: g, Level: sub.Level, Centre: sub.Centre[0], F: make([][]float64, sh.NCol)}
		for _, r := range sh.Rows {
			b.T = append(b.T, t[r])
		}
		for k := range sh.NCol {
			b.F[k] = make([]float64, len(sh.Rows))
			for i := range sh.Rows {
				b.F[k][i] = blk[i*sh.NCol+k]
			}
		}
		out = append(out, b)
	}
	return out, nil
}

// MiddleSubdomains returns, for each level, the kept subdomain whose centre
// is nearest the middle of the box (a global index) with its neighbours on
// the level before and after it: at most three, in order.
func (s *Solution) MiddleSubdomains() [][]int {
	d := s.System.Decomposition
	best := make([]int, len(d.Levels))
	dist := make([]float64, len(d.Levels))
	for l := range best {
		best[l], dist[l] = -1, math.Inf(1)
	}
	for g, sub := range d.Subdomains {
		var r float64
		for k := range d.Dim {
			m := (d.Lo[k] + d.Hi[k]) / 2
			r += (sub.Centre[k] - m) * (sub.Centre[k] - m)
		}
		if r < dist[sub.Level]-1e-12 {
			best[sub.Level], dist[sub.Level] = g, r
		}
	}
	out := make([][]int, len(best))
	for l, g := range best {
		for _, h := range []int{g - 1, g, g + 1} {
			if g >= 0 && h >= 0 && h < len(d.Subdomains) && d.Subdomains[h].Level == l {
				out[l] = append(out[l], h)
			}
		}
	}
	return out
}

// Raster is a picture of the nonzero pattern of a block-sparse matrix on at
// most H × W cells: Level[r*W + c] is the level of the subdomain whose block
// stores an entry in the rows and columns that cell (r, c) covers, or -1
// for a cell without stored entries. A matrix no larger than the cap is
// drawn one cell per entry.
type Raster struct {
	Rows, Cols int // the matrix
	H, W       int
	Level      []int
	Levels     int
}

// SparsityRaster rasterises m onto at most maxH × maxW cells; level gives the
// level of each block (subdomain).
func SparsityRaster(m *sparse.BlockSparse, level func(block int) int, maxH, maxW int) *Raster {
	rows, cols := m.Dims()
	r := &Raster{Rows: rows, Cols: cols, H: min(rows, maxH), W: min(cols, maxW)}
	r.Level = make([]int, r.H*r.W)
	for i := range r.Level {
		r.Level[i] = -1
	}
	for b := range m.Blocks() {
		sh := m.Shape(b)
		l := level(b)
		r.Levels = max(r.Levels, l+1)
		for _, row := range sh.Rows {
			ci := int(row) * r.H / rows
			for c := sh.Col0; c < sh.Col0+sh.NCol; c++ {
				r.Level[ci*r.W+c*r.W/cols] = l
			}
		}
	}
	return r
}

// Sparsity returns the raster of the solution's system matrix M.
func (s *Solution) Sparsity(maxH, maxW int) *Raster {
	subs := s.System.Decomposition.Subdomains
	return SparsityRaster(s.System.M, func(b int) int { return subs[b].Level }, maxH, maxW)
}

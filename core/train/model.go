package train

import (
	"fmt"
	"math"
	"time"

	"elmfbpinn/core/basis"
	"elmfbpinn/core/domain"
	"elmfbpinn/core/fp"
	"elmfbpinn/core/jet"
	"elmfbpinn/core/local"
	"elmfbpinn/core/metric"
	"elmfbpinn/core/nn"
	"elmfbpinn/core/problem"
)

// pairs are the (point, network) pairs of one network over one point set:
// the network's points, the index of each point in the set, and per pair the
// coefficients c of the network's output channels in the loss row,
//
//	Op[û](x) = Σ_nets Σ_ch c_ch N_ch(x),
//
// with the batch that evaluates the network there.
type pairs struct {
	pts   []float64 // (n, d)
	rows  []int32   // (n)
	coef  []float64 // (n, C)
	batch *nn.Batch
}

// model is a set of networks combined linearly into û by a localised
// model (one network per subdomain function), with its training and test
// point sets.
type model struct {
	p      problem.Problem
	dim    int
	nc     int // channels, 1 + 2 dim
	nets   []*nn.MLP
	params []float64
	grad   []float64
	grads  [][]float64 // per network view of grad

	local       *local.Model          // the FBPINN's subdomains, or the PINN's one global network
	dec         *domain.Decomposition // local.Decomposition: nil for the PINN
	constraints []problem.Constraint
	train, test []pairs // per network
	rhs, wt     []float64
	r           []float64 // per training point: residual, then 2 wt r
	pred, exact []float64
	scratch     nn.Scratch // the forward scratch of every network's batches, used one after another
	gout        []float64  // the output-jet gradients of one network's training pairs (lossGrad)
}

// newModel lays the networks' parameters out in one vector (network after
// network) and initialises them in that order from the seed's generator.
func newModel(lm *local.Model, nets []*nn.MLP, r float64, seed uint64) (*model, error) {
	p := lm.Problem
	dim := p.Dim()
	if dim < 1 || dim > jet.MaxDim {
		return nil, fmt.Errorf("train: problem dimension %d not in 1..%d", dim, jet.MaxDim)
	}
	if len(nets) != lm.Parts() {
		panic("train: one network per subdomain function")
	}
	n := 0
	for _, net := range nets {
		n += len(net.Params)
	}
	m := &model{p: p, dim: dim, nc: nn.Channels(dim), nets: nets, local: lm, dec: lm.Decomposition,
		params: make([]float64, n), grad: make([]float64, n), grads: make([][]float64, len(nets))}
	rng := basis.NewRNG(seed)
	off := 0
	for g, net := range nets {
		k := len(net.Params)
		net.Params = m.params[off : off+k : off+k]
		m.grads[g] = m.grad[off : off+k : off+k]
		net.Init(rng, &nn.InitSettings{R: r})
		off += k
	}
	return m, nil
}

// setPoints stacks the constraints' points and builds the training and test
// pairs.
func (m *model) setPoints(cons []problem.Constraint, test []float64) error {
	dim, nc := m.dim, m.nc
	rows, err := local.Stack(cons, dim)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	m.constraints = rows.Constraints
	opc := make([][]float64, len(cons)) // per constraint: the operator's channel coefficients
	for ci, con := range cons {
		if opc[ci], err = opCoef(con.Op, dim); err != nil {
			return fmt.Errorf("train: constraint %q: %w", con.Name, err)
		}
	}
	m.rhs = rows.RHS
	m.wt = make([]float64, rows.Len())
	for i, ci := range rows.Con {
		m.wt[i] = rows.Weight[ci]
	}
	m.r = make([]float64, len(m.rhs))
	m.train, err = m.pairs(rows.Points, func(i int, u jet.Jet, dst []float64) {
		// c_ch = Op(Mul(u, e_ch)), Op given by its coefficients.
		c := opc[rows.Con[i]]
		for ch := range nc {
			dst[ch] = dotJet(c, jet.Mul(u, unitJet(ch, dim)), dim)
		}
	})
	if err != nil {
		return err
	}
	n := 0
	for _, s := range m.train {
		n = max(n, len(s.coef))
	}
	m.gout = make([]float64, n)
	m.exact = local.Exact(m.p, test)
	m.pred = make([]float64, len(m.exact))
	m.test, err = m.pairs(test, valueCoef)
	return err
}

// valueCoef is the coefficient rule of value rows: û(x) = Σ u.V N.
func valueCoef(_ int, u jet.Jet, dst []float64) {
	clear(dst)
	dst[0] = u.V
}

// pairs builds the per-network pairs of the point set pts from the
// localised model's cover (window over L, output scale and ansatz
// included); coef writes the channel coefficients of point i with
// combined weight jet u.
func (m *model) pairs(pts []float64, coef func(i int, u jet.Jet, dst []float64)) ([]pairs, error) {
	dim, nc := m.dim, m.nc
	cov, err := m.local.Cover(pts, m.p.Scale())
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	set := make([]pairs, len(m.nets))
	for g, net := range m.nets {
		rows := cov.Points[g]
		n := len(rows)
		part := n
		if m.fused(rows) {
			part = min(n, nn.PartPoints(net.Sizes))
		}
		s := pairs{
			pts:   make([]float64, n*dim),
			rows:  rows,
			coef:  make([]float64, n*nc),
			batch: nn.NewBatch(net, part),
		}
		s.batch.Share(&m.scratch)
		for q, row := range rows {
			copy(s.pts[q*dim:], pts[int(row)*dim:(int(row)+1)*dim])
			coef(int(row), cov.Weights[g][q], s.coef[q*nc:(q+1)*nc])
		}
		if part == n {
			s.batch.SetPoints(net, s.pts) // once: eval uses Eval
		}
		set[g] = s
	}
	return set, nil
}

// fused reports whether the training of a network with these rows (the
// points of the set it covers) runs its forward pass, loss and backward
// pass together, a part of the points at a time (lossGradParts): when it is
// the model's only network and covers every point in order (the PINN), so
// that a point's residual, loss term and output gradient need that network
// alone.
func (m *model) fused(rows []int32) bool {
	if len(m.nets) != 1 || len(m.nets[0].Sizes) < 4 {
		return false // one hidden layer: the activations are small, no parts
	}
	for q, r := range rows {
		if int(r) != q {
			return false
		}
	}
	return true
}

// eval sets dst to Σ over the set's pairs of c · N (the model's operator
// rows for the training set, its values for the test set), each network's
// points a batch at a time.
func (m *model) eval(set []pairs, dst []float64) {
	clear(dst)
	nc, dim := m.nc, m.dim
	for g := range set {
		s := &set[g]
		n, part := len(s.rows), s.batch.Cap()
		for p0 := 0; p0 < n; p0 += part {
			p1 := min(n, p0+part)
			var out []float64
			if part == n { // the points SetPoints normalised (pairs)
				out = s.batch.Eval(m.nets[g])
			} else {
				out = s.batch.Forward(m.nets[g], s.pts[p0*dim:p1*dim])
			}
			coef := s.coef[p0*nc : p1*nc]
			if nc == 5 { // combine's 2D case, here so that combine5 is inlined
				for q, row := range s.rows[p0:p1] {
					dst[row] += combine5((*[5]float64)(coef[5*q:]), (*[5]float64)(out[5*q:]))
				}
				continue
			}
			for q, row := range s.rows[p0:p1] {
				dst[row] += combine(coef[q*nc:(q+1)*nc], out[q*nc:(q+1)*nc])
			}
		}
	}
}

// loss returns the training loss at the current parameters, Σ_i w_i e_i²,
// with the lane structure of fp.Sum (lane i mod 8 the chain
// FMA(w_i e_i, e_i, lane)).
func (m *model) loss() float64 {
	m.eval(m.train, m.r)
	var l [fp.Lanes]float64
	for i, v := range m.r {
		e := v - m.rhs[i]
		l[i%fp.Lanes] = math.FMA(m.wt[i]*e, e, l[i%fp.Lanes])
	}
	return fp.Tree(&l)
}

// lossGrad returns the training loss and sets m.grad to its gradient.
func (m *model) lossGrad() float64 {
	if s := &m.train[0]; len(m.train) == 1 && s.batch.Cap() < len(s.rows) {
		return m.lossGradParts()
	}
	l := m.loss()
	for i, v := range m.r {
		m.r[i] = 2 * m.wt[i] * (v - m.rhs[i]) // ∂loss/∂(operator value)
	}
	clear(m.grad)
	nc := m.nc
	for g := range m.train {
		s := &m.train[g]
		if len(s.rows) == 0 {
			continue
		}
		gout := m.gout[:len(s.coef)]
		fp.ScaleRows(gout, s.coef, nc, m.r, s.rows) // rho_row c per pair
		s.batch.Backward(m.nets[g], gout, m.grads[g])
	}
	return l
}

// lossGradParts is lossGrad for a model whose one network runs its
// training points a part at a time (fused): per part, the forward pass,
// the points' residuals, loss terms and output gradients, and the backward
// pass. Every sum over the points keeps its order (the loss's lanes, the
// gradient's chains), so the bits are lossGrad's.
func (m *model) lossGradParts() float64 {
	s := &m.train[0]
	nc := m.nc
	clear(m.r)
	clear(m.grad)
	var l [fp.Lanes]float64
	s.batch.ForwardBackward(m.nets[0], s.pts, m.grads[0], func(p0 int, out, gout []float64) {
		n := len(out) / nc
		for q := range n {
			i := p0 + q // the point's row (fused: rows in order)
			// The pair's share, as eval sums it.
			m.r[i] += combine(s.coef[i*nc:(i+1)*nc], out[q*nc:(q+1)*nc])
			v := m.r[i]
			e := v - m.rhs[i]
			l[i%fp.Lanes] = math.FMA(m.wt[i]*e, e, l[i%fp.Lanes])
			m.r[i] = 2 * m.wt[i] * (v - m.rhs[i])
		}
		fp.ScaleRows(gout, s.coef[p0*nc:(p0+n)*nc], nc, m.r, s.rows[p0:p0+n])
	})
	return fp.Tree(&l)
}

// combine returns the operator row's share of one (point, network) pair,
// Σ_ch c_ch o_ch as the FMA chain over the channels in order from 0.
func combine(c, o []float64) float64 {
	if len(o) == 5 {
		return combine5((*[5]float64)(c), (*[5]float64)(o))
	}
	var v float64
	for ch, oc := range o {
		v = math.FMA(c[ch], oc, v)
	}
	return v
}

// combine5 is combine for the five channels of a 2D problem, written out
// so that it is inlined.
func combine5(c, o *[5]float64) float64 {
	v := math.FMA(c[2], o[2], math.FMA(c[1], o[1], math.FMA(c[0], o[0], 0)))
	return math.FMA(c[4], o[4], math.FMA(c[3], o[3], v))
}

// testError returns e_L1 over the test points at the current parameters.
func (m *model) testError() float64 {
	m.eval(m.test, m.pred)
	return metric.EL1(m.pred, m.exact)
}

// run trains the model with Adam for s.steps full-batch steps. A loss that
// is not finite at the start is an error (the problem's data are); one that
// becomes non-finite later ends the training there: the run keeps the
// history it has, as the reference keeps the minimum over its records, and
// says so in Diverged.
func (m *model) run(s schedule) (*Result, error) {
	adam := nn.NewAdam(len(m.params), &nn.AdamSettings{LR: s.lr})
	res := &Result{Steps: s.steps, Params: len(m.params)}
	record := func(step int) {
		rec := metric.Record{Iter: step, EL1: m.testError()}
		if !s.start.IsZero() {
			rec.T = time.Since(s.start).Seconds()
		}
		res.History = append(res.History, rec)
		res.Loss = append(res.Loss, m.loss())
		if s.progress != nil {
			s.progress(res.History)
		}
	}
	finite := func(l float64) bool { return !math.IsNaN(l) && !math.IsInf(l, 0) }
	record(0)
	if !finite(res.Loss[0]) {
		return nil, fmt.Errorf("train: loss is %v at the initial parameters", res.Loss[0])
	}
	for step := 1; step <= s.steps; step++ {
		l := m.lossGrad()
		if !finite(l) {
			res.Steps, res.Diverged = step-1, true
			break
		}
		adam.Step(m.params, m.grad)
		if step%s.every == 0 || step == s.steps {
			record(step)
		}
	}
	if !finite(res.Loss[len(res.Loss)-1]) {
		res.Diverged = true
	}
	res.Final = res.History[len(res.History)-1].EL1
	res.Best, _ = metric.Best(res.History)
	return res, nil
}

// unitJet returns the jet whose channel ch (in nn's order: V, D1_i, D2_i)
// is 1 and every other 0.
func unitJet(ch, dim int) jet.Jet {
	var u jet.Jet
	setChan(&u, ch, dim, 1)
	return u
}

func setChan(u *jet.Jet, ch, dim int, v float64) {
	switch {
	case ch == 0:
		u.V = v
	case ch <= dim:
		u.D1[ch-1] = v
	default:
		u.D2[ch-1-dim] = v
	}
}

func chanOf(u jet.Jet, ch, dim int) float64 {
	switch {
	case ch == 0:
		return u.V
	case ch <= dim:
		return u.D1[ch-1]
	default:
		return u.D2[ch-1-dim]
	}
}

// dotJet returns Σ_ch c_ch u_ch.
func dotJet(c []float64, u jet.Jet, dim int) float64 {
	var s float64
	for ch, v := range c {
		s = math.FMA(v, chanOf(u, ch, dim), s)
	}
	return s
}

// opCoef returns the channel coefficients of a linear operator, Op(e_ch),
// and an error if Op is not linear (checked on the zero jet and one other).
func opCoef(op func(jet.Jet) float64, dim int) ([]float64, error) {
	nc := nn.Channels(dim)
	c := make([]float64, nc)
	for ch := range nc {
		c[ch] = op(unitJet(ch, dim))
	}
	if z := op(jet.Jet{}); z != 0 {
		return nil, fmt.Errorf("operator is not linear: Op(0) = %v", z)
	}
	var probe jet.Jet
	var mag float64
	for ch := range nc {
		v := math.FMA(0.37, float64(ch), 0.5)
		setChan(&probe, ch, dim, v)
		mag += math.Abs(c[ch] * v)
	}
	if got, want := op(probe), dotJet(c, probe, dim); math.Abs(got-want) > 1e-12*mag {
		return nil, fmt.Errorf("operator is not linear in the jet: Op(u) = %v, Σ Op(e_ch) u_ch = %v", got, want)
	}
	return c, nil
}

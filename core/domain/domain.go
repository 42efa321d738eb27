// Package domain builds the multilevel overlapping decompositions of the
// ELM-FBPINN method and their partition-of-unity windows.
//
// A Decomposition of the box [Lo, Hi] holds L levels; level ℓ is a tensor grid
// of J_ℓ subdomains per dimension with centres on linspace(Lo, Hi, J_ℓ) and
// half-width s = δ/2 · (Hi - Lo)/(J_ℓ - 1), so that the subdomains extend
// outside the box (a level with J = 1 is one subdomain of half-width
// δ/2 · (Hi - Lo) whose window is identically 1). The window of subdomain j is
//
//	ŵ_j(x) = Π_i ((1 + cos(π (x_i - c_ji)/s_i)) / 2)²   for |x_i - c_ji| <= s_i,
//	ŵ_j(x) = 0                                           otherwise,
//
// normalised per level into a partition of unity w_j = ŵ_j / Σ_j' ŵ_j'.
// The package does no I/O.
package domain

import (
	"fmt"
	"math"

	"elmfbpinn/core/fp"
	"elmfbpinn/core/jet"
)

// Subdomain is one rectangular subdomain of one level.
type Subdomain struct {
	Level  int             // index of the level in Decomposition.Levels
	Grid   [jet.MaxDim]int // grid index per dimension within the level
	Centre [jet.MaxDim]float64
	Half   [jet.MaxDim]float64 // half-width per dimension
}

// Level is one level of a decomposition.
type Level struct {
	// J is the number of subdomains per dimension before any are dropped.
	J int
	// grid maps a linear grid index (row-major over dimensions) to the
	// subdomain's index in Decomposition.Subdomains, or -1 if it was dropped.
	grid []int
	// spacing between centres per dimension (0 for J = 1).
	spacing [jet.MaxDim]float64
}

// Decomposition is a multilevel overlapping decomposition of a box.
type Decomposition struct {
	Dim    int
	Lo, Hi [jet.MaxDim]float64
	Delta  float64 // width ratio δ
	Levels []Level
	// Subdomains lists every kept subdomain, level by level, each level in
	// row-major grid order. The position of a subdomain in this slice is its
	// global index, which fixes its block of columns in the system matrix.
	Subdomains []Subdomain
}

// New returns the decomposition of the box [lo, hi] (len(lo) = len(hi) = dim)
// with js[ℓ] subdomains per dimension at level ℓ and width ratio delta.
func New(lo, hi []float64, js []int, delta float64) (*Decomposition, error) {
	dim := len(lo)
	if dim < 1 || dim > jet.MaxDim || len(hi) != dim {
		return nil, fmt.Errorf("domain: dimension %d not supported (want 1..%d with len(lo) = len(hi))", dim, jet.MaxDim)
	}
	if len(js) == 0 {
		return nil, fmt.Errorf("domain: no levels given")
	}
	if !(delta > 0) || math.IsInf(delta, 0) {
		return nil, fmt.Errorf("domain: width ratio delta = %v must be positive", delta)
	}
	d := &Decomposition{Dim: dim, Delta: delta}
	for i := range dim {
		if !(hi[i] > lo[i]) {
			return nil, fmt.Errorf("domain: empty box in dimension %d: [%v, %v]", i, lo[i], hi[i])
		}
		d.Lo[i], d.Hi[i] = lo[i], hi[i]
	}
	for l, j := range js {
		if j < 1 {
			return nil, fmt.Errorf("domain: level %d has J = %d subdomains; J must be at least 1", l, j)
		}
		lev := Level{J: j, grid: make([]int, ipow(j, dim))}
		for i := range dim {
			if j > 1 {
				lev.spacing[i] = (d.Hi[i] - d.Lo[i]) / float64(j-1)
			}
		}
		for lin := range lev.grid {
			var s Subdomain
			s.Level = l
			rem := lin
			for i := dim - 1; i >= 0; i-- {
				s.Grid[i] = rem % j
				rem /= j
			}
			for i := range dim {
				s.Centre[i], s.Half[i] = lev.centre(d, i, s.Grid[i])
			}
			lev.grid[lin] = len(d.Subdomains)
			d.Subdomains = append(d.Subdomains, s)
		}
		d.Levels = append(d.Levels, lev)
	}
	return d, nil
}

// centre returns the centre and half-width of grid index k in dimension i.
func (lev *Level) centre(d *Decomposition, i, k int) (c, s float64) {
	width := d.Hi[i] - d.Lo[i]
	if lev.J == 1 {
		return d.Lo[i] + float64(width/2), float64(d.Delta / 2 * width)
	}
	return math.FMA(float64(k), lev.spacing[i], d.Lo[i]), float64(d.Delta / 2 * lev.spacing[i])
}

// Drop removes every subdomain for which drop(centre) is true, as the
// reference does for the L-shaped domain (subdomains centred in the removed
// quadrant). Global indices are renumbered; windows are then normalised over
// the kept subdomains of each level. It returns the number dropped.
func (d *Decomposition) Drop(drop func(centre []float64) bool) int {
	kept := d.Subdomains[:0]
	n := 0
	newIndex := make([]int, len(d.Subdomains))
	for g, s := range d.Subdomains {
		if drop(s.Centre[:d.Dim]) {
			newIndex[g] = -1
			n++
			continue
		}
		newIndex[g] = len(kept)
		kept = append(kept, s)
	}
	d.Subdomains = kept
	for l := range d.Levels {
		for lin, g := range d.Levels[l].grid {
			if g >= 0 {
				d.Levels[l].grid[lin] = newIndex[g]
			}
		}
	}
	return n
}

// Count returns the number of kept subdomains of each level.
func (d *Decomposition) Count() []int {
	c := make([]int, len(d.Levels))
	for _, s := range d.Subdomains {
		c[s.Level]++
	}
	return c
}

// Contains reports whether x lies in the closed box of subdomain s.
func (s *Subdomain) Contains(x []float64) bool {
	for i := range x {
		if math.Abs(x[i]-s.Centre[i]) > s.Half[i] {
			return false
		}
	}
	return true
}

// EdgeDistance returns the smallest distance, along any dimension, from x
// to a face of the box of a kept subdomain, where the windows lose their
// smoothness (+Inf with no subdomains). Tests keep finite differences away
// from those faces.
func (d *Decomposition) EdgeDistance(x []float64) float64 {
	e := math.Inf(1)
	for _, s := range d.Subdomains {
		for i := range x {
			e = min(e, math.Abs(math.Abs(x[i]-s.Centre[i])-s.Half[i]))
		}
	}
	return e
}

// Normalise maps x to the subdomain's local coordinates (x - c)/s, which lie
// in [-1, 1] on its support.
func (s *Subdomain) Normalise(dst, x []float64) {
	for i := range x {
		dst[i] = (x[i] - s.Centre[i]) / s.Half[i]
	}
}

// Bump returns the unnormalised window factor along one dimension and its
// first and second derivatives at x, for a subdomain with centre c and
// half-width s:
//
//	g = ((1 + cos θ)/2)²,  θ = π (x - c)/s,
//	g' = -(π/2s) (1 + cos θ) sin θ,
//	g'' = (π/s)²/2 · (sin²θ - cos θ - cos²θ),
//
// and zero outside |x - c| <= s.
func Bump(x, c, s float64) (g, g1, g2 float64) {
	if math.Abs(x-c) > s {
		return 0, 0, 0
	}
	k := math.Pi / s
	sin, cos := fp.Sincos(k * (x - c))
	h := (1 + cos) / 2
	g = h * h
	g1 = -k / 2 * (1 + cos) * sin
	g2 = float64(k*k/2) * (float64(sin*sin) - cos - float64(cos*cos))
	return g, g1, g2
}

// RawWindow returns the jet of the unnormalised window ŵ of subdomain s at x.
func (s *Subdomain) RawWindow(x []float64) jet.Jet {
	var w jet.Jet
	var g, g1, g2 [jet.MaxDim]float64
	w.V = 1
	for i := range x {
		g[i], g1[i], g2[i] = Bump(x[i], s.Centre[i], s.Half[i])
		w.V *= g[i]
	}
	for i := range x {
		d1, d2 := g1[i], g2[i]
		for k := range x {
			if k != i {
				d1 *= g[k]
				d2 *= g[k]
			}
		}
		w.D1[i], w.D2[i] = d1, d2
	}
	return w
}

// Membership is the sparse (point, subdomain) structure of a point set:
// for every subdomain g, Points[g] lists (ascending) the indices of the points
// in its closed box and Windows[g] the jets of its normalised window
// w_g = ŵ_g / Σ ŵ over its level, at those points.
type Membership struct {
	Points  [][]int32
	Windows [][]jet.Jet
}

// Pairs returns the number of (point, subdomain) pairs.
func (m *Membership) Pairs() int {
	n := 0
	for _, p := range m.Points {
		n += len(p)
	}
	return n
}

// Windows computes the membership of the points pts ((n, Dim) row-major).
// It returns an error if a point lies in no kept subdomain of some level,
// where the partition of unity is undefined.
func (d *Decomposition) Windows(pts []float64) (*Membership, error) {
	dim := d.Dim
	if len(pts)%dim != 0 {
		panic("domain: len(pts) is not a multiple of the dimension")
	}
	n := len(pts) / dim
	m := &Membership{
		Points:  make([][]int32, len(d.Subdomains)),
		Windows: make([][]jet.Jet, len(d.Subdomains)),
	}
	var (
		cand [jet.MaxDim][]int
		subs []int
		raw  []jet.Jet
	)
	for l := range d.Levels {
		lev := &d.Levels[l]
		for p := range n {
			x := pts[p*dim : (p+1)*dim]
			for i := range dim {
				cand[i] = lev.candidates(d, i, x[i], cand[i][:0])
			}
			subs, raw = subs[:0], raw[:0]
			var sum jet.Jet
			forEachCombination(cand[:dim], lev.J, func(lin int) {
				g := lev.grid[lin]
				if g < 0 {
					return
				}
				w := d.Subdomains[g].RawWindow(x)
				subs = append(subs, g)
				raw = append(raw, w)
				sum = jet.Add(sum, w)
			})
			if len(subs) == 0 {
				return nil, fmt.Errorf("domain: point %v lies in no subdomain of level %d (J = %d)", x, l, lev.J)
			}
			for k, g := range subs {
				var w jet.Jet
				switch {
				case lev.J == 1:
					w = jet.Const(1)
				case sum.V == 0:
					return nil, fmt.Errorf("domain: point %v lies only on window edges at level %d (J = %d); the partition of unity is undefined there", x, l, lev.J)
				default:
					w = jet.Div(raw[k], sum)
				}
				m.Points[g] = append(m.Points[g], int32(p))
				m.Windows[g] = append(m.Windows[g], w)
			}
		}
	}
	return m, nil
}

// candidates appends to buf the grid indices k in dimension i whose closed
// interval |x - c_k| <= s contains x.
func (lev *Level) candidates(d *Decomposition, i int, x float64, buf []int) []int {
	if lev.J == 1 {
		if c, s := lev.centre(d, i, 0); math.Abs(x-c) <= s {
			buf = append(buf, 0)
		}
		return buf
	}
	_, s := lev.centre(d, i, 0)
	h := lev.spacing[i]
	lo := int(math.Floor((x-s-d.Lo[i])/h)) - 1
	hi := int(math.Ceil((x+s-d.Lo[i])/h)) + 1
	lo, hi = max(lo, 0), min(hi, lev.J-1)
	for k := lo; k <= hi; k++ {
		if c, _ := lev.centre(d, i, k); math.Abs(x-c) <= s {
			buf = append(buf, k)
		}
	}
	return buf
}

// forEachCombination calls f with the row-major linear grid index of every
// combination of one candidate per dimension.
func forEachCombination(cand [][]int, j int, f func(lin int)) {
	switch len(cand) {
	case 1:
		for _, a := range cand[0] {
			f(a)
		}
	case 2:
		for _, a := range cand[0] {
			for _, b := range cand[1] {
				f(a*j + b)
			}
		}
	default:
		panic("domain: unsupported dimension")
	}
}

func ipow(b, e int) int {
	r := 1
	for range e {
		r *= b
	}
	return r
}

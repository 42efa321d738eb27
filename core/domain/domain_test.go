package domain_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"elmfbpinn/core/domain"
	"elmfbpinn/core/jet"
)

// Finite-difference settings: central first differences with step 1e-6
// (truncation ~h² f”'/6, round-off ~eps f/h ≈ 2e-10 f) and central second
// differences with step 1e-4 (truncation ~h² f””/12, round-off
// ~eps f/h² ≈ 2e-8 f). The windows here have length scales s >= 0.1, so
// f”” ~ (π/s)⁴ ≲ 1e6 and the second-difference truncation is ≲ 1e-3 of
// f” ~ (π/s)² ~ 1e3: tolerances below are set relative to (π/s)^n.
var (
	fd1 = &fd.Settings{Formula: fd.Central, Step: 1e-6}
	fd2 = &fd.Settings{Formula: fd.Central2nd, Step: 1e-4}
)

func within(got, want, rel, abs float64) bool {
	return math.Abs(got-want) <= abs+rel*math.Abs(want) && !math.IsNaN(got)
}

// bump is an independent transcription of the window factor
// ((1 + cos(π (x - c)/s))/2)² on |x - c| <= s, 0 outside.
func bump(x, c, s float64) float64 {
	if math.Abs(x-c) > s {
		return 0
	}
	h := (1 + math.Cos(math.Pi*(x-c)/s)) / 2
	return h * h
}

func TestBump(t *testing.T) {
	cases := []struct {
		c, s float64
		u    float64 // position in units of s: x = c + u s
	}{
		{0, 1, 0}, {0, 1, 0.3}, {0, 1, -0.7}, {0.3, 0.7, 0.95}, {0.3, 0.7, -0.99},
		{-2, 0.15, 0.5}, {-2, 0.15, -0.2}, {5, 3, 0.999}, {5, 3, -0.9},
	}
	for i, tc := range cases {
		x := tc.c + tc.u*tc.s
		g, g1, g2 := domain.Bump(x, tc.c, tc.s)
		f := func(y float64) float64 { return bump(y, tc.c, tc.s) }
		k := math.Pi / tc.s
		want := [3]float64{bump(x, tc.c, tc.s), fd.Derivative(f, x, fd1), fd.Derivative(f, x, fd2)}
		got := [3]float64{g, g1, g2}
		// Scales of g, g', g'': 1, π/s, (π/s)².
		tol := [3]float64{1e-14, 1e-7 * k, 1e-5 * k * k}
		for n := range 3 {
			if !within(got[n], want[n], 1e-6, tol[n]) {
				t.Errorf("case %d (c=%g s=%g x=%g): derivative %d got %.10g, want %.10g (tol %.3g)",
					i, tc.c, tc.s, x, n, got[n], want[n], tol[n]+1e-6*math.Abs(want[n]))
			}
		}
	}
	// Outside the support everything is exactly zero; at the centre the
	// value is 1 with zero slope.
	for _, x := range []float64{-1.0000001, 1.0000001, 3, -7} {
		if g, g1, g2 := domain.Bump(x, 0, 1); g != 0 || g1 != 0 || g2 != 0 {
			t.Errorf("Bump(%g, 0, 1) = (%g, %g, %g), want (0, 0, 0) outside the support", x, g, g1, g2)
		}
	}
	if g, g1, _ := domain.Bump(0.25, 0.25, 0.5); g != 1 || g1 != 0 {
		t.Errorf("Bump at the centre = (%g, %g), want (1, 0)", g, g1)
	}
	// At the edge the window and its first two derivatives vanish
	// (C² continuity): g = 0 exactly up to sin(π) round-off.
	g, g1, g2 := domain.Bump(1, 0, 1)
	if math.Abs(g) > 1e-30 || math.Abs(g1) > 1e-14 || math.Abs(g2) > 1e-12 {
		t.Errorf("Bump at the edge = (%g, %g, %g), want ~(0, 0, 0)", g, g1, g2)
	}
}

// fdJet returns the finite-difference jet of f at x along each dimension.
func fdJet(f func(x []float64) float64, x []float64) jet.Jet {
	var j jet.Jet
	j.V = f(x)
	y := make([]float64, len(x))
	for i := range x {
		g := func(s float64) float64 {
			copy(y, x)
			y[i] = s
			return f(y)
		}
		j.D1[i] = fd.Derivative(g, x[i], fd1)
		j.D2[i] = fd.Derivative(g, x[i], fd2)
	}
	return j
}

// jetErr returns a description of the first entry of got that differs from
// want by more than rel |want| + a, where a is abs for the value, abs·scale
// for first derivatives and 100·abs·scale² for second derivatives: scale is
// the inverse length scale of the function (derivatives grow like
// scale^order) and the extra factor 100 allows for the larger error of the
// second difference.
func jetErr(got, want jet.Jet, dim int, rel, abs, scale float64) string {
	chk := func(name string, g, w, a float64) string {
		if !within(g, w, rel, a) {
			return fmt.Sprintf("%s: got %.10g, want %.10g (tol %.3g)", name, g, w, a+rel*math.Abs(w))
		}
		return ""
	}
	if s := chk("V", got.V, want.V, abs); s != "" {
		return s
	}
	for i := range dim {
		if s := chk(fmt.Sprintf("D1[%d]", i), got.D1[i], want.D1[i], abs*scale); s != "" {
			return s
		}
		if s := chk(fmt.Sprintf("D2[%d]", i), got.D2[i], want.D2[i], abs*scale*scale*100); s != "" {
			return s
		}
	}
	for i := dim; i < jet.MaxDim; i++ {
		if got.D1[i] != 0 || got.D2[i] != 0 {
			return fmt.Sprintf("derivative along unused dimension %d is non-zero: %+v", i, got)
		}
	}
	return ""
}

func TestRawWindow(t *testing.T) {
	cases := []struct {
		name string
		sub  domain.Subdomain
		x    []float64
	}{
		{"1D centre", domain.Subdomain{Centre: [2]float64{0.5}, Half: [2]float64{0.4}}, []float64{0.5}},
		{"1D off-centre", domain.Subdomain{Centre: [2]float64{0.5}, Half: [2]float64{0.4}}, []float64{0.27}},
		{"1D near edge", domain.Subdomain{Centre: [2]float64{0.5}, Half: [2]float64{0.4}}, []float64{0.899}},
		{"2D", domain.Subdomain{Centre: [2]float64{0.2, 0.7}, Half: [2]float64{0.3, 0.5}}, []float64{0.31, 0.45}},
		{"2D near corner", domain.Subdomain{Centre: [2]float64{0.2, 0.7}, Half: [2]float64{0.3, 0.5}}, []float64{-0.095, 1.19}},
		{"2D anisotropic", domain.Subdomain{Centre: [2]float64{-1, 3}, Half: [2]float64{2, 0.25}}, []float64{0.1, 3.1}},
	}
	for i, tc := range cases {
		dim := len(tc.x)
		sub := tc.sub
		got := sub.RawWindow(tc.x)
		f := func(x []float64) float64 {
			w := 1.0
			for k := range x {
				w *= bump(x[k], sub.Centre[k], sub.Half[k])
			}
			return w
		}
		want := fdJet(f, tc.x)
		scale := 0.0
		for k := range dim {
			scale = max(scale, math.Pi/sub.Half[k])
		}
		if s := jetErr(got, want, dim, 1e-6, 1e-7, scale); s != "" {
			t.Errorf("case %d (%s): %s", i, tc.name, s)
		}
	}
	// Outside the box the raw window is the zero jet.
	sub := domain.Subdomain{Centre: [2]float64{0, 0}, Half: [2]float64{1, 1}}
	if w := sub.RawWindow([]float64{0.5, 1.5}); w != (jet.Jet{}) {
		t.Errorf("RawWindow outside the box = %+v, want the zero jet", w)
	}
}

// randomPoints returns n points uniform in [lo, hi] (row-major).
func randomPoints(rng *rand.Rand, n int, lo, hi []float64) []float64 {
	dim := len(lo)
	pts := make([]float64, n*dim)
	for p := range n {
		for i := range dim {
			pts[p*dim+i] = lo[i] + (hi[i]-lo[i])*rng.Float64()
		}
	}
	return pts
}

func unitBox(dim int) (lo, hi []float64) {
	lo, hi = make([]float64, dim), make([]float64, dim)
	for i := range hi {
		hi[i] = 1
	}
	return lo, hi
}

// TestPartitionOfUnity checks that per level the normalised windows sum to
// one and their derivatives to zero at random points of [0,1]^d.
func TestPartitionOfUnity(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	levels := [][]int{{1}, {2}, {5}, {20}, {1, 4, 8}}
	for _, dim := range []int{1, 2} {
		for _, js := range levels {
			lo, hi := unitBox(dim)
			d, err := domain.New(lo, hi, js, 2.9)
			if err != nil {
				t.Fatalf("dim %d J=%v: New: %v", dim, js, err)
			}
			n := 200
			pts := randomPoints(rng, n, lo, hi)
			// Include the corners and edges of the box.
			pts = append(pts, make([]float64, dim)...)
			pts = append(pts, hi...)
			m, err := d.Windows(pts)
			if err != nil {
				t.Fatalf("dim %d J=%v: Windows: %v", dim, js, err)
			}
			np := len(pts) / dim
			sums := make([][]jet.Jet, len(js)) // [level][point]
			for l := range sums {
				sums[l] = make([]jet.Jet, np)
			}
			for g, ps := range m.Points {
				l := d.Subdomains[g].Level
				for k, p := range ps {
					sums[l][p] = jet.Add(sums[l][p], m.Windows[g][k])
				}
			}
			for l := range sums {
				// Derivatives of individual windows are of order
				// (π/s)^n, s = 1.45/(J-1); the sums cancel to round-off.
				k := math.Pi / (1.45 / float64(max(js[l]-1, 1)))
				for p, s := range sums[l] {
					bad := math.Abs(s.V-1) > 1e-12
					for i := range dim {
						bad = bad || math.Abs(s.D1[i]) > 1e-12*k || math.Abs(s.D2[i]) > 1e-11*k*k
					}
					if bad {
						t.Errorf("dim %d J=%v level %d point %v: window sum %+v, want value 1 and zero derivatives",
							dim, js, l, pts[p*dim:(p+1)*dim], s)
					}
				}
			}
		}
	}
}

// normalisedByHand recomputes w_g(x) = ŵ_g(x) / Σ_{g' in level} ŵ_g'(x) from
// the subdomain boxes with the independent bump.
func normalisedByHand(d *domain.Decomposition, g int, x []float64) float64 {
	raw := func(s *domain.Subdomain) float64 {
		w := 1.0
		for i := range x {
			w *= bump(x[i], s.Centre[i], s.Half[i])
		}
		return w
	}
	me := &d.Subdomains[g]
	var sum float64
	for k := range d.Subdomains {
		if d.Subdomains[k].Level == me.Level {
			sum += raw(&d.Subdomains[k])
		}
	}
	return raw(me) / sum
}

// TestNormalisedWindowJets compares every normalised window jet with finite
// differences of the hand-normalised window, at interior points and at
// points on or near the boundary of the domain.
func TestNormalisedWindowJets(t *testing.T) {
	cases := []struct {
		name   string
		lo, hi []float64
		js     []int
		delta  float64
		pts    []float64
	}{
		{"1D J=5", []float64{0}, []float64{1}, []int{5}, 2.9,
			[]float64{0, 1e-3, 0.137, 0.5, 0.61, 0.9995, 1}},
		{"1D multilevel", []float64{0}, []float64{1}, []int{1, 3, 7}, 2.9,
			[]float64{0, 0.01, 0.42, 0.77, 0.999, 1}},
		{"1D shifted box, delta 1.7", []float64{-2}, []float64{3}, []int{6}, 1.7,
			[]float64{-2, -1.99, 0.3, 2.8, 3}},
		{"2D J=4", []float64{0, 0}, []float64{1, 1}, []int{4}, 2.9,
			[]float64{0.3, 0.6, 0, 0.5, 1e-3, 0.999, 1, 1, 0.72, 0.05}},
		{"2D multilevel", []float64{0, 0}, []float64{1, 1}, []int{1, 2, 5}, 2.9,
			[]float64{0.13, 0.88, 0, 0, 0.5, 0.9999, 0.41, 0.27}},
		{"2D rectangle", []float64{-1, 2}, []float64{3, 2.5}, []int{3}, 2.2,
			[]float64{0.5, 2.2, -1, 2.5, 2.99, 2.01}},
	}
	for ci, tc := range cases {
		d, err := domain.New(tc.lo, tc.hi, tc.js, tc.delta)
		if err != nil {
			t.Fatalf("case %d (%s): New: %v", ci, tc.name, err)
		}
		dim := d.Dim
		m, err := d.Windows(tc.pts)
		if err != nil {
			t.Fatalf("case %d (%s): Windows: %v", ci, tc.name, err)
		}
		checked := 0
		for g, ps := range m.Points {
			sub := &d.Subdomains[g]
			scale := 0.0
			for i := range dim {
				scale = max(scale, math.Pi/sub.Half[i])
			}
			for k, p := range ps {
				x := tc.pts[int(p)*dim : (int(p)+1)*dim]
				want := fdJet(func(y []float64) float64 { return normalisedByHand(d, g, y) }, x)
				if s := jetErr(m.Windows[g][k], want, dim, 1e-5, 1e-8, scale); s != "" {
					t.Errorf("case %d (%s): subdomain %d (level %d, grid %v) at x=%v: %s",
						ci, tc.name, g, sub.Level, sub.Grid[:dim], x, s)
				}
				checked++
			}
		}
		if checked == 0 {
			t.Errorf("case %d (%s): no (point, subdomain) pairs checked", ci, tc.name)
		}
	}
}

// TestGeometry checks centres and half-widths against the rule
// c_k = lo + k (hi - lo)/(J - 1), s = δ/2 (hi - lo)/(J - 1), and the
// level-by-level, row-major ordering.
func TestGeometry(t *testing.T) {
	lo, hi := []float64{-1, 2}, []float64{3, 2.5}
	js := []int{1, 3, 4}
	delta := 2.9
	d, err := domain.New(lo, hi, js, delta)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + 9 + 16; len(d.Subdomains) != want {
		t.Fatalf("got %d subdomains, want %d", len(d.Subdomains), want)
	}
	g := 0
	for l, j := range js {
		for a := range j {
			for b := range j {
				s := d.Subdomains[g]
				grid := [2]int{a, b}
				if s.Level != l || s.Grid != grid {
					t.Errorf("subdomain %d: level %d grid %v, want level %d grid %v", g, s.Level, s.Grid, l, grid)
				}
				for i := range 2 {
					w := hi[i] - lo[i]
					var c, h float64
					if j == 1 {
						c, h = lo[i]+w/2, delta/2*w
					} else {
						c, h = lo[i]+float64(grid[i])*w/float64(j-1), delta/2*w/float64(j-1)
					}
					if !within(s.Centre[i], c, 1e-14, 1e-14) || !within(s.Half[i], h, 1e-14, 0) {
						t.Errorf("subdomain %d dim %d: centre %g half %g, want %g and %g", g, i, s.Centre[i], s.Half[i], c, h)
					}
				}
				g++
			}
		}
	}
	// Normalise maps the box edges to ±1.
	s := d.Subdomains[5]
	dst := make([]float64, 2)
	s.Normalise(dst, []float64{s.Centre[0] + s.Half[0], s.Centre[1] - s.Half[1]})
	if !within(dst[0], 1, 1e-14, 0) || !within(dst[1], -1, 1e-14, 0) {
		t.Errorf("Normalise of the box corner = %v, want [1 -1]", dst)
	}
}

// TestMembership checks that a point is listed for subdomain g iff it lies
// in the closed box of g, by brute force over all subdomains, including
// points placed exactly on box edges.
func TestMembership(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		dim int
		js  []int
	}{{1, []int{7}}, {1, []int{1, 4, 9}}, {2, []int{5}}, {2, []int{1, 3, 6}}, {2, []int{20}}} {
		lo, hi := unitBox(tc.dim)
		d, err := domain.New(lo, hi, tc.js, 2.9)
		if err != nil {
			t.Fatal(err)
		}
		pts := randomPoints(rng, 150, lo, hi)
		// Points exactly on subdomain box edges (clipped to the unit box
		// in the other coordinate).
		for g := 0; g < len(d.Subdomains); g += 3 {
			s := &d.Subdomains[g]
			for _, sign := range []float64{-1, 1} {
				e := s.Centre[0] + sign*s.Half[0]
				if e < 0 || e > 1 {
					continue
				}
				pts = append(pts, e)
				if tc.dim == 2 {
					pts = append(pts, rng.Float64())
				}
			}
		}
		m, err := d.Windows(pts)
		if err != nil {
			t.Fatalf("dim %d J=%v: Windows: %v", tc.dim, tc.js, err)
		}
		np := len(pts) / tc.dim
		if len(m.Points) != len(d.Subdomains) || len(m.Windows) != len(d.Subdomains) {
			t.Fatalf("dim %d J=%v: membership has %d/%d lists, want %d", tc.dim, tc.js, len(m.Points), len(m.Windows), len(d.Subdomains))
		}
		pairs := 0
		for g := range d.Subdomains {
			s := &d.Subdomains[g]
			var want []int32
			for p := range np {
				x := pts[p*tc.dim : (p+1)*tc.dim]
				in := true
				for i := range tc.dim {
					in = in && math.Abs(x[i]-s.Centre[i]) <= s.Half[i]
				}
				if in != s.Contains(x) {
					t.Errorf("Contains(%v) for subdomain %d = %v, want %v", x, g, s.Contains(x), in)
				}
				if in {
					want = append(want, int32(p))
				}
			}
			pairs += len(want)
			if fmt.Sprint(m.Points[g]) != fmt.Sprint(want) {
				t.Errorf("dim %d J=%v subdomain %d (level %d grid %v): points %v, want %v",
					tc.dim, tc.js, g, s.Level, s.Grid[:tc.dim], m.Points[g], want)
			}
			if len(m.Windows[g]) != len(m.Points[g]) {
				t.Errorf("subdomain %d: %d windows for %d points", g, len(m.Windows[g]), len(m.Points[g]))
			}
		}
		if m.Pairs() != pairs {
			t.Errorf("dim %d J=%v: Pairs() = %d, want %d", tc.dim, tc.js, m.Pairs(), pairs)
		}
	}
}

func TestSingleSubdomainLevel(t *testing.T) {
	for _, dim := range []int{1, 2} {
		lo, hi := unitBox(dim)
		d, err := domain.New(lo, hi, []int{1}, 2.9)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Subdomains) != 1 {
			t.Fatalf("dim %d: %d subdomains, want 1", dim, len(d.Subdomains))
		}
		s := d.Subdomains[0]
		for i := range dim {
			if s.Centre[i] != 0.5 || !within(s.Half[i], 1.45, 1e-15, 0) {
				t.Errorf("dim %d: centre %v half %v, want 0.5 and δ/2 = 1.45", dim, s.Centre, s.Half)
			}
		}
		pts := randomPoints(rand.New(rand.NewPCG(5, 6)), 20, lo, hi)
		pts = append(pts, lo...)
		pts = append(pts, hi...)
		m, err := d.Windows(pts)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Points[0]) != len(pts)/dim {
			t.Errorf("dim %d: %d points in the single subdomain, want %d", dim, len(m.Points[0]), len(pts)/dim)
		}
		for k, w := range m.Windows[0] {
			if w != jet.Const(1) {
				t.Errorf("dim %d point %d: window %+v, want exactly Const(1)", dim, k, w)
			}
		}
	}
}

func TestNewErrors(t *testing.T) {
	cases := []struct {
		name   string
		lo, hi []float64
		js     []int
		delta  float64
	}{
		{"J=0", []float64{0}, []float64{1}, []int{0}, 2.9},
		{"J<0 in a later level", []float64{0, 0}, []float64{1, 1}, []int{1, 4, -2}, 2.9},
		{"J=0 multilevel", []float64{0}, []float64{1}, []int{1, 0, 4}, 2.9},
		{"no levels", []float64{0}, []float64{1}, nil, 2.9},
		{"delta=0", []float64{0}, []float64{1}, []int{4}, 0},
		{"delta<0", []float64{0}, []float64{1}, []int{4}, -1},
		{"delta NaN", []float64{0}, []float64{1}, []int{4}, math.NaN()},
		{"delta Inf", []float64{0}, []float64{1}, []int{4}, math.Inf(1)},
		{"empty box", []float64{0}, []float64{0}, []int{4}, 2.9},
		{"inverted box dim 1", []float64{0, 1}, []float64{1, 0.5}, []int{4}, 2.9},
		{"dim 0", nil, nil, []int{4}, 2.9},
		{"dim 3", []float64{0, 0, 0}, []float64{1, 1, 1}, []int{4}, 2.9},
		{"len(lo) != len(hi)", []float64{0, 0}, []float64{1}, []int{4}, 2.9},
	}
	for i, tc := range cases {
		if d, err := domain.New(tc.lo, tc.hi, tc.js, tc.delta); err == nil {
			t.Errorf("case %d (%s): got a decomposition with %d subdomains, want an error", i, tc.name, len(d.Subdomains))
		}
	}
}

func TestWindowsErrorOutsideCover(t *testing.T) {
	d, err := domain.New([]float64{0}, []float64{1}, []int{5}, 2.9)
	if err != nil {
		t.Fatal(err)
	}
	// Subdomains reach to 1 + 0.3625; 2 is outside all of them.
	if _, err := d.Windows([]float64{0.5, 2}); err == nil {
		t.Errorf("Windows at a point outside every subdomain: got no error, want one")
	}
}

// lShape is the L-shape rule: drop subdomains centred in the removed
// quadrant x > 0.5, y > 0.5.
func lShape(c []float64) bool { return c[0] > 0.5 && c[1] > 0.5 }

func TestDropLShape(t *testing.T) {
	cases := []struct {
		js        []int
		wantCount []int
		wantDrop  int
	}{
		// J=16: centres k/15 > 0.5 for k = 8..15, so 8² = 64 are dropped.
		{[]int{16}, []int{192}, 64},
		// J=1: the centre 0.5 is not > 0.5; J=8: k/7 > 0.5 for k = 4..7.
		{[]int{1, 8, 16}, []int{1, 48, 192}, 0 + 16 + 64},
	}
	for i, tc := range cases {
		d, err := domain.New([]float64{0, 0}, []float64{1, 1}, tc.js, 2.9)
		if err != nil {
			t.Fatal(err)
		}
		if n := d.Drop(lShape); n != tc.wantDrop {
			t.Errorf("case %d (J=%v): Drop returned %d, want %d", i, tc.js, n, tc.wantDrop)
		}
		if got := d.Count(); fmt.Sprint(got) != fmt.Sprint(tc.wantCount) {
			t.Errorf("case %d (J=%v): Count() = %v, want %v", i, tc.js, got, tc.wantCount)
		}
		for g, s := range d.Subdomains {
			if lShape(s.Centre[:2]) {
				t.Errorf("case %d: kept subdomain %d centred at %v in the removed quadrant", i, g, s.Centre)
			}
		}
		// Points of the L: membership after Drop refers to kept
		// subdomains only and each level still sums to one.
		rng := rand.New(rand.NewPCG(7, 8))
		var pts []float64
		for len(pts) < 2*300 {
			x, y := rng.Float64(), rng.Float64()
			if !lShape([]float64{x, y}) {
				pts = append(pts, x, y)
			}
		}
		m, err := d.Windows(pts)
		if err != nil {
			t.Fatalf("case %d: Windows on the L: %v", i, err)
		}
		np := len(pts) / 2
		sums := make([][]float64, len(tc.js))
		for l := range sums {
			sums[l] = make([]float64, np)
		}
		for g, ps := range m.Points {
			s := &d.Subdomains[g]
			for k, p := range ps {
				x := pts[2*p : 2*p+2]
				if !s.Contains(x) {
					t.Errorf("case %d: point %v listed for subdomain %d whose box does not contain it", i, x, g)
				}
				sums[s.Level][p] += m.Windows[g][k].V
			}
		}
		for l := range sums {
			for p, s := range sums[l] {
				if math.Abs(s-1) > 1e-12 {
					t.Errorf("case %d level %d point %v: window sum %.15g, want 1", i, l, pts[2*p:2*p+2], s)
				}
			}
		}
	}
}

// TestEdgeDistance checks the distance to the nearest subdomain face on a
// 1D level of three subdomains of half-width δ/2 · 0.5 = 0.725 centred at 0,
// 0.5 and 1 (faces at -0.725, 0.725, -0.225, 1.225, 0.275, 1.725) and on a
// 2D one, where the nearest face may lie along either dimension.
func TestEdgeDistance(t *testing.T) {
	d1, err := domain.New([]float64{0}, []float64{1}, []int{3}, 2.9)
	if err != nil {
		t.Fatal(err)
	}
	d2, err := domain.New([]float64{0, 0}, []float64{1, 1}, []int{3}, 2.9)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		d    *domain.Decomposition
		x    []float64
		want float64
	}{
		{d1, []float64{0.5}, 0.225},
		{d1, []float64{0.275}, 0},
		{d1, []float64{0.9}, 0.175},
		{d2, []float64{0.5, 0.27}, 0.005},
		{d2, []float64{0.3, 0.5}, 0.025},
	}
	for i, tc := range cases {
		if got := tc.d.EdgeDistance(tc.x); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("case %d: EdgeDistance(%v) = %.17g, want %g", i, tc.x, got, tc.want)
		}
	}
}

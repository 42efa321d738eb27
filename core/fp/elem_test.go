package fp

import (
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// The reference values are computed with math/big at prec bits: Taylor
// series after argument reduction, independent of the code under test.
const prec = 320

func bf(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }

// bigPi returns π to prec bits by Machin's formula
// π = 16 atan(1/5) - 4 atan(1/239).
var bigPi = func() *big.Float {
	atanInv := func(q int64) *big.Float {
		// atan(1/q) = Σ (-1)^n / ((2n+1) q^(2n+1))
		sum := bf(0)
		pow := new(big.Float).SetPrec(prec).Quo(bf(1), bf(float64(q))) // 1/q^(2n+1)
		q2 := bf(float64(q * q))
		eps := new(big.Float).SetPrec(prec).SetMantExp(bf(1), -prec-10)
		for n := int64(0); ; n++ {
			term := new(big.Float).SetPrec(prec).Quo(pow, bf(float64(2*n+1)))
			if n%2 == 0 {
				sum.Add(sum, term)
			} else {
				sum.Sub(sum, term)
			}
			if term.Cmp(eps) < 0 {
				return sum
			}
			pow.Quo(pow, q2)
		}
	}
	a := atanInv(5)
	a.Mul(a, bf(16))
	b := atanInv(239)
	b.Mul(b, bf(4))
	return a.Sub(a, b)
}()

// bigExpm1Small returns e^y - 1 by its Taylor series, for |y| ≤ 1.
func bigExpm1Small(y *big.Float) *big.Float {
	sum := bf(0)
	term := new(big.Float).SetPrec(prec).Set(y)
	eps := new(big.Float).SetPrec(prec).SetMantExp(bf(1), -prec-10)
	for n := 2; ; n++ {
		sum.Add(sum, term)
		term.Mul(term, y)
		term.Quo(term, bf(float64(n)))
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			return sum
		}
	}
}

// bigExp returns e^x: e^(x/2^s) by Taylor, then squared s times.
func bigExp(x float64) *big.Float {
	s := 0
	for a := math.Abs(x); a > 1.0/1024; a /= 2 {
		s++
	}
	y := new(big.Float).SetPrec(prec).SetMantExp(bf(x), -s)
	e := bigExpm1Small(y)
	e.Add(e, bf(1))
	for range s {
		e.Mul(e, e)
	}
	return e
}

// bigTanh returns tanh x = expm1(2x)/(expm1(2x) + 2), with expm1 by Taylor
// for |2x| ≤ 1 (no cancellation) and from bigExp otherwise.
func bigTanh(x float64) *big.Float {
	var em *big.Float
	if math.Abs(2*x) <= 1 {
		em = bigExpm1Small(bf(2 * x))
	} else {
		em = bigExp(2 * x)
		em.Sub(em, bf(1))
	}
	d := new(big.Float).SetPrec(prec).Add(em, bf(2))
	return em.Quo(em, d)
}

// bigSinCos returns sin x and cos x: x = n π/2 + r with the high-precision
// π, then Taylor series of r.
func bigSinCos(x float64) (sin, cos *big.Float) {
	halfPi := new(big.Float).SetPrec(prec).Quo(bigPi, bf(2))
	q := new(big.Float).SetPrec(prec).Quo(bf(x), halfPi)
	nf, _ := q.Float64()
	n := math.RoundToEven(nf)
	r := new(big.Float).SetPrec(prec).Mul(bf(n), halfPi)
	r.Sub(bf(x), r)
	s, c := bf(0), bf(0)
	term := bf(1) // r^k / k!
	eps := new(big.Float).SetPrec(prec).SetMantExp(bf(1), -prec-10)
	for k := 0; ; k++ {
		switch k % 4 {
		case 0:
			c.Add(c, term)
		case 1:
			s.Add(s, term)
		case 2:
			c.Sub(c, term)
		case 3:
			s.Sub(s, term)
		}
		term.Mul(term, r)
		term.Quo(term, bf(float64(k+1)))
		if k > 2 && new(big.Float).Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	switch int64(math.Mod(n, 4)+4) % 4 {
	case 0:
		return s, c
	case 1:
		return c, s.Neg(s)
	case 2:
		return s.Neg(s), c.Neg(c)
	default:
		return c.Neg(c), s
	}
}

// ulpErr returns |got - want| in units of the last place of want rounded to
// float64 (for normal results).
func ulpErr(got float64, want *big.Float) float64 {
	w, _ := want.Float64()
	if w == 0 {
		if got == 0 {
			return 0
		}
		return math.Inf(1)
	}
	exp := math.Ilogb(w)
	if exp < -1022 {
		exp = -1022
	}
	ulp := math.Ldexp(1, exp-52)
	d := new(big.Float).SetPrec(prec).Sub(bf(got), want)
	df, _ := d.Float64()
	return math.Abs(df) / ulp
}

// points returns how many random points each function is checked on:
// FP_POINTS if set (the full measurement uses 1000000), else n.
func points(t *testing.T, n int) int {
	if s := os.Getenv("FP_POINTS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v <= 0 {
			t.Fatalf("FP_POINTS=%q: want a positive integer", s)
		}
		return v
	}
	if testing.Short() {
		return n / 10
	}
	return n
}

// TestAccuracy checks each function against the math/big reference on
// random points of its domain (uniform on the ranges that matter, and
// log-uniform magnitudes) and on hand-picked hard points; every result must
// be within its function's bound: 1 ulp (faithful) for Exp, Sin and Cos,
// 3 ulp for Tanh (see its doc).
func TestAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	uniform := func(lo, hi float64) func() float64 {
		return func() float64 { return lo + (hi-lo)*rng.Float64() }
	}
	logUniform := func(e0, e1 float64) func() float64 {
		return func() float64 {
			v := math.Exp2(e0 + (e1-e0)*rng.Float64())
			if rng.IntN(2) == 0 {
				v = -v
			}
			return v
		}
	}
	nearPio2 := func() float64 {
		// the double nearest to n π/2, where r is smallest
		n := float64(rng.IntN(1 << 20))
		return n * (math.Pi / 2)
	}
	type gen struct {
		name string
		f    func() float64
	}
	cases := []struct {
		name   string
		fn     func(float64) float64
		ref    func(float64) *big.Float
		maxUlp float64
		gens   []gen
		hard   []float64
	}{
		{"Exp", Exp, bigExp, 1,
			[]gen{{"[-1,1]", uniform(-1, 1)}, {"[-708,709]", uniform(-708, 709.7)}, {"log-uniform", logUniform(-40, 9.4)}},
			[]float64{0, 1, -1, 0.5 * math.Ln2, -0.5 * math.Ln2, 709.78, -708.39, 1e-300, -1e-300}},
		{"Tanh", Tanh, bigTanh, 3,
			[]gen{{"[-1,1]", uniform(-1, 1)}, {"[-0.25,0.25]", uniform(-0.25, 0.25)}, {"[-25,25]", uniform(-25, 25)}, {"log-uniform", logUniform(-40, 5)}},
			[]float64{0.5 * math.Ln2 / 2, 1.5 * math.Ln2 / 2, 0.0593149830576743, 19, 19.1, 20, 22, 1e-300, 5e-324, 0.5, 1, 2}},
		{"Sin", Sin, func(x float64) *big.Float { s, _ := bigSinCos(x); return s }, 1,
			[]gen{{"[-4,4]", uniform(-4, 4)}, {"[-1000,1000]", uniform(-1000, 1000)}, {"|x|<=2^20", uniform(-(1 << 20), 1<<20)}, {"log-uniform", logUniform(-30, 20)}, {"near n pi/2", nearPio2}},
			[]float64{math.Pi / 4, math.Pi / 2, math.Pi, 3 * math.Pi / 4, 1e-300, 355, 103993}},
		{"Cos", Cos, func(x float64) *big.Float { _, c := bigSinCos(x); return c }, 1,
			[]gen{{"[-4,4]", uniform(-4, 4)}, {"[-1000,1000]", uniform(-1000, 1000)}, {"|x|<=2^20", uniform(-(1 << 20), 1<<20)}, {"log-uniform", logUniform(-30, 20)}, {"near n pi/2", nearPio2}},
			[]float64{math.Pi / 4, math.Pi / 2, math.Pi, 3 * math.Pi / 4, 1e-300, 355, 103993}},
	}
	n := points(t, 4000)
	for _, tc := range cases {
		worst, worstX := 0.0, 0.0
		check := func(x float64) {
			got := tc.fn(x)
			if e := ulpErr(got, tc.ref(x)); e > worst || e != e {
				worst, worstX = e, x
			}
		}
		for _, x := range tc.hard {
			check(x)
		}
		for _, g := range tc.gens {
			for range n / len(tc.gens) {
				check(g.f())
			}
		}
		t.Logf("%s: max error %.3f ulp at x = %v (%d points)", tc.name, worst, worstX, n+len(tc.hard))
		if !(worst <= tc.maxUlp) {
			t.Errorf("%s: error %.3f ulp at x = %v, want <= %g", tc.name, worst, worstX, tc.maxUlp)
		}
	}
}

// TestSpecial checks special values, symmetries and that Sincos returns the
// bits of Sin and Cos.
func TestSpecial(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || (a != a && b != b) }
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"Exp(0)", Exp(0), 1},
		{"Exp(+Inf)", Exp(inf), inf},
		{"Exp(-Inf)", Exp(-inf), 0},
		{"Exp(NaN)", Exp(nan), nan},
		{"Exp(710)", Exp(710), inf},
		{"Exp(-746)", Exp(-746), 0},
		{"Exp(expMax) finite", math.Min(Exp(expMax), 0), 0},
		{"Tanh(0)", Tanh(0), 0},
		{"Tanh(-0)", Tanh(math.Copysign(0, -1)), math.Copysign(0, -1)},
		{"Tanh(+Inf)", Tanh(inf), 1},
		{"Tanh(-Inf)", Tanh(-inf), -1},
		{"Tanh(NaN)", Tanh(nan), nan},
		{"Tanh(30)", Tanh(30), 1},
		{"Sin(0)", Sin(0), 0},
		{"Sin(-0)", Sin(math.Copysign(0, -1)), math.Copysign(0, -1)},
		{"Cos(0)", Cos(0), 1},
		{"Sin(Inf)", Sin(inf), nan},
		{"Cos(NaN)", Cos(nan), nan},
		{"Sin(2^29)", Sin(1 << 29), nan},
	} {
		if !same(tc.got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	if e := Exp(expMax); math.IsInf(e, 0) {
		t.Errorf("Exp(%v) = %v, want finite", expMax, e)
	}
	if e := Exp(-745.0); !(e > 0) {
		t.Errorf("Exp(-745) = %v, want a positive subnormal", e)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		x := (2*rng.Float64() - 1) * math.Exp2(float64(rng.IntN(40)-20))
		if a, b := Tanh(-x), -Tanh(x); !same(a, b) {
			t.Fatalf("Tanh(-%v) = %v, -Tanh(%v) = %v: want odd", x, a, x, b)
		}
		if a, b := Sin(-x), -Sin(x); !same(a, b) {
			t.Fatalf("Sin(-%v) = %v, -Sin(%v) = %v: want odd", x, a, x, b)
		}
		if a, b := Cos(-x), Cos(x); !same(a, b) {
			t.Fatalf("Cos(-%v) = %v, Cos(%v) = %v: want even", x, a, x, b)
		}
		s, c := Sincos(x)
		if !same(s, Sin(x)) || !same(c, Cos(x)) {
			t.Fatalf("Sincos(%v) = %v, %v; Sin, Cos = %v, %v: want the same bits", x, s, c, Sin(x), Cos(x))
		}
	}
	// Monotonicity of Exp on fine grids across points where its reduction
	// x = k ln 2 + r changes k (±ln 2 / 2) and elsewhere.
	for _, x0 := range []float64{0.125, -0.125, 22, 0.5 * math.Ln2, -0.5 * math.Ln2, 1} {
		x := x0 - 200*math.Abs(x0)*0x1p-52
		prev := Exp(x)
		for range 400 {
			x = math.Nextafter(x, inf)
			if e := Exp(x); e < prev {
				t.Fatalf("Exp not monotone near %v: %v -> %v at %v", x0, prev, e, x)
			} else {
				prev = e
			}
		}
	}
	// Tanh, which is within 3 ulp but not faithful, need not be monotone
	// ulp by ulp: on fine grids across the points where its reduction
	// y = 2|x| = k ln 2 + r changes k (|x| = (k + 1/2) ln 2 / 2) and where it
	// reaches 1, it keeps its bound.
	for _, x0 := range []float64{0.25 * math.Ln2, 0.75 * math.Ln2, -0.75 * math.Ln2, 1.25 * math.Ln2, 19.06, 20} {
		x := x0 - 200*math.Abs(x0)*0x1p-52
		for range 400 {
			x = math.Nextafter(x, inf)
			if e := ulpErr(Tanh(x), bigTanh(x)); !(e <= 3) {
				t.Fatalf("Tanh(%v) = %v: error %.3f ulp, want <= 3", x, Tanh(x), e)
			}
		}
	}
}

// TestAgainstMath compares with package math, which is accurate to about
// 1 ulp, on many cheap points: a second, independent sanity check.
func TestAgainstMath(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		name   string
		fn, mf func(float64) float64
		lo, hi float64
	}{
		{"Exp", Exp, math.Exp, -700, 700},
		{"Tanh", Tanh, math.Tanh, -20, 20},
		{"Sin", Sin, math.Sin, -1e4, 1e4},
		{"Cos", Cos, math.Cos, -1e4, 1e4},
	} {
		for range 200000 {
			x := tc.lo + (tc.hi-tc.lo)*rng.Float64()
			got, want := tc.fn(x), tc.mf(x)
			ulp := math.Abs(math.Nextafter(want, math.Inf(1)) - want)
			if d := math.Abs(got-want) / ulp; d > 2 {
				t.Fatalf("%s(%v) = %v, math: %v (%.1f ulp apart, want <= 2)", tc.name, x, got, want, d)
			}
		}
	}
}

var sink float64

func benchmark(b *testing.B, f func(float64) float64, lo, hi float64) {
	xs := make([]float64, 1024)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range xs {
		xs[i] = lo + (hi-lo)*rng.Float64()
	}
	b.ResetTimer()
	var s float64
	for i := 0; b.Loop(); i++ {
		s += f(xs[i&1023])
	}
	sink = s
}

func BenchmarkExp(b *testing.B)      { benchmark(b, Exp, -10, 10) }
func BenchmarkMathExp(b *testing.B)  { benchmark(b, math.Exp, -10, 10) }
func BenchmarkTanh(b *testing.B)     { benchmark(b, Tanh, -4, 4) }
func BenchmarkMathTanh(b *testing.B) { benchmark(b, math.Tanh, -4, 4) }
func BenchmarkSin(b *testing.B)      { benchmark(b, Sin, -100, 100) }
func BenchmarkMathSin(b *testing.B)  { benchmark(b, math.Sin, -100, 100) }

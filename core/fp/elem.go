package fp

import "math"

// The elementary functions below are straight-line sequences of IEEE
// operations on one float64 (special cases are selected at the end), so that
// a vector kernel can evaluate them lane by lane with the same bits. Their
// polynomial coefficients are Taylor coefficients, written as exact rational
// constant expressions that the Go compiler rounds once to float64; the
// splittings of ln 2 and π/2 into parts with trailing zeros were computed
// with exact rational arithmetic. Measured errors are in elem_test.go's
// TestAccuracy (FP_POINTS=1000000 for the full measurement).

const (
	magic = 0x1.8p52 // adding and subtracting it rounds to an integer (|v| < 2^51)

	invLn2 = 0x1.71547652b82fep+0   // 1/ln 2
	ln2Hi  = 0x1.62e42ff000000p-1   // ln 2 to 32 bits: k ln2Hi is exact for |k| < 2^21
	ln2Lo  = -0x1.718432a1b0e26p-35 // ln 2 - ln2Hi

	expMax = 0x1.62e42fefa39efp+9  // largest x with a finite exp(x), 709.78...
	expMin = -0x1.74910d52d3051p+9 // below this exp(x) rounds to 0, -745.13...
)

// expDD returns exp(x) = (hi + lo) 2^k for |x| ≤ 746, with hi + lo in
// [0.70, 1.42] accurate to about 2^-58 relative (hi is 1 + r + r²/2 rounded,
// lo collects the rest). The reduction is x = k ln 2 + r, |r| ≤ ln 2 / 2,
// with r = rHi + rLo exact to 2^-75; the series is Taylor's to degree 14,
// whose truncation error is below 2^-66.
func expDD(x float64) (hi, lo float64, k int) {
	kf := float64(x*invLn2) + magic
	kf -= magic
	rHi := math.FMA(-kf, ln2Hi, x) // exact
	rLo := float64(-kf * ln2Lo)
	r := rHi + rLo

	// tail = r³ (1/3! + r/4! + ... + r^11/14!), the polynomial by Estrin's
	// scheme (pairs, then powers r², r⁴, r⁸) for a short dependency chain.
	r2 := float64(r * r)
	r4 := float64(r2 * r2)
	r8 := float64(r4 * r4)
	q0 := math.FMA(1.0/24, r, 1.0/6)
	q1 := math.FMA(1.0/720, r, 1.0/120)
	q2 := math.FMA(1.0/40320, r, 1.0/5040)
	q3 := math.FMA(1.0/3628800, r, 1.0/362880)
	q4 := math.FMA(1.0/479001600, r, 1.0/39916800)
	q5 := math.FMA(1.0/87178291200, r, 1.0/6227020800)
	o0 := math.FMA(q1, r2, q0)
	o1 := math.FMA(q3, r2, q2)
	o2 := math.FMA(q5, r2, q4)
	p := math.FMA(o1, r4, o0)
	p = math.FMA(o2, r8, p)
	r3 := float64(r2 * r)
	tail := float64(r3 * p)

	// 1 + rHi + rHi²/2 exactly as s2 + e1 + e2 + sqLo/2.
	sq := float64(rHi * rHi)
	sqLo := math.FMA(rHi, rHi, -sq)
	h := float64(0.5 * sq)
	s1 := 1 + rHi
	e1 := (1 - s1) + rHi
	s2 := s1 + h
	e2 := (s1 - s2) + h
	cross := float64(rLo * math.FMA(0.5, rLo, rHi)) // rHi rLo + rLo²/2, the rest of r²/2

	lo = e1 + e2
	lo += rLo
	lo = math.FMA(0.5, sqLo, lo)
	lo += cross
	lo += tail
	hi = s2 + lo
	lo -= hi - s2
	return hi, lo, int(kf)
}

// scale2 returns v 2^k for k in [-1100, 1100] as two exact multiplications
// by normal powers of two, so that only a subnormal or overflowing result is
// rounded.
func scale2(v float64, k int) float64 {
	k1 := k >> 1
	k2 := k - k1
	return v * math.Float64frombits(uint64(k1+1023)<<52) * math.Float64frombits(uint64(k2+1023)<<52)
}

// Exp returns e^x.
//
// Method: x = k ln 2 + r with a two-part ln 2, e^r by its Taylor series to
// degree 14 carried in double-double precision near the leading terms
// (expDD), then rounded once and scaled by 2^k. Results are within 0.53 ulp
// for normal results; subnormal results are rounded twice (within 1 ulp of
// the subnormal spacing). Exp(+Inf) = +Inf, Exp(-Inf) = 0, Exp(NaN) = NaN.
func Exp(x float64) float64 {
	xc := math.Max(math.Min(x, 710), -746)
	hi, lo, k := expDD(xc)
	y := scale2(hi+lo, k)
	switch {
	case x != x:
		return x
	case x > expMax:
		return math.Inf(1)
	case x < expMin:
		return 0
	}
	return y
}

// Tanh returns the hyperbolic tangent of x.
//
// Method, for y = 2|x| (at most 40, beyond which tanh rounds to 1):
// tanh|x| = E/(E + 2) with E = e^y - 1, and e^y - 1 = 2^k (e^r - 1) +
// (2^k - 1) for y = k ln 2 + r, |r| ≤ ln 2 / 2 (a two-part ln 2), e^r - 1 =
// r + r² P(r) by its Taylor series to degree 13 (truncation error below
// 2^-56 relative) with r = rHi + rLo and rHi added last, so that E is
// accurate relative to itself even where it is small and no branch is
// needed. The sign of x is copied to the result.
// It is one straight-line sequence of operations, which the vector kernels
// evaluate lane by lane. Measured error: within 3 ulp (2.32 over 10^6
// points; the roundings of E, E + 2 and the quotient add up, and a
// first-order analysis allows about 3.2 where all three are at their
// worst). It is not faithful, unlike Exp, Sin and Cos, nor monotone ulp by
// ulp: a faithful tanh (double-double e^{2|x|} and quotient, and a separate
// series near 0, the one before 2bf9759) took 2.4 times as many operations
// (103 against 43 in the AVX2 kernel) and 2.5 times as long.
// Tanh(±Inf) = ±1, Tanh(NaN) = NaN, Tanh(±0) = ±0.
func Tanh(x float64) float64 {
	a := math.Abs(x)
	y := a + a
	if y > 40 {
		y = 40
	}
	kf := math.FMA(y, invLn2, magic) // k + magic: its low bits are k
	k := kf - magic
	rHi := math.FMA(-k, ln2Hi, y) // exact
	rLo := float64(-k * ln2Lo)
	r := rHi + rLo

	// P(r) = 1/2! + r/3! + ... + r^11/13! by Estrin's scheme, as in expDD
	// (there from 1/3!), written out in both: a shared function is too big
	// to inline, and the call made the scalar Tanh (the generic path's
	// whole tanh) slower, 19.6 against 16.0 ns at best of six runs.
	r2 := float64(r * r)
	r4 := float64(r2 * r2)
	r8 := float64(r4 * r4)
	q0 := math.FMA(1.0/6, r, 1.0/2)
	q1 := math.FMA(1.0/120, r, 1.0/24)
	q2 := math.FMA(1.0/5040, r, 1.0/720)
	q3 := math.FMA(1.0/362880, r, 1.0/40320)
	q4 := math.FMA(1.0/39916800, r, 1.0/3628800)
	q5 := math.FMA(1.0/6227020800, r, 1.0/479001600)
	o0 := math.FMA(q1, r2, q0)
	o1 := math.FMA(q3, r2, q2)
	o2 := math.FMA(q5, r2, q4)
	p := math.FMA(o1, r4, o0)
	p = math.FMA(o2, r8, p)
	em := rHi + math.FMA(r2, p, rLo) // e^r - 1, rHi added last

	sc := math.Float64frombits((math.Float64bits(kf) + 1023) << 52) // 2^k, 0 ≤ k ≤ 58
	// 2^k - 1 is exact for k ≤ 53; beyond, its rounding is far below an ulp
	// of the result.
	e := math.FMA(sc, em, sc-1)
	t := e / (e + 2)
	if x != x {
		return x
	}
	return math.Copysign(t, x)
}

// π/2 in three parts: pio2A and pio2B have 33 significant bits, so n pio2A and
// n pio2B are exact for |n| < 2^20; pio2C is the rest rounded to 53 bits
// (the remainder is 1.0e-37).
const (
	twoOverPi = 0x1.45f306dc9c883p-1
	pio2A     = 0x1.921fb54400000p+0
	pio2B     = 0x1.0b4611a600000p-34
	pio2C     = 0x1.3198a2e037073p-69

	// TrigMax is the largest |x| for which Sin, Cos and Sincos are
	// computed; beyond it they return NaN. Within it they are faithful.
	TrigMax = 0x1p28
)

// trigReduce returns n and r = rHi + rLo with x = n π/2 + r, |r| ≤ π/4 (to
// rounding), r accurate to about 2^-98 absolute for |x| ≤ 2^20.
func trigReduce(x float64) (n int, rHi, rLo float64) {
	nf := float64(x*twoOverPi) + magic
	nf -= magic
	r1 := math.FMA(-nf, pio2A, x) // exact for |n| < 2^20
	w := float64(nf * pio2B)      // exact for |n| < 2^20
	r2 := r1 - w                  // r1 - w = r2 + e exactly (TwoSum)
	bb := r2 - r1
	e := (r1 - (r2 - bb)) - (w + bb)
	e = math.FMA(-nf, pio2C, e)
	rHi = r2 + e
	rLo = (r2 - rHi) + e
	return int(nf), rHi, rLo
}

// sinCosKernel returns sin(r) and cos(r) for r = rHi + rLo, |r| ≤ π/4 (to
// rounding): Taylor series to degree 19 (sin) and 20 (cos), truncation
// errors below 2^-66, with the leading terms in double-double precision.
func sinCosKernel(rHi, rLo float64) (sin, cos float64) {
	sq := float64(rHi * rHi)
	sqLo := math.FMA(rHi, rHi, -sq)
	z := sq

	// sin r = r + r³ S(r²) + rLo (1 - r²/2)
	ps := -1.0 / 121645100408832000 // -1/19!
	ps = math.FMA(ps, z, 1.0/355687428096000)
	ps = math.FMA(ps, z, -1.0/1307674368000)
	ps = math.FMA(ps, z, 1.0/6227020800)
	ps = math.FMA(ps, z, -1.0/39916800)
	ps = math.FMA(ps, z, 1.0/362880)
	ps = math.FMA(ps, z, -1.0/5040)
	ps = math.FMA(ps, z, 1.0/120)
	ps = math.FMA(ps, z, -1.0/6)
	sinTail := float64(float64(z*rHi) * ps)
	sinTail = math.FMA(rLo, math.FMA(-0.5, z, 1), sinTail)
	sin = rHi + sinTail

	// cos r = 1 - r²/2 + r⁴ C(r²) - rHi rLo
	pc := 1.0 / 2432902008176640000 // 1/20!
	pc = math.FMA(pc, z, -1.0/6402373705728000)
	pc = math.FMA(pc, z, 1.0/20922789888000)
	pc = math.FMA(pc, z, -1.0/87178291200)
	pc = math.FMA(pc, z, 1.0/479001600)
	pc = math.FMA(pc, z, -1.0/3628800)
	pc = math.FMA(pc, z, 1.0/40320)
	pc = math.FMA(pc, z, -1.0/720)
	pc = math.FMA(pc, z, 1.0/24)
	hz := float64(0.5 * sq)
	w := 1 - hz
	cosTail := (1 - w) - hz // exact
	cosTail = math.FMA(-0.5, sqLo, cosTail)
	cosTail = math.FMA(-rHi, rLo, cosTail)
	cosTail = math.FMA(float64(z*z), pc, cosTail)
	cos = w + cosTail
	return sin, cos
}

// Sincos returns Sin(x) and Cos(x) with the same bits as those functions.
//
// Method: x = n π/2 + r with a three-part π/2 and the reduction carried in
// double-double precision (trigReduce), sin and cos of r by Taylor series
// with the leading terms in double-double precision (sinCosKernel), then
// the quadrant n mod 4 selects and signs the result. Faithful (measured
// within 0.76 ulp) for |x| ≤ 2^20; for 2^20 < |x| ≤ TrigMax the reduction
// loses accuracy gradually (still deterministic); beyond TrigMax, and for
// ±Inf and NaN, the results are NaN. Sin(±0) = ±0.
func Sincos(x float64) (sin, cos float64) {
	xc := x
	if !(math.Abs(x) <= TrigMax) {
		xc = 0
	}
	n, rHi, rLo := trigReduce(xc)
	s, c := sinCosKernel(rHi, rLo)
	switch n & 3 {
	case 0:
		sin, cos = s, c
	case 1:
		sin, cos = c, -s
	case 2:
		sin, cos = -s, -c
	default:
		sin, cos = -c, s
	}
	switch {
	case !(math.Abs(x) <= TrigMax):
		return math.NaN(), math.NaN()
	case x == 0:
		return x, 1
	}
	return sin, cos
}

// Sin returns the sine of x (see Sincos for the method and accuracy).
func Sin(x float64) float64 {
	s, _ := Sincos(x)
	return s
}

// Cos returns the cosine of x (see Sincos for the method and accuracy).
func Cos(x float64) float64 {
	_, c := Sincos(x)
	return c
}

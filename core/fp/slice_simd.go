//go:build goexperiment.simd && amd64

package fp

import (
	"math"
	"simd/archsimd"
)

// haveAVX512 and haveAVX2 report whether the CPU runs the AVX-512 and the
// AVX2 (with FMA) kernels.
var (
	haveAVX512 = archsimd.X86.AVX512()
	haveAVX2   = archsimd.X86.AVX2() && archsimd.X86.FMA()
)

type f8 = archsimd.Float64x8

func bc(v float64) f8 { return archsimd.BroadcastFloat64x8(v) }

// neg8 returns -x exactly (the sign bit flipped, as the scalar unary minus).
func neg8(x f8) f8 {
	return x.AsInt64x8().Xor(archsimd.BroadcastInt64x8(math.MinInt64)).AsFloat64x8()
}

// tanhAVX512 sets dst[i] = Tanh(x[i]) for all i and returns len(x). Every
// operation is the scalar Tanh's, in the same order, lane by lane (MulAdd is
// math.FMA); both branches are computed and the lanes select theirs. A tail
// of fewer than 8 values is loaded into a zero-filled register.
func tanhAVX512(dst, x []float64) int {
	n := len(x) &^ 7
	for i := 0; i < n; i += 8 {
		tanh8(archsimd.LoadFloat64x8Slice(x[i : i+8])).StoreSlice(dst[i : i+8])
	}
	if n < len(x) {
		tanh8(archsimd.LoadFloat64x8SlicePart(x[n:])).StoreSlicePart(dst[n:])
	}
	// Leave no dirty upper register halves: the scalar SSE code that follows
	// would otherwise run several times slower.
	archsimd.ClearAVXUpperBits()
	return len(x)
}

// tanh8 is Tanh on eight lanes.
func tanh8(xv f8) f8 {
	absMask := archsimd.BroadcastInt64x8(math.MaxInt64)
	signMask := archsimd.BroadcastInt64x8(math.MinInt64)
	a := xv.AsInt64x8().And(absMask).AsFloat64x8()
	small := tanhSmall8(a)
	large := tanhLarge8(a)
	y := small.Merge(large, a.Less(bc(0.125)))
	// Copysign(y, x), y ≥ 0; NaN lanes return x.
	y = y.AsInt64x8().Or(xv.AsInt64x8().And(signMask)).AsFloat64x8()
	return y.Merge(xv, xv.Equal(xv))
}

// tanhSmall8 is tanhSmall on eight lanes.
func tanhSmall8(a f8) f8 {
	z := a.Mul(a)
	z2 := z.Mul(z)
	z4 := z2.Mul(z2)
	q0 := bc(2.0/15).MulAdd(z, bc(-1.0/3))
	q1 := bc(62.0/2835).MulAdd(z, bc(-17.0/315))
	q2 := bc(21844.0/6081075).MulAdd(z, bc(-1382.0/155925))
	q3 := bc(6404582.0/10854718875).MulAdd(z, bc(-929569.0/638512875))
	o0 := q1.MulAdd(z2, q0)
	o1 := bc(-443861162.0/1856156927625).MulAdd(z2, q3)
	o1 = o1.MulAdd(z2, q2)
	p := o1.MulAdd(z4, o0)
	return z.Mul(a).MulAdd(p, a)
}

// tanhLarge8 is tanhLarge on eight lanes.
func tanhLarge8(a f8) f8 {
	ac := a.Min(bc(22)) // a ≥ 0 and not NaN where the result is used
	hi, lo, k := expDD8(ac.Mul(bc(2)))
	sc := k.Add(archsimd.BroadcastInt64x8(1023)).ShiftAllLeft(52).AsFloat64x8()
	eh := hi.Mul(sc)
	el := lo.Mul(sc)
	one := bc(1)
	dh := eh.Add(one)
	dl := eh.Sub(dh).Add(one).Add(el)
	t0 := bc(2).Div(dh)
	nt0 := neg8(t0)
	rem := nt0.MulAdd(dh, bc(2))
	rem = nt0.MulAdd(dl, rem)
	t1 := rem.Mul(bc(0.5).Mul(t0))
	s := one.Sub(t0)
	e := one.Sub(s).Sub(t0)
	y := s.Add(e.Sub(t1))
	return y.Merge(one, a.Less(bc(22)))
}

// expDD8 is expDD on eight lanes; k is returned as integers.
func expDD8(x f8) (hi, lo f8, k archsimd.Int64x8) {
	magic8 := bc(magic)
	kf := x.Mul(bc(invLn2)).Add(magic8)
	kf = kf.Sub(magic8)
	nkf := neg8(kf)
	rHi := nkf.MulAdd(bc(ln2Hi), x)
	rLo := nkf.Mul(bc(ln2Lo))
	r := rHi.Add(rLo)

	r2 := r.Mul(r)
	r4 := r2.Mul(r2)
	r8 := r4.Mul(r4)
	q0 := bc(1.0/24).MulAdd(r, bc(1.0/6))
	q1 := bc(1.0/720).MulAdd(r, bc(1.0/120))
	q2 := bc(1.0/40320).MulAdd(r, bc(1.0/5040))
	q3 := bc(1.0/3628800).MulAdd(r, bc(1.0/362880))
	q4 := bc(1.0/479001600).MulAdd(r, bc(1.0/39916800))
	q5 := bc(1.0/87178291200).MulAdd(r, bc(1.0/6227020800))
	o0 := q1.MulAdd(r2, q0)
	o1 := q3.MulAdd(r2, q2)
	o2 := q5.MulAdd(r2, q4)
	p := o1.MulAdd(r4, o0)
	p = o2.MulAdd(r8, p)
	r3 := r2.Mul(r)
	tail := r3.Mul(p)

	sq := rHi.Mul(rHi)
	sqLo := rHi.MulAdd(rHi, neg8(sq))
	half := bc(0.5)
	h := half.Mul(sq)
	one := bc(1)
	s1 := one.Add(rHi)
	e1 := one.Sub(s1).Add(rHi)
	s2 := s1.Add(h)
	e2 := s1.Sub(s2).Add(h)
	cross := rLo.Mul(half.MulAdd(rLo, rHi))

	lo = e1.Add(e2)
	lo = lo.Add(rLo)
	lo = half.MulAdd(sqLo, lo)
	lo = lo.Add(cross)
	lo = lo.Add(tail)
	hi = s2.Add(lo)
	lo = lo.Sub(hi.Sub(s2))
	return hi, lo, kf.ConvertToInt64()
}

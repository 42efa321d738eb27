//go:build goexperiment.simd && amd64

package fp

import (
	"math"
	"simd/archsimd"
)

// The AVX2 twin of the AVX-512 tanh: the same operations of the scalar
// Tanh, in the same order, on four lanes (archsimd has no generic vector
// type, so the code is written once per width). AVX2 has no conversion of
// float64 to int64; the scale 2^k of exp is built from the bits of
// x/ln2 + magic, whose low bits are k (see expDD4).

type f4 = archsimd.Float64x4

func bc4(v float64) f4 { return archsimd.BroadcastFloat64x4(v) }

// neg4 returns -x exactly (the sign bit flipped, as the scalar unary minus).
func neg4(x f4) f4 {
	return x.AsInt64x4().Xor(archsimd.BroadcastInt64x4(math.MinInt64)).AsFloat64x4()
}

// tanhAVX2 sets dst[i] = Tanh(x[i]) for all i and returns len(x); a tail
// of fewer than 4 values is loaded into a zero-filled register.
func tanhAVX2(dst, x []float64) int {
	n := len(x) &^ 3
	for i := 0; i < n; i += 4 {
		tanh4(archsimd.LoadFloat64x4Slice(x[i : i+4])).StoreSlice(dst[i : i+4])
	}
	if n < len(x) {
		tanh4(archsimd.LoadFloat64x4SlicePart(x[n:])).StoreSlicePart(dst[n:])
	}
	archsimd.ClearAVXUpperBits() // see tanhAVX512
	return len(x)
}

// tanh4 is Tanh on four lanes.
func tanh4(xv f4) f4 {
	absMask := archsimd.BroadcastInt64x4(math.MaxInt64)
	signMask := archsimd.BroadcastInt64x4(math.MinInt64)
	a := xv.AsInt64x4().And(absMask).AsFloat64x4()
	small := tanhSmall4(a)
	large := tanhLarge4(a)
	y := small.Merge(large, a.Less(bc4(0.125)))
	// Copysign(y, x), y ≥ 0; NaN lanes return x.
	y = y.AsInt64x4().Or(xv.AsInt64x4().And(signMask)).AsFloat64x4()
	return y.Merge(xv, xv.Equal(xv))
}

// tanhSmall4 is tanhSmall on four lanes.
func tanhSmall4(a f4) f4 {
	z := a.Mul(a)
	z2 := z.Mul(z)
	z4 := z2.Mul(z2)
	q0 := bc4(2.0/15).MulAdd(z, bc4(-1.0/3))
	q1 := bc4(62.0/2835).MulAdd(z, bc4(-17.0/315))
	q2 := bc4(21844.0/6081075).MulAdd(z, bc4(-1382.0/155925))
	q3 := bc4(6404582.0/10854718875).MulAdd(z, bc4(-929569.0/638512875))
	o0 := q1.MulAdd(z2, q0)
	o1 := bc4(-443861162.0/1856156927625).MulAdd(z2, q3)
	o1 = o1.MulAdd(z2, q2)
	p := o1.MulAdd(z4, o0)
	return z.Mul(a).MulAdd(p, a)
}

// tanhLarge4 is tanhLarge on four lanes.
func tanhLarge4(a f4) f4 {
	ac := a.Min(bc4(22)) // a ≥ 0 and not NaN where the result is used
	hi, lo, kb := expDD4(ac.Mul(bc4(2)))
	// 2^k: the bits of magic + k are bits(magic) + k, and bits(magic) << 52
	// is 0, so (bits + 1023) << 52 is the exponent field of 2^k (0 ≤ k ≤ 64).
	sc := kb.Add(archsimd.BroadcastInt64x4(1023)).ShiftAllLeft(52).AsFloat64x4()
	eh := hi.Mul(sc)
	el := lo.Mul(sc)
	one := bc4(1)
	dh := eh.Add(one)
	dl := eh.Sub(dh).Add(one).Add(el)
	t0 := bc4(2).Div(dh)
	nt0 := neg4(t0)
	rem := nt0.MulAdd(dh, bc4(2))
	rem = nt0.MulAdd(dl, rem)
	t1 := rem.Mul(bc4(0.5).Mul(t0))
	s := one.Sub(t0)
	e := one.Sub(s).Sub(t0)
	y := s.Add(e.Sub(t1))
	return y.Merge(one, a.Less(bc4(22)))
}

// expDD4 is expDD on four lanes; instead of k it returns the bits of
// x/ln2 + magic, whose low bits hold k.
func expDD4(x f4) (hi, lo f4, kb archsimd.Int64x4) {
	magic4 := bc4(magic)
	kfm := x.Mul(bc4(invLn2)).Add(magic4)
	kf := kfm.Sub(magic4)
	nkf := neg4(kf)
	rHi := nkf.MulAdd(bc4(ln2Hi), x)
	rLo := nkf.Mul(bc4(ln2Lo))
	r := rHi.Add(rLo)

	r2 := r.Mul(r)
	r4 := r2.Mul(r2)
	r8 := r4.Mul(r4)
	q0 := bc4(1.0/24).MulAdd(r, bc4(1.0/6))
	q1 := bc4(1.0/720).MulAdd(r, bc4(1.0/120))
	q2 := bc4(1.0/40320).MulAdd(r, bc4(1.0/5040))
	q3 := bc4(1.0/3628800).MulAdd(r, bc4(1.0/362880))
	q4 := bc4(1.0/479001600).MulAdd(r, bc4(1.0/39916800))
	q5 := bc4(1.0/87178291200).MulAdd(r, bc4(1.0/6227020800))
	o0 := q1.MulAdd(r2, q0)
	o1 := q3.MulAdd(r2, q2)
	o2 := q5.MulAdd(r2, q4)
	p := o1.MulAdd(r4, o0)
	p = o2.MulAdd(r8, p)
	r3 := r2.Mul(r)
	tail := r3.Mul(p)

	sq := rHi.Mul(rHi)
	sqLo := rHi.MulAdd(rHi, neg4(sq))
	half := bc4(0.5)
	h := half.Mul(sq)
	one := bc4(1)
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
	return hi, lo, kfm.AsInt64x4()
}

package fp

import "math"

// Lanes is the number of partial sums of a reduction: a 512-bit register of
// float64.
const Lanes = 8

// Tree returns the sum of eight lane sums in the order in which a vector
// register is reduced by halving (512 → 256 → 128 → 64 bits):
//
//	((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7))
func Tree(l *[Lanes]float64) float64 {
	return ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))
}

// Sum returns Σ x_i: lane i mod 8 adds x_i in increasing i, and the lanes
// are combined by Tree.
func Sum(x []float64) float64 {
	var l [Lanes]float64
	i := 0
	for ; i+Lanes <= len(x); i += Lanes {
		v := x[i : i+Lanes : i+Lanes]
		l[0] += v[0]
		l[1] += v[1]
		l[2] += v[2]
		l[3] += v[3]
		l[4] += v[4]
		l[5] += v[5]
		l[6] += v[6]
		l[7] += v[7]
	}
	for j, v := range x[i:] {
		l[j] += v
	}
	return Tree(&l)
}

// Dot returns Σ x_i y_i (len(y) ≥ len(x)): lane i mod 8 is the FMA chain
// l = FMA(x_i, y_i, l) in increasing i, and the lanes are combined by Tree.
func Dot(x, y []float64) float64 {
	y = y[:len(x)]
	var l [Lanes]float64
	i := dotVector(x, y, &l)
	for ; i+Lanes <= len(x); i += Lanes {
		a := x[i : i+Lanes : i+Lanes]
		b := y[i : i+Lanes : i+Lanes]
		l[0] = math.FMA(a[0], b[0], l[0])
		l[1] = math.FMA(a[1], b[1], l[1])
		l[2] = math.FMA(a[2], b[2], l[2])
		l[3] = math.FMA(a[3], b[3], l[3])
		l[4] = math.FMA(a[4], b[4], l[4])
		l[5] = math.FMA(a[5], b[5], l[5])
		l[6] = math.FMA(a[6], b[6], l[6])
		l[7] = math.FMA(a[7], b[7], l[7])
	}
	for j, v := range x[i:] {
		l[j] = math.FMA(v, y[i+j], l[j])
	}
	return Tree(&l)
}

// SumSq returns Σ x_i², as Dot(x, x).
func SumSq(x []float64) float64 { return Dot(x, x) }

// Norm returns sqrt(SumSq(x)), the Euclidean norm without scaling (as
// numpy.linalg.norm of a 1-D array; no overflow protection).
func Norm(x []float64) float64 { return math.Sqrt(SumSq(x)) }

// DrainLanes sets dst[i] = Tree(l[8i:8i+8]) for i < len(dst) and then
// those lanes of l to zero (l holds at least 8 len(dst) values): the last
// step of a sum kept as eight lanes per result, which leaves the lanes ready
// for the next. The vector paths take eight (AVX-512) or four (AVX2) results
// at a time by transposing adds, each of Tree's adds on the same two values,
// so the bits are the same on every path.
func DrainLanes(dst, l []float64) {
	l = l[:Lanes*len(dst)]
	i := drainVector(dst, l)
	for ; i < len(dst); i++ {
		r := (*[Lanes]float64)(l[Lanes*i:])
		dst[i] = Tree(r)
		*r = [Lanes]float64{}
	}
}

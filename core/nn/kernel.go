package nn

import (
	"fmt"
	"math"

	"elmfbpinn/core/fp"
)

// The dense products below follow the arithmetic rule of package core/fp:
// every output entry is one FMA chain over the contracted index in increasing
// order, starting from 0 (or from the chain so far, when a contraction is
// taken in parts); an accumulating product adds the finished chain to its
// destination with one addition. Register tiles across output entries
// change no chain, so the vector kernel (tiles of 6 × 8 or 4 × 8 entries,
// four entries per AVX2 register) computes the same bits as the generic one.

// dot returns Σ_i a_i b_i (len(b) >= len(a)) as one FMA chain.
func dot(a, b []float64) float64 { return dotFrom(0, a, b) }

// dotFrom returns s + Σ_i a_i b_i (len(b) >= len(a)) as one FMA chain from s.
func dotFrom(s float64, a, b []float64) float64 {
	b = b[:len(a)]
	for i, v := range a {
		s = math.FMA(v, b[i], s)
	}
	return s
}

// mat is a strided view of a matrix: entry (i, p) is v[i·si + p·sp]. The
// transpose of a row-major matrix is a view with si = 1, so the products
// read it in place.
type mat struct {
	v      []float64
	si, sp int
}

// rowMajor views v as a row-major matrix with rows of length ld.
func rowMajor(v []float64, ld int) mat { return mat{v, ld, 1} }

// transposed views v, row-major with rows of length ld, as its transpose.
func transposed(v []float64, ld int) mat { return mat{v, 1, ld} }

// at returns entry (i, p).
func (a mat) at(i, p int) float64 { return a.v[i*a.si+p*a.sp] }

// last returns the largest index the view reads for an (m, k) matrix.
func (a mat) last(m, k int) int { return (m-1)*a.si + (k-1)*a.sp }

// gemm sets c = a b, or adds a b to c if acc: c (m, n) row-major with rows of
// length ldc, a an (m, k) view and b (k, n) row-major with rows of length
// ldb:
//
//	c_ij (+)= s_ij,  s_ij = Σ_p a_ip b_pj   (one FMA chain per entry, p ascending).
//
// If init is not nil ((m, n) row-major), the chains start from its entries
// instead of 0: a contraction cut into parts p = 0..k1-1, k1..k2-1, ...
// gives the bits of one chain when each part continues the chains the part
// before left (init = the previous part's c, acc only for the last part).
// init may be c itself when ldc = n.
//
// tmp is scratch, which may be nil or short: the vector kernels use m·n of
// it to cut a long contraction into cache-sized blocks (gemmVector), the
// generic path k·n (and m·k if a is not row-major) to lay the operands out
// along p (gemmNT); without it they run slower, with the same bits.
func gemm(c []float64, ldc int, a mat, b []float64, ldb int, m, n, k int, init []float64, acc bool, tmp []float64) {
	if m == 0 || n == 0 {
		return
	}
	if ldc < n || ldb < n || len(c) < (m-1)*ldc+n || (k > 0 && (len(b) < (k-1)*ldb+n || len(a.v) <= a.last(m, k))) ||
		(init != nil && len(init) < m*n) {
		panic(fmt.Sprintf("nn: gemm: (%d, %d, %d) product does not fit its operands", m, n, k))
	}
	if !fp.AVX() || k == 0 {
		gemmGeneric(c, ldc, a, b, ldb, m, n, k, init, acc, tmp)
		return
	}
	i := gemmVector(c, ldc, a, b, ldb, m, n, k, init, acc, tmp)
	// What the vector kernels left: the rows from i on (all columns).
	if i < m {
		gemmStrided(c[i*ldc:], ldc, mat{a.v[i*a.si:], a.si, a.sp}, b, ldb, m-i, n, k, initFrom(init, i*n), n, acc)
	}
}

// initFrom returns init from entry o on, or nil if init is nil.
func initFrom(init []float64, o int) []float64 {
	if init == nil {
		return nil
	}
	return init[o:]
}

// chains returns the starting values of the generic products' chains and
// the function that stores a finished one: from init (rows ldi apart) or 0;
// set or, with acc, add.
func chains(init []float64, ldi int, acc bool) (start func(i, j int) float64, put func(dst *float64, s float64)) {
	start = func(i, j int) float64 {
		if init == nil {
			return 0
		}
		return init[i*ldi+j]
	}
	put = func(dst *float64, s float64) {
		if acc {
			*dst += s
		} else {
			*dst = s
		}
	}
	return start, put
}

// gemmGeneric is the generic path of gemm: with scratch for bᵀ (and for a
// laid out row-major, if it is not), every entry is a dot product of two
// rows contiguous along p (gemmNT); otherwise gemmStrided.
func gemmGeneric(c []float64, ldc int, a mat, b []float64, ldb int, m, n, k int, init []float64, acc bool, tmp []float64) {
	need := k * n
	if a.sp != 1 {
		need += m * k
	}
	if k == 0 || len(tmp) < need {
		gemmStrided(c, ldc, a, b, ldb, m, n, k, init, n, acc)
		return
	}
	bt := tmp[:k*n]
	for p := range k {
		for j, v := range b[p*ldb : p*ldb+n] {
			bt[j*k+p] = v
		}
	}
	av, lda := a.v, a.si
	if a.sp != 1 {
		av, lda = tmp[k*n:need], k
		for i := range m {
			for p := range k {
				av[i*k+p] = a.at(i, p)
			}
		}
	}
	gemmNT(c, ldc, av, lda, bt, m, n, k, init, acc)
}

// gemmNT sets c = a wᵀ, or adds a wᵀ to c if acc: c (m, n) with rows of
// length ldc, a (m, k) with rows of length lda, w (n, k) row-major, the
// chains from init ((m, n) row-major) if it is not nil. Each entry is a dot
// product of two contiguous rows; blocks of 2 × 4 entries share their
// loads, eight independent FMA chains in flight.
func gemmNT(c []float64, ldc int, a []float64, lda int, w []float64, m, n, k int, init []float64, acc bool) {
	start, put := chains(init, n, acc)
	i := 0
	for ; i+2 <= m; i += 2 {
		a0 := a[i*lda : i*lda+k]
		a1 := a[(i+1)*lda : (i+1)*lda+k][:len(a0)]
		c0, c1 := c[i*ldc:i*ldc+n], c[(i+1)*ldc:(i+1)*ldc+n]
		j := 0
		for ; j+4 <= n; j += 4 {
			w0 := w[j*k : j*k+k][:len(a0)]
			w1 := w[(j+1)*k : (j+1)*k+k][:len(a0)]
			w2 := w[(j+2)*k : (j+2)*k+k][:len(a0)]
			w3 := w[(j+3)*k : (j+3)*k+k][:len(a0)]
			s00, s01, s02, s03 := start(i, j), start(i, j+1), start(i, j+2), start(i, j+3)
			s10, s11, s12, s13 := start(i+1, j), start(i+1, j+1), start(i+1, j+2), start(i+1, j+3)
			for p, x0 := range a0 {
				x1, y0, y1, y2, y3 := a1[p], w0[p], w1[p], w2[p], w3[p]
				s00 = math.FMA(x0, y0, s00)
				s01 = math.FMA(x0, y1, s01)
				s02 = math.FMA(x0, y2, s02)
				s03 = math.FMA(x0, y3, s03)
				s10 = math.FMA(x1, y0, s10)
				s11 = math.FMA(x1, y1, s11)
				s12 = math.FMA(x1, y2, s12)
				s13 = math.FMA(x1, y3, s13)
			}
			put(&c0[j], s00)
			put(&c0[j+1], s01)
			put(&c0[j+2], s02)
			put(&c0[j+3], s03)
			put(&c1[j], s10)
			put(&c1[j+1], s11)
			put(&c1[j+2], s12)
			put(&c1[j+3], s13)
		}
		for ; j < n; j++ {
			w0 := w[j*k : j*k+k]
			put(&c0[j], dotFrom(start(i, j), a0, w0))
			put(&c1[j], dotFrom(start(i+1, j), a1, w0))
		}
	}
	for ; i < m; i++ {
		a0 := a[i*lda : i*lda+k]
		for j := range n {
			put(&c[i*ldc+j], dotFrom(start(i, j), a0, w[j*k:j*k+k]))
		}
	}
}

// gemmStrided is gemm in scalar code on the views as they are, in blocks of
// 2 × 4 entries: eight independent FMA chains in flight (enough to hide the
// FMA latency; larger blocks spill registers in Go's code generator); the
// chains start from init (rows ldi apart) if it is not nil.
func gemmStrided(c []float64, ldc int, a mat, b []float64, ldb int, m, n, k int, init []float64, ldi int, acc bool) {
	start, put := chains(init, ldi, acc)
	av, si, sp := a.v, a.si, a.sp
	i := 0
	for ; i+2 <= m; i += 2 {
		c0, c1 := c[i*ldc:i*ldc+n], c[(i+1)*ldc:(i+1)*ldc+n]
		j := 0
		for ; j+4 <= n; j += 4 {
			s00, s01, s02, s03 := start(i, j), start(i, j+1), start(i, j+2), start(i, j+3)
			s10, s11, s12, s13 := start(i+1, j), start(i+1, j+1), start(i+1, j+2), start(i+1, j+3)
			o0, o1, ob := i*si, (i+1)*si, j
			for range k {
				x0, x1 := av[o0], av[o1]
				bp := b[ob : ob+4 : ob+4]
				y0, y1, y2, y3 := bp[0], bp[1], bp[2], bp[3]
				s00 = math.FMA(x0, y0, s00)
				s01 = math.FMA(x0, y1, s01)
				s02 = math.FMA(x0, y2, s02)
				s03 = math.FMA(x0, y3, s03)
				s10 = math.FMA(x1, y0, s10)
				s11 = math.FMA(x1, y1, s11)
				s12 = math.FMA(x1, y2, s12)
				s13 = math.FMA(x1, y3, s13)
				o0, o1, ob = o0+sp, o1+sp, ob+ldb
			}
			put(&c0[j], s00)
			put(&c0[j+1], s01)
			put(&c0[j+2], s02)
			put(&c0[j+3], s03)
			put(&c1[j], s10)
			put(&c1[j+1], s11)
			put(&c1[j+2], s12)
			put(&c1[j+3], s13)
		}
		for ; j < n; j++ {
			s0, s1 := start(i, j), start(i+1, j)
			o0, o1, ob := i*si, (i+1)*si, j
			for range k {
				y := b[ob]
				s0 = math.FMA(av[o0], y, s0)
				s1 = math.FMA(av[o1], y, s1)
				o0, o1, ob = o0+sp, o1+sp, ob+ldb
			}
			put(&c0[j], s0)
			put(&c1[j], s1)
		}
	}
	for ; i < m; i++ {
		for j := range n {
			s := start(i, j)
			o, ob := i*si, j
			for range k {
				s = math.FMA(av[o], b[ob], s)
				o, ob = o+sp, ob+ldb
			}
			put(&c[i*ldc+j], s)
		}
	}
}

// transpose sets dst (c, r) to srcᵀ, src (r, c) row-major.
func transpose(dst, src []float64, r, c int) {
	dst = dst[:r*c]
	for i := range r {
		row := src[i*c : i*c+c]
		for j, v := range row {
			dst[j*r+i] = v
		}
	}
}

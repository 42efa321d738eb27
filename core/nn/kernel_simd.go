//go:build goexperiment.simd && amd64

package nn

import "unsafe"

// gemmVector computes the tiles of gemm that the AVX2 kernels cover (they
// run on CPUs with AVX-512 too): rows in blocks of 6, then one block of 4,
// columns in blocks of 8. It returns the first row and the first column
// (of rows before that) it did not compute.
//
// A long contraction (k > pBlock, the gradient of a layer's weights, summed
// over every point) is cut into blocks of p: every tile runs its chains over
// one block, leaving them in tmp, before the next block, so the block's rows
// of a and b are read from cache by all tiles instead of from memory by
// each.
func gemmVector(c []float64, ldc int, a mat, b []float64, ldb int, m, n, k int, acc bool, tmp []float64) (i, j int) {
	nj := n &^ 7
	mi := m / 6 * 6
	if m-mi >= 4 {
		mi += 4
	}
	if nj == 0 || mi == 0 {
		return 0, 0
	}
	cp, ap, bp := unsafe.SliceData(c), unsafe.SliceData(a.v), unsafe.SliceData(b)
	if k <= pBlock || len(tmp) < mi*nj {
		tiles(cp, ldc, ap, a.si, a.sp, bp, ldb, mi, nj, k, nil, 0, acc)
		return mi, nj
	}
	tp := unsafe.SliceData(tmp)
	for p0 := 0; p0 < k; p0 += pBlock {
		kb := min(pBlock, k-p0)
		ab, bb := elem(ap, p0*a.sp), elem(bp, p0*ldb)
		var init *float64
		if p0 > 0 {
			init = tp
		}
		if p0+kb < k {
			tiles(tp, nj, ab, a.si, a.sp, bb, ldb, mi, nj, kb, init, nj, false)
		} else {
			tiles(cp, ldc, ab, a.si, a.sp, bb, ldb, mi, nj, kb, init, nj, acc)
		}
	}
	return mi, nj
}

// pBlock is the block of p of a long contraction: 256 rows of a and b
// (128 KiB each at 64 columns) stay in the core's L2.
const pBlock = 256

// tiles runs the kernels over the m × nj tiles (m a sum of sixes and at
// most one four, nj a multiple of 8), with chains from init (rows ldi apart)
// if init is not nil.
func tiles(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, m, nj, k int, init *float64, ldi int, acc bool) {
	i := 0
	for ; i+6 <= m; i += 6 {
		for j := 0; j < nj; j += 8 {
			gemm6x8(elem(c, i*ldc+j), ldc, elem(a, i*sai), sai, sap, elem(b, j), ldb, k, initAt(init, i*ldi+j), ldi, acc)
		}
	}
	if i+4 <= m {
		for j := 0; j < nj; j += 8 {
			gemm4x8(elem(c, i*ldc+j), ldc, elem(a, i*sai), sai, sap, elem(b, j), ldb, k, initAt(init, i*ldi+j), ldi, acc)
		}
	}
}

// elem returns &p[i] of the slice whose data p is.
func elem(p *float64, i int) *float64 { return (*float64)(unsafe.Add(unsafe.Pointer(p), 8*i)) }

func initAt(p *float64, i int) *float64 {
	if p == nil {
		return nil
	}
	return elem(p, i)
}

// gemm6x8 sets (acc: adds to) the 6 × 8 block of c at c, rows ldc apart,
// the product of the 6 rows of a at a (entry (i, p) at a[i·sai + p·sap])
// and the 8 columns of b at b (rows ldb apart), k terms: one FMA chain per
// entry, p ascending, starting from 0 or, if init is not nil, from the
// block at init (rows ldi apart). k > 0.
//
//go:noescape
func gemm6x8(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, acc bool)

// gemm4x8 is gemm6x8 for a 4 × 8 block.
//
//go:noescape
func gemm4x8(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, acc bool)

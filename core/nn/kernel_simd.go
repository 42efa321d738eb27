//go:build goexperiment.simd && amd64

package nn

import "unsafe"

// gemmVector computes the tiles of gemm that the AVX2 kernels cover (they
// run on CPUs with AVX-512 too): rows in blocks of 6, then one block of 4,
// columns in blocks of 8. It returns the first row and the first column
// (of rows before that) it did not compute.
func gemmVector(c []float64, ldc int, a mat, b []float64, ldb int, m, n, k int, acc bool) (i, j int) {
	nj := n &^ 7
	if nj == 0 {
		return 0, 0
	}
	cp, ap, bp := unsafe.SliceData(c), unsafe.SliceData(a.v), unsafe.SliceData(b)
	for ; i+6 <= m; i += 6 {
		for j := 0; j < nj; j += 8 {
			gemm6x8(elem(cp, i*ldc+j), ldc, elem(ap, i*a.si), a.si, a.sp, elem(bp, j), ldb, k, acc)
		}
	}
	if i+4 <= m {
		for j := 0; j < nj; j += 8 {
			gemm4x8(elem(cp, i*ldc+j), ldc, elem(ap, i*a.si), a.si, a.sp, elem(bp, j), ldb, k, acc)
		}
		i += 4
	}
	return i, nj
}

// elem returns &p[i] of the slice whose data p is.
func elem(p *float64, i int) *float64 { return (*float64)(unsafe.Add(unsafe.Pointer(p), 8*i)) }

// gemm6x8 sets (acc: adds to) the 6 × 8 block of c at c, rows ldc apart,
// the product of the 6 rows of a at a (entry (i, p) at a[i·sai + p·sap])
// and the 8 columns of b at b (rows ldb apart), k terms: one FMA chain per
// entry, p ascending. k > 0.
//
//go:noescape
func gemm6x8(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, acc bool)

// gemm4x8 is gemm6x8 for a 4 × 8 block.
//
//go:noescape
func gemm4x8(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, acc bool)

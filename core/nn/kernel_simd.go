//go:build amd64 && !purego

package nn

import (
	"unsafe"

	"elmfbpinn/core/fp"
)

//go:generate python3 ../../scripts/asmgen/gemm512.py

// gemmVector computes the tiles of gemm that the vector kernels cover: on
// the AVX-512 path rows in blocks of 8, then one block of 4, columns in
// blocks of 16 (gemm8x16, gemm4x16) and one block of 8 (gemm4x8); on the
// AVX2 path rows in blocks of 6, then one or two blocks of 4 (two when m
// mod 6 is 2 and m >= 8: 14 rows are 6 + 4 + 4; m = 2 is left to the
// scalar code), columns in blocks of 8. It returns the first row and the
// first column (of rows before that) it did not compute.
//
// A long contraction (k > pBlock, the gradient of a layer's weights, summed
// over every point) is cut into blocks of p: every tile runs its chains over
// one block, leaving them in tmp, before the next block, so the block's rows
// of a and b are read from cache by all tiles instead of from memory by
// each. The chains of the first block start from init ((m, n) row-major)
// if it is not nil.
func gemmVector(c []float64, ldc int, a mat, b []float64, ldb int, m, n, k int, init []float64, acc bool, tmp []float64) (i, j int) {
	nj := n &^ 7
	wide := fp.KernelPath() == fp.AVX512
	rows := 6
	if wide {
		rows = 8
	}
	mi := m / rows * rows
	switch r := m - mi; {
	case r >= 4:
		mi += 4
	case r == 2 && !wide && mi > 0:
		mi += 2 // the last six rows and these two as two fours (tiles)
	}
	if nj == 0 || mi == 0 {
		return 0, 0
	}
	run := tileRunner()
	cp, ap, bp := unsafe.SliceData(c), unsafe.SliceData(a.v), unsafe.SliceData(b)
	ip, ldi := (*float64)(nil), n
	if init != nil {
		ip = unsafe.SliceData(init)
	}
	if k <= pBlock || len(tmp) < mi*nj {
		run(cp, ldc, ap, a.si, a.sp, bp, ldb, mi, nj, k, ip, ldi, acc)
		return mi, nj
	}
	tp := unsafe.SliceData(tmp)
	for p0 := 0; p0 < k; p0 += pBlock {
		kb := min(pBlock, k-p0)
		ab, bb := elem(ap, p0*a.sp), elem(bp, p0*ldb)
		if p0 > 0 {
			ip, ldi = tp, nj
		}
		if p0+kb < k {
			run(tp, nj, ab, a.si, a.sp, bb, ldb, mi, nj, kb, ip, ldi, false)
		} else {
			run(cp, ldc, ab, a.si, a.sp, bb, ldb, mi, nj, kb, ip, ldi, acc)
		}
	}
	return mi, nj
}

// gemmPadded computes the last r < 8 columns of the first m rows of gemm
// (m as gemmVector leaves it: a sum of its row blocks) with the vector
// kernels, on copies of b and init padded with columns to 8, in blocks of
// at most 48 rows and 64 terms held on the stack. Every kept lane is the
// chain of its entry, p ascending, from init or 0, as in gemmStrided (a
// block of p continues the chains left by the one before); the padding
// lanes are computed and dropped. Then c = the chains, or c += them (acc).
// k > 0.
func gemmPadded(c []float64, ldc int, a mat, b []float64, ldb int, m, r, k int, init []float64, ldi int, acc bool) {
	const rowsMax, pMax = 48, 64
	var bp [pMax * 8]float64 // columns r to 7 stay zero
	var cp, ip [rowsMax * 8]float64
	run := tileRunner()
	ap := unsafe.SliceData(a.v)
	for i0, mb := 0, 0; i0 < m; i0 += mb {
		mb = min(rowsMax, m-i0)
		if m-i0-mb == 2 {
			mb -= 6 // leave 8 rows, two blocks of four: tiles cannot take 2
		}
		var ipp *float64
		if init != nil {
			for i := range mb {
				copy(ip[i*8:i*8+r], init[(i0+i)*ldi:(i0+i)*ldi+r])
			}
			ipp = &ip[0]
		}
		for p0 := 0; p0 < k; p0 += pMax {
			kb := min(pMax, k-p0)
			if i0 == 0 || k > pMax { // else bp holds this block already
				for p := range kb {
					copy(bp[p*8:p*8+r], b[(p0+p)*ldb:(p0+p)*ldb+r])
				}
			}
			run(&cp[0], 8, elem(ap, i0*a.si+p0*a.sp), a.si, a.sp, &bp[0], 8, mb, 8, kb, ipp, 8, false)
			ipp = &cp[0]
		}
		for i := range mb {
			row, sums := c[(i0+i)*ldc:(i0+i)*ldc+r], cp[i*8:i*8+r]
			if !acc {
				copy(row, sums)
				continue
			}
			for l, s := range sums {
				row[l] += s
			}
		}
	}
}

// tileRunner returns the tile loop of the kernel path: tiles512 on the
// AVX-512 path, else tiles.
func tileRunner() func(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, m, nj, k int, init *float64, ldi int, acc bool) {
	if fp.KernelPath() == fp.AVX512 {
		return tiles512
	}
	return tiles
}

// pBlock is the block of p of a long contraction: 256 rows of a and b
// (128 KiB each at 64 columns) stay in the core's L2.
const pBlock = 256

// tiles runs the kernels over the m × nj tiles (m a sum of sixes and at
// most two fours, nj a multiple of 8), with chains from init (rows ldi
// apart) if init is not nil.
func tiles(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, m, nj, k int, init *float64, ldi int, acc bool) {
	fours := (6 - m%6) % 6 / 2 // m mod 6 = 0, 4, 2: no, one, two blocks of four
	i := 0
	for ; i+6 <= m-4*fours; i += 6 {
		for j := 0; j < nj; j += 8 {
			gemm6x8(elem(c, i*ldc+j), ldc, elem(a, i*sai), sai, sap, elem(b, j), ldb, k, initAt(init, i*ldi+j), ldi, acc)
		}
	}
	for ; i+4 <= m; i += 4 {
		for j := 0; j < nj; j += 8 {
			gemm4x8(elem(c, i*ldc+j), ldc, elem(a, i*sai), sai, sap, elem(b, j), ldb, k, initAt(init, i*ldi+j), ldi, acc)
		}
	}
}

// tiles512 is tiles for the AVX-512 kernels: m a sum of eights and at most
// one four, columns in blocks of 16 and, if nj is not a multiple of 16, one
// block of 8 in the AVX2 4 × 8 tiles.
func tiles512(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, m, nj, k int, init *float64, ldi int, acc bool) {
	n16 := nj &^ 15
	i := 0
	for ; i+8 <= m; i += 8 {
		for j := 0; j < n16; j += 16 {
			gemm8x16(elem(c, i*ldc+j), ldc, elem(a, i*sai), sai, sap, elem(b, j), ldb, k, initAt(init, i*ldi+j), ldi, acc)
		}
	}
	if i+4 <= m {
		for j := 0; j < n16; j += 16 {
			gemm4x16(elem(c, i*ldc+j), ldc, elem(a, i*sai), sai, sap, elem(b, j), ldb, k, initAt(init, i*ldi+j), ldi, acc)
		}
	}
	if n16 < nj {
		for i := 0; i+4 <= m; i += 4 {
			gemm4x8(elem(c, i*ldc+n16), ldc, elem(a, i*sai), sai, sap, elem(b, n16), ldb, k, initAt(init, i*ldi+n16), ldi, acc)
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

// gemm8x16 is gemm6x8 for an 8 × 16 block, in AVX-512 registers
// (gemm512_amd64.s, generated by scripts/asmgen/gemm512.py).
//
//go:noescape
func gemm8x16(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, acc bool)

// gemm4x16 is gemm8x16 for a 4 × 16 block.
//
//go:noescape
func gemm4x16(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, acc bool)

//go:build amd64 && !purego

package nn

import (
	"unsafe"

	"elmfbpinn/core/fp"
)

//go:generate python3 ../../scripts/asmgen/gemm512.py

// gemmVector computes the tiles of gemm that the vector kernels cover. On
// the AVX-512 path that is all of c: rows in blocks of 8 and one block of
// the last m mod 8, columns in blocks of 16 and one block of the last n mod
// 16, the edges in masked tiles (tiles512). On the AVX2 path rows in blocks
// of 6, then one or two blocks of 4 (two when m mod 6 is 2 and m >= 8: 14
// rows are 6 + 4 + 4; m = 2 is left to the scalar code), columns in blocks
// of 8. It returns the first row and the first column (of rows before
// that) it did not compute.
//
// A long contraction (k > pBlock, the gradient of a layer's weights, summed
// over every point) is cut into blocks of p: every tile runs its chains over
// one block, leaving them in tmp, before the next block, so the block's rows
// of a and b are read from cache by all tiles instead of from memory by
// each. The chains of the first block start from init ((m, n) row-major)
// if it is not nil.
func gemmVector(c []float64, ldc int, a mat, b []float64, ldb int, m, n, k int, init []float64, acc bool, tmp []float64) (i, j int) {
	mi, nj := m, n
	if fp.KernelPath() != fp.AVX512 {
		nj = n &^ 7
		mi = m / 6 * 6
		switch r := m - mi; {
		case r >= 4:
			mi += 4
		case r == 2 && mi > 0:
			mi += 2 // the last six rows and these two as two fours (tiles)
		}
	}
	if mi == 0 {
		return 0, 0
	}
	if nj == 0 {
		return mi, 0 // fewer than 8 columns: gemmPadded's
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

// tiles512 is tiles for the AVX-512 kernels over all of an m × n block:
// rows in blocks of 8 and one block of m mod 8, columns in blocks of 16 and
// one block of the last n mod 16 (8 columns or fewer: one register a row,
// else two). Whole 8 × 16 and 4 × 16 blocks run gemm8x16 and gemm4x16, the
// others the masked tiles, whose last register of a row keeps only the
// lanes of the block's columns (masks512).
func tiles512(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, m, n, k int, init *float64, ldi int, acc bool) {
	n16 := n &^ 15
	for i := 0; i < m; i += 8 {
		r := min(8, m-i)
		ci, ai, ii := elem(c, i*ldc), elem(a, i*sai), initAt(init, i*ldi)
		for j := 0; j < n16; j += 16 {
			switch r {
			case 8:
				gemm8x16(elem(ci, j), ldc, ai, sai, sap, elem(b, j), ldb, k, initAt(ii, j), ldi, acc)
			case 4:
				gemm4x16(elem(ci, j), ldc, ai, sai, sap, elem(b, j), ldb, k, initAt(ii, j), ldi, acc)
			default:
				masks512[1][r-1](elem(ci, j), ldc, ai, sai, sap, elem(b, j), ldb, k, initAt(ii, j), ldi, 0xff, acc)
			}
		}
		if e := n - n16; e > 0 {
			regs := (e + 7) / 8
			mask := 1<<(e-8*(regs-1)) - 1
			masks512[regs-1][r-1](elem(ci, n16), ldc, ai, sai, sap, elem(b, n16), ldb, k, initAt(ii, n16), ldi, mask, acc)
		}
	}
}

// masks512[C-1][R-1] is the masked R × 8C tile (gemm512_amd64.s): gemm8x16
// for R rows of C registers, the last register of each row only in the
// lanes of mask (bit l: lane l) of b, init and c.
var masks512 = [2][8]func(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool){
	{gemm1x8m, gemm2x8m, gemm3x8m, gemm4x8m, gemm5x8m, gemm6x8m, gemm7x8m, gemm8x8m},
	{gemm1x16m, gemm2x16m, gemm3x16m, gemm4x16m, gemm5x16m, gemm6x16m, gemm7x16m, gemm8x16m},
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

// The masked tiles: gemm8x16 for R × 8C blocks (gemmRx8Cm), the last
// register of each row (lanes 8(C-1) to 8C-1 of the block) only in the
// lanes of mask; the other lanes of b, init and c are neither read nor
// written.
//
//go:noescape
func gemm1x8m(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool)

//go:noescape
func gemm2x8m(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool)

//go:noescape
func gemm3x8m(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool)

//go:noescape
func gemm4x8m(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool)

//go:noescape
func gemm5x8m(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool)

//go:noescape
func gemm6x8m(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool)

//go:noescape
func gemm7x8m(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool)

//go:noescape
func gemm8x8m(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool)

//go:noescape
func gemm1x16m(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool)

//go:noescape
func gemm2x16m(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool)

//go:noescape
func gemm3x16m(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool)

//go:noescape
func gemm4x16m(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool)

//go:noescape
func gemm5x16m(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool)

//go:noescape
func gemm6x16m(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool)

//go:noescape
func gemm7x16m(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool)

//go:noescape
func gemm8x16m(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask int, acc bool)

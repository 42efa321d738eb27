//go:build amd64 && !purego

package nn

import (
	"unsafe"

	"elmfbpinn/core/fp"
)

//go:generate python3 ../../scripts/asmgen/gemm512.py
//go:generate python3 ../../scripts/asmgen/gemm256.py

// gemmVector computes the tiles of gemm that the vector kernels cover: the
// AVX-512 path all of c, rows in blocks of 8 and one block of the last m
// mod 8, columns in blocks of 16 and one block of the last n mod 16
// (tiles512); the AVX2 path every column of the rows in blocks of 6, then
// one or two blocks of 4 (two when m mod 6 is 2 and m >= 8: 14 rows are
// 6 + 4 + 4; m = 2 is left to the scalar code), columns in blocks of 8 and
// one block of the last n mod 8 (tiles). The edges run in masked tiles. It
// returns the first row it did not compute.
//
// A long contraction (k > pBlock, the gradient of a layer's weights, summed
// over every point) is cut into blocks of p: every tile runs its chains over
// one block, leaving them in tmp, before the next block, so the block's rows
// of a and b are read from cache by all tiles instead of from memory by
// each. The chains of the first block start from init ((m, n) row-major)
// if it is not nil.
func gemmVector(c []float64, ldc int, a mat, b []float64, ldb int, m, n, k int, init []float64, acc bool, tmp []float64) int {
	mi := m
	if fp.KernelPath() != fp.AVX512 {
		mi = m / 6 * 6
		switch r := m - mi; {
		case r >= 4:
			mi += 4
		case r == 2 && mi > 0:
			mi += 2 // the last six rows and these two as two fours (tiles)
		}
	}
	if mi == 0 {
		return 0
	}
	run := tileRunner()
	cp, ap, bp := unsafe.SliceData(c), unsafe.SliceData(a.v), unsafe.SliceData(b)
	ip, ldi := (*float64)(nil), n
	if init != nil {
		ip = unsafe.SliceData(init)
	}
	if k <= pBlock || len(tmp) < mi*n {
		run(cp, ldc, ap, a.si, a.sp, bp, ldb, mi, n, k, ip, ldi, acc)
		return mi
	}
	tp := unsafe.SliceData(tmp)
	for p0 := 0; p0 < k; p0 += pBlock {
		kb := min(pBlock, k-p0)
		ab, bb := elem(ap, p0*a.sp), elem(bp, p0*ldb)
		if p0 > 0 {
			ip, ldi = tp, n
		}
		if p0+kb < k {
			run(tp, n, ab, a.si, a.sp, bb, ldb, mi, n, kb, ip, ldi, false)
		} else {
			run(cp, ldc, ab, a.si, a.sp, bb, ldb, mi, n, kb, ip, ldi, acc)
		}
	}
	return mi
}

// tileRunner returns the tile loop of the kernel path: tiles512 on the
// AVX-512 path, else tiles.
func tileRunner() func(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, m, n, k int, init *float64, ldi int, acc bool) {
	if fp.KernelPath() == fp.AVX512 {
		return tiles512
	}
	return tiles
}

// pBlock is the block of p of a long contraction: 256 rows of a and b
// (128 KiB each at 64 columns) stay in the core's L2.
const pBlock = 256

// tiles runs the AVX2 kernels over the m × n block (m a sum of sixes and
// at most two fours): columns in blocks of 8 (gemm6x8, gemm4x8), then one
// block of the last n mod 8 in the masked tiles (gemm6x8y, gemm6x4y,
// gemm4x8y, gemm4x4y: 5-7 columns in two registers a row, 1-4 in one), with
// chains from init (rows ldi apart) if init is not nil.
func tiles(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, m, n, k int, init *float64, ldi int, acc bool) {
	fours := (6 - m%6) % 6 / 2 // m mod 6 = 0, 4, 2: no, one, two blocks of four
	n8, e := n&^7, n%8
	lanes := (e-1)%4 + 1 // of the last register of a row
	mask := &lanes256[lanes]
	for i, r := 0, 6; i < m; i += r {
		whole, y8, y4 := gemm6x8, gemm6x8y, gemm6x4y
		if i+6 > m-4*fours {
			r, whole, y8, y4 = 4, gemm4x8, gemm4x8y, gemm4x4y
		}
		ci, ai, ii := elem(c, i*ldc), elem(a, i*sai), initAt(init, i*ldi)
		for j := 0; j < n8; j += 8 {
			whole(elem(ci, j), ldc, ai, sai, sap, elem(b, j), ldb, k, initAt(ii, j), ldi, acc)
		}
		switch {
		case e > 4:
			y8(elem(ci, n8), ldc, ai, sai, sap, elem(b, n8), ldb, k, initAt(ii, n8), ldi, mask, lanes, acc)
		case e > 0:
			y4(elem(ci, n8), ldc, ai, sai, sap, elem(b, n8), ldb, k, initAt(ii, n8), ldi, mask, lanes, acc)
		}
	}
}

// lanes256[l] is the mask of the masked AVX2 tiles that keeps lanes 0 to
// l−1 of a register (VMASKMOVPD reads each lane's sign bit).
var lanes256 = [5][4]uint64{{}, {^uint64(0)}, {^uint64(0), ^uint64(0)}, {^uint64(0), ^uint64(0), ^uint64(0)},
	{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}}

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

// gemm6x8y is gemm6x8 with the second register of each row (columns 4-7)
// only in its first lanes lanes, whose mask is set (gemm256_amd64.s,
// generated by scripts/asmgen/gemm256.py): the other lanes of b, init and
// c are neither read nor written.
//
//go:noescape
func gemm6x8y(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask *[4]uint64, lanes int, acc bool)

// gemm6x4y is gemm6x8y for a 6 × 4 block, one register a row.
//
//go:noescape
func gemm6x4y(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask *[4]uint64, lanes int, acc bool)

// gemm4x8y is gemm6x8y for a 4 × 8 block.
//
//go:noescape
func gemm4x8y(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask *[4]uint64, lanes int, acc bool)

// gemm4x4y is gemm6x8y for a 4 × 4 block, one register a row.
//
//go:noescape
func gemm4x4y(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, mask *[4]uint64, lanes int, acc bool)

package sparse

import (
	"math"
	"slices"
	"unsafe"

	"elmfbpinn/core/fp"
)

// The products' copy of the blocks. The rows are cut into panels, the rows
// that belong to the same set of blocks; a panel is cut into groups of eight
// rows (the last of w = 1..8 rows), and a group's part of each of the
// panel's blocks is stored column by column, the group's rows of a column
// together:
//
//	vals[e.off + g·nc·8 + c·w + k] = M_j[row 8g+k of the panel, column c]
//
// for entry e (block j, nc columns) of the panel and group g of width w.
// One group of one column is one vector load (masked in the last group).
// Each entry's part starts on a 64-byte line (e.off a multiple of eight,
// vals on a line, up to seven zeros before it), so that a whole group's
// column is one line: loads that straddle two lines cost a Zen 4 about
// 1.15x on the products. Besides those zeros the copy holds exactly the
// stored entries; M v and Mᵀ u each read it once, or once for both in
// BidiagStep.

// packed is the panel copy and the lane sums of Mᵀ u.
type packed struct {
	panels []panel
	vals   []float64
	lanes  []float64 // (n, 8): the eight lane chains of each column of Mᵀ u
}

// panel is a set of rows (ascending) and the blocks they all belong to.
type panel struct {
	rows []int32
	ents []entry // one per block of the panel, in block order
}

// entry is one block's part of a panel.
type entry struct {
	off, col0, nc int
}

// pack makes the panel copy of a's blocks.
func (a *BlockSparse) pack() *packed {
	// The blocks of each row, in block order, with the row's place in each.
	type place struct{ blk, local int32 }
	of := make([][]place, a.m)
	for j, s := range a.shapes {
		for k, r := range s.Rows {
			of[r] = append(of[r], place{int32(j), int32(k)})
		}
	}
	// Panels in the order of their first row.
	var panels []panel
	index := map[string]int{}
	var key []byte
	for r, ps := range of {
		key = key[:0]
		for _, p := range ps {
			key = append(key, byte(p.blk), byte(p.blk>>8), byte(p.blk>>16), byte(p.blk>>24))
		}
		i, ok := index[string(key)]
		if !ok {
			i = len(panels)
			index[string(key)] = i
			panels = append(panels, panel{})
		}
		panels[i].rows = append(panels[i].rows, int32(r))
	}
	n := 0
	for i := range panels {
		p := &panels[i]
		p.rows = slices.Clip(p.rows)
		for _, pl := range of[p.rows[0]] {
			s := a.shapes[pl.blk]
			n = (n + fp.Lanes - 1) &^ (fp.Lanes - 1) // each part on a 64-byte line
			p.ents = append(p.ents, entry{off: n, col0: s.Col0, nc: s.NCol})
			n += len(p.rows) * s.NCol
		}
	}
	vals := aligned(n)
	for i := range panels {
		p := &panels[i]
		for k, pl := range of[p.rows[0]] {
			e := p.ents[k]
			blk := a.data[a.offs[pl.blk]:a.offs[pl.blk+1]]
			for g0 := 0; g0 < len(p.rows); g0 += fp.Lanes {
				w := min(fp.Lanes, len(p.rows)-g0)
				dst := vals[e.off+g0*e.nc:]
				for q, row := range p.rows[g0 : g0+w] {
					local := int(of[row][k].local)
					for c, x := range blk[local*e.nc : (local+1)*e.nc] {
						dst[c*w+q] = x
					}
				}
			}
		}
	}
	return &packed{panels: panels, vals: vals, lanes: make([]float64, a.n*fp.Lanes)}
}

// sweepGeneric is the products of sweep in scalar code, a group at a time:
// each row's eight chains (rowSum), then the lane sums of each of the
// group's columns with the group's values of u in registers (mulTrans, or
// mulTransPart for the last group of a panel, of w < 8 rows: the lanes past
// its rows are left out, as adding 0·0 to them would change no sum).
func (pk *packed) sweepGeneric(mul, trans bool, u, v []float64, alpha float64) {
	na := -alpha
	for i := range pk.panels {
		p := &pk.panels[i]
		for g0 := 0; g0 < len(p.rows); g0 += fp.Lanes {
			w := min(fp.Lanes, len(p.rows)-g0)
			var r [fp.Lanes]float64 // the group's u; 0 past its rows
			for k, row := range p.rows[g0 : g0+w] {
				if !mul {
					r[k] = u[row]
					continue
				}
				t := rowSum(pk.vals, p.ents, g0, w, k, v)
				if trans { // M v − alpha u
					t = math.FMA(na, u[row], t)
				}
				u[row], r[k] = t, t
			}
			if !trans {
				continue
			}
			for _, e := range p.ents {
				l := pk.lanes[e.col0*fp.Lanes : (e.col0+e.nc)*fp.Lanes]
				m := pk.vals[e.off+g0*e.nc : e.off+(g0+w)*e.nc]
				if w == fp.Lanes {
					mulTrans(l, m, &r)
				} else {
					mulTransPart(l, m, w, &r)
				}
			}
		}
	}
}

// rowSum returns row k of the group of w rows at row g0 of a panel with
// entries ents, times v: Tree(s) with chain s_i over the columns c ≡ i
// (mod 8) of every entry in turn.
func rowSum(vals []float64, ents []entry, g0, w, k int, v []float64) float64 {
	var s0, s1, s2, s3, s4, s5, s6, s7 float64
	for _, e := range ents {
		m := vals[e.off+g0*e.nc+k : e.off+(g0+w)*e.nc]
		xs := v[e.col0 : e.col0+e.nc]
		for ; len(xs) >= fp.Lanes; xs = xs[fp.Lanes:] {
			o := m[:7*w+1] // one column of the row in each chain
			s0 = math.FMA(o[0], xs[0], s0)
			s1 = math.FMA(o[w], xs[1], s1)
			s2 = math.FMA(o[2*w], xs[2], s2)
			s3 = math.FMA(o[3*w], xs[3], s3)
			s4 = math.FMA(o[4*w], xs[4], s4)
			s5 = math.FMA(o[5*w], xs[5], s5)
			s6 = math.FMA(o[6*w], xs[6], s6)
			s7 = math.FMA(o[7*w], xs[7], s7)
			m = m[min(fp.Lanes*w, len(m)):]
		}
		switch len(xs) { // the last nc mod 8 columns, chains 0 to 6
		case 7:
			s6 = math.FMA(m[6*w], xs[6], s6)
			fallthrough
		case 6:
			s5 = math.FMA(m[5*w], xs[5], s5)
			fallthrough
		case 5:
			s4 = math.FMA(m[4*w], xs[4], s4)
			fallthrough
		case 4:
			s3 = math.FMA(m[3*w], xs[3], s3)
			fallthrough
		case 3:
			s2 = math.FMA(m[2*w], xs[2], s2)
			fallthrough
		case 2:
			s1 = math.FMA(m[w], xs[1], s1)
			fallthrough
		case 1:
			s0 = math.FMA(m[0], xs[0], s0)
		}
	}
	return ((s0 + s4) + (s2 + s6)) + ((s1 + s5) + (s3 + s7)) // fp.Tree
}

// mulTrans adds the products of a whole group's part m of one block (its
// columns of eight rows) with the group's values r of u to the part's lane
// sums l: lane k of column c gains m[c, k]·r[k].
func mulTrans(l, m []float64, r *[fp.Lanes]float64) {
	r0, r1, r2, r3, r4, r5, r6, r7 := r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
	m = m[:len(l)]
	for c := 0; c+fp.Lanes <= len(l); c += fp.Lanes {
		mc, lc := m[c:c+fp.Lanes:c+fp.Lanes], l[c:c+fp.Lanes:c+fp.Lanes]
		lc[0] = math.FMA(mc[0], r0, lc[0])
		lc[1] = math.FMA(mc[1], r1, lc[1])
		lc[2] = math.FMA(mc[2], r2, lc[2])
		lc[3] = math.FMA(mc[3], r3, lc[3])
		lc[4] = math.FMA(mc[4], r4, lc[4])
		lc[5] = math.FMA(mc[5], r5, lc[5])
		lc[6] = math.FMA(mc[6], r6, lc[6])
		lc[7] = math.FMA(mc[7], r7, lc[7])
	}
}

// mulTransPart is mulTrans for a last group of w < 8 rows, whose part m
// holds columns of w rows: lanes w to 7 are left as they are.
func mulTransPart(l, m []float64, w int, r *[fp.Lanes]float64) {
	r0, r1, r2, r3, r4, r5, r6 := r[0], r[1], r[2], r[3], r[4], r[5], r[6]
	for c := 0; c+fp.Lanes <= len(l); c += fp.Lanes {
		mc, lc := m[:w:w], l[c:c+fp.Lanes:c+fp.Lanes]
		m = m[w:]
		switch w {
		case 7:
			lc[6] = math.FMA(mc[6], r6, lc[6])
			fallthrough
		case 6:
			lc[5] = math.FMA(mc[5], r5, lc[5])
			fallthrough
		case 5:
			lc[4] = math.FMA(mc[4], r4, lc[4])
			fallthrough
		case 4:
			lc[3] = math.FMA(mc[3], r3, lc[3])
			fallthrough
		case 3:
			lc[2] = math.FMA(mc[2], r2, lc[2])
			fallthrough
		case 2:
			lc[1] = math.FMA(mc[1], r1, lc[1])
			fallthrough
		case 1:
			lc[0] = math.FMA(mc[0], r0, lc[0])
		}
	}
}

// aligned returns a zero slice of n float64s starting on a 64-byte line.
func aligned(n int) []float64 {
	buf := make([]float64, n+fp.Lanes)
	k := 0
	for uintptr(unsafe.Pointer(&buf[k]))%64 != 0 {
		k++
	}
	return buf[k : k+n : k+n]
}

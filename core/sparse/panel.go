package sparse

import (
	"math"
	"slices"

	"elmfbpinn/core/fp"
)

// The products' copy of the blocks. The rows are cut into panels, the rows
// that belong to the same set of blocks; a panel is cut into groups of eight
// rows (the last padded with zero rows), and a group's part of each of the
// panel's blocks is stored column by column, the group's rows of a column
// together:
//
//	vals[e.off + (g·nc + c)·8 + k] = M_j[row 8g+k of the panel, column c]
//
// for entry e (block j, nc columns) of the panel. One group of one column is
// one vector load, and M v and Mᵀ u both read this one copy, once each, or
// once for both in BidiagStep.

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
			p.ents = append(p.ents, entry{off: n, col0: s.Col0, nc: s.NCol})
			n += (len(p.rows) + fp.Lanes - 1) / fp.Lanes * fp.Lanes * s.NCol
		}
	}
	vals := make([]float64, n)
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
						dst[c*fp.Lanes+q] = x
					}
				}
			}
		}
	}
	return &packed{panels: panels, vals: vals, lanes: make([]float64, a.n*fp.Lanes)}
}

// sweepGeneric is the products of sweep in scalar code: the row sums row
// by row, each with its eight chains in registers, and the lane sums of a
// column updated lane by lane.
func (pk *packed) sweepGeneric(mul, trans bool, u, v []float64, alpha float64) {
	na := -alpha
	var r [fp.Lanes]float64
	for i := range pk.panels {
		p := &pk.panels[i]
		for g0 := 0; g0 < len(p.rows); g0 += fp.Lanes {
			w := min(fp.Lanes, len(p.rows)-g0)
			rows := p.rows[g0 : g0+w]
			r = [fp.Lanes]float64{}
			for k, row := range rows {
				if !mul {
					r[k] = u[row]
					continue
				}
				t := rowSum(pk.vals, p.ents, g0, k, v)
				if trans {
					t = math.FMA(na, u[row], t)
				}
				u[row], r[k] = t, t
			}
			if !trans {
				continue
			}
			for _, e := range p.ents {
				blk := pk.vals[e.off+g0*e.nc : e.off+(g0+fp.Lanes)*e.nc]
				l := pk.lanes[e.col0*fp.Lanes : (e.col0+e.nc)*fp.Lanes]
				for c := 0; c < len(l); c += fp.Lanes {
					m, lc := blk[c:c+fp.Lanes], l[c:c+fp.Lanes]
					lc[0] = math.FMA(m[0], r[0], lc[0])
					lc[1] = math.FMA(m[1], r[1], lc[1])
					lc[2] = math.FMA(m[2], r[2], lc[2])
					lc[3] = math.FMA(m[3], r[3], lc[3])
					lc[4] = math.FMA(m[4], r[4], lc[4])
					lc[5] = math.FMA(m[5], r[5], lc[5])
					lc[6] = math.FMA(m[6], r[6], lc[6])
					lc[7] = math.FMA(m[7], r[7], lc[7])
				}
			}
		}
	}
}

// rowSum returns row k of the group at row g0 of a panel with entries
// ents, times v: Tree(s) with chain s_i over the columns c ≡ i (mod 8) of
// every entry in turn. A padding row (k past the panel) gives exact zeros
// to the lane sums: its entries are 0 and its u is 0.
func rowSum(vals []float64, ents []entry, g0, k int, v []float64) float64 {
	var s0, s1, s2, s3, s4, s5, s6, s7 float64
	for _, e := range ents {
		blk := vals[e.off+g0*e.nc+k : e.off+(g0+fp.Lanes)*e.nc]
		xs := v[e.col0 : e.col0+e.nc]
		for len(xs) >= fp.Lanes && len(blk) > 56 {
			s0 = math.FMA(blk[0], xs[0], s0)
			s1 = math.FMA(blk[8], xs[1], s1)
			s2 = math.FMA(blk[16], xs[2], s2)
			s3 = math.FMA(blk[24], xs[3], s3)
			s4 = math.FMA(blk[32], xs[4], s4)
			s5 = math.FMA(blk[40], xs[5], s5)
			s6 = math.FMA(blk[48], xs[6], s6)
			s7 = math.FMA(blk[56], xs[7], s7)
			blk, xs = blk[min(64, len(blk)):], xs[8:]
		}
		for c, x := range xs { // the last nc mod 8 columns, chains 0 to 6
			b := blk[c*fp.Lanes]
			switch c {
			case 0:
				s0 = math.FMA(b, x, s0)
			case 1:
				s1 = math.FMA(b, x, s1)
			case 2:
				s2 = math.FMA(b, x, s2)
			case 3:
				s3 = math.FMA(b, x, s3)
			case 4:
				s4 = math.FMA(b, x, s4)
			case 5:
				s5 = math.FMA(b, x, s5)
			case 6:
				s6 = math.FMA(b, x, s6)
			}
		}
	}
	return ((s0 + s4) + (s2 + s6)) + ((s1 + s5) + (s3 + s7)) // fp.Tree
}

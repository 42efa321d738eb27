package sparse

import (
	"math"
	"slices"

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
// One group of one column is one vector load (masked in the last group),
// the copy holds exactly the stored entries, and M v and Mᵀ u both read it
// once each, or once for both in BidiagStep.

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
			n += len(p.rows) * s.NCol
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
						dst[c*w+q] = x
					}
				}
			}
		}
	}
	return &packed{panels: panels, vals: vals, lanes: make([]float64, a.n*fp.Lanes)}
}

// sweepGeneric is the products of sweep in scalar code: the row sums of a
// whole group two rows at a time, their sixteen chains in registers (on
// arm64; amd64 spills some) sharing the loads of v, those of a last group of
// fewer than eight rows one row at a time, and the lane sums of a column
// updated lane by lane.
func (pk *packed) sweepGeneric(mul, trans bool, u, v []float64, alpha float64) {
	na := -alpha
	var r [fp.Lanes]float64
	for i := range pk.panels {
		p := &pk.panels[i]
		for g0 := 0; g0 < len(p.rows); g0 += fp.Lanes {
			w := min(fp.Lanes, len(p.rows)-g0)
			rows := p.rows[g0 : g0+w]
			r = [fp.Lanes]float64{}
			set := func(k int, t float64) { // row k of the group is t (M v) or t − alpha u
				if trans {
					t = math.FMA(na, u[rows[k]], t)
				}
				u[rows[k]], r[k] = t, t
			}
			switch {
			case !mul:
				for k, row := range rows {
					r[k] = u[row]
				}
			case w == fp.Lanes: // rows k and k+1 together: they share v's loads
				for k := 0; k < w; k += 2 {
					t0, t1 := rowSums(pk.vals, p.ents, g0, k, v)
					set(k, t0)
					set(k+1, t1)
				}
			default:
				for k := range w {
					set(k, rowSum(pk.vals, p.ents, g0, w, k, v))
				}
			}
			if !trans {
				continue
			}
			for _, e := range p.ents {
				blk := pk.vals[e.off+g0*e.nc : e.off+g0*e.nc+w*e.nc]
				l := pk.lanes[e.col0*fp.Lanes : (e.col0+e.nc)*fp.Lanes]
				if w < fp.Lanes {
					// A lane past the group would add 0·0 to its sum, which
					// changes no sum (they are never −0): it is left out.
					for c := range e.nc {
						m, lc := blk[c*w:(c+1)*w], l[c*fp.Lanes:(c+1)*fp.Lanes]
						for k, x := range m {
							lc[k] = math.FMA(x, r[k], lc[k])
						}
					}
					continue
				}
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

// rowSum returns row k of the group of width w at row g0 of a panel with
// entries ents, times v: Tree(s) with chain s_i over the columns c ≡ i
// (mod 8) of every entry in turn, as rowSums.
func rowSum(vals []float64, ents []entry, g0, w, k int, v []float64) float64 {
	var s [fp.Lanes]float64
	for _, e := range ents {
		blk := vals[e.off+g0*e.nc : e.off+g0*e.nc+w*e.nc]
		for c, x := range v[e.col0 : e.col0+e.nc] {
			s[c%fp.Lanes] = math.FMA(blk[c*w+k], x, s[c%fp.Lanes])
		}
	}
	return fp.Tree(&s)
}

// rowSums returns rows k and k+1 (k even) of the whole group (eight rows)
// at row g0 of a panel with entries ents, times v: for each, Tree(s) with
// chain s_i over the columns c ≡ i (mod 8) of every entry in turn.
func rowSums(vals []float64, ents []entry, g0, k int, v []float64) (float64, float64) {
	var s0, s1, s2, s3, s4, s5, s6, s7 float64
	var t0, t1, t2, t3, t4, t5, t6, t7 float64
	for _, e := range ents {
		blk := vals[e.off+g0*e.nc+k : e.off+(g0+fp.Lanes)*e.nc]
		xs := v[e.col0 : e.col0+e.nc]
		for len(xs) >= fp.Lanes && len(blk) > 57 {
			x0, x1, x2, x3 := xs[0], xs[1], xs[2], xs[3]
			s0 = math.FMA(blk[0], x0, s0)
			t0 = math.FMA(blk[1], x0, t0)
			s1 = math.FMA(blk[8], x1, s1)
			t1 = math.FMA(blk[9], x1, t1)
			s2 = math.FMA(blk[16], x2, s2)
			t2 = math.FMA(blk[17], x2, t2)
			s3 = math.FMA(blk[24], x3, s3)
			t3 = math.FMA(blk[25], x3, t3)
			x4, x5, x6, x7 := xs[4], xs[5], xs[6], xs[7]
			s4 = math.FMA(blk[32], x4, s4)
			t4 = math.FMA(blk[33], x4, t4)
			s5 = math.FMA(blk[40], x5, s5)
			t5 = math.FMA(blk[41], x5, t5)
			s6 = math.FMA(blk[48], x6, s6)
			t6 = math.FMA(blk[49], x6, t6)
			s7 = math.FMA(blk[56], x7, s7)
			t7 = math.FMA(blk[57], x7, t7)
			blk, xs = blk[min(64, len(blk)):], xs[8:]
		}
		for c, x := range xs { // the last nc mod 8 columns, chains 0 to 6
			b0, b1 := blk[c*fp.Lanes], blk[c*fp.Lanes+1]
			switch c {
			case 0:
				s0, t0 = math.FMA(b0, x, s0), math.FMA(b1, x, t0)
			case 1:
				s1, t1 = math.FMA(b0, x, s1), math.FMA(b1, x, t1)
			case 2:
				s2, t2 = math.FMA(b0, x, s2), math.FMA(b1, x, t2)
			case 3:
				s3, t3 = math.FMA(b0, x, s3), math.FMA(b1, x, t3)
			case 4:
				s4, t4 = math.FMA(b0, x, s4), math.FMA(b1, x, t4)
			case 5:
				s5, t5 = math.FMA(b0, x, s5), math.FMA(b1, x, t5)
			case 6:
				s6, t6 = math.FMA(b0, x, s6), math.FMA(b1, x, t6)
			}
		}
	}
	// fp.Tree of each row's chains.
	return ((s0 + s4) + (s2 + s6)) + ((s1 + s5) + (s3 + s7)), ((t0 + t4) + (t2 + t6)) + ((t1 + t5) + (t3 + t7))
}

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
// BidiagStep. That is the vector kernels' copy (AVX-512, AVX2 and NEON);
// the generic kernels' copy (quad) cuts a panel into quads of four rows
// instead, the last padded with rows of +0 to four (see quads.go).

// packed is the panel copy and the lane sums of Mᵀ u.
type packed struct {
	panels []panel
	vals   []float64
	lanes  []float64 // (n, 8): the eight lane chains of each column of Mᵀ u; zero between sweeps
	quad   bool      // the generic kernels' copy: quads of four rows, the last padded
}

// panel is a set of rows (ascending) and the blocks they all belong to.
type panel struct {
	rows []int32
	ents []entry // one per block of the panel, in block order
	nc   int     // the entries' number of columns if they all have the same, else -1
}

// entry is one block's part of a panel.
type entry struct {
	off, col0, nc int
}

// place is a row's place in a block: the block, and the row's index in it.
type place struct{ blk, local int32 }

// blocksOfRows returns the blocks of each of the m rows, in block order,
// with the row's place in each.
func blocksOfRows(m int, shapes []Shape) [][]place {
	of := make([][]place, m)
	for j, s := range shapes {
		for k, r := range s.Rows {
			of[r] = append(of[r], place{int32(j), int32(k)})
		}
	}
	return of
}

// pack makes the panel copy of a's blocks: the vector kernels' copy, or
// with quad the generic kernels'.
func (a *BlockSparse) pack(quad bool) *packed {
	rows := fp.Lanes // a group's rows
	if quad {
		rows = 4
	}
	of := blocksOfRows(a.m, a.shapes)
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
		p.nc = -1
		for k, pl := range of[p.rows[0]] {
			s := a.shapes[pl.blk]
			switch {
			case k == 0:
				p.nc = s.NCol
			case s.NCol != p.nc:
				p.nc = -1
			}
			n = (n + fp.Lanes - 1) &^ (fp.Lanes - 1) // each part on a 64-byte line
			p.ents = append(p.ents, entry{off: n, col0: s.Col0, nc: s.NCol})
			n += partRows(len(p.rows), quad) * s.NCol
		}
	}
	vals := aligned(n)
	for i := range panels {
		p := &panels[i]
		for k, pl := range of[p.rows[0]] {
			e := p.ents[k]
			blk := a.data[a.offs[pl.blk]:a.offs[pl.blk+1]]
			for g0 := 0; g0 < len(p.rows); g0 += rows {
				w := min(rows, len(p.rows)-g0)
				sw := w // a column's rows
				if quad {
					sw = rows
				}
				dst := vals[e.off+g0*e.nc:]
				for q, row := range p.rows[g0 : g0+w] {
					local := int(of[row][k].local)
					for c, x := range blk[local*e.nc : (local+1)*e.nc] {
						dst[c*sw+q] = x
					}
				}
			}
		}
	}
	return &packed{panels: panels, vals: vals, lanes: make([]float64, a.n*fp.Lanes), quad: quad}
}

// partRows is the number of rows an entry's part of a panel of nr rows
// holds: nr, or with quad nr rounded up to a multiple of four.
func partRows(nr int, quad bool) int {
	if quad {
		return (nr + 3) &^ 3
	}
	return nr
}

// negZeros is eight −0: r past a group's rows (groupU, and the AVX-512 M v
// kernels, which read it).
var negZeros = [fp.Lanes]float64{
	math.Copysign(0, -1), math.Copysign(0, -1), math.Copysign(0, -1), math.Copysign(0, -1),
	math.Copysign(0, -1), math.Copysign(0, -1), math.Copysign(0, -1), math.Copysign(0, -1),
}

// panelGroups is the most groups of a panel whose Mᵀ u is formed at once,
// after their M v (in the Mᵀ u kernels, in one call).
const panelGroups = 4

// chunk returns the number of groups of panel p that the sweeps take at
// row g0 (at most panelGroups) and the width of the last of them.
func (p *panel) chunk(g0 int) (ng, w int) {
	nr := len(p.rows)
	ng = min(panelGroups, (nr-g0+fp.Lanes-1)/fp.Lanes)
	return ng, min(fp.Lanes, nr-g0-fp.Lanes*(ng-1))
}

// groupU sets r to a group's lanes of u (rows, then −0), eight lanes or
// four (a quad, sweepQuads): with mul, after setting them to the group's
// row sums t (with trans, t − alpha u), the bits of the FMA update that
// BidiagStep defines. The kernels of Mᵀ u run a panel's last group of
// w < 8 rows (a last quad of 2 or 3 rows) on all its lanes, its entries past w +0
// (loaded as +0 by the vector kernels, stored as +0 in the generic copy):
// with r −0 there each product is −0, and x + (−0) = x for every x (−0
// included, which an underflowing lane sum can be), so the lanes past w
// keep their bits.
func groupU(r []float64, rows []int32, t []float64, mul, trans bool, u []float64, alpha float64) {
	copy(r, negZeros[:])
	for k, row := range rows {
		x := u[row]
		if mul {
			x = t[k]
			if trans { // M v − alpha u
				x = math.FMA(-alpha, u[row], x)
			}
			u[row] = x
		}
		r[k] = x
	}
}

// sweepNEON is the products of sweep on arm64's NEON path, a panel up to
// panelGroups groups at a time: each group's row sums (neonSums), then the
// lane sums of Mᵀ u over the groups (neonTrans; vector_neon.go). Every
// chain keeps the order that MulVec and MulTransVec define.
func (pk *packed) sweepNEON(mul, trans bool, u, v []float64, alpha float64) {
	var r [fp.Lanes * panelGroups]float64 // the groups' u; −0 past their rows
	for i := range pk.panels {
		p := &pk.panels[i]
		nr := len(p.rows)
		for g0 := 0; g0 < nr; g0 += fp.Lanes * panelGroups {
			ng, w := p.chunk(g0)
			for g := range ng {
				ga := g0 + fp.Lanes*g
				rows := p.rows[ga:min(ga+fp.Lanes, nr)]
				var t [fp.Lanes]float64
				if mul {
					neonSums(pk.vals, p, ga, len(rows), v, &t)
				}
				groupU(r[fp.Lanes*g:fp.Lanes*(g+1)], rows, t[:], mul, trans, u, alpha)
			}
			if trans {
				neonTrans(pk.lanes, pk.vals, p.ents, g0, ng, w, &r)
			}
		}
	}
}

// firstOf returns a pointer to v's first value for the vector kernels, nil
// if v is empty (the kernels then read none of it).
func firstOf(v []float64) *float64 {
	if len(v) == 0 {
		return nil
	}
	return &v[0]
}

// aligned returns a zero slice of n float64s starting on a 64-byte line,
// with at least eight zeros after it in the same allocation (the NEON
// kernels' loads of a panel's last group reach up to seven values past it).
func aligned(n int) []float64 {
	buf := make([]float64, n+2*fp.Lanes)
	k := 0
	for uintptr(unsafe.Pointer(&buf[k]))%64 != 0 {
		k++
	}
	return buf[k : k+n : k+n]
}

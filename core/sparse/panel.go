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
	lanes  []float64 // (n, 8): the eight lane chains of each column of Mᵀ u; zero between sweeps
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

// pack makes the panel copy of a's blocks.
func (a *BlockSparse) pack() *packed {
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

// groupU sets r to a group's lanes of u (rows, then −0): with mul, after
// setting them to the group's row sums t (with trans, t − alpha u), the
// bits of the FMA update that BidiagStep defines. The vector kernels of
// Mᵀ u run a panel's last group of w < 8 rows on all eight lanes, its
// entries past w loaded as +0: with r −0 there each product is −0, and
// x + (−0) = x for every x (−0 included, which an underflowing lane sum can
// be), so the lanes past w keep their bits, as in transGroups, which does
// not touch them.
func groupU(r *[fp.Lanes]float64, rows []int32, t *[fp.Lanes]float64, mul, trans bool, u []float64, alpha float64) {
	*r = negZeros
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

// sweepGeneric is the products of sweep in scalar code, a panel up to
// panelGroups groups at a time: each group's row sums (groupSums), then the
// lane sums of Mᵀ u over the groups (transGroups). Every chain keeps the
// order that MulVec and MulTransVec define. groupSums and transGroups read
// the copy, v and the lanes through unsafe pointers, formed only to
// columns there are (pack puts every part inside vals, which is checked
// once per panel; New keeps every block's columns inside v and the lanes;
// make test runs them with Go's checkptr), but for partSums's loads of a
// partial group's last two or three rows, which reach up to two values
// past a part (into the next part, or the slack that aligned leaves after
// vals): with one to three columns of a block in each chain, slice bounds
// checks and re-slicing were most of their instructions. With neon
// (arm64's NEON path) the same sweep calls the NEON kernels instead
// (neonSums and neonTrans, vector_neon.go).
func (pk *packed) sweepGeneric(neon, mul, trans bool, u, v []float64, alpha float64) {
	var r [fp.Lanes * panelGroups]float64 // the groups' u; 0 past their rows
	for i := range pk.panels {
		p := &pk.panels[i]
		nr := len(p.rows)
		if n := len(p.ents); n > 0 { // the panel's last part ends inside vals
			e := p.ents[n-1]
			_ = pk.vals[:e.off+nr*e.nc]
		}
		for g0 := 0; g0 < nr; g0 += fp.Lanes * panelGroups {
			ng, w := p.chunk(g0)
			for g := range ng {
				ga := g0 + fp.Lanes*g
				rows := p.rows[ga:min(ga+fp.Lanes, nr)]
				var t [fp.Lanes]float64
				switch {
				case !mul:
				case neon:
					neonSums(pk.vals, p, ga, len(rows), v, &t)
				case len(rows) == fp.Lanes:
					groupSums(pk.vals, p, ga, v, &t)
				default:
					partSums(pk.vals, p, ga, len(rows), v, &t)
				}
				groupU((*[fp.Lanes]float64)(r[fp.Lanes*g:]), rows, &t, mul, trans, u, alpha)
			}
			switch {
			case !trans:
			case neon:
				neonTrans(pk.lanes, pk.vals, p.ents, g0, ng, w, &r)
			default:
				transGroups(pk.lanes, pk.vals, p.ents, g0, ng, w, &r)
			}
		}
	}
}

// rowSum returns row k of the group of w rows at row g0 of a panel with
// entries ents, times v: Tree(s) with chain s_i over the columns c ≡ i
// (mod 8) of every entry in turn. It runs chains 0-3 and then 4-7 over the
// entries (four sums, each entry's columns four at a time through
// pointers, formed only to columns there are), so that nothing spills.
func rowSum(vals []float64, ents []entry, g0, w, k int, v []float64) float64 {
	var s [fp.Lanes]float64
	base := unsafe.Pointer(unsafe.SliceData(vals))
	vb := unsafe.Pointer(unsafe.SliceData(v))
	sw := 8 * w // one column of the group, in bytes
	for h := 0; h < fp.Lanes; h += 4 {
		var a0, a1, a2, a3 float64
		for _, e := range ents {
			if e.nc <= h {
				continue
			}
			m0 := unsafe.Add(base, 8*(e.off+g0*e.nc+k)) // column 0
			x0 := unsafe.Add(vb, 8*e.col0)
			for c := h; c < e.nc; c += fp.Lanes { // columns c to c+3, those there are
				m, x := unsafe.Add(m0, c*sw), unsafe.Add(x0, 8*c)
				a0 = math.FMA(*(*float64)(m), *(*float64)(x), a0)
				n := e.nc - c
				if n > 1 {
					a1 = math.FMA(*(*float64)(unsafe.Add(m, sw)), *(*float64)(unsafe.Add(x, 8)), a1)
				}
				if n > 2 {
					a2 = math.FMA(*(*float64)(unsafe.Add(m, 2*sw)), *(*float64)(unsafe.Add(x, 16)), a2)
				}
				if n > 3 {
					a3 = math.FMA(*(*float64)(unsafe.Add(m, 3*sw)), *(*float64)(unsafe.Add(x, 24)), a3)
				}
			}
		}
		s[h], s[h+1], s[h+2], s[h+3] = a0, a1, a2, a3
	}
	return fp.Tree(&s)
}

// groupSums sets t[k] to row k's sum for the whole group (eight rows) at
// row g0 of panel p: Tree(s) with chain s_i over the columns c ≡ i (mod 8)
// of every entry in turn, as rowSum. It runs chain by chain over four rows
// at a time, so that each value of v feeds four FMAs and the sums stay in
// registers; when the entries have the same number of columns, up to 24, a
// chain's one to three columns of an entry are one straight run.
func groupSums(vals []float64, p *panel, g0 int, v []float64, t *[fp.Lanes]float64) {
	var s [fp.Lanes][fp.Lanes]float64 // s[k][i]: chain i of row k
	base := unsafe.Pointer(unsafe.SliceData(vals))
	vb := unsafe.Pointer(unsafe.SliceData(v))
	const step = 8 * fp.Lanes * fp.Lanes // eight columns of the group, in bytes
	for q := 0; q < fp.Lanes; q += 4 {
		for i := range fp.Lanes {
			var a0, a1, a2, a3 float64
			switch nc := p.nc; {
			case nc > i && nc-i <= 3*fp.Lanes:
				mo, xo := 8*(g0*nc+fp.Lanes*i+q), 8*i
				switch (nc - i + fp.Lanes - 1) / fp.Lanes {
				case 1:
					for _, e := range p.ents {
						m, x := unsafe.Add(base, 8*e.off+mo), unsafe.Add(vb, 8*e.col0+xo)
						a0, a1, a2, a3 = quad(m, x, a0, a1, a2, a3)
					}
				case 2:
					for _, e := range p.ents {
						m, x := unsafe.Add(base, 8*e.off+mo), unsafe.Add(vb, 8*e.col0+xo)
						a0, a1, a2, a3 = quad(m, x, a0, a1, a2, a3)
						a0, a1, a2, a3 = quad(unsafe.Add(m, step), unsafe.Add(x, 8*fp.Lanes), a0, a1, a2, a3)
					}
				default:
					for _, e := range p.ents {
						m, x := unsafe.Add(base, 8*e.off+mo), unsafe.Add(vb, 8*e.col0+xo)
						a0, a1, a2, a3 = quad(m, x, a0, a1, a2, a3)
						a0, a1, a2, a3 = quad(unsafe.Add(m, step), unsafe.Add(x, 8*fp.Lanes), a0, a1, a2, a3)
						a0, a1, a2, a3 = quad(unsafe.Add(m, 2*step), unsafe.Add(x, 16*fp.Lanes), a0, a1, a2, a3)
					}
				}
			default:
				for _, e := range p.ents {
					for c := i; c < e.nc; c += fp.Lanes { // a pointer only to a column there is
						m := unsafe.Add(base, 8*(e.off+g0*e.nc+fp.Lanes*c+q))
						a0, a1, a2, a3 = quad(m, unsafe.Add(vb, 8*(e.col0+c)), a0, a1, a2, a3)
					}
				}
			}
			s[q][i], s[q+1][i], s[q+2][i], s[q+3][i] = a0, a1, a2, a3
		}
	}
	for k := range t {
		t[k] = fp.Tree(&s[k])
	}
}

// partSums is groupSums for the last group of a panel, of w < 8 rows. It is
// groupSums's code with the group's column stride 8w a variable: with the
// constant stride of whole groups, groupSums took M v 1.2x faster, which is
// why the two are not one. The last w mod 4 rows, if two or three, are
// loaded four at a time too, the rows past w reading the next column's
// values (past the last column, the zeros before the next part, the next
// part, or the copy's slack, see aligned), whose sums are dropped; a last
// row alone is rowSum's.
func partSums(vals []float64, p *panel, g0, w int, v []float64, t *[fp.Lanes]float64) {
	var s [fp.Lanes][fp.Lanes]float64 // s[k][i]: chain i of row k
	base := unsafe.Pointer(unsafe.SliceData(vals))
	vb := unsafe.Pointer(unsafe.SliceData(v))
	step := 8 * fp.Lanes * w // eight columns of the group, in bytes
	q := 0
	for ; w-q >= 2; q += 4 { // four rows a pass, the last two or three too
		for i := range fp.Lanes {
			var a0, a1, a2, a3 float64
			switch nc := p.nc; {
			case nc > i && nc-i <= 3*fp.Lanes:
				mo, xo := 8*(g0*nc+w*i+q), 8*i
				switch (nc - i + fp.Lanes - 1) / fp.Lanes {
				case 1:
					for _, e := range p.ents {
						m, x := unsafe.Add(base, 8*e.off+mo), unsafe.Add(vb, 8*e.col0+xo)
						a0, a1, a2, a3 = quad(m, x, a0, a1, a2, a3)
					}
				case 2:
					for _, e := range p.ents {
						m, x := unsafe.Add(base, 8*e.off+mo), unsafe.Add(vb, 8*e.col0+xo)
						a0, a1, a2, a3 = quad(m, x, a0, a1, a2, a3)
						a0, a1, a2, a3 = quad(unsafe.Add(m, step), unsafe.Add(x, 8*fp.Lanes), a0, a1, a2, a3)
					}
				default:
					for _, e := range p.ents {
						m, x := unsafe.Add(base, 8*e.off+mo), unsafe.Add(vb, 8*e.col0+xo)
						a0, a1, a2, a3 = quad(m, x, a0, a1, a2, a3)
						a0, a1, a2, a3 = quad(unsafe.Add(m, step), unsafe.Add(x, 8*fp.Lanes), a0, a1, a2, a3)
						a0, a1, a2, a3 = quad(unsafe.Add(m, 2*step), unsafe.Add(x, 16*fp.Lanes), a0, a1, a2, a3)
					}
				}
			default:
				for _, e := range p.ents {
					for c := i; c < e.nc; c += fp.Lanes { // a pointer only to a column there is
						m := unsafe.Add(base, 8*(e.off+g0*e.nc+w*c+q))
						a0, a1, a2, a3 = quad(m, unsafe.Add(vb, 8*(e.col0+c)), a0, a1, a2, a3)
					}
				}
			}
			s[q][i], s[q+1][i], s[q+2][i], s[q+3][i] = a0, a1, a2, a3
		}
	}
	for k := range min(q, w) {
		t[k] = fp.Tree(&s[k])
	}
	if q < w { // a last row
		t[q] = rowSum(vals, p.ents, g0, w, q, v)
	}
}

// quad returns the four sums a after one more column: FMA(m[k], x, a_k).
func quad(m, x unsafe.Pointer, a0, a1, a2, a3 float64) (float64, float64, float64, float64) {
	xc, o := *(*float64)(x), (*[4]float64)(m)
	return math.FMA(o[0], xc, a0), math.FMA(o[1], xc, a1), math.FMA(o[2], xc, a2), math.FMA(o[3], xc, a3)
}

// transGroups adds the products of ng groups at row g0 of a panel (the last
// of w rows, the others of eight) with their values r of u to the lane sums
// of their columns: lane k of column c gains M[row 8g+k, c]·r[8g+k], group
// after group (blocks that share rows share no column, see New, so a
// column's lanes meet the groups in order). Four lanes at a time, the
// groups that hold all four are taken three at a time over every entry
// (twelve values of u in registers; each lane loaded and stored once for
// the three), then two, then one; then the last group's lanes past its
// last four, the one to three of them together. A lane's chain sees its
// groups in order whatever the order of the entries and columns around it,
// so each pass runs over all the entries.
func transGroups(lanes, vals []float64, ents []entry, g0, ng, w int, r *[fp.Lanes * panelGroups]float64) {
	lb := unsafe.Pointer(unsafe.SliceData(lanes))
	base := unsafe.Pointer(unsafe.SliceData(vals))
	for k := 0; k < fp.Lanes; k += 4 {
		n := ng // the groups that hold lanes k to k+3
		if w < k+4 {
			n--
		}
		sl := 8 * fp.Lanes // the column stride of the n-th, in bytes
		if w < fp.Lanes && n == ng {
			sl = 8 * w
		}
		g := 0
		for ; g+3 <= n; g += 3 {
			s := 8 * fp.Lanes
			if g+3 == n {
				s = sl
			}
			trans3(lb, base, ents, g0, g, k, s, r)
		}
		switch n - g {
		case 2:
			trans2(lb, base, ents, g0, g, k, sl, r)
		case 1:
			trans1(lb, base, ents, g0, g, k, sl, r)
		}
	}
	if w%4 == 0 {
		return
	}
	gl, k := ng-1, w&^3 // the last group's lanes past its last four: k to w-1
	rg := r[fp.Lanes*gl+k:][:3]
	r0, r1, r2 := rg[0], rg[1], rg[2]
	for i := range ents {
		if ents[i].nc == 0 {
			continue
		}
		l, m, _ := lanesAt(lb, base, &ents[i], g0, gl, k)
		switch w - k {
		case 1:
			for j := ents[i].nc; ; { // pointers only to columns there are
				*(*float64)(l) = math.FMA(*(*float64)(m), r0, *(*float64)(l))
				if j--; j == 0 {
					break
				}
				l, m = unsafe.Add(l, 8*fp.Lanes), unsafe.Add(m, 8*w)
			}
		case 2:
			for j := ents[i].nc; ; {
				lc, a := (*[2]float64)(l), (*[2]float64)(m)
				lc[0] = math.FMA(a[0], r0, lc[0])
				lc[1] = math.FMA(a[1], r1, lc[1])
				if j--; j == 0 {
					break
				}
				l, m = unsafe.Add(l, 8*fp.Lanes), unsafe.Add(m, 8*w)
			}
		default:
			for j := ents[i].nc; ; {
				lc, a := (*[3]float64)(l), (*[3]float64)(m)
				lc[0] = math.FMA(a[0], r0, lc[0])
				lc[1] = math.FMA(a[1], r1, lc[1])
				lc[2] = math.FMA(a[2], r2, lc[2])
				if j--; j == 0 {
					break
				}
				l, m = unsafe.Add(l, 8*fp.Lanes), unsafe.Add(m, 8*w)
			}
		}
	}
}

// lanesAt returns, for entry e of a chunk at row g0, its lane k of column 0
// in the lane sums at lb and row k of group g's part of column 0 (its whole
// groups' parts are gs bytes each).
func lanesAt(lb, base unsafe.Pointer, e *entry, g0, g, k int) (l, m unsafe.Pointer, gs int) {
	gs = 8 * fp.Lanes * e.nc
	return unsafe.Add(lb, 8*(fp.Lanes*e.col0+k)), unsafe.Add(base, 8*(e.off+g0*e.nc+k)+g*gs), gs
}

// trans3 adds groups g, g+1 and g+2 of a chunk at row g0 to lanes k to k+3
// of every entry's columns: the first two whole (a column every 64 bytes),
// the third's columns sc bytes apart, their values of u in r.
func trans3(lb, base unsafe.Pointer, ents []entry, g0, g, k, sc int, r *[fp.Lanes * panelGroups]float64) {
	ra, rb, rc := r[fp.Lanes*g+k:][:4], r[fp.Lanes*(g+1)+k:][:4], r[fp.Lanes*(g+2)+k:][:4]
	ra0, ra1, ra2, ra3 := ra[0], ra[1], ra[2], ra[3]
	rb0, rb1, rb2, rb3 := rb[0], rb[1], rb[2], rb[3]
	rc0, rc1, rc2, rc3 := rc[0], rc[1], rc[2], rc[3]
	for i := range ents {
		nc := ents[i].nc
		if nc == 0 {
			continue
		}
		l, m, gs := lanesAt(lb, base, &ents[i], g0, g, k)
		mc := unsafe.Add(m, 2*gs)
		for j := nc; ; { // pointers only to columns there are
			lc, a, b, c := (*[4]float64)(l), (*[4]float64)(m), (*[4]float64)(unsafe.Add(m, gs)), (*[4]float64)(mc)
			lc[0] = math.FMA(c[0], rc0, math.FMA(b[0], rb0, math.FMA(a[0], ra0, lc[0])))
			lc[1] = math.FMA(c[1], rc1, math.FMA(b[1], rb1, math.FMA(a[1], ra1, lc[1])))
			lc[2] = math.FMA(c[2], rc2, math.FMA(b[2], rb2, math.FMA(a[2], ra2, lc[2])))
			lc[3] = math.FMA(c[3], rc3, math.FMA(b[3], rb3, math.FMA(a[3], ra3, lc[3])))
			if j--; j == 0 {
				break
			}
			l, m, mc = unsafe.Add(l, 8*fp.Lanes), unsafe.Add(m, 8*fp.Lanes), unsafe.Add(mc, sc)
		}
	}
}

// trans2 is trans3 for groups g and g+1, the first whole.
func trans2(lb, base unsafe.Pointer, ents []entry, g0, g, k, sb int, r *[fp.Lanes * panelGroups]float64) {
	ra, rb := r[fp.Lanes*g+k:][:4], r[fp.Lanes*(g+1)+k:][:4]
	ra0, ra1, ra2, ra3 := ra[0], ra[1], ra[2], ra[3]
	rb0, rb1, rb2, rb3 := rb[0], rb[1], rb[2], rb[3]
	for i := range ents {
		nc := ents[i].nc
		if nc == 0 {
			continue
		}
		l, m, gs := lanesAt(lb, base, &ents[i], g0, g, k)
		mb := unsafe.Add(m, gs)
		for j := nc; ; { // pointers only to columns there are
			lc, a, b := (*[4]float64)(l), (*[4]float64)(m), (*[4]float64)(mb)
			lc[0] = math.FMA(b[0], rb0, math.FMA(a[0], ra0, lc[0]))
			lc[1] = math.FMA(b[1], rb1, math.FMA(a[1], ra1, lc[1]))
			lc[2] = math.FMA(b[2], rb2, math.FMA(a[2], ra2, lc[2]))
			lc[3] = math.FMA(b[3], rb3, math.FMA(a[3], ra3, lc[3]))
			if j--; j == 0 {
				break
			}
			l, m, mb = unsafe.Add(l, 8*fp.Lanes), unsafe.Add(m, 8*fp.Lanes), unsafe.Add(mb, sb)
		}
	}
}

// trans1 is trans3 for group g alone, its columns sa bytes apart.
func trans1(lb, base unsafe.Pointer, ents []entry, g0, g, k, sa int, r *[fp.Lanes * panelGroups]float64) {
	ra := r[fp.Lanes*g+k:][:4]
	ra0, ra1, ra2, ra3 := ra[0], ra[1], ra[2], ra[3]
	for i := range ents {
		nc := ents[i].nc
		if nc == 0 {
			continue
		}
		l, m, _ := lanesAt(lb, base, &ents[i], g0, g, k)
		for j := nc; ; { // pointers only to columns there are
			lc, a := (*[4]float64)(l), (*[4]float64)(m)
			lc[0] = math.FMA(a[0], ra0, lc[0])
			lc[1] = math.FMA(a[1], ra1, lc[1])
			lc[2] = math.FMA(a[2], ra2, lc[2])
			lc[3] = math.FMA(a[3], ra3, lc[3])
			if j--; j == 0 {
				break
			}
			l, m = unsafe.Add(l, 8*fp.Lanes), unsafe.Add(m, sa)
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
// kernels' loads of a panel's last group reach up to seven values past it,
// partSums's up to two).
func aligned(n int) []float64 {
	buf := make([]float64, n+2*fp.Lanes)
	k := 0
	for uintptr(unsafe.Pointer(&buf[k]))%64 != 0 {
		k++
	}
	return buf[k : k+n : k+n]
}

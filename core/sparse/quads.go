package sparse

import (
	"math"
	"unsafe"

	"elmfbpinn/core/fp"
)

// The generic kernels' copy (pack with quad) cuts each panel into quads of
// four rows, the last padded with rows of +0 to four, and stores a quad's
// part of each of the panel's blocks column by column, its four rows of a
// column together:
//
//	vals[e.off + q·nc·4 + c·4 + k] = M_b[row 4q+k of the panel, column c]
//
// for entry e (block b, nc columns) of the panel and quad q (+0 past the
// panel's rows). Quad q holds lanes 4h to 4h+3, h = q mod 2, of the
// panel's group q/2, so lane 4h+k's chain meets the quads q ≡ h (mod 2)
// in order, as it meets the groups. Every quad's column is four values 32
// bytes from the next column's: with one layout for every quad the kernels
// need no code for a last group of w < 8 rows, which in the vector
// kernels' copy took a column stride of 8w bytes, and its last w mod 4
// rows a row and a lane at a time (1.5 times the instructions per entry of
// a whole group in M v, three times in Mᵀ u). The padding is at most three
// rows of each part: 1-2% more values on the 2D baselines.

// quadBytes is one column of a quad, in bytes.
const quadBytes = 8 * 4

// sweepQuads is the products of sweep in scalar code, on the quad copy, a
// panel up to panelGroups groups (2·panelGroups quads) at a time: each
// quad's row sums (quadSums, or oneSum for a last quad of one row), then
// the lane sums of Mᵀ u over the quads (transQuads). Every chain keeps the
// order that MulVec and MulTransVec define. The kernels read the copy, v
// and the lanes through unsafe pointers, formed only to columns there are
// (pack puts every part inside vals, which is checked once per panel; New
// keeps every block's columns inside v and the lanes; make test runs them
// with Go's checkptr): with one to three columns of a block in each chain,
// slice bounds checks and re-slicing were most of their instructions.
func (pk *packed) sweepQuads(mul, trans bool, u, v []float64, alpha float64) {
	var r [fp.Lanes * panelGroups]float64 // the quads' u, quad j at 4j; −0 past their rows
	for i := range pk.panels {
		p := &pk.panels[i]
		nr := len(p.rows)
		if n := len(p.ents); n > 0 { // the panel's last part ends inside vals
			e := p.ents[n-1]
			_ = pk.vals[:e.off+partRows(nr, pk.quad)*e.nc]
		}
		for g0 := 0; g0 < nr; g0 += fp.Lanes * panelGroups {
			nq := min(2*panelGroups, (nr-g0+3)/4) // the chunk's quads
			for j := range nq {
				qa := g0 + 4*j
				rows := p.rows[qa:min(qa+4, nr)]
				var t [4]float64
				switch {
				case !mul:
				case len(rows) == 1:
					t[0] = oneSum(pk.vals, p, qa, v)
				default:
					quadSums(pk.vals, p, qa, v, &t)
				}
				groupU(r[4*j:4*j+4], rows, t[:], mul, trans, u, alpha)
			}
			if trans {
				transQuads(pk.lanes, pk.vals, p.ents, g0, nq, nr-g0 == 4*nq-3, &r)
			}
		}
	}
}

// quadSums sets t[k] to row k's sum for the quad at row q0 of panel p
// (rows past the panel's: sums of the padding, which the caller drops):
// Tree(s) with chain s_i over the columns c ≡ i (mod 8) of every entry in
// turn. It runs chain by chain over the quad's four rows, so that each
// value of v feeds four FMAs and the sums stay in registers; when the
// entries have the same number of columns, up to 24, a chain's one to
// three columns of an entry are one straight run.
func quadSums(vals []float64, p *panel, q0 int, v []float64, t *[4]float64) {
	var s [4][fp.Lanes]float64 // s[k][i]: chain i of row k
	base := unsafe.Pointer(unsafe.SliceData(vals))
	vb := unsafe.Pointer(unsafe.SliceData(v))
	const step = fp.Lanes * quadBytes // eight columns of the quad, in bytes
	for i := range fp.Lanes {
		var a0, a1, a2, a3 float64
		switch nc := p.nc; {
		case nc > i && nc-i <= 3*fp.Lanes:
			mo, xo := 8*q0*nc+quadBytes*i, 8*i
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
					m := unsafe.Add(base, 8*(e.off+q0*e.nc)+quadBytes*c)
					a0, a1, a2, a3 = quad(m, unsafe.Add(vb, 8*(e.col0+c)), a0, a1, a2, a3)
				}
			}
		}
		s[0][i], s[1][i], s[2][i], s[3][i] = a0, a1, a2, a3
	}
	for k := range t {
		t[k] = fp.Tree(&s[k])
	}
}

// oneSum returns the sum of the one row of the last quad at row q0 of
// panel p: quadSums for that row alone. It runs chains 0-3 and then 4-7
// over the entries (four sums, each entry's columns four at a time through
// pointers, formed only to columns there are), so that nothing spills.
func oneSum(vals []float64, p *panel, q0 int, v []float64) float64 {
	var s [fp.Lanes]float64
	base := unsafe.Pointer(unsafe.SliceData(vals))
	vb := unsafe.Pointer(unsafe.SliceData(v))
	for h := 0; h < fp.Lanes; h += 4 {
		var a0, a1, a2, a3 float64
		for _, e := range p.ents {
			if e.nc <= h {
				continue
			}
			m0 := unsafe.Add(base, 8*(e.off+q0*e.nc)) // column 0
			x0 := unsafe.Add(vb, 8*e.col0)
			for c := h; c < e.nc; c += fp.Lanes { // columns c to c+3, those there are
				m, x := unsafe.Add(m0, quadBytes*c), unsafe.Add(x0, 8*c)
				a0 = math.FMA(*(*float64)(m), *(*float64)(x), a0)
				n := e.nc - c
				if n > 1 {
					a1 = math.FMA(*(*float64)(unsafe.Add(m, quadBytes)), *(*float64)(unsafe.Add(x, 8)), a1)
				}
				if n > 2 {
					a2 = math.FMA(*(*float64)(unsafe.Add(m, 2*quadBytes)), *(*float64)(unsafe.Add(x, 16)), a2)
				}
				if n > 3 {
					a3 = math.FMA(*(*float64)(unsafe.Add(m, 3*quadBytes)), *(*float64)(unsafe.Add(x, 24)), a3)
				}
			}
		}
		s[h], s[h+1], s[h+2], s[h+3] = a0, a1, a2, a3
	}
	return fp.Tree(&s)
}

// quad returns the four sums a after one more column: FMA(m[k], x, a_k).
func quad(m, x unsafe.Pointer, a0, a1, a2, a3 float64) (float64, float64, float64, float64) {
	xc, o := *(*float64)(x), (*[4]float64)(m)
	return math.FMA(o[0], xc, a0), math.FMA(o[1], xc, a1), math.FMA(o[2], xc, a2), math.FMA(o[3], xc, a3)
}

// transQuads adds the products of the nq quads at row g0 of a panel with
// their values r of u to the lane sums of their columns: lane 4h+k of
// column c gains M[row g0+4j+k, c]·r[4j+k] for the quads j ≡ h (mod 2), in
// order (blocks that share rows share no column, see New, so a column's
// lanes meet the quads in order). Four lanes at a time, their quads are
// taken three at a time over every entry (twelve values of u in registers;
// each lane loaded and stored once for the three), then two, then one; a
// last quad of one row (one) is then taken alone, its one lane only. A
// lane's chain sees its quads in order whatever the order of the entries
// and columns around it, so each pass runs over all the entries.
func transQuads(lanes, vals []float64, ents []entry, g0, nq int, one bool, r *[fp.Lanes * panelGroups]float64) {
	lb := unsafe.Pointer(unsafe.SliceData(lanes))
	base := unsafe.Pointer(unsafe.SliceData(vals))
	n := nq // the quads taken four lanes at a time
	if one {
		n--
	}
	for h := range 2 {
		j := h
		for ; j+4 < n; j += 6 {
			trans3(lb, base, ents, g0, j, h, r)
		}
		switch {
		case j+2 < n:
			trans2(lb, base, ents, g0, j, h, r)
		case j < n:
			trans1(lb, base, ents, g0, j, h, r)
		}
	}
	if !one {
		return
	}
	j := nq - 1
	rj := r[4*j]
	for i := range ents {
		nc := ents[i].nc
		if nc == 0 {
			continue
		}
		l, m, _ := lanesAt(lb, base, &ents[i], g0, j, j%2)
		for c := nc; ; { // pointers only to columns there are
			*(*float64)(l) = math.FMA(*(*float64)(m), rj, *(*float64)(l))
			if c--; c == 0 {
				break
			}
			l, m = unsafe.Add(l, 8*fp.Lanes), unsafe.Add(m, quadBytes)
		}
	}
}

// lanesAt returns, for entry e of a chunk at row g0, its lanes 4h to 4h+3
// of column 0 in the lane sums at lb, quad j's part of column 0, and the
// bytes from one quad's part to the next but one's (the next of the same
// lanes).
func lanesAt(lb, base unsafe.Pointer, e *entry, g0, j, h int) (l, m unsafe.Pointer, gs int) {
	return unsafe.Add(lb, 8*(fp.Lanes*e.col0+4*h)), unsafe.Add(base, 8*(e.off+(g0+4*j)*e.nc)), 8 * fp.Lanes * e.nc
}

// trans3 adds quads j, j+2 and j+4 of a chunk at row g0 (j ≡ h mod 2) to
// lanes 4h to 4h+3 of every entry's columns, their values of u in r.
func trans3(lb, base unsafe.Pointer, ents []entry, g0, j, h int, r *[fp.Lanes * panelGroups]float64) {
	ra, rb, rc := r[4*j:][:4], r[4*(j+2):][:4], r[4*(j+4):][:4]
	ra0, ra1, ra2, ra3 := ra[0], ra[1], ra[2], ra[3]
	rb0, rb1, rb2, rb3 := rb[0], rb[1], rb[2], rb[3]
	rc0, rc1, rc2, rc3 := rc[0], rc[1], rc[2], rc[3]
	for i := range ents {
		nc := ents[i].nc
		if nc == 0 {
			continue
		}
		l, m, gs := lanesAt(lb, base, &ents[i], g0, j, h)
		for c := nc; ; { // pointers only to columns there are
			lc, a, b, d := (*[4]float64)(l), (*[4]float64)(m), (*[4]float64)(unsafe.Add(m, gs)), (*[4]float64)(unsafe.Add(m, 2*gs))
			lc[0] = math.FMA(d[0], rc0, math.FMA(b[0], rb0, math.FMA(a[0], ra0, lc[0])))
			lc[1] = math.FMA(d[1], rc1, math.FMA(b[1], rb1, math.FMA(a[1], ra1, lc[1])))
			lc[2] = math.FMA(d[2], rc2, math.FMA(b[2], rb2, math.FMA(a[2], ra2, lc[2])))
			lc[3] = math.FMA(d[3], rc3, math.FMA(b[3], rb3, math.FMA(a[3], ra3, lc[3])))
			if c--; c == 0 {
				break
			}
			l, m = unsafe.Add(l, 8*fp.Lanes), unsafe.Add(m, quadBytes)
		}
	}
}

// trans2 is trans3 for quads j and j+2.
func trans2(lb, base unsafe.Pointer, ents []entry, g0, j, h int, r *[fp.Lanes * panelGroups]float64) {
	ra, rb := r[4*j:][:4], r[4*(j+2):][:4]
	ra0, ra1, ra2, ra3 := ra[0], ra[1], ra[2], ra[3]
	rb0, rb1, rb2, rb3 := rb[0], rb[1], rb[2], rb[3]
	for i := range ents {
		nc := ents[i].nc
		if nc == 0 {
			continue
		}
		l, m, gs := lanesAt(lb, base, &ents[i], g0, j, h)
		for c := nc; ; { // pointers only to columns there are
			lc, a, b := (*[4]float64)(l), (*[4]float64)(m), (*[4]float64)(unsafe.Add(m, gs))
			lc[0] = math.FMA(b[0], rb0, math.FMA(a[0], ra0, lc[0]))
			lc[1] = math.FMA(b[1], rb1, math.FMA(a[1], ra1, lc[1]))
			lc[2] = math.FMA(b[2], rb2, math.FMA(a[2], ra2, lc[2]))
			lc[3] = math.FMA(b[3], rb3, math.FMA(a[3], ra3, lc[3]))
			if c--; c == 0 {
				break
			}
			l, m = unsafe.Add(l, 8*fp.Lanes), unsafe.Add(m, quadBytes)
		}
	}
}

// trans1 is trans3 for quad j alone.
func trans1(lb, base unsafe.Pointer, ents []entry, g0, j, h int, r *[fp.Lanes * panelGroups]float64) {
	ra := r[4*j:][:4]
	ra0, ra1, ra2, ra3 := ra[0], ra[1], ra[2], ra[3]
	for i := range ents {
		nc := ents[i].nc
		if nc == 0 {
			continue
		}
		l, m, _ := lanesAt(lb, base, &ents[i], g0, j, h)
		for c := nc; ; { // pointers only to columns there are
			lc, a := (*[4]float64)(l), (*[4]float64)(m)
			lc[0] = math.FMA(a[0], ra0, lc[0])
			lc[1] = math.FMA(a[1], ra1, lc[1])
			lc[2] = math.FMA(a[2], ra2, lc[2])
			lc[3] = math.FMA(a[3], ra3, lc[3])
			if c--; c == 0 {
				break
			}
			l, m = unsafe.Add(l, 8*fp.Lanes), unsafe.Add(m, quadBytes)
		}
	}
}

//go:build amd64 && !purego

package sparse

//go:generate python3 ../../scripts/asmgen/panel.py

import "unsafe"

// sweepVector is sweepGeneric with a group's eight rows in the lanes of one
// AVX-512 register (avx2: of two AVX2 registers). A panel is taken up to
// four groups at a time (panelGroups): first the groups' row sums (eight
// vector FMA chains over the columns, added as fp.Tree adds:
// mulVecGroupAsm, or mulVecQuadAsm in four lanes for a group of up to four
// rows; avx2: mulVecGroupAVX2 and mulVecHalfAVX2); on the AVX-512 path these
// kernels also do groupU's update of u and r (5-9% of a step in Go) and, for
// a chunk of one group, its Mᵀ u. Then, column by column, the column's eight
// lane sums of Mᵀ u, held in a register across the chunk's groups
// (mulTransPanelAsm). The last group of a panel, of w < 8 rows, is read
// with masked loads: its missing rows load as +0 and their lanes of r are
// −0 (groupU), so they add −0 to the lane sums, which leaves every lane as
// it was. Every chain keeps its order, so the bits are those of
// sweepGeneric. The kernels are in panel_amd64.s and panelgen_amd64.s
// (scripts/asmgen/panel.py).
func (pk *packed) sweepVector(avx2, mul, trans bool, u, v []float64, alpha float64) {
	vals, vp, up := unsafe.SliceData(pk.vals), firstOf(v), firstOf(u)
	ahead := 0
	if 8*len(pk.vals) > prefetchAbove {
		ahead = prefetchAhead
	}
	var r [8 * panelGroups]float64
	for i := range pk.panels {
		p := &pk.panels[i]
		nr := len(p.rows)
		var ents *entry
		if len(p.ents) > 0 {
			ents = &p.ents[0]
		}
		for g0 := 0; g0 < nr; g0 += 8 * panelGroups {
			ng, w := p.chunk(g0)
			// On the AVX-512 path a chunk of one group gets its Mᵀ u from
			// the M v kernel (lanes), the others from mulTransPanelAsm.
			fused := mul && trans && !avx2 && ng == 1
			for g := range ng {
				ga := g0 + 8*g
				rows := p.rows[ga:min(ga+8, nr)]
				rg := (*[8]float64)(r[8*g : 8*g+8])
				if mul && !avx2 && len(p.ents) > 0 { // the kernel sets u and r
					step, lanes := 0, (*float64)(nil)
					if trans {
						step = 1
					}
					if fused {
						lanes = unsafe.SliceData(pk.lanes)
					}
					if len(rows) <= 4 {
						mulVecQuadAsm(vals, ents, len(p.ents), ga, vp, rg, len(rows), ahead, &rows[0], up, -alpha, step, lanes)
					} else {
						mulVecGroupAsm(vals, ents, len(p.ents), ga, vp, rg, len(rows), ahead, &rows[0], up, -alpha, step, lanes)
					}
					continue
				}
				var t [8]float64
				if mul {
					vectorSums(&t, vals, ents, p, ga, len(rows), vp, ahead)
				}
				groupU(rg, rows, &t, mul, trans, u, alpha)
			}
			if trans && len(p.ents) > 0 && !fused {
				if avx2 {
					mulTransPanelAVX2(unsafe.SliceData(pk.lanes), vals, ents, len(p.ents), g0, &r, ng, w)
				} else {
					mulTransPanelAsm(unsafe.SliceData(pk.lanes), vals, ents, len(p.ents), g0, &r, ng, w)
				}
			}
		}
	}
}

// vectorSums sets t to the row sums of the group of w rows at row g0 of
// panel p on the AVX2 path (rows past w: 0).
func vectorSums(t *[8]float64, vals *float64, ents *entry, p *panel, g0, w int, v *float64, ahead int) {
	switch {
	case len(p.ents) == 0:
	case w == 8:
		var sc [8][4]float64
		mulVecGroupAVX2(vals, ents, len(p.ents), g0, v, t, &sc, ahead)
	default:
		mulVecHalfAVX2(vals, ents, len(p.ents), g0, v, (*[4]float64)(t[0:4]), w, 0, ahead)
		if w > 4 {
			mulVecHalfAVX2(vals, ents, len(p.ents), g0, v, (*[4]float64)(t[4:8]), w, 4, ahead)
		}
	}
}

// The M v kernels ask for the packed copy prefetchAhead bytes ahead of
// what they read, into the L2 cache, when the copy is larger than
// prefetchAbove bytes: a copy beyond the L3 cache streams from memory, and
// the hardware prefetchers did not keep up with the kernels there (the
// three-level systems of the scaling tables, 43 MB: an LSQR iteration
// 1.3-1.5x faster with it on a Zen 4), while in cache the prefetches cost a
// few percent. A hint: the bits are the same either way.
const prefetchAhead = 32 << 10

var prefetchAbove = 8 << 20

// mulVecGroupAsm forms the row sums t of the group of w rows at row g0,
// asking for the packed copy ahead bytes on in the L2 cache as it reads it
// (ahead 0: no prefetch; see prefetchAhead), and then does groupU's update
// of the group's rows of u and its values r for Mᵀ u: with step 0 (M v)
// u[rows[k]] = r[k] = t[k], with step 1 (BidiagStep) u[rows[k]] = r[k] =
// FMA(nalpha, u[rows[k]], t[k]) where nalpha = −alpha; r is −0 past w.
// With lanes not nil, the group is a chunk of its own, and the kernel adds
// it to the lane sums too, as mulTransPanelAsm does (one call fewer).
//
//go:noescape
func mulVecGroupAsm(vals *float64, ents *entry, nents, g0 int, v *float64, r *[8]float64, w, ahead int, rows *int32, u *float64, nalpha float64, step int, lanes *float64)

// mulVecQuadAsm is mulVecGroupAsm for a group of w <= 4 rows, in four
// lanes (panelgen_amd64.s).
//
//go:noescape
func mulVecQuadAsm(vals *float64, ents *entry, nents, g0 int, v *float64, r *[8]float64, w, ahead int, rows *int32, u *float64, nalpha float64, step int, lanes *float64)

// mulTransPanelAsm adds the ng groups at rows g0, g0+8, ... (all whole but
// the last, of w rows) to the lane sums (panelgen_amd64.s).
//
//go:noescape
func mulTransPanelAsm(lanes, vals *float64, ents *entry, nents, g0 int, r *[8 * panelGroups]float64, ng, w int)

// mulTransPanelAVX2 is mulTransPanelAsm with four lanes per register.
//
//go:noescape
func mulTransPanelAVX2(lanes, vals *float64, ents *entry, nents, g0 int, r *[8 * panelGroups]float64, ng, w int)

// mulVecGroupAVX2 sets t to the row sums of the whole group at row g0.
//
//go:noescape
func mulVecGroupAVX2(vals *float64, ents *entry, nents, g0 int, v *float64, t *[8]float64, sc *[8][4]float64, ahead int)

// mulVecHalfAVX2 sets t to the row sums of rows half..half+3 (half 0 or 4)
// of the group of w < 8 rows at row g0; rows past w are 0.
//
//go:noescape
func mulVecHalfAVX2(vals *float64, ents *entry, nents, g0 int, v *float64, t *[4]float64, w, half, ahead int)

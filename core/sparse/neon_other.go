//go:build !arm64 || purego

package sparse

import "elmfbpinn/core/fp"

// Off arm64, or with the purego tag, there are no NEON kernels and the
// kernel path is never NEON: these are never called.
func neonSums(vals []float64, p *panel, ga, w int, v []float64, t *[fp.Lanes]float64) {
	panic("sparse: no NEON kernels")
}

func neonTrans(lanes, vals []float64, ents []entry, g0, ng, w int, r *[fp.Lanes * panelGroups]float64) {
	panic("sparse: no NEON kernels")
}

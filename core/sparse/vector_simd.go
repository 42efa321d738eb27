//go:build goexperiment.simd && amd64

package sparse

import "simd/archsimd"

// The AVX-512 kernels compute the chains that MulVec and MulTransVec
// define, eight at a time, with several independent chains in flight:
// MulVec across rows (32 rows per pass, from a column-major copy of the
// blocks padded to a multiple of 8 rows, so a column's eight entries are one
// load), MulTransVec across columns (up to 32 per pass over the rows, from
// the row-major blocks; the last chunk's load may reach into the next row or
// the padding after the data, lanes that are computed but never stored).
// MulAdd is math.FMA and every chain keeps its order, so the bits are those
// of the generic kernels.

// pack makes the padded column-major copy of every block.
func (a *BlockSparse) pack() {
	a.coffs = make([]int, len(a.shapes)+1)
	for i, s := range a.shapes {
		a.coffs[i+1] = a.coffs[i] + s.NCol*((len(s.Rows)+7)&^7)
	}
	cols := make([]float64, a.coffs[len(a.shapes)])
	for i, s := range a.shapes {
		blk, dst := a.data[a.offs[i]:a.offs[i+1]], cols[a.coffs[i]:a.coffs[i+1]]
		nr, nc := len(s.Rows), s.NCol
		nrp := (nr + 7) &^ 7
		for r := range nr {
			for c, v := range blk[r*nc : (r+1)*nc] {
				dst[c*nrp+r] = v
			}
		}
	}
	a.cols = cols
}

func (a *BlockSparse) mulVecVector(dst, x []float64) {
	if a.cols == nil {
		a.pack()
	}
	var sums [32]float64
	for i, s := range a.shapes {
		cols := a.cols[a.coffs[i]:a.coffs[i+1]]
		xs := x[s.Col0 : s.Col0+s.NCol]
		rows := s.Rows
		nr := len(rows)
		nrp := (nr + 7) &^ 7
		r0 := 0
		for ; r0+32 <= nrp; r0 += 32 {
			rowChains32(&sums, cols[r0:], xs, nrp)
			for j, row := range rows[r0:min(r0+32, nr)] {
				dst[row] += sums[j]
			}
		}
		for ; r0 < nrp; r0 += 8 {
			rowChains8(&sums, cols[r0:], xs, nrp)
			for j, row := range rows[r0:min(r0+8, nr)] {
				dst[row] += sums[j]
			}
		}
	}
	archsimd.ClearAVXUpperBits()
}

// rowChains32 sets sums to the 32 row chains Σ_c col_c[0:32] x_c, columns
// stride apart from cols[0].
func rowChains32(sums *[32]float64, cols, xs []float64, stride int) {
	a0 := archsimd.BroadcastFloat64x8(0)
	a1, a2, a3 := a0, a0, a0
	o := 0
	for _, xc := range xs {
		xv := archsimd.BroadcastFloat64x8(xc)
		c := cols[o : o+32]
		a0 = archsimd.LoadFloat64x8Slice(c[0:8]).MulAdd(xv, a0)
		a1 = archsimd.LoadFloat64x8Slice(c[8:16]).MulAdd(xv, a1)
		a2 = archsimd.LoadFloat64x8Slice(c[16:24]).MulAdd(xv, a2)
		a3 = archsimd.LoadFloat64x8Slice(c[24:32]).MulAdd(xv, a3)
		o += stride
	}
	a0.StoreSlice(sums[0:8])
	a1.StoreSlice(sums[8:16])
	a2.StoreSlice(sums[16:24])
	a3.StoreSlice(sums[24:32])
}

// rowChains8 is rowChains32 for 8 rows.
func rowChains8(sums *[32]float64, cols, xs []float64, stride int) {
	a0 := archsimd.BroadcastFloat64x8(0)
	o := 0
	for _, xc := range xs {
		a0 = archsimd.LoadFloat64x8Slice(cols[o:o+8]).MulAdd(archsimd.BroadcastFloat64x8(xc), a0)
		o += stride
	}
	a0.StoreSlice(sums[0:8])
}

func (a *BlockSparse) mulTransVecVector(dst, x []float64) {
	var acc [32]float64
	data := a.data[:cap(a.data)]
	for i, s := range a.shapes {
		nc := s.NCol
		ds := dst[s.Col0 : s.Col0+nc]
		for c0 := 0; c0 < nc; c0 += 32 {
			w := min(32, nc-c0)
			copy(acc[:], ds[c0:c0+w])
			blk := data[a.offs[i]+c0:]
			switch (w + 7) / 8 {
			case 1:
				colChains1(&acc, blk, s.Rows, x, nc)
			case 2:
				colChains2(&acc, blk, s.Rows, x, nc)
			case 3:
				colChains3(&acc, blk, s.Rows, x, nc)
			default:
				colChains4(&acc, blk, s.Rows, x, nc)
			}
			copy(ds[c0:c0+w], acc[:w])
		}
	}
	archsimd.ClearAVXUpperBits()
}

// colChains1 continues 1 chunks of eight column chains over the rows
// (rows nc apart, chunk j at blk[8j]).
func colChains1(acc *[32]float64, blk []float64, rows []int32, x []float64, nc int) {
	a0 := archsimd.LoadFloat64x8Slice(acc[0:8])
	o := 0
	for _, row := range rows {
		xr := archsimd.BroadcastFloat64x8(x[row])
		b := blk[o : o+8]
		a0 = archsimd.LoadFloat64x8Slice(b[0:8]).MulAdd(xr, a0)
		o += nc
	}
	a0.StoreSlice(acc[0:8])
}

// colChains2 continues 2 chunks of eight column chains over the rows
// (rows nc apart, chunk j at blk[8j]).
func colChains2(acc *[32]float64, blk []float64, rows []int32, x []float64, nc int) {
	a0 := archsimd.LoadFloat64x8Slice(acc[0:8])
	a1 := archsimd.LoadFloat64x8Slice(acc[8:16])
	o := 0
	for _, row := range rows {
		xr := archsimd.BroadcastFloat64x8(x[row])
		b := blk[o : o+16]
		a0 = archsimd.LoadFloat64x8Slice(b[0:8]).MulAdd(xr, a0)
		a1 = archsimd.LoadFloat64x8Slice(b[8:16]).MulAdd(xr, a1)
		o += nc
	}
	a0.StoreSlice(acc[0:8])
	a1.StoreSlice(acc[8:16])
}

// colChains3 continues 3 chunks of eight column chains over the rows
// (rows nc apart, chunk j at blk[8j]).
func colChains3(acc *[32]float64, blk []float64, rows []int32, x []float64, nc int) {
	a0 := archsimd.LoadFloat64x8Slice(acc[0:8])
	a1 := archsimd.LoadFloat64x8Slice(acc[8:16])
	a2 := archsimd.LoadFloat64x8Slice(acc[16:24])
	o := 0
	for _, row := range rows {
		xr := archsimd.BroadcastFloat64x8(x[row])
		b := blk[o : o+24]
		a0 = archsimd.LoadFloat64x8Slice(b[0:8]).MulAdd(xr, a0)
		a1 = archsimd.LoadFloat64x8Slice(b[8:16]).MulAdd(xr, a1)
		a2 = archsimd.LoadFloat64x8Slice(b[16:24]).MulAdd(xr, a2)
		o += nc
	}
	a0.StoreSlice(acc[0:8])
	a1.StoreSlice(acc[8:16])
	a2.StoreSlice(acc[16:24])
}

// colChains4 continues 4 chunks of eight column chains over the rows
// (rows nc apart, chunk j at blk[8j]).
func colChains4(acc *[32]float64, blk []float64, rows []int32, x []float64, nc int) {
	a0 := archsimd.LoadFloat64x8Slice(acc[0:8])
	a1 := archsimd.LoadFloat64x8Slice(acc[8:16])
	a2 := archsimd.LoadFloat64x8Slice(acc[16:24])
	a3 := archsimd.LoadFloat64x8Slice(acc[24:32])
	o := 0
	for _, row := range rows {
		xr := archsimd.BroadcastFloat64x8(x[row])
		b := blk[o : o+32]
		a0 = archsimd.LoadFloat64x8Slice(b[0:8]).MulAdd(xr, a0)
		a1 = archsimd.LoadFloat64x8Slice(b[8:16]).MulAdd(xr, a1)
		a2 = archsimd.LoadFloat64x8Slice(b[16:24]).MulAdd(xr, a2)
		a3 = archsimd.LoadFloat64x8Slice(b[24:32]).MulAdd(xr, a3)
		o += nc
	}
	a0.StoreSlice(acc[0:8])
	a1.StoreSlice(acc[8:16])
	a2.StoreSlice(acc[16:24])
	a3.StoreSlice(acc[24:32])
}

// Package sparse holds the block-sparse matrices of the ELM-FBPINN: one dense
// block per subdomain, whose rows are the points in the subdomain's support and
// whose columns are its K+1 basis functions. The package does no I/O.
package sparse

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"elmfbpinn/core/fp"
)

// Shape describes one block: the (ascending) global row indices it touches
// and its contiguous range of columns [Col0, Col0+NCol).
type Shape struct {
	Rows       []int32
	Col0, NCol int
}

// BlockSparse is an (m, n) matrix that is the sum of dense blocks
//
//	M = Σ_j V_jᵀ M_j W_j,
//
// each block M_j of size (len(Rows_j), NCol_j) stored row-major in one
// contiguous array shared by all blocks.
//
// A BlockSparse is not safe for concurrent use: the vector kernels keep a
// column-major copy of the blocks, made by the first product after the
// blocks were last handed out by Block.
type BlockSparse struct {
	m, n   int
	shapes []Shape
	offs   []int     // offset of each block in data
	data   []float64 // with 32 more elements of capacity, for full-width loads
	cols   []float64 // column-major copy for the vector MulVec; nil when stale
	coffs  []int     // offset of each block in cols
}

// New returns a zero block-sparse matrix of size (m, n) with the given block
// shapes. It panics if a block lies outside the matrix.
func New(m, n int, shapes []Shape) *BlockSparse {
	a := &BlockSparse{m: m, n: n, shapes: shapes, offs: make([]int, len(shapes)+1)}
	for i, s := range shapes {
		if s.Col0 < 0 || s.NCol < 0 || s.Col0+s.NCol > n {
			panic("sparse: block columns outside the matrix")
		}
		for _, r := range s.Rows {
			if r < 0 || int(r) >= m {
				panic("sparse: block row outside the matrix")
			}
		}
		a.offs[i+1] = a.offs[i] + len(s.Rows)*s.NCol
	}
	a.data = make([]float64, a.offs[len(shapes)], a.offs[len(shapes)]+32)
	return a
}

// Dims returns the size of the matrix.
func (a *BlockSparse) Dims() (m, n int) { return a.m, a.n }

// NNZ returns the number of stored entries (the (point, subdomain) pairs
// times the block widths); stored zeros are counted.
func (a *BlockSparse) NNZ() int { return len(a.data) }

// Blocks returns the number of blocks.
func (a *BlockSparse) Blocks() int { return len(a.shapes) }

// Shape returns the shape of block i.
func (a *BlockSparse) Shape(i int) Shape { return a.shapes[i] }

// Block returns the row-major data of block i, (len(Rows), NCol); writes to
// it change the matrix (and drop the vector kernels' copy, which the next
// product makes again).
func (a *BlockSparse) Block(i int) []float64 {
	a.cols = nil
	return a.data[a.offs[i]:a.offs[i+1]]
}

// MulVec sets dst = M x. Each row's entry is, block by block in block
// order, one FMA chain over the block's columns in increasing order starting
// from 0, added to the row's running sum:
//
//	dst[r] = ((0 + s_1) + s_2) + ...,  s_j = FMA(M_j[r, n-1], x, ... FMA(M_j[r, 0], x, 0)).
//
// The chains are independent across rows, so a vector kernel working across
// rows computes the same bits.
func (a *BlockSparse) MulVec(dst, x []float64) {
	if len(dst) != a.m || len(x) != a.n {
		panic("sparse: MulVec: wrong lengths")
	}
	clear(dst)
	if fp.Vector() {
		a.mulVecVector(dst, x)
		return
	}
	for i, s := range a.shapes {
		blockMulVec(dst, a.data[a.offs[i]:a.offs[i+1]], s.Rows, x[s.Col0:s.Col0+s.NCol])
	}
}

// MulTransVec sets dst = Mᵀ x. Each column's entry is one FMA chain
// starting from 0 over the blocks that hold the column, in block order, and
// within a block over its rows in increasing order:
//
//	dst[c] = FMA(M_j[r_last, c], x[r_last], ... FMA(M_j[r_0, c], x[r_0], 0)).
//
// (In the ELM-FBPINN every column belongs to one block.) The chains are
// independent across columns, so a vector kernel working across columns
// computes the same bits.
func (a *BlockSparse) MulTransVec(dst, x []float64) {
	if len(dst) != a.n || len(x) != a.m {
		panic("sparse: MulTransVec: wrong lengths")
	}
	clear(dst)
	if fp.Vector() {
		a.mulTransVecVector(dst, x)
		return
	}
	for i, s := range a.shapes {
		blockMulTransVec(dst[s.Col0:s.Col0+s.NCol], a.data[a.offs[i]:a.offs[i+1]], s.Rows, x)
	}
}

// blockMulVec adds blk xs to dst at rows, for a row-major block of
// len(rows) rows and len(xs) columns: per row one FMA chain over the
// columns, then one addition into dst. Four rows are taken at a time so that
// each load of xs feeds four independent chains.
func blockMulVec(dst, blk []float64, rows []int32, xs []float64) {
	nc := len(xs)
	r := 0
	for ; r+4 <= len(rows); r += 4 {
		b := blk[r*nc : (r+4)*nc]
		b0, b1, b2, b3 := b[:nc], b[nc:2*nc], b[2*nc:3*nc], b[3*nc:4*nc]
		xs, b1, b2, b3 := xs[:len(b0)], b1[:len(b0)], b2[:len(b0)], b3[:len(b0)] // bounds-check elimination
		var s0, s1, s2, s3 float64
		for c, v := range b0 {
			xc := xs[c]
			s0 = math.FMA(v, xc, s0)
			s1 = math.FMA(b1[c], xc, s1)
			s2 = math.FMA(b2[c], xc, s2)
			s3 = math.FMA(b3[c], xc, s3)
		}
		dst[rows[r]] += s0
		dst[rows[r+1]] += s1
		dst[rows[r+2]] += s2
		dst[rows[r+3]] += s3
	}
	for ; r < len(rows); r++ {
		b0 := blk[r*nc : (r+1)*nc]
		xs := xs[:len(b0)]
		var s0 float64
		for c, v := range b0 {
			s0 = math.FMA(v, xs[c], s0)
		}
		dst[rows[r]] += s0
	}
}

// blockMulTransVec adds blkᵀ x[rows] to ds, which holds the running chains
// of the block's columns: per column the FMA chain over the rows in
// increasing order. Four rows are taken at a time so that each load and
// store of ds carries four links of its chain.
func blockMulTransVec(ds, blk []float64, rows []int32, x []float64) {
	nc := len(ds)
	r := 0
	for ; r+4 <= len(rows); r += 4 {
		b := blk[r*nc : (r+4)*nc]
		b0, b1, b2, b3 := b[:nc], b[nc:2*nc], b[2*nc:3*nc], b[3*nc:4*nc]
		ds, b1, b2, b3 := ds[:len(b0)], b1[:len(b0)], b2[:len(b0)], b3[:len(b0)] // bounds-check elimination
		x0, x1, x2, x3 := x[rows[r]], x[rows[r+1]], x[rows[r+2]], x[rows[r+3]]
		for c, v := range b0 {
			s := math.FMA(v, x0, ds[c])
			s = math.FMA(b1[c], x1, s)
			s = math.FMA(b2[c], x2, s)
			ds[c] = math.FMA(b3[c], x3, s)
		}
	}
	for ; r < len(rows); r++ {
		b0 := blk[r*nc : (r+1)*nc]
		ds := ds[:len(b0)]
		x0 := x[rows[r]]
		for c, v := range b0 {
			ds[c] = math.FMA(v, x0, ds[c])
		}
	}
}

// Dense returns M as a dense matrix.
func (a *BlockSparse) Dense() *mat.Dense {
	d := mat.NewDense(a.m, a.n, nil)
	for i, s := range a.shapes {
		blk := a.data[a.offs[i]:a.offs[i+1]]
		for r, row := range s.Rows {
			for c := range s.NCol {
				d.Set(int(row), s.Col0+c, d.At(int(row), s.Col0+c)+blk[r*s.NCol+c])
			}
		}
	}
	return d
}

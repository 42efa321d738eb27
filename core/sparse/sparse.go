// Package sparse holds the block-sparse matrices of the ELM-FBPINN: one dense
// block per subdomain, whose rows are the points in the subdomain's support and
// whose columns are its K+1 basis functions. The package does no I/O.
package sparse

import (
	"slices"

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
// The products work on a second, packed copy of the blocks, cut into
// panels: the rows that belong to the same set of blocks (see MulVec and
// MulTransVec for the arithmetic this fixes). The copy is made by the first
// product after the blocks were last handed out by Block, so a BlockSparse
// is not safe for concurrent use.
type BlockSparse struct {
	m, n   int
	shapes []Shape
	offs   []int     // offset of each block in data
	data   []float64 // row-major blocks
	pk     *packed   // the products' copy; nil when stale
}

// New returns a zero block-sparse matrix of size (m, n) with the given block
// shapes. It panics if a block lies outside the matrix, its rows are not
// strictly ascending, or two blocks that share a row share a column (each
// column of a panel then belongs to one of its blocks, which the order of
// MulTransVec's additions takes for granted; the ELM-FBPINN's blocks each
// have columns of their own).
func New(m, n int, shapes []Shape) *BlockSparse {
	a := &BlockSparse{m: m, n: n, shapes: shapes, offs: make([]int, len(shapes)+1)}
	for i, s := range shapes {
		if s.Col0 < 0 || s.NCol < 0 || s.Col0+s.NCol > n {
			panic("sparse: block columns outside the matrix")
		}
		for k, r := range s.Rows {
			if r < 0 || int(r) >= m {
				panic("sparse: block row outside the matrix")
			}
			if k > 0 && r <= s.Rows[k-1] {
				panic("sparse: block rows not strictly ascending")
			}
		}
		a.offs[i+1] = a.offs[i] + len(s.Rows)*s.NCol
	}
	if overlapping(m, shapes) {
		panic("sparse: blocks that share a row share a column")
	}
	a.data = make([]float64, a.offs[len(shapes)])
	return a
}

// overlapping reports whether two blocks with columns that share a row
// share a column.
func overlapping(m int, shapes []Shape) bool {
	var cols []Shape // a row's blocks with columns, by first column
	for _, ps := range blocksOfRows(m, shapes) {
		cols = cols[:0]
		for _, p := range ps {
			if s := shapes[p.blk]; s.NCol > 0 {
				cols = append(cols, s)
			}
		}
		slices.SortFunc(cols, func(x, y Shape) int { return x.Col0 - y.Col0 })
		for k := 1; k < len(cols); k++ {
			if cols[k-1].Col0+cols[k-1].NCol > cols[k].Col0 {
				return true
			}
		}
	}
	return false
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
// it change the matrix (and drop the products' packed copy, which the next
// product makes again).
func (a *BlockSparse) Block(i int) []float64 {
	a.pk = nil
	return a.data[a.offs[i]:a.offs[i+1]]
}

// MulVec sets dst = M x. A row's entry is the sum of the row's products
// over the blocks it belongs to, in block order, each over the block's
// columns in increasing order, gathered into eight FMA chains by column
// index c within the block (chain c mod 8, each starting from 0) that are
// combined by fp.Tree:
//
//	dst[r] = Tree(s),  s_i = FMA(M[r, c], x_c, s_i) for c ≡ i (mod 8).
//
// The chains are independent across rows, so a vector kernel working across
// rows computes the same bits.
func (a *BlockSparse) MulVec(dst, x []float64) {
	if len(dst) != a.m || len(x) != a.n {
		panic("sparse: MulVec: wrong lengths")
	}
	a.sweep(true, false, dst, x, 0, nil)
}

// MulTransVec sets dst = Mᵀ x. The rows are taken panel by panel, a panel
// being the rows that belong to the same set of blocks (panels in the order
// of their first row, rows ascending within a panel); row k of a panel
// feeds lane k mod 8 of every column it touches. Each lane is one FMA chain
// from 0 in that order, and a column's entry is fp.Tree of its eight lanes:
//
//	l_k = FMA(M[r, c], x_r, l_k) for the rows r in lane k,  dst[c] = Tree(l).
//
// The lanes of eight consecutive rows of a panel are independent, so a
// vector kernel working across them computes the same bits.
func (a *BlockSparse) MulTransVec(dst, x []float64) {
	if len(dst) != a.n || len(x) != a.m {
		panic("sparse: MulTransVec: wrong lengths")
	}
	a.sweep(false, true, x, nil, 0, dst)
}

// BidiagStep sets u = M v − alpha u and atu = Mᵀ u (of the new u) in one
// pass over the matrix: the step of the Golub–Kahan bidiagonalisation
// before scaling, which lsqr.LSQR uses when its operator has it. The bits
// are those of MulVec into t, then u_r = FMA(−alpha, u_r, t_r), then
// MulTransVec; the rows of a panel are still in cache for the second
// product.
func (a *BlockSparse) BidiagStep(u, atu, v []float64, alpha float64) {
	if len(u) != a.m || len(atu) != a.n || len(v) != a.n {
		panic("sparse: BidiagStep: wrong lengths")
	}
	a.sweep(true, true, u, v, alpha, atu)
}

// sweep runs the products over the panels: with mul, u = M v (with trans
// too: u = M v − alpha u); with trans, atu = Mᵀ u of the (new) u.
func (a *BlockSparse) sweep(mul, trans bool, u, v []float64, alpha float64, atu []float64) {
	if a.pk == nil {
		a.pk = a.pack()
	}
	pk := a.pk // its lanes are zero: pack makes them so, and each transposed sweep drains them
	switch path := fp.KernelPath(); {
	case len(pk.vals) == 0: // no entries: nothing for the vector kernels
		pk.sweepGeneric(false, mul, trans, u, v, alpha)
	case path == fp.AVX512:
		pk.sweepVector(false, mul, trans, u, v, alpha)
	case path == fp.AVX2:
		pk.sweepVector(true, mul, trans, u, v, alpha)
	default: // the NEON path: the generic sweep with the NEON kernels
		pk.sweepGeneric(path == fp.NEON, mul, trans, u, v, alpha)
	}
	if trans {
		fp.DrainLanes(atu, pk.lanes) // leaves the lanes zero for the next sweep
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

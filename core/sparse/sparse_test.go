package sparse_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"elmfbpinn/core/fp"
	"elmfbpinn/core/lsqr"
	"elmfbpinn/core/sparse"
)

// randomMatrix returns an (m, n) block-sparse matrix with nb random blocks:
// each block touches a random ascending subset of rows (so rows of
// different blocks overlap) and a random column range, and blocks may share
// columns too. Entries are uniform on (-1, 1).
func randomMatrix(rng *rand.Rand, m, n, nb int) *sparse.BlockSparse {
	shapes := make([]sparse.Shape, nb)
	for i := range shapes {
		nc := 1 + rng.IntN(min(n, 7))
		shapes[i] = sparse.Shape{Col0: rng.IntN(n - nc + 1), NCol: nc}
	}
	// Each row in a block with probability 0.4, unless the block shares a
	// column with one the row is already in (New refuses that).
	for r := range m {
		var in []int
		for i := range shapes {
			s := shapes[i]
			free := !slices.ContainsFunc(in, func(j int) bool {
				return shapes[j].Col0 < s.Col0+s.NCol && s.Col0 < shapes[j].Col0+shapes[j].NCol
			})
			if free && rng.Float64() < 0.4 {
				shapes[i].Rows = append(shapes[i].Rows, int32(r))
				in = append(in, i)
			}
		}
	}
	a := sparse.New(m, n, shapes)
	fillRandom(a, rng)
	return a
}

// denseByHand builds the dense matrix from the blocks independently of
// Dense, so that Dense itself is checked too.
func denseByHand(a *sparse.BlockSparse) [][]float64 {
	m, n := a.Dims()
	d := make([][]float64, m)
	for i := range d {
		d[i] = make([]float64, n)
	}
	for b := range a.Blocks() {
		s := a.Shape(b)
		blk := a.Block(b)
		for r, row := range s.Rows {
			for c := range s.NCol {
				d[row][s.Col0+c] += blk[r*s.NCol+c]
			}
		}
	}
	return d
}

func randVec(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

func TestMulVecAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	cases := []struct{ m, n, nb int }{{1, 1, 1}, {5, 3, 2}, {20, 12, 6}, {40, 30, 15}, {33, 17, 9}, {8, 40, 3}}
	for ci, tc := range cases {
		a := randomMatrix(rng, tc.m, tc.n, tc.nb)
		if m, n := a.Dims(); m != tc.m || n != tc.n {
			t.Fatalf("case %d: Dims() = (%d, %d), want (%d, %d)", ci, m, n, tc.m, tc.n)
		}
		d := a.Dense()
		hand := denseByHand(a)
		for i := range tc.m {
			for j := range tc.n {
				if d.At(i, j) != hand[i][j] {
					t.Fatalf("case %d: Dense()[%d,%d] = %g, want %g (sum of overlapping block entries)", ci, i, j, d.At(i, j), hand[i][j])
				}
			}
		}
		x := randVec(rng, tc.n)
		y := randVec(rng, tc.m)

		got := make([]float64, tc.m)
		for i := range got {
			got[i] = math.NaN() // MulVec must overwrite dst
		}
		a.MulVec(got, x)
		var want mat.VecDense
		want.MulVec(d, mat.NewVecDense(tc.n, x))
		for i := range got {
			if w := want.AtVec(i); math.Abs(got[i]-w) > 1e-13*(1+math.Abs(w)) {
				t.Errorf("case %d (%dx%d, %d blocks): (Mx)[%d] got %.16g, want %.16g", ci, tc.m, tc.n, tc.nb, i, got[i], w)
			}
		}

		gotT := make([]float64, tc.n)
		for i := range gotT {
			gotT[i] = math.NaN()
		}
		a.MulTransVec(gotT, y)
		var wantT mat.VecDense
		wantT.MulVec(d.T(), mat.NewVecDense(tc.m, y))
		for i := range gotT {
			if w := wantT.AtVec(i); math.Abs(gotT[i]-w) > 1e-13*(1+math.Abs(w)) {
				t.Errorf("case %d (%dx%d, %d blocks): (Mᵀy)[%d] got %.16g, want %.16g", ci, tc.m, tc.n, tc.nb, i, gotT[i], w)
			}
		}

		// Adjoint identity <Mx, y> = <x, Mᵀy>.
		var lhs, rhs, scale float64
		for i := range got {
			lhs += got[i] * y[i]
			scale += math.Abs(got[i] * y[i])
		}
		for i := range gotT {
			rhs += x[i] * gotT[i]
		}
		if math.Abs(lhs-rhs) > 1e-13*(1+scale) {
			t.Errorf("case %d: <Mx, y> = %.16g, <x, Mᵀy> = %.16g, want equal", ci, lhs, rhs)
		}
	}
}

func TestNNZAndBlocks(t *testing.T) {
	shapes := []sparse.Shape{
		{Rows: []int32{0, 2, 3}, Col0: 0, NCol: 4},
		{Rows: []int32{1, 2}, Col0: 4, NCol: 3},
		{Rows: nil, Col0: 3, NCol: 2},
		{Rows: []int32{4}, Col0: 6, NCol: 0},
	}
	a := sparse.New(5, 7, shapes)
	// 3·4 + 2·3 + 0·2 + 1·0 = 18 stored entries.
	if got, want := a.NNZ(), 18; got != want {
		t.Errorf("NNZ() = %d, want %d", got, want)
	}
	if a.Blocks() != 4 {
		t.Errorf("Blocks() = %d, want 4", a.Blocks())
	}
	for i, s := range shapes {
		if got := a.Shape(i); !slices.Equal(got.Rows, s.Rows) || got.Col0 != s.Col0 || got.NCol != s.NCol {
			t.Errorf("Shape(%d) = %+v, want %+v", i, got, s)
		}
		if got, want := len(a.Block(i)), len(s.Rows)*s.NCol; got != want {
			t.Errorf("len(Block(%d)) = %d, want %d", i, got, want)
		}
	}
	// A new matrix is zero; writing a block entry shows in Dense.
	if d := a.Dense(); mat.Norm(d, 1) != 0 {
		t.Errorf("new matrix is not zero: %v", mat.Formatted(d))
	}
	a.Block(1)[1*3+2] = 7 // block 1, local row 1 (global row 2), local column 2 (global 6)
	if got := a.Dense().At(2, 6); got != 7 {
		t.Errorf("after writing block 1 entry (1, 2): Dense()[2, 6] = %g, want 7", got)
	}
}

func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: did not panic, want a panic", name)
		}
	}()
	f()
}

func TestPanics(t *testing.T) {
	a := sparse.New(4, 3, []sparse.Shape{{Rows: []int32{0, 3}, Col0: 1, NCol: 2}})
	mustPanic(t, "MulVec short dst", func() { a.MulVec(make([]float64, 3), make([]float64, 3)) })
	mustPanic(t, "MulVec long x", func() { a.MulVec(make([]float64, 4), make([]float64, 4)) })
	mustPanic(t, "MulTransVec short dst", func() { a.MulTransVec(make([]float64, 2), make([]float64, 4)) })
	mustPanic(t, "MulTransVec short x", func() { a.MulTransVec(make([]float64, 3), make([]float64, 3)) })
	mustPanic(t, "New block columns past n", func() { sparse.New(4, 3, []sparse.Shape{{Rows: []int32{0}, Col0: 2, NCol: 2}}) })
	mustPanic(t, "New negative Col0", func() { sparse.New(4, 3, []sparse.Shape{{Rows: []int32{0}, Col0: -1, NCol: 1}}) })
	mustPanic(t, "New row past m", func() { sparse.New(4, 3, []sparse.Shape{{Rows: []int32{4}, Col0: 0, NCol: 1}}) })
	mustPanic(t, "New negative row", func() { sparse.New(4, 3, []sparse.Shape{{Rows: []int32{-1}, Col0: 0, NCol: 1}}) })
	mustPanic(t, "New blocks sharing a row and a column", func() {
		sparse.New(4, 3, []sparse.Shape{{Rows: []int32{0, 2}, Col0: 0, NCol: 2}, {Rows: []int32{1, 2}, Col0: 1, NCol: 2}})
	})
	// Sharing a row with disjoint columns, or a column without a row, or a
	// row with an empty block, is fine.
	sparse.New(4, 3, []sparse.Shape{{Rows: []int32{0, 2}, Col0: 0, NCol: 1}, {Rows: []int32{2}, Col0: 1, NCol: 2}})
	sparse.New(4, 3, []sparse.Shape{{Rows: []int32{0}, Col0: 0, NCol: 2}, {Rows: []int32{1}, Col0: 1, NCol: 2}})
	sparse.New(4, 3, []sparse.Shape{{Rows: []int32{0}, Col0: 0, NCol: 2}, {Rows: []int32{0}, Col0: 1, NCol: 0}})
}

// Example builds the 3x4 matrix
//
//	[1 2 0 0]
//	[3 4 5 0]
//	[0 0 6 0]
//
// from two blocks that share row 1 and multiplies it by (1, 1, 1, 1).
func Example() {
	a := sparse.New(3, 4, []sparse.Shape{
		{Rows: []int32{0, 1}, Col0: 0, NCol: 2},
		{Rows: []int32{1, 2}, Col0: 2, NCol: 1},
	})
	copy(a.Block(0), []float64{1, 2, 3, 4})
	copy(a.Block(1), []float64{5, 6})
	y := make([]float64, 3)
	a.MulVec(y, []float64{1, 1, 1, 1})
	fmt.Println(y, a.NNZ())
	// Output: [3 12 6] 6
}

// chainProducts returns M x and Mᵀ u computed by the arithmetic that MulVec
// and MulTransVec define, written as the plainest loops over the row-major
// blocks: the reference that every faster kernel (packed, vector) must
// reproduce bit for bit.
func chainProducts(a *sparse.BlockSparse, x, u []float64) (y, z []float64) {
	m, n := a.Dims()
	y, z = make([]float64, m), make([]float64, n)
	// M x: per row eight chains by column index mod 8, over the row's blocks,
	// added as fp.Tree adds lanes.
	for row := range m {
		var s [8]float64
		for b := range a.Blocks() {
			sh, blk := a.Shape(b), a.Block(b)
			k := slices.Index(sh.Rows, int32(row))
			if k < 0 {
				continue
			}
			for c := range sh.NCol {
				s[c%8] = math.FMA(blk[k*sh.NCol+c], x[sh.Col0+c], s[c%8])
			}
		}
		y[row] = ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]))
	}
	// Mᵀ u: panels (rows with the same set of blocks) by first row; the
	// k-th row of a panel goes to lane k mod 8.
	sets := map[string][]int{}
	var order []string
	for row := range m {
		key := ""
		for b := range a.Blocks() {
			if slices.Contains(a.Shape(b).Rows, int32(row)) {
				key += fmt.Sprint(b, ",")
			}
		}
		if _, ok := sets[key]; !ok {
			order = append(order, key)
		}
		sets[key] = append(sets[key], row)
	}
	lanes := make([][8]float64, n)
	for _, key := range order {
		for k, row := range sets[key] {
			for b := range a.Blocks() {
				sh, blk := a.Shape(b), a.Block(b)
				i := slices.Index(sh.Rows, int32(row))
				if i < 0 {
					continue
				}
				for c := range sh.NCol {
					l := &lanes[sh.Col0+c][k%8]
					*l = math.FMA(blk[i*sh.NCol+c], u[row], *l)
				}
			}
		}
	}
	for c := range z {
		z[c] = fp.Tree(&lanes[c])
	}
	return y, z
}

// checkBitExact compares a's products with chainProducts bit for bit, and
// BidiagStep with MulVec, the FMA update and MulTransVec, on every kernel
// path this build and CPU run.
func checkBitExact(t *testing.T, name string, a *sparse.BlockSparse, rng *rand.Rand) {
	t.Helper()
	for _, p := range fp.KernelPaths() {
		for _, pf := range []bool{false, true} { // the M v kernels' prefetch
			func() {
				defer fp.SetKernelPath(fp.SetKernelPath(p))
				defer sparse.Prefetching(pf)()
				checkBitExactPath(t, fmt.Sprintf("%s, prefetch %v", name, pf), a, rng)
			}()
		}
	}
}

func checkBitExactPath(t *testing.T, name string, a *sparse.BlockSparse, rng *rand.Rand) {
	t.Helper()
	m, n := a.Dims()
	x, u := randVec(rng, n), randVec(rng, m)
	wantY, wantZ := chainProducts(a, x, u)
	y, z := make([]float64, m), make([]float64, n)
	same := func(what string, got, want []float64) {
		t.Helper()
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%s (kernels %s): %s[%d] = %x, want %x", name, fp.KernelPath(), what, i, got[i], want[i])
			}
		}
	}
	for range 2 { // the second time with the packed copy made
		a.MulVec(y, x)
		a.MulTransVec(z, u)
		same("MulVec", y, wantY)
		same("MulTransVec", z, wantZ)
	}
	_, wantU, wantW := stepWant(a, x, u)
	gotU, gotW := slices.Clone(u), make([]float64, n)
	a.BidiagStep(gotU, gotW, x, stepAlpha)
	same("BidiagStep u", gotU, wantU)
	same("BidiagStep Mᵀu", gotW, wantW)

	// An infinity in v makes the rows that meet it infinite or NaN and, in
	// the vector kernels, the lanes past a last group's rows NaN (a masked
	// zero times it): those lanes must not reach Mᵀ u.
	x[rng.IntN(n)] = math.Inf(1)
	checkStepNaN(t, name+", v with an infinity", a, x, u)
}

// stepAlpha is the alpha of the tests' BidiagStep.
const stepAlpha = 0.375

// stepWant returns chainProducts's M x, BidiagStep's u = FMA(−alpha, u,
// M x) and Mᵀ of that u, alpha being stepAlpha.
func stepWant(a *sparse.BlockSparse, x, u []float64) (y, u1, w []float64) {
	y, _ = chainProducts(a, x, u)
	u1 = make([]float64, len(u))
	for i := range u1 {
		u1[i] = math.FMA(-stepAlpha, u[i], y[i])
	}
	_, w = chainProducts(a, x, u1)
	return y, u1, w
}

// checkStepNaN checks MulVec and BidiagStep against stepWant on the kernel
// path in use, bit for bit but for NaNs, which compare equal whatever
// their payload.
func checkStepNaN(t *testing.T, name string, a *sparse.BlockSparse, x, u []float64) {
	t.Helper()
	m, n := a.Dims()
	wantY, wantU, wantW := stepWant(a, x, u)
	y, gotU, gotW := make([]float64, m), slices.Clone(u), make([]float64, n)
	a.MulVec(y, x)
	a.BidiagStep(gotU, gotW, x, stepAlpha)
	for _, c := range []struct {
		what      string
		got, want []float64
	}{{"MulVec", y, wantY}, {"BidiagStep u", gotU, wantU}, {"BidiagStep Mᵀu", gotW, wantW}} {
		for i, g := range c.got {
			if w := c.want[i]; math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
				t.Fatalf("%s (kernels %s): %s[%d] = %v, want %v", name, fp.KernelPath(), c.what, i, g, w)
			}
		}
	}
}

// fillRandom sets every stored entry of a to a uniform value in [-1, 1).
func fillRandom(a *sparse.BlockSparse, rng *rand.Rand) {
	for b := range a.Blocks() {
		blk := a.Block(b)
		for k := range blk {
			blk[k] = 2*rng.Float64() - 1
		}
	}
}

// TestProductsBitExact checks MulVec and MulTransVec against chainProducts
// on random matrices (overlapping rows and columns), on every kernel path
// (make test also runs it in a build without vector kernels).
func TestProductsBitExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct{ m, n, nb int }{{1, 1, 1}, {9, 5, 3}, {37, 23, 11}, {130, 40, 25}} {
		checkBitExact(t, fmt.Sprintf("%dx%d", tc.m, tc.n), randomMatrix(rng, tc.m, tc.n, tc.nb), rng)
	}
}

// TestProductsBitExactWide covers the vector kernels' cases: block widths
// around multiples of 8 and beyond 32 columns, row counts around multiples
// of 8 and 32, empty blocks.
func TestProductsBitExactWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	widths := []int{1, 7, 8, 9, 16, 17, 24, 25, 31, 32, 33, 40, 65}
	rowCounts := []int{0, 1, 7, 8, 9, 31, 32, 33, 64, 100}
	m, n := 120, 0
	var shapes []sparse.Shape
	for i, w := range widths {
		nr := rowCounts[i%len(rowCounts)]
		perm := rng.Perm(m)[:nr]
		slices.Sort(perm)
		rows := make([]int32, nr)
		for j, r := range perm {
			rows[j] = int32(r)
		}
		shapes = append(shapes, sparse.Shape{Rows: rows, Col0: n, NCol: w})
		n += w
	}
	a := sparse.New(m, n, shapes)
	fillRandom(a, rng)
	checkBitExact(t, "wide", a, rng)
}

// TestProductsBitExactPanels covers every width of a panel's last group:
// panels of 1 to 20 rows (two groups at a time in the vector kernels, the
// last of 1 to 8 rows), each the rows of two blocks, one of 17 columns and
// one of 1 to 9.
func TestProductsBitExactPanels(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	a := panelMatrix(20, func(nr int) []int { return []int{17, 1 + nr%9} })
	fillRandom(a, rng)
	checkBitExact(t, "panels", a, rng)
}

// panelMatrix returns a zero matrix of panels of 1 to maxRows rows, the
// rows of each panel in blocks of widths(nr) columns, every block its own
// columns.
func panelMatrix(maxRows int, widths func(nr int) []int) *sparse.BlockSparse {
	var shapes []sparse.Shape
	m, n := 0, 0
	for nr := 1; nr <= maxRows; nr++ {
		rows := make([]int32, nr)
		for i := range rows {
			rows[i] = int32(m + i)
		}
		m += nr
		for _, w := range widths(nr) {
			shapes = append(shapes, sparse.Shape{Rows: rows, Col0: n, NCol: w})
			n += w
		}
	}
	return sparse.New(m, n, shapes)
}

// TestProductsBitExactInfinityPastRows puts +Inf in the last column of
// every block of panels of 1 to 12 rows: a partial group's rows past w then
// read it (the generic partSums loads a last two or three rows four at a
// time) and their dropped sums are NaN, which must reach no row's sum; the
// rows that meet it are +Inf or NaN as the reference's. MulVec and
// BidiagStep against chainProducts, NaNs equal, on every kernel path.
func TestProductsBitExactInfinityPastRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, nc := range []int{3, 17, 30} {
		a := panelMatrix(12, func(nr int) []int { return []int{nc, 1 + nr%5} })
		fillRandom(a, rng)
		m, n := a.Dims()
		x, u := randVec(rng, n), randVec(rng, m)
		for b := range a.Blocks() {
			s := a.Shape(b)
			x[s.Col0+s.NCol-1] = math.Inf(1)
		}
		for _, p := range fp.KernelPaths() {
			func() {
				defer fp.SetKernelPath(fp.SetKernelPath(p))
				checkStepNaN(t, fmt.Sprintf("blocks of %d columns", nc), a, x, u)
			}()
		}
	}
}

// TestProductsBitExactBlockWidths covers panels of 1 to 40 rows (up to five
// groups: more than one call of the Mᵀ u kernels) whose blocks all have nc
// columns, nc on both sides of 8, 16, 24 and 32 (the generic code's straight
// runs stop at three columns a chain), the same with a block of no
// columns among them, and panels whose blocks all have none.
func TestProductsBitExactBlockWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, nc := range []int{1, 3, 7, 8, 9, 16, 17, 24, 25, 31, 33, 40} {
		for _, widths := range [][]int{{nc, nc, nc}, {nc, nc, 0, nc}} {
			a := panelMatrix(40, func(int) []int { return widths })
			fillRandom(a, rng)
			checkBitExact(t, fmt.Sprintf("blocks of %v columns", widths), a, rng)
		}
	}
	a := panelMatrix(40, func(nr int) []int {
		if nr%3 == 0 {
			return []int{0, 0}
		}
		return []int{5}
	})
	fillRandom(a, rng)
	checkBitExact(t, "some panels' blocks without columns", a, rng)
}

// TestProductsBitExactGrid covers matrices shaped like the ELM-FBPINN's: the
// points of an (nx, ny) grid in row-major order, overlapping rectangular
// subdomains on a (jx, jy) lattice (up to nine blocks per point, panels of
// many sizes around multiples of 8), one block of nc columns each.
func TestProductsBitExactGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct{ nx, ny, jx, jy, nc int }{
		{23, 19, 4, 3, 17}, {40, 9, 6, 1, 13}, {30, 30, 5, 5, 9}, {12, 12, 2, 2, 8},
	} {
		var shapes []sparse.Shape
		for bx := range tc.jx {
			for by := range tc.jy {
				// Subdomain (bx, by) covers about 2.9 lattice cells around its centre.
				cx, cy := (float64(bx)+0.5)/float64(tc.jx), (float64(by)+0.5)/float64(tc.jy)
				hx, hy := 1.45/float64(tc.jx), 1.45/float64(tc.jy)
				var rows []int32
				for iy := range tc.ny {
					for ix := range tc.nx {
						x, y := (float64(ix)+0.5)/float64(tc.nx), (float64(iy)+0.5)/float64(tc.ny)
						if math.Abs(x-cx) < hx && math.Abs(y-cy) < hy {
							rows = append(rows, int32(iy*tc.nx+ix))
						}
					}
				}
				shapes = append(shapes, sparse.Shape{Rows: rows, Col0: len(shapes) * tc.nc, NCol: tc.nc})
			}
		}
		a := sparse.New(tc.nx*tc.ny, len(shapes)*tc.nc, shapes)
		fillRandom(a, rng)
		checkBitExact(t, fmt.Sprintf("grid %dx%d, %dx%d subdomains, %d columns", tc.nx, tc.ny, tc.jx, tc.jy, tc.nc), a, rng)
	}
}

// plainOp hides BidiagStep, so LSQR forms its products one by one.
type plainOp struct{ a *sparse.BlockSparse }

func (p plainOp) Dims() (int, int)             { return p.a.Dims() }
func (p plainOp) MulVec(dst, x []float64)      { p.a.MulVec(dst, x) }
func (p plainOp) MulTransVec(dst, x []float64) { p.a.MulTransVec(dst, x) }

// TestLSQRBidiagStepSameBits checks that LSQR gives the same iterates, bit
// for bit, whether it uses BidiagStep or MulVec and MulTransVec.
func TestLSQRBidiagStepSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	a := randomMatrix(rng, 60, 30, 12)
	m, _ := a.Dims()
	b := randVec(rng, m)
	set := &lsqr.Settings{IterLim: 40, Force: true}
	fused, err := lsqr.LSQR(a, b, set)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := lsqr.LSQR(plainOp{a}, b, set)
	if err != nil {
		t.Fatal(err)
	}
	for i := range fused.X {
		if math.Float64bits(fused.X[i]) != math.Float64bits(plain.X[i]) {
			t.Fatalf("x[%d] = %x with BidiagStep, %x without", i, fused.X[i], plain.X[i])
		}
	}
	if fused.Iterations != 40 || fused.ANorm != plain.ANorm || fused.R1Norm != plain.R1Norm {
		t.Errorf("estimates differ: %+v vs %+v", fused, plain)
	}
}

// TestProductsBitExactNegativeZeroLanes checks that a panel's last group of
// w < 8 rows leaves the lanes past w as they are, −0 included: every
// product of this matrix underflows to −0, so each of a column's eight lane
// sums is −0 after a first panel of eight rows and its Tree is −0, which one
// +0 added to a lane past w would turn into +0. The second panel is a chunk
// of one group (w rows), of two (8 + w rows), or a chunk of four groups and
// one of one group (32 + w rows); MulTransVec and BidiagStep, against
// chainProducts, on every kernel path.
func TestProductsBitExactNegativeZeroLanes(t *testing.T) {
	for _, whole := range []int{0, 8, 32} {
		for w := 1; w < 8; w++ {
			second := make([]int32, whole+w)
			for i := range second {
				second[i] = int32(8 + i)
			}
			m := 8 + len(second)
			all := make([]int32, m)
			for i := range all {
				all[i] = int32(i)
			}
			a := sparse.New(m, 5, []sparse.Shape{{Rows: all, Col0: 0, NCol: 3}, {Rows: second, Col0: 3, NCol: 2}})
			for b := range a.Blocks() {
				for k := range a.Block(b) {
					a.Block(b)[k] = -1e-200
				}
			}
			u, x := make([]float64, m), make([]float64, 5)
			for i := range u {
				u[i] = 1e-200
			}
			const alpha = -1.0 // BidiagStep's u: FMA(1, 1e-200, M·0 = +0) = 1e-200 again
			_, wantZ := chainProducts(a, x, u)
			if math.Float64bits(wantZ[0]) != math.Float64bits(math.Copysign(0, -1)) {
				t.Fatalf("the reference's Mᵀu[0] = %v, want −0: the test does not test what it says", wantZ[0])
			}
			for _, p := range fp.KernelPaths() {
				func() {
					defer fp.SetKernelPath(fp.SetKernelPath(p))
					z := make([]float64, 5)
					a.MulTransVec(z, u)
					gotU := slices.Clone(u)
					zz := make([]float64, 5)
					a.BidiagStep(gotU, zz, x, alpha)
					for c := range z {
						if math.Float64bits(z[c]) != math.Float64bits(wantZ[c]) || math.Float64bits(zz[c]) != math.Float64bits(wantZ[c]) {
							t.Fatalf("path %s, second panel %d rows: column %d: MulTransVec %v, BidiagStep %v, want %v",
								p, len(second), c, z[c], zz[c], wantZ[c])
						}
					}
				}()
			}
		}
	}
}

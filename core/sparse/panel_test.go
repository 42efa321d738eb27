package sparse

import (
	"math"
	"testing"
	"unsafe"
)

// TestPackedHoldsStoredEntries checks, on panels of 1 to 20 rows, that the
// products' packed copy holds each stored entry where its layout puts it
// and, besides them, only +0 (a −0 would change a padding lane's −0 sum):
// at most seven values before each block's part of a panel, which start it
// on a 64-byte line (the last group of a panel is not padded to eight
// rows); and that every part does start on a line.
func TestPackedHoldsStoredEntries(t *testing.T) {
	var shapes []Shape
	m := 0
	for nr := 1; nr <= 20; nr++ {
		rows := make([]int32, nr)
		for i := range rows {
			rows[i] = int32(m + i)
		}
		m += nr
		shapes = append(shapes, Shape{Rows: rows, Col0: 0, NCol: 3}, Shape{Rows: rows, Col0: 3, NCol: 17})
	}
	a := New(m, 20, shapes)
	for i := range a.Blocks() {
		for k := range a.Block(i) {
			a.Block(i)[k] = float64(1 + i + 40*k) // every stored entry nonzero, and its own
		}
	}
	of := blocksOfRows(m, shapes)
	pk := a.pack()
	parts := 0
	stored := make([]bool, len(pk.vals)) // the slots that hold a stored entry
	for _, p := range pk.panels {
		nr := len(p.rows)
		for k, e := range p.ents {
			parts++
			if addr := uintptr(unsafe.Pointer(&pk.vals[e.off])); addr%64 != 0 {
				t.Errorf("a part starts at %#x, not on a 64-byte line", addr)
			}
			for q, row := range p.rows {
				pl := of[row][k]
				for c := range e.nc {
					g0 := q &^ 7
					at := e.off + g0*e.nc + min(8, nr-g0)*c + q&7
					stored[at] = true
					if got, want := pk.vals[at], a.Block(int(pl.blk))[int(pl.local)*e.nc+c]; got != want {
						t.Fatalf("row %d, column %d of block %d at %d: %v, want %v", row, c, pl.blk, at, got, want)
					}
				}
			}
		}
	}
	for i, x := range pk.vals {
		if !stored[i] && math.Float64bits(x) != 0 {
			t.Fatalf("value %d of the copy holds no stored entry and is %v, want +0", i, x)
		}
	}
	if got, most := len(pk.vals), a.NNZ()+7*parts; got > most {
		t.Errorf("packed copy of %d values, want at most the %d stored entries and 7 zeros before each of %d parts", got, a.NNZ(), parts)
	}
}

package sparse

import (
	"testing"
	"unsafe"
)

// TestPackedHoldsStoredEntries checks that the products' packed copy holds
// the stored entries and, besides them, only the zeros that start each
// block's part of a panel on a 64-byte line (at most seven before each: the
// last group of a panel is not padded to eight rows), on panels of 1 to 20
// rows; and that every part does start on a line.
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
			a.Block(i)[k] = 1 // every stored entry nonzero
		}
	}
	pk := a.pack()
	parts, nonzero := 0, 0
	for _, p := range pk.panels {
		for _, e := range p.ents {
			parts++
			if addr := uintptr(unsafe.Pointer(&pk.vals[e.off])); addr%64 != 0 {
				t.Errorf("a part starts at %#x, not on a 64-byte line", addr)
			}
		}
	}
	for _, x := range pk.vals {
		if x != 0 {
			nonzero++
		}
	}
	if nonzero != a.NNZ() {
		t.Errorf("packed copy has %d nonzero values, want the %d stored entries", nonzero, a.NNZ())
	}
	if got, most := len(pk.vals), a.NNZ()+7*parts; got > most {
		t.Errorf("packed copy of %d values, want at most the %d stored entries and 7 zeros before each of %d parts", got, a.NNZ(), parts)
	}
}

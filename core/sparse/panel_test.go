package sparse

import "testing"

// TestPackedHoldsStoredEntries checks that the products' packed copy holds
// the stored entries and nothing else (the last group of a panel is not
// padded to eight rows), on panels of 1 to 20 rows.
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
	if got, want := len(a.pack().vals), a.NNZ(); got != want {
		t.Errorf("packed copy of %d values, want the %d stored entries", got, want)
	}
}

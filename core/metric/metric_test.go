package metric_test

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"elmfbpinn/core/metric"
)

func TestEL1(t *testing.T) {
	nan := math.NaN()
	// exact = [1, 2, 3, 4]: mean 2.5, squared deviations 2.25, 0.25,
	// 0.25, 2.25, population variance 5/4, ς = sqrt(1.25).
	exact := []float64{1, 2, 3, 4}
	s := math.Sqrt(1.25)
	cases := []struct {
		name  string
		pred  []float64
		exact []float64
		want  float64
		tol   float64
	}{
		{"exact prediction", []float64{1, 2, 3, 4}, exact, 0, 0},
		// |errors| = 0.1 + 0.2 + 0 + 0.3 = 0.6; e = 0.6/(4 ς).
		{"known errors", []float64{1.1, 1.8, 3, 4.3}, exact, 0.6 / (4 * s), 1e-15},
		// NaN counts as 0: |0 - 2| = 2, plus |3.5 - 3| = 0.5; e = 2.5/(4 ς).
		{"NaN as zero", []float64{1, nan, 3.5, 4}, exact, 2.5 / (4 * s), 1e-15},
		// All NaN: Σ|u| = 10; e = 10/(4 ς).
		{"all NaN", []float64{nan, nan, nan, nan}, exact, 10 / (4 * s), 1e-15},
		// Shifted exact [11, 12, 13, 14] has the same ς; zero prediction
		// gives Σ|u| = 50, e = 50/(4 ς).
		{"shift-invariant ς", []float64{0, 0, 0, 0}, []float64{11, 12, 13, 14}, 50 / (4 * s), 1e-14},
		// exact = [-1, 1]: ς = 1; errors 0.5 + 0.25 → e = 0.75/2.
		{"two points", []float64{-0.5, 1.25}, []float64{-1, 1}, 0.375, 1e-16},
	}
	for i, tc := range cases {
		got := metric.EL1(tc.pred, tc.exact)
		if math.Abs(got-tc.want) > tc.tol || math.IsNaN(got) {
			t.Errorf("case %d (%s): EL1 = %.17g, want %.17g (tol %.3g)", i, tc.name, got, tc.want, tc.tol)
		}
	}
}

func TestPopStd(t *testing.T) {
	cases := []struct {
		u    []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, math.Sqrt(1.25)},
		{[]float64{5, 5, 5}, 0},
		{[]float64{-2, 2}, 2},
		{[]float64{7}, 0},
	}
	for i, tc := range cases {
		if got := metric.PopStd(tc.u); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("case %d: PopStd(%v) = %.17g, want %.17g", i, tc.u, got, tc.want)
		}
	}
}

func TestEL1PanicsOnLengthMismatch(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("EL1 with lengths 2 and 3 did not panic, want a panic")
		}
	}()
	metric.EL1([]float64{1, 2}, []float64{1, 2, 3})
}

func TestBest(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name   string
		h      []metric.Record
		want   metric.Record
		wantOK bool
	}{
		{"minimum in the middle", []metric.Record{{Iter: 0, EL1: 1}, {Iter: 100, EL1: 0.2}, {Iter: 200, EL1: 0.3}}, metric.Record{Iter: 100, EL1: 0.2}, true},
		{"NaN ignored", []metric.Record{{Iter: 0, EL1: nan}, {Iter: 100, EL1: 0.5}, {Iter: 200, EL1: nan}, {Iter: 300, EL1: 0.4}, {Iter: 400, EL1: nan}}, metric.Record{Iter: 300, EL1: 0.4}, true},
		{"NaN first then larger", []metric.Record{{Iter: 0, EL1: nan}, {Iter: 100, EL1: 3}}, metric.Record{Iter: 100, EL1: 3}, true},
		{"ties keep the first", []metric.Record{{Iter: 0, EL1: 0.7}, {Iter: 100, EL1: 0.1}, {Iter: 200, EL1: 0.1}}, metric.Record{Iter: 100, EL1: 0.1}, true},
		{"last is best", []metric.Record{{Iter: 0, EL1: 2}, {Iter: 5, EL1: 1}, {Iter: 10, EL1: 0.5}}, metric.Record{Iter: 10, EL1: 0.5}, true},
	}
	for i, tc := range cases {
		got, ok := metric.Best(tc.h)
		if ok != tc.wantOK || got != tc.want {
			t.Errorf("case %d (%s): Best = %+v, %v, want %+v, %v", i, tc.name, got, ok, tc.want, tc.wantOK)
		}
	}
	for _, h := range [][]metric.Record{nil, {{Iter: 0, EL1: nan}, {Iter: 100, EL1: nan}}} {
		got, ok := metric.Best(h)
		if ok || !math.IsNaN(got.EL1) {
			t.Errorf("Best(%v) = %+v, %v, want NaN error and false", h, got, ok)
		}
	}
}

// ExampleEL1 computes the relative L1 error by hand: the exact values
// [1, 2, 3, 4] have population standard deviation sqrt(1.25) ≈ 1.118, the
// absolute errors sum to 0.1 + 0.2 + 0 + 0.3 = 0.6, so
// e_L1 = 0.6/(4·1.118) ≈ 0.1342.
func ExampleEL1() {
	exact := []float64{1, 2, 3, 4}
	pred := []float64{1.1, 1.8, 3, 4.3}
	fmt.Printf("%.4f\n", metric.EL1(pred, exact))
	// Output: 0.1342
}

// ExampleBest picks the smallest recorded error, skipping NaN.
func ExampleBest() {
	h := []metric.Record{{Iter: 0, EL1: 1}, {Iter: 100, EL1: math.NaN()}, {Iter: 200, EL1: 0.01}, {Iter: 300, EL1: 0.02}}
	b, ok := metric.Best(h)
	fmt.Println(b.Iter, b.EL1, ok)
	// Output: 200 0.01 true
}

// TestReached checks the first record at or below a target: the first of
// several, none when the target is below every error, NaN never, and an
// equal error counts as reached.
func TestReached(t *testing.T) {
	nan := math.NaN()
	h := []metric.Record{{Iter: 0, EL1: 1, T: 0.5}, {Iter: 100, EL1: nan, T: 1}, {Iter: 200, EL1: 0.01, T: 2}, {Iter: 300, EL1: 0.005, T: 3}, {Iter: 400, EL1: 0.02, T: 4}}
	cases := []struct {
		target float64
		want   metric.Record
		ok     bool
	}{
		{2, h[0], true},
		{0.05, h[2], true},
		{0.01, h[2], true},
		{0.006, h[3], true},
		{0.001, metric.Record{}, false},
		{nan, metric.Record{}, false},
	}
	for i, tc := range cases {
		got, ok := metric.Reached(h, tc.target)
		if ok != tc.ok || got != tc.want {
			t.Errorf("case %d: Reached(%g) = %+v, %v, want %+v, %v", i, tc.target, got, ok, tc.want, tc.ok)
		}
	}
}

// TestRecordEncoding checks that an untimed record encodes as before the
// time was added (no "t"), so results made without it read and key the same.
func TestRecordEncoding(t *testing.T) {
	b, _ := json.Marshal(metric.Record{Iter: 100, EL1: 0.5})
	if string(b) != `{"iter":100,"eL1":0.5}` {
		t.Errorf("untimed record encodes as %s, want {\"iter\":100,\"eL1\":0.5}", b)
	}
	b, _ = json.Marshal(metric.Record{Iter: 100, EL1: 0.5, T: 1.25})
	if string(b) != `{"iter":100,"eL1":0.5,"t":1.25}` {
		t.Errorf("timed record encodes as %s, want {\"iter\":100,\"eL1\":0.5,\"t\":1.25}", b)
	}
}

package study

import (
	"math"
	"slices"
	"testing"

	"elmfbpinn/core/metric"
	"elmfbpinn/study/studytest"
)

// TestHistoryBand checks the median and min-max band over seeds against
// values computed by hand.
func TestHistoryBand(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name               string
		hs                 [][]metric.Record
		iter               []float64
		median, minv, maxv []float64
	}{
		{
			// Five seeds at iterations 0 and 100: at 0 the values {5,1,4,2,3}
			// sort to {1,2,3,4,5} (median 3); at 100 {0.5,0.1,0.4,0.2,0.3}.
			name: "five seeds",
			hs: [][]metric.Record{
				studytest.Records([]int{0, 100}, []float64{5, 0.5}),
				studytest.Records([]int{0, 100}, []float64{1, 0.1}),
				studytest.Records([]int{0, 100}, []float64{4, 0.4}),
				studytest.Records([]int{0, 100}, []float64{2, 0.2}),
				studytest.Records([]int{0, 100}, []float64{3, 0.3}),
			},
			iter: []float64{0, 100}, median: []float64{3, 0.3}, minv: []float64{1, 0.1}, maxv: []float64{5, 0.5},
		},
		{
			// Two seeds: the median is the mean of the two; iteration 200 is
			// recorded by one seed only and is left out; the records come in
			// any order.
			name: "two seeds, ragged",
			hs: [][]metric.Record{
				studytest.Records([]int{100, 0, 200}, []float64{0.2, 1, 0.1}),
				studytest.Records([]int{0, 100}, []float64{3, 0.4}),
			},
			iter: []float64{0, 100}, median: []float64{2, 0.3}, minv: []float64{1, 0.2}, maxv: []float64{3, 0.4},
		},
		{
			// A NaN at iteration 100 in one seed removes that point for all.
			name: "NaN drops the point",
			hs: [][]metric.Record{
				studytest.Records([]int{0, 100, 200}, []float64{1, nan, 0.5}),
				studytest.Records([]int{0, 100, 200}, []float64{2, 0.3, 0.25}),
			},
			iter: []float64{0, 200}, median: []float64{1.5, 0.375}, minv: []float64{1, 0.25}, maxv: []float64{2, 0.5},
		},
		{
			// A seed without history leaves no common iteration.
			name: "a seed without history",
			hs:   [][]metric.Record{studytest.Records([]int{0}, []float64{1}), nil},
		},
		{name: "no seeds"},
	}
	for _, tc := range cases {
		b := HistoryBand(tc.hs)
		if b.Seeds != len(tc.hs) {
			t.Errorf("%s: Seeds = %d, want %d", tc.name, b.Seeds, len(tc.hs))
		}
		if !slices.Equal(b.Iter, tc.iter) {
			t.Errorf("%s: iterations %v, want %v", tc.name, b.Iter, tc.iter)
			continue
		}
		for i := range tc.iter {
			if !near(b.Median[i], tc.median[i]) || !near(b.Min[i], tc.minv[i]) || !near(b.Max[i], tc.maxv[i]) {
				t.Errorf("%s: at %g median %g min %g max %g, want %g %g %g", tc.name, b.Iter[i],
					b.Median[i], b.Min[i], b.Max[i], tc.median[i], tc.minv[i], tc.maxv[i])
			}
		}
	}
}

func TestBandAt(t *testing.T) {
	b := Band{Iter: []float64{0, 100, 200}, Median: []float64{3, 2, 1}, Min: []float64{3, 2, 1}, Max: []float64{3, 2, 1}}
	for _, tc := range []struct {
		at   float64
		want float64
		ok   bool
	}{{0, 3, true}, {100, 2, true}, {150, 2, true}, {1000, 1, true}, {-1, 0, false}} {
		m, _, _, ok := b.At(tc.at)
		if ok != tc.ok || m != tc.want {
			t.Errorf("At(%g) = %g, %v; want %g, %v", tc.at, m, ok, tc.want, tc.ok)
		}
	}
}

package study

import (
	"math"

	"elmfbpinn/experiments"
)

// near reports whether a is b to rounding.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// realDir holds real result files (reports' test data).
const realDir = "../reports/testdata/results"

// studyOf returns the study of one table in a tier over results.
func studyOf(tab *experiments.Table, tier string, res map[string]*experiments.Result) (*TableStudy, error) {
	st, err := NewStudy([]*experiments.Table{tab}, tier, res)
	if err != nil {
		return nil, err
	}
	return st.Tables[0], nil
}

// statsOf returns the rows of the study of one table.
func statsOf(tab *experiments.Table, tier string, res map[string]*experiments.Result) ([]RowStats, error) {
	ts, err := studyOf(tab, tier, res)
	if err != nil {
		return nil, err
	}
	return ts.Rows, nil
}

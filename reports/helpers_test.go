package reports

import (
	"io"
	"math"
	"testing"

	"elmfbpinn/experiments"
	"elmfbpinn/study"
	"elmfbpinn/study/studytest"
)

// near reports whether a is b to rounding.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// The fixtures of package studytest under the names the tests use.
var (
	table                         = studytest.Table
	put, putQuick                 = studytest.Put, studytest.PutQuick
	scalingResults, weightResults = studytest.ScalingResults, studytest.WeightResults
	recs                          = studytest.Records
)

const (
	scFB20, scELM20, scELM40, scELM80 = studytest.ScFB20, studytest.ScELM20, studytest.ScELM40, studytest.ScELM80
	scELM160, scELM320, scML20        = studytest.ScELM160, studytest.ScELM320, studytest.ScML20
)

// realResults loads the real result files of testdata/results for the runs of the
// given tables in the full tier.
func realResults(t *testing.T, ids ...string) map[string]*experiments.Result {
	t.Helper()
	return studytest.RealResults(t, "testdata/results", ids...)
}

// studyOf returns the study of one table in a tier over results.
func studyOf(tab *experiments.Table, tier string, res map[string]*experiments.Result) (*study.TableStudy, error) {
	st, err := study.NewStudy([]*experiments.Table{tab}, tier, res)
	if err != nil {
		return nil, err
	}
	return st.Tables[0], nil
}

// markdownOf renders one table's Markdown file.
func markdownOf(w io.Writer, tab *experiments.Table, tier string, res map[string]*experiments.Result) error {
	ts, err := studyOf(tab, tier, res)
	if err != nil {
		return err
	}
	return Markdown(w, ts, true)
}

// latexOf renders one table's LaTeX file, with the paper's columns if
// paper is set.
func latexOf(w io.Writer, tab *experiments.Table, tier string, res map[string]*experiments.Result, paper bool) error {
	ts, err := studyOf(tab, tier, res)
	if err != nil {
		return err
	}
	return LaTeX(w, ts, paper)
}

// convergenceOf and finalOf return the figure data of one table.
func convergenceOf(tab *experiments.Table, tier string, res map[string]*experiments.Result) (*ConvergenceFigure, error) {
	ts, err := studyOf(tab, tier, res)
	if err != nil {
		return nil, err
	}
	return Convergence(ts), nil
}

func finalOf(tab *experiments.Table, tier string, res map[string]*experiments.Result) (*FinalFigure, error) {
	ts, err := studyOf(tab, tier, res)
	if err != nil {
		return nil, err
	}
	return Final(ts), nil
}

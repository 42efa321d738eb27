// Package study computes what the reproduction's report says about a set of
// cached run results, once, so that every renderer reads the same numbers:
// the study of a set of tables in one tier (NewStudy), the paper's summary
// claims evaluated on it (EvaluateClaims), and the row-by-row regression
// comparison of two result sets that repro compare prints (Compare, with an
// Mann-Whitney U test, exact up to ExactMax values).
//
// It reads results, the tables and the problem registry (experiments) and
// the paper's numbers and verdict rule (paperdata); it must not write files,
// draw, choose an output format or run a solver: package reports renders
// what it computes (Markdown, LaTeX, CSV, figures), and cmd/repro loads the
// results it is given.
//
// # The study
//
// NewStudy builds the view of tables over a result store in one tier: per
// row its runs, the paper's statistics over the seeds (the median and range
// max − min of the per-seed error Result.EL1, the mean and population
// standard deviation of Result.Time.Total), the band of the error histories
// (HistoryBand), κ(M) from the row's κ-only run, the paper's row and the
// verdict (paperdata.Judge), and the reasons for anything missing.
// RowStats.Why is the one rule of whether a row stands for the paper's:
// every seed the tier asks for has a result at the paper's budget; the
// other reasons (RowStats.Absent, VerdictMissing, SpeedMissing,
// KappaMissing, ...) say why a value is missing or what qualifies it.
//
// # Claims
//
// Each cell of the paper's qualitative summary table (an aspect for a
// model, e.g. "Runtime efficiency" for the ELM-FBPINN: "Fastest") is data:
// checks with a numerical rule over the tables of some kinds (the baselines,
// the scaling tables, the 1D or 2D ones). EvaluateClaims evaluates every
// check twice, on our rows and on the paper's published ones, so that a
// claim the paper's numbers do not bear out is told apart from a
// disagreement of ours.
//
// # Comparison
//
// Compare matches the rows of two result sets over the seeds present on
// both sides; a metric's change counts when the two-sided
// Mann-Whitney U test (MannWhitney) gives p < Alpha and its median ratio is
// beyond a threshold, in benchstat's manner.
package study

// Package reports turns cached run results into the reproduction's reports:
// one Markdown file and one LaTeX table per paper table, a SUMMARY.md with
// the verdict counts, the paper's figures (PNG and PDF, drawn with
// gonum.org/v1/plot), a CSV of all runs, and the index REPORT.md (and the
// LaTeX include file report.tex) with provenance, every table beside its
// figures, and the paper's qualitative summary table recomputed.
//
// The package reads nothing but what it is given: tables, a tier and the
// results keyed by Spec.Key() (as experiments.LoadAll returns them). Markdown
// and LaTeX render one table to an io.Writer; Write and Report are the only
// functions that touch the file system, and they write only into the
// directory they are given, each file atomically (a temporary file in that
// directory, then a rename).
//
// # Figures
//
// The data of every figure is computed by plain functions, apart from the
// drawing, so that it is tested without images: Convergence (the median and
// min–max band over seeds of the test-error histories, HistoryBand), Final
// (the per-seed errors against the swept parameter beside the paper's
// medians), SampleGrid and Solution.Fields (2D fields on a grid masked to
// the domain, NaN outside the L-shape), Solution.Basis (window times
// feature) and SparsityRaster (the pattern of M). ConvergencePlot, FinalPlot,
// OscillatorPlot, BasisPlot, SparsityPlot and FieldsPlot draw them. A row
// whose seeds are not all present is never drawn: a figure names the rows
// it leaves out, and a figure with nothing to draw is skipped with a note.
//
// Figures are drawn at their printed size, a column (3.3 in, 237.6 pt: a
// baseline's or short sweep's final error, a single convergence panel, a
// sparsity pattern) or the text width (6.5 in, 468 pt: the others), and
// report.tex includes them at that size (\reprofig shrinks one only to
// fit a narrower \linewidth), so the sizes set are the printed ones: no
// text is below 8 pt (ticks, legends and notes 8 pt, titles and axis labels
// 9 pt; scripts never below 8 pt). Text is Unicode with "_{...}" and
// "^{...}" set as sub- and superscripts by a text handler of this package
// ("ω_{0}", "e_{L1}", "10^{−5}"); the PDF canvas encodes text as code page
// 1252 and fills the glyph outline of any other character, so Greek letters
// print in PDF as in PNG. A final-error plot draws, beside our median and
// min–max bar, the paper's median and its range (median ± range, the band of
// a "match" verdict) for every model the paper publishes; a convergence plot
// draws the paper's median of each row run at the paper's budget as a
// dashed reference line. Log axes span whole decades with plot.LogTicks.
//
// The report computes nothing: the solution, basis and sparsity figures
// are drawn from the results of their own runs (experiments.SolutionSpec,
// SolutionRuns: the paper's multilevel models, seed 0, with Spec.Coef so
// that the result keeps the final coefficients), read like any result.
// SolutionOf rebuilds the model from such a result (the system its spec
// assembles, the kept coefficients) without solving; a missing run is a
// skipped figure naming it. The quick tier's runs of the 2D models have
// fewer iterations; each figure says how many. Solve, which does solve, is
// for tests and tools, never called by Report (TestReportSolvesNothing).
//
// # The qualitative summary
//
// EvaluateClaims recomputes the paper's Table tab:summary-takeaways: each
// entry (e.g. "Runtime efficiency" of the ELM-FBPINN: "Fastest") becomes
// checks with a numerical rule, evaluated on our results and on the paper's
// own published rows. A check that lacks runs is not evaluated and names
// them; a counterexample decides a check even when other runs are missing.
//
// # Statistics
//
// Stats reduces the runs of each row to the paper's statistics: the median
// and the range (max − min) over seeds of the per-seed error Result.EL1 (the
// minimum test e_L1 over the run's history), and the mean and population
// standard deviation over seeds of the wall time Result.Time.Total (assembly
// plus solve; κ is excluded, as in the paper). κ(M) comes from the row's
// κ-only run (Spec.Iters == 0). A row is judged against the paper
// (paperdata.Judge) only when every seed the tier asks for has a result and
// the paper has a row for it.
//
// # Number formats
//
// Errors and times use the paper's notation "m±r" followed by the exponent of
// m: "1.1±0.5e-04" is a median of 1.1e-04 with a range of 0.5e-04, and
// "5.4±0.0" (exponent 0 is left out) a mean time of 5.4 s with a standard
// deviation below 0.05 s. The mantissa of m and the scaled spread both have
// one decimal, so a spread larger than the value shows as e.g.
// "8.1±38.4e-02". The paper's own numbers are rendered with the same
// function, which reproduces the strings of its tables. κ(M) is shown as
// "8.5e+18"; the speed-up (paper mean time / our mean time; above 1 means we
// are faster) with two significant digits and a trailing "×".
//
// # Missing values
//
// A value that cannot be shown is "—" in Markdown ("---" in LaTeX) followed
// by a numbered marker; the numbered notes under the table say why (seeds
// missing, not run in the tier, κ above the size cap, no published row, ...).
// Identical reasons share one number. A row with some but not all seeds
// shows the statistics of the seeds present, marked with a note, and gets no
// verdict.
//
// # LaTeX
//
// The LaTeX table has the paper's columns only, filled with our values
// (LaTeXWith with LaTeXSettings.Paper, Options.LaTeXPaper, repro report
// -latex-paper: also the paper's e_L1 and time and the verdict), as a
// booktabs tabular in a table environment with a caption and the label
// repro:<table id>. It needs no package but booktabs: instead of the paper's
// \resizebox (graphicx) it is set in \footnotesize inside a \makebox, which
// centres a table wider than the text over the margins. Plain text is
// escaped; the few non-ASCII characters used (κ, ω, ×, —, ...) become math
// or dashes, any other becomes "?".
package reports

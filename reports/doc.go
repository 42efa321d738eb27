// Package reports renders a study of cached run results (package study) as
// the reproduction's report: one Markdown and one LaTeX table per paper
// table, SUMMARY.md, the index REPORT.md and the LaTeX include file
// report.tex, runs.csv, the paper's figures (PNG and PDF, drawn with
// gonum.org/v1/plot) and the paper's qualitative summary table as the
// study evaluated it; and repro compare's comparison (study.Compare) as a
// terminal table, Markdown or CSV.
//
// It computes nothing: every statistic, verdict, reason for a missing
// value, claim and comparison comes from package study, and it runs no
// solver (TestReportSolvesNothing reads its source and the study's). Report
// is the only function that touches the file system, and it writes only
// into the directory it is given, each file atomically.
//
// # Renderers of one study
//
// Report builds one study.Study of the tables and renders it: Markdown and
// LaTeX (one table, the same cells in two styles, each missing value a dash
// with a numbered note saying why), the index templates (templates/*.tmpl:
// REPORT.md, report.tex and SUMMARY.md from one view model), RunsCSV,
// Convergence and Final (the data of a table's figures, chosen by its
// experiments.Kind) drawn by ConvergencePlot and FinalPlot, and the claims
// of study.EvaluateClaims. The solution, basis and sparsity figures draw
// the model experiments.SolutionOf rebuilds from the result of a solution
// figure's run.
//
// # Numbers
//
// Errors and times use the paper's notation "m±r" followed by the exponent
// of m: "1.1±0.5e-04" is a median of 1.1e-04 with a range of 0.5e-04; the
// paper's own numbers are rendered by the same function (pmSci), which
// reproduces the strings of its tables. κ(M) is shown as "8.5e+18" and the
// speed-up (paper's mean time / ours) with two significant digits and "×"
// (study.Sci and study.Sig2, the notation of the study's own texts).
//
// # Figures
//
// Figures are drawn at their printed size, a column (3.3 in) or the text
// width (6.5 in), and report.tex includes them at that size (\reprofig,
// which writes the drawn and placed sizes to the log; two column figures
// share a float, side by side where they fit), so no text is below 8 pt.
// PNGs are 300 dpi and say so (a pHYs chunk); PDFs give the same bytes
// every time. A figure file holds the plot alone (axes, legend, panel
// titles): its title and the notes that explain it are the LaTeX caption
// and REPORT.md's text (Figure.Title, Notes), where "e_{L1}" is written
// $e_{L_1}$ and e_L1. Text is Unicode with "_{...}" and "^{...}" set as sub- and
// superscripts ("ω_{0}", "e_{L1}"), printed in PDF as in PNG (characters
// the PDF fonts lack are filled as glyph outlines). A final-error plot
// draws the paper's median and range beside ours; a convergence plot the
// paper's median as a dashed line.
package reports

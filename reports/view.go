package reports

import (
	"fmt"
	"slices"
	"strings"

	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
)

// style is what differs between the Markdown and the LaTeX rendering of the
// same cells.
type style struct {
	pm     string              // plus-minus sign
	dash   string              // a missing value
	inf    string              // an infinite κ
	times  string              // the "×" after a speed-up
	mark   func(n int) string  // a note marker after a value
	esc    func(string) string // escapes plain text
	params map[string]string   // problem → the name of its parameter
}

// notes numbers the reasons given under a table; equal texts share a number.
type notes struct{ texts []string }

// add returns the 1-based number of text, adding it if new.
func (n *notes) add(text string) int {
	if i := slices.Index(n.texts, text); i >= 0 {
		return i + 1
	}
	n.texts = append(n.texts, text)
	return len(n.texts)
}

// cells renders the cells of one table for one style. Cells must be asked
// for in reading order so that the notes are numbered in that order.
type cells struct {
	st    style
	n     *notes
	tier  string
	mixed bool // rows of several problems: the parameter is named per row
}

func newCells(st style, tier string, rows []RowStats) *cells {
	return &cells{st: st, n: &notes{}, tier: tier, mixed: mixedProblems(rows)}
}

// missing returns a dash with the marker of the reason.
func (c *cells) missing(reason string) string {
	return c.st.dash + c.st.mark(c.n.add(reason))
}

// withNote appends the marker of a note to a value.
func (c *cells) withNote(v, note string) string {
	return v + c.st.mark(c.n.add(note))
}

func mixedProblems(rows []RowStats) bool {
	for _, s := range rows[min(1, len(rows)):] {
		if s.Row.Problem != rows[0].Row.Problem {
			return true
		}
	}
	return false
}

// hasR reports whether the table varies the weight scale, which then gets a
// column of its own (the paper's tables all use R = 1).
func hasR(t *experiments.Table) bool {
	if t.Kind == experiments.Weights {
		return true
	}
	for _, r := range t.Rows {
		if r.R != 1 {
			return true
		}
	}
	return false
}

// paramHeader is the name of the second column's parameter: the problem's
// parameter, as in the paper, or "param" when the table mixes problems.
func (c *cells) paramHeader(rows []RowStats) string {
	if c.mixed || len(rows) == 0 {
		return "param"
	}
	return c.st.params[rows[0].Row.Problem]
}

func (c *cells) model(s RowStats) string { return c.st.esc(s.Row.Label()) }

// paramJ is the paper's (param, J) column; the PINN is listed with J = 1.
func (c *cells) paramJ(s RowStats) string {
	p, j, _ := s.Row.PaperKey()
	v := num(p)
	if c.mixed {
		v = c.st.params[s.Row.Problem] + "=" + v
	}
	return "(" + v + ", " + paperdata.FormatJ(j) + ")"
}

// hK is the paper's (h, K) column: the PINN has two hidden layers of its
// width, the (ELM-)FBPINN one layer of K.
func (c *cells) hK(s RowStats) string {
	if s.Row.Model == experiments.PINN {
		return fmt.Sprintf("(2, %d)", s.Row.Width)
	}
	return fmt.Sprintf("(1, %d)", s.Row.K)
}

func (c *cells) delta(s RowStats) string { return num(s.Row.Delta) }
func (c *cells) r(s RowStats) string     { return num(s.Row.R) }

func (c *cells) optimiser(s RowStats) string {
	if s.Row.Model == experiments.ELM {
		return "LSQR"
	}
	return "Adam"
}

// kappa is our κ(M): "N/A" for the gradient-trained models, as in the paper.
func (c *cells) kappa(s RowStats) string {
	switch {
	case s.Row.Model != experiments.ELM:
		return "N/A"
	case s.Kappa != nil && finite(*s.Kappa):
		return sci(*s.Kappa)
	case s.Kappa != nil || strings.HasPrefix(s.KappaNote, "infinite"):
		note := s.KappaNote
		if note == "" {
			note = "infinite"
		}
		return c.withNote(c.st.inf, "κ "+note)
	case s.KappaNote != "":
		return c.missing("κ " + s.KappaNote)
	case s.KappaWant:
		return c.missing("κ run not done yet")
	}
	return c.missing("κ is not computed in the " + c.tier + " tier")
}

// absent is the reason a row has no statistics of its own.
func (c *cells) absent(s RowStats) string {
	if s.Missing == NotInTier {
		return "not run in the " + c.tier + " tier"
	}
	return s.seedCount() + ": no results yet"
}

// reduced is the note of a row trained with a shortened budget.
func reduced(s RowStats) string {
	seeds := "seeds"
	if s.Want == 1 {
		seeds = "seed"
	}
	return fmt.Sprintf("shortened run (%d %s, %d of the paper's %d steps): a regression check, not judged or timed against the paper",
		s.Want, seeds, s.Iters, experiments.FullIters)
}

func partial(s RowStats) string {
	return s.seedCount() + ": statistics over the seeds present; no verdict"
}

func (c *cells) noPaper(s RowStats) string {
	if s.Table.Paper == "" {
		return "no published row: the paper shows these results only as a figure"
	}
	return "no published row for this configuration in " + s.Table.Paper
}

// ours renders one of our statistics m ± r.
func (c *cells) ours(s RowStats, m, r float64) string {
	if s.Seeds == 0 {
		return c.missing(c.absent(s))
	}
	v, ok := pmSci(m, r, c.st.pm)
	if !ok {
		return c.missing("not a finite number")
	}
	if s.Seeds < s.Want {
		return c.withNote(v, partial(s))
	}
	if s.Reduced {
		return c.withNote(v, reduced(s))
	}
	return v
}

// paper renders one of the paper's statistics m ± r.
func (c *cells) paper(s RowStats, m, r float64) string {
	if s.Paper == nil {
		return c.missing(c.noPaper(s))
	}
	v, _ := pmSci(m, r, c.st.pm)
	return v
}

func (c *cells) el1Ours(s RowStats) string  { return c.ours(s, s.EL1Median, s.EL1Range) }
func (c *cells) timeOurs(s RowStats) string { return c.ours(s, s.TimeMean, s.TimeStd) }

func (c *cells) el1Paper(s RowStats) string {
	if s.Paper == nil {
		return c.paper(s, 0, 0)
	}
	return c.paper(s, s.Paper.EL1Median, s.Paper.EL1Range)
}

func (c *cells) timePaper(s RowStats) string {
	if s.Paper == nil {
		return c.paper(s, 0, 0)
	}
	return c.paper(s, s.Paper.TimeMean, s.Paper.TimeStd)
}

func (c *cells) verdict(s RowStats) string {
	switch {
	case s.HasVerdict:
		return s.Verdict.String()
	case s.Reduced && s.Seeds > 0:
		return c.missing(reduced(s))
	case s.Paper == nil:
		return c.missing(c.noPaper(s))
	case s.Seeds == 0:
		return c.missing(c.absent(s))
	}
	return c.missing(partial(s))
}

func (c *cells) speed(s RowStats) string {
	if v := sig2(s.Speed); v != "" {
		if s.Seeds < s.Want {
			return c.withNote(v+c.st.times, partial(s))
		}
		return v + c.st.times
	}
	switch {
	case s.Paper == nil:
		return c.missing(c.noPaper(s))
	case s.Seeds == 0:
		return c.missing(c.absent(s))
	case s.Reduced:
		return c.missing(reduced(s))
	case s.Contended > 0:
		return c.missing(fmt.Sprintf("%d of %d seeds were timed with more runs at once than cores (repro run -oversubscribe, contended: true): left out of the speed-up", s.Contended, s.Seeds))
	}
	return c.missing("no positive time to compare")
}

// rowName identifies a row in the lines under a table.
func (c *cells) rowName(s RowStats, withR bool) string {
	name := c.model(s) + " " + c.paramJ(s) + " " + c.hK(s)
	if withR {
		name += " R=" + c.r(s)
	}
	return name
}

// counts are the verdicts of a table.
type counts struct {
	Match, Close, Off int
	Unjudged          int // complete rows without a published row (Reduced included)
	Reduced           int // complete rows run with a shortened budget, not judged
	Incomplete        int // rows in the tier with seeds missing
	NotInTier         int // rows the tier does not run
}

func count(rows []RowStats) counts {
	var k counts
	for _, s := range rows {
		switch {
		case s.Missing == NotInTier:
			k.NotInTier++
		case s.Missing == SeedsMissing:
			k.Incomplete++
		case !s.HasVerdict:
			k.Unjudged++
			if s.Reduced {
				k.Reduced++
			}
		case s.Verdict == paperdata.Match:
			k.Match++
		case s.Verdict == paperdata.Close:
			k.Close++
		default:
			k.Off++
		}
	}
	return k
}

// tierSeeds describes the seeds a tier asks of the table's rows.
func tierSeeds(rows []RowStats) int {
	want := 0
	for _, s := range rows {
		want = max(want, s.Want)
	}
	return want
}

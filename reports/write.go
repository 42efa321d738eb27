package reports

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"elmfbpinn/experiments"
)

// TableSummary is the outcome of one table in one tier.
type TableSummary struct {
	ID, Paper, Title string
	Rows             int // rows of the table
	InTier           int // rows the tier runs
	Complete         int // rows with every seed the tier asks for
	Match, Close     int
	Off              int
	Unjudged         int // complete rows without a published row
	Reduced          int // complete rows run with a shortened budget, not judged
	Incomplete       int // rows in the tier with seeds missing
}

// Summary is the outcome of all tables written by Write. Match, Close, Off
// and Incomplete are totals over Tables.
type Summary struct {
	Tables                        []TableSummary
	Match, Close, Off, Incomplete int
}

// Summarise returns the summary of one table's statistics.
func Summarise(t *experiments.Table, rows []RowStats) TableSummary {
	k := count(rows)
	return TableSummary{
		ID: t.ID, Paper: t.Paper, Title: t.Title,
		Rows:     len(rows),
		InTier:   len(rows) - k.NotInTier,
		Complete: k.Match + k.Close + k.Off + k.Unjudged,
		Match:    k.Match, Close: k.Close, Off: k.Off,
		Unjudged: k.Unjudged - k.Reduced, Reduced: k.Reduced,
		Incomplete: k.Incomplete,
	}
}

// Write renders every table for a tier into dir (created if needed):
// <table-id>.md and <table-id>.tex for each table, then SUMMARY.md. Each file
// is written atomically. It returns the summary it wrote.
func Write(dir string, tier string, tables []*experiments.Table, results map[string]*experiments.Result) (*Summary, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	sum := &Summary{}
	for _, t := range tables {
		rows, err := Stats(t, tier, results)
		if err != nil {
			return nil, err
		}
		var md, tex bytes.Buffer
		if err := writeMarkdown(&md, t, tier, rows, true); err != nil {
			return nil, fmt.Errorf("table %s: %w", t.ID, err)
		}
		if err := writeLaTeX(&tex, t, tier, rows, &LaTeXSettings{}); err != nil {
			return nil, fmt.Errorf("table %s: %w", t.ID, err)
		}
		if err := writeFile(dir, t.ID+".md", md.Bytes()); err != nil {
			return nil, err
		}
		if err := writeFile(dir, t.ID+".tex", tex.Bytes()); err != nil {
			return nil, err
		}
		sum.add(Summarise(t, rows))
	}
	var b bytes.Buffer
	if err := SummaryMarkdown(&b, tier, sum); err != nil {
		return nil, err
	}
	if err := writeFile(dir, "SUMMARY.md", b.Bytes()); err != nil {
		return nil, err
	}
	return sum, nil
}

// SummaryMarkdown renders the summary as the Markdown of SUMMARY.md.
func SummaryMarkdown(w io.Writer, tier string, sum *Summary) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# Reproduction summary, tier %s\n\n", codeSpan(tier))
	header := []string{"Table", "Paper", "Rows", "In tier", "All seeds", "Match", "Close", "Off",
		"No paper row", "Shortened", "Seeds missing"}
	tb := newMarkdownTable(bw, len(header), 2)
	tb.Header(header)
	var tot TableSummary
	for _, t := range sum.Tables {
		paper := "—"
		if t.Paper != "" {
			paper = codeSpan(t.Paper)
		}
		if err := tb.Append([]string{
			fmt.Sprintf("[%s](%s.md)", t.ID, t.ID), paper,
			itoa(t.Rows), itoa(t.InTier), itoa(t.Complete), itoa(t.Match), itoa(t.Close),
			itoa(t.Off), itoa(t.Unjudged), itoa(t.Reduced), itoa(t.Incomplete),
		}); err != nil {
			return err
		}
		tot.Rows += t.Rows
		tot.InTier += t.InTier
		tot.Complete += t.Complete
		tot.Unjudged += t.Unjudged
		tot.Reduced += t.Reduced
	}
	if err := tb.Append([]string{
		"**total**", "", itoa(tot.Rows), itoa(tot.InTier), itoa(tot.Complete),
		itoa(sum.Match), itoa(sum.Close), itoa(sum.Off), itoa(tot.Unjudged), itoa(tot.Reduced),
		itoa(sum.Incomplete),
	}); err != nil {
		return err
	}
	if err := tb.Render(); err != nil {
		return err
	}
	fmt.Fprintf(bw, "\nOverall: %d match, %d close, %d off; %d rows without all their seeds.\n",
		sum.Match, sum.Close, sum.Off, sum.Incomplete)
	fmt.Fprintf(bw, "\nMatch: our median e_L1 lies within the paper's median ± range; close: within a "+
		"factor 3 of the paper's median; off: otherwise. Only rows with every seed of the tier are judged; "+
		"shortened runs (a quick-tier training of fewer steps than the paper's) are regression checks and are not judged. "+
		"Each table's file lists its rows, the reasons for missing values and the off rows.\n")
	return bw.Flush()
}

func itoa(n int) string { return fmt.Sprint(n) }

// writeFile writes data to dir/name atomically: a temporary file in dir,
// synced, then renamed over the target.
func writeFile(dir, name string, data []byte) error {
	f, err := os.CreateTemp(dir, ".tmp-"+name+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

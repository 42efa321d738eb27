package reports

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
	"gonum.org/v1/plot/vg/vgimg"

	"elmfbpinn/experiments"
)

// printFigures returns every kind of figure the report draws: the
// convergence and final-error figures of the report test's tables (a
// sweep, a baseline, the weight-scaling figure) and the solution figures
// of small solves of the three problems.
func printFigures(t *testing.T) []*Figure {
	t.Helper()
	tables, res := reportTables(t)
	var figs []*Figure
	for _, tab := range tables {
		c, err := convergenceOf(tab, experiments.Full, res)
		if err != nil {
			t.Fatal(err)
		}
		f, err := finalOf(tab, experiments.Full, res)
		if err != nil {
			t.Fatal(err)
		}
		for _, fig := range []*Figure{ConvergencePlot(c), FinalPlot(f)} {
			if fig != nil {
				figs = append(figs, fig)
			}
		}
	}
	for _, s := range []experiments.Spec{
		{Problem: experiments.Oscillator, Model: experiments.ELM, Param: 20, J: []int{1, 2, 4}, K: 4, Delta: 2.9, R: 1, Iters: 20},
		{Problem: experiments.Laplace, Model: experiments.ELM, Param: 1, J: []int{1, 2}, K: 4, Delta: 2.9, R: 1, Iters: 20},
		{Problem: experiments.Helmholtz, Model: experiments.ELM, Param: 2, J: []int{1, 2}, K: 4, Delta: 2.9, R: 1, Iters: 20},
	} {
		s.Coef = true
		r, err := experiments.Execute(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		fs, err := solutionPlots(r)
		if err != nil {
			t.Fatal(err)
		}
		figs = append(figs, fs...)
	}
	return figs
}

// textSizes records the font size of every string drawn.
type textSizes struct {
	vg.CanvasSizer
	sizes map[string]vg.Length // the smallest size of each string
}

// FillString records the size of str.
func (c *textSizes) FillString(f font.Face, pt vg.Point, str string) {
	if s, ok := c.sizes[str]; !ok || f.Font.Size < s {
		c.sizes[str] = f.Font.Size
	}
	c.CanvasSizer.FillString(f, pt, str)
}

var (
	mediaBox = regexp.MustCompile(`/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]`)
	fontSize = regexp.MustCompile(`/F[0-9A-Za-z]+ ([0-9.]+) Tf`)
	stream   = regexp.MustCompile(`(?s)stream\r?\n(.*?)endstream`)
)

// pdfTextSizes returns the page width of a PDF and the font sizes set in
// its content streams (decompressed).
func pdfTextSizes(t *testing.T, pdf []byte) (width float64, sizes []float64) {
	t.Helper()
	m := mediaBox.FindSubmatch(pdf)
	if m == nil {
		t.Fatal("no MediaBox in the PDF")
	}
	width, _ = strconv.ParseFloat(string(m[1]), 64)
	for _, s := range stream.FindAllSubmatch(pdf, -1) {
		r, err := zlib.NewReader(bytes.NewReader(s[1]))
		data := s[1]
		if err == nil {
			if d, err := io.ReadAll(r); err == nil {
				data = d
			}
		}
		for _, f := range fontSize.FindAllSubmatch(data, -1) {
			v, _ := strconv.ParseFloat(string(f[1]), 64)
			sizes = append(sizes, v)
		}
	}
	return width, sizes
}

// TestFigurePrintSize checks that every figure is drawn at its printed
// size, a column (3.3 in) or a text width (6.5 in, at most 470 pt) and at
// most maxHeight high, with no
// text below minFont (8 pt) at that size: every string drawn (the Greek
// letters and scripts included) is recorded with its font size, and the
// PDF's page width and the font sizes it sets (Tf) are read back.
func TestFigurePrintSize(t *testing.T) {
	if testing.Short() {
		t.Skip("solves three small models")
	}
	for _, fig := range printFigures(t) {
		if fig.H > maxHeight {
			t.Errorf("%s: %.1f pt high, taller than maxHeight (%.1f pt): it would not fit a page with its caption", fig.Name,
				fig.H.Points(), maxHeight.Points())
		}
		if fig.W != columnWidth && fig.W != textWidth {
			t.Errorf("%s: %.1f pt wide, want a column (%.1f) or the text width (%.1f)", fig.Name, fig.W.Points(),
				columnWidth.Points(), textWidth.Points())
		}
		rec := &textSizes{CanvasSizer: vgimg.New(fig.W, fig.H), sizes: map[string]vg.Length{}}
		fig.draw(draw.New(rec))
		if len(rec.sizes) == 0 {
			t.Errorf("%s: no text drawn", fig.Name)
		}
		// The title and the notes are the caption's, not the image's.
		caption := fig.Title + " " + strings.Join(fig.Notes, " ")
		if fig.Title == "" || len(fig.Notes) == 0 && !strings.Contains(fig.Name, "solution") {
			t.Errorf("%s: title %q, notes %q; want both", fig.Name, fig.Title, fig.Notes)
		}
		for s := range rec.sizes {
			if len(s) > 24 && strings.Contains(caption, s) { // longer than a legend entry
				t.Errorf("%s: %q of its caption is drawn in the image", fig.Name, s)
			}
		}
		for s, sz := range rec.sizes {
			if sz < minFont {
				t.Errorf("%s: %q drawn at %.2f pt, want >= %d", fig.Name, s, sz.Points(), minFont)
			}
		}
		pdf, err := fig.Bytes(FormatPDF)
		if err != nil {
			t.Fatal(err)
		}
		w, sizes := pdfTextSizes(t, pdf)
		if w > 470 || w != float64(fig.W.Points()) && strconv.FormatFloat(w, 'f', 2, 64) != strconv.FormatFloat(fig.W.Points(), 'f', 2, 64) {
			t.Errorf("%s: PDF page %.2f pt wide, want %.2f (at most 470)", fig.Name, w, fig.W.Points())
		}
		if len(sizes) == 0 {
			t.Errorf("%s: no font size set in the PDF", fig.Name)
		}
		for _, sz := range sizes {
			if sz < minFont {
				t.Errorf("%s: the PDF sets a %.2f pt font, want >= %d", fig.Name, sz, minFont)
			}
		}
	}
}

// TestSpaceTicks: a label closer than 4 pt (plus half of both widths) to
// the last label kept is cleared; unlabelled ticks stay as they are.
func TestSpaceTicks(t *testing.T) {
	sty := textStyle(tickSize)
	w := sty.Width("10") // every label below is two digits wide
	for _, tc := range []struct {
		at   []float64 // positions in points
		want []bool    // labelled after spacing
	}{
		{[]float64{0, 100, 200}, []bool{true, true, true}},
		{[]float64{0, float64(w + 3), float64(w + 5), 100}, []bool{true, false, true, true}},
		{[]float64{0, 1, 2, 3, 4}, []bool{true, false, false, false, false}},
	} {
		var ts []plot.Tick
		for i, x := range tc.at {
			ts = append(ts, plot.Tick{Value: x, Label: strconv.Itoa(10 + i)})
		}
		got := spaceTicks(ts, func(x float64) vg.Length { return vg.Length(x) }, sty)
		for i, tk := range got {
			if (tk.Label != "") != tc.want[i] || tk.Value != tc.at[i] {
				t.Errorf("ticks at %v: %d is %+v, want labelled %v", tc.at, i, tk, tc.want[i])
			}
		}
	}
}

// TestFigureBytesStable: a figure gives the same bytes each time, as PDF
// (fixed dates, sorted catalogues) and as PNG, so that the published
// report can be checked byte for byte; the PNG decodes at the figure's
// size at pngDPI and records that resolution in a pHYs chunk after IHDR.
func TestFigureBytesStable(t *testing.T) {
	tables, res := reportTables(t)
	f, err := finalOf(tables[1], experiments.Full, res) // osc-K: a column figure
	if err != nil {
		t.Fatal(err)
	}
	fig := FinalPlot(f)
	for _, format := range []string{FormatPDF, FormatPNG} {
		a, err := fig.Bytes(format)
		if err != nil {
			t.Fatal(err)
		}
		b, err := fig.Bytes(format)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two drawings of %s differ (%d and %d bytes)", format, fig.Name, len(a), len(b))
		}
		if format == FormatPDF {
			if !bytes.Contains(a, []byte("/CreationDate (D:20000101000000)")) {
				t.Errorf("the PDF is dated by the time of writing, not pdfDate")
			}
			continue
		}
		img, err := png.Decode(bytes.NewReader(a))
		if err != nil {
			t.Fatal(err)
		}
		if w, want := img.Bounds().Dx(), int(math.Round(float64(fig.W/vg.Inch)*pngDPI)); w != want {
			t.Errorf("PNG %d pixels wide, want %d (%.2f in at %d dpi)", w, want, float64(fig.W/vg.Inch), pngDPI)
		}
		// The chunk after IHDR: length 9, "pHYs", x and y pixels per
		// metre, unit 1 (the metre).
		if len(a) < 33+21 || string(a[37:41]) != "pHYs" {
			t.Fatalf("no pHYs chunk after IHDR")
		}
		x, y := binary.BigEndian.Uint32(a[41:45]), binary.BigEndian.Uint32(a[45:49])
		if dpi := float64(x) * 0.0254; x != y || a[49] != 1 || math.Abs(dpi-pngDPI) > 0.1 {
			t.Errorf("pHYs: %d x %d per unit %d (%.1f dpi), want %d dpi in both directions per metre", x, y, a[49], dpi, pngDPI)
		}
	}
}

// TestLegendColumns: a legend takes one row where it fits; otherwise the
// fewest rows, balanced, and no row holds one entry alone unless all do.
func TestLegendColumns(t *testing.T) {
	item := func(s string) legendItem { return legendItem{text: s} }
	five := []legendItem{item("PINN"), item("FBPINN"), item("ELM-FBPINN"), item("ELM-FBPINN (L=3)"), item("paper's median")}
	one, _ := legendGrid(five, 5)
	three, _ := legendGrid(five, 3)
	row3, _ := legendGrid(five[:3], 3)
	row4, _ := legendGrid(five[:4], 4)
	for _, tc := range []struct {
		items []legendItem
		w     vg.Length
		want  int
	}{
		{five, textWidth, 5},               // one row
		{five, one, 5},                     // exactly one row's width
		{five, one - 1, 3},                 // 3 + 2, not 4 + 1
		{five, three, 3},                   //
		{five[:3], row3 - 1, 1},            // 2 + 1 would leave one alone: stacked
		{five[:4], row4 - 1, 2},            // 2 + 2
		{five[:1], 1, 1},                   // too wide even alone
		{slices.Repeat(five[:1], 6), 0, 1}, // nothing fits
	} {
		if got := legendColumns(tc.items, tc.w); got != tc.want {
			t.Errorf("%d items in %.1f pt: %d columns, want %d", len(tc.items), tc.w.Points(), got, tc.want)
		}
	}
}

// TestOpenRangeBar: a bar whose range reaches zero on a log axis is drawn
// open below, openArrow under its point and ending in a filled arrowhead,
// not down to the axis floor; a closed bar runs from Low to High.
func TestOpenRangeBar(t *testing.T) {
	p := plot.New()
	p.Y.Scale = plot.LogScale{}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 3, 1e-6, 1
	area := vg.Rectangle{Max: vg.Point{X: 100, Y: 300}}
	for _, tc := range []struct {
		bar        rangeBar
		lowest     vg.Length // the lowest point drawn, in points over the floor
		arrowheads int
	}{
		{rangeBar{X: 1, Y: 1e-2, Low: -1e-2, High: 3e-2, Open: true}, 300*4/6 - openArrow, 1},
		{rangeBar{X: 2, Y: 1e-2, Low: 1e-3, High: 3e-2}, 300 * 3 / 6, 0},
	} {
		rec := new(recorder.Canvas)
		b := &rangeBars{bars: []rangeBar{tc.bar}, line: draw.LineStyle{Color: color.Black, Width: 1}, capWidth: 3.5}
		b.Plot(draw.Canvas{Canvas: rec, Rectangle: area}, p)
		lowest, fills := vg.Length(math.Inf(1)), 0
		for _, a := range rec.Actions {
			var path vg.Path
			switch a := a.(type) {
			case *recorder.Stroke:
				path = a.Path
			case *recorder.Fill:
				path, fills = a.Path, fills+1
			}
			for _, pc := range path {
				if pc.Type != vg.CloseComp {
					lowest = min(lowest, pc.Pos.Y)
				}
			}
		}
		if math.Abs(float64(lowest-tc.lowest)) > 0.01 || fills != tc.arrowheads {
			t.Errorf("bar %+v: lowest point %.2f pt, %d arrowheads; want %.2f and %d", tc.bar, lowest.Points(), fills,
				tc.lowest.Points(), tc.arrowheads)
		}
	}
}

// TestPDFImagesStable: a PDF figure with several rasters of one width (the
// heat maps and colour bars of a 2D solution figure) gives the same bytes
// every time. fpdf writes its images sorted by width alone, the ties in
// map order; straightAlpha gives each raster a width of its own.
func TestPDFImagesStable(t *testing.T) {
	raster := func(w, h int, c color.RGBA) image.Image {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for i := range w * h {
			img.SetRGBA(i%w, i/w, color.RGBA{c.R, uint8(i), c.B, 255})
		}
		return img
	}
	fig := &Figure{Name: "rasters", W: columnWidth, H: columnWidth, draw: func(c draw.Canvas) {
		for i, img := range []image.Image{raster(20, 20, colRed), raster(20, 20, colBlue), raster(20, 20, colGreen),
			raster(7, 1, colRed), raster(7, 1, colBlue), raster(40, 20, colGrey)} {
			x := vg.Length(i) * 30
			c.DrawImage(vg.Rectangle{Min: vg.Point{X: x, Y: 10}, Max: vg.Point{X: x + 25, Y: 35}}, img)
		}
	}}
	first, err := fig.Bytes(FormatPDF)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		again, err := fig.Bytes(FormatPDF)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, again) {
			t.Fatalf("drawing %d of the same rasters gives other bytes", i+2)
		}
	}
}

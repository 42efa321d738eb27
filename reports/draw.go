package reports

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"

	"elmfbpinn/experiments"
)

// This file holds the drawing machinery shared by the figures: a Figure
// that writes itself as PNG or PDF, a page layout with a legend strip and a
// grid of aligned panels, and the styles. A figure file holds the plot
// alone (axes, legend, panel titles): its title and the notes that explain
// it are text of the report (Figure.Title, Notes: the LaTeX caption and
// REPORT.md), not drawn.
//
// Every figure is drawn at its printed size, columnWidth or textWidth
// wide, so that its text sizes (at least minFont) are the printed ones.
// Figure text is Unicode with script markup (text.go): "ω_{0}", "e_{L1}".

// pngDPI is the resolution of the PNG figures, recorded in each file (a
// pHYs chunk) so that a viewer or pdflatex places it at its printed size.
const pngDPI = 300

// pdfDate is the creation and modification date written into every PDF
// figure, instead of the time of writing, so that a figure gives the same
// bytes every time (published reports are checked byte for byte).
var pdfDate = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func init() {
	// gonum/plot's PDF canvas hides its fpdf document: its defaults are the
	// only way to a fixed date and to resource catalogues written in a
	// fixed order (fonts and images, otherwise in map order). They apply to
	// every PDF fpdf makes in this program; nothing else here makes one.
	fpdf.SetDefaultCreationDate(pdfDate)
	fpdf.SetDefaultModificationDate(pdfDate)
	fpdf.SetDefaultCatalogSort(true)
}

// The printed widths of the figures: a column of a two-column paper
// (3.3 in) and the text width of a one-column page (6.5 in). A figure is
// drawn at one of them and included at its natural size.
const (
	columnWidth = 3.3 * vg.Inch
	textWidth   = 6.5 * vg.Inch
)

// maxHeight is the tallest a figure may be drawn: with its caption it fits
// a text block of 9 in (US letter with 1 in margins; \reprofig shrinks a
// figure taller than 0.85 of the block, 7.65 in there).
const maxHeight = 7 * vg.Inch

// Figure is one drawing of a fixed size, written as PNG or PDF, with the
// text the report writes beside it. Title and Notes are figure text:
// Unicode with "_{...}" and "^{...}" scripts ("e_{L1}", "ω_{0}"), which
// the report writes as LaTeX math ($e_{L_1}$) and as Markdown (e_L1).
type Figure struct {
	Name    string   // the file name without extension, e.g. "osc-K-convergence"
	Caption string   // what it shows, in a few words: the image's alternative text
	Title   string   // what it shows in full, e.g. "Damped oscillator, varying K: test error against iteration"
	Notes   []string // sentences that explain it: what it reproduces, what its marks mean
	W, H    vg.Length
	draw    func(c draw.Canvas)
}

// straightAlpha passes colours to gonum/plot's PDF canvas with their
// channels not premultiplied by alpha: the canvas takes the channels of
// RGBA() as they are and sets the opacity apart, so a translucent colour
// would otherwise come out darkened toward grey. It also passes text
// encoded as the canvas expects (code page 1252), drawing the characters
// the code page lacks as glyph outlines, and images each of a width of
// its own (see DrawImage).
type straightAlpha struct {
	*vgpdf.Canvas
	widths map[int]bool // the pixel widths of the images drawn so far
}

// SetColor sets the colour of the strokes and fills that follow, handing
// the PDF canvas its straight channels.
func (c straightAlpha) SetColor(clr color.Color) {
	if clr != nil {
		clr = unpremultiplied(color.NRGBAModel.Convert(clr).(color.NRGBA))
	}
	c.Canvas.SetColor(clr)
}

// DrawImage draws img upside down on the PDF canvas, which places an image
// in the right rectangle but with its rows in reverse order (a heat map of
// the L-shape would have its missing quadrant at the bottom). An image as
// wide as one drawn before has each column repeated k times (the least k
// that gives a width not drawn yet): the same picture in the same
// rectangle, but fpdf writes its images sorted by width alone, ties in map
// order, and the PDF would not have the same bytes every time.
func (c straightAlpha) DrawImage(rect vg.Rectangle, img image.Image) {
	b := img.Bounds()
	k := 1
	for c.widths[b.Dx()*k] {
		k++
	}
	c.widths[b.Dx()*k] = true
	flipped := image.NewNRGBA(image.Rect(0, 0, b.Dx()*k, b.Dy()))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			for i := range k {
				flipped.Set((x-b.Min.X)*k+i, b.Max.Y-1-y, img.At(x, y))
			}
		}
	}
	c.Canvas.DrawImage(rect, flipped)
}

// unpremultiplied is an NRGBA colour whose RGBA method returns the straight
// channels; only the PDF canvas, which expects them, receives it.
type unpremultiplied color.NRGBA

// RGBA returns the straight (not alpha-premultiplied) channels scaled to
// 16 bits, unlike color.Color's contract, as the PDF canvas expects.
func (u unpremultiplied) RGBA() (r, g, b, a uint32) {
	return uint32(u.R) * 0x101, uint32(u.G) * 0x101, uint32(u.B) * 0x101, uint32(u.A) * 0x101
}

// Bytes returns the figure encoded in a format (PNG or PDF).
func (f *Figure) Bytes(format string) (b []byte, err error) {
	defer func() {
		// gonum/plot panics on data it cannot draw (e.g. a non-positive
		// value on a log axis); the report goes on without the figure.
		if r := recover(); r != nil {
			err = fmt.Errorf("figure %s: %v", f.Name, r)
		}
	}()
	var buf bytes.Buffer
	switch format {
	case FormatPNG:
		c := vgimg.NewWith(vgimg.UseWH(f.W, f.H), vgimg.UseDPI(pngDPI))
		f.draw(draw.New(c))
		err = encodePNG(&buf, c.Image(), pngDPI)
	case FormatPDF:
		c := vgpdf.New(f.W, f.H)
		f.draw(draw.New(straightAlpha{Canvas: c, widths: map[int]bool{}}))
		_, err = c.WriteTo(&buf)
	default:
		err = fmt.Errorf("unknown figure format %q (want png or pdf)", format)
	}
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// encodePNG writes img as a PNG (best compression) that records its
// resolution, dpi dots per inch, in a pHYs chunk right after the header, as
// the PNG specification allows (the image/png encoder writes none).
func encodePNG(w io.Writer, img image.Image, dpi float64) error {
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
		return err
	}
	b := buf.Bytes()
	const ihdrEnd = 8 + 8 + 13 + 4 // signature, IHDR's length and type, its data, its CRC
	if len(b) < ihdrEnd || string(b[12:16]) != "IHDR" {
		return errors.New("png: no IHDR chunk first")
	}
	ppm := uint32(math.Round(dpi / 0.0254)) // pixels per metre
	chunk := binary.BigEndian.AppendUint32(nil, 9)
	chunk = append(chunk, "pHYs"...)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = append(chunk, 1) // unit: the metre
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	for _, part := range [][]byte{b[:ihdrEnd], chunk, b[ihdrEnd:]} {
		if _, err := w.Write(part); err != nil {
			return err
		}
	}
	return nil
}

// Colours: matplotlib's "tab10", which reads well in print and on screen.
var (
	colBlue   = color.RGBA{31, 119, 180, 255}
	colOrange = color.RGBA{255, 127, 14, 255}
	colGreen  = color.RGBA{44, 160, 44, 255}
	colRed    = color.RGBA{214, 39, 40, 255}
	colPurple = color.RGBA{148, 103, 189, 255}
	colBrown  = color.RGBA{140, 86, 75, 255}
	colGrey   = color.RGBA{127, 127, 127, 255}
	colPink   = color.RGBA{227, 119, 194, 255}
	colOlive  = color.RGBA{188, 189, 34, 255}
	colCyan   = color.RGBA{23, 190, 207, 255}
)

// tab10 is the palette in its order (grey last): the colours of series that
// have none of their own, in the order they are met.
var tab10 = []color.RGBA{colBlue, colOrange, colGreen, colRed, colPurple, colBrown, colPink, colOlive, colCyan, colGrey}

// seriesColours are the colours of the models' curves and points; a
// problem's (the weight-scaling figure's series) is tab10's in the
// registry's order.
var seriesColours = map[string]color.RGBA{"pinn": colRed, "fbpinn": colBlue, "elm": colOrange, "elm-ml": colPurple}

// modelColour is the colour of a series: a model key, a model key with a
// solver ("elm/NAME", seriesKey: tab10's green, brown, ... in the order of
// experiments.SolverNames) or a problem name.
func modelColour(key string) color.RGBA {
	if c, ok := seriesColours[key]; ok {
		return c
	}
	if _, solver, ok := strings.Cut(key, "/"); ok {
		name, _, _ := strings.Cut(solver, "+")
		more := []color.RGBA{colGreen, colBrown, colBlue, colRed, colGrey}
		return more[max(0, slices.Index(experiments.SolverNames(), name))%len(more)]
	}
	if i := slices.Index(experiments.ProblemNames(), key); i >= 0 {
		return tab10[i%6]
	}
	return colGrey
}

// ramp returns n colours from dark blue to yellow (for curves ordered by a
// parameter, e.g. R).
func ramp(n int) []color.RGBA {
	stops := []color.RGBA{{68, 1, 84, 255}, {59, 82, 139, 255}, {33, 145, 140, 255}, {94, 201, 98, 255}, {205, 175, 20, 255}}
	out := make([]color.RGBA, n)
	for i := range out {
		t := 0.0
		if n > 1 {
			t = float64(i) / float64(n-1) * float64(len(stops)-1)
		}
		k := min(int(t), len(stops)-2)
		f := t - float64(k)
		a, b := stops[k], stops[k+1]
		mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-f) + float64(y)*f)) }
		out[i] = color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 255}
	}
	return out
}

// withAlpha returns c with opacity a in [0, 1], as straight (not
// premultiplied) channels.
func withAlpha(c color.RGBA, a float64) color.NRGBA {
	return color.NRGBA{c.R, c.G, c.B, uint8(math.Round(255 * a))}
}

// Font sizes of the figures, in points at the printed size: none is below
// minFont (scripts included, see scriptText).
const (
	legendSize = 8 // the legend strip
	panelSize  = 9 // a panel's title
	labelSize  = 9 // an axis label
	tickSize   = 8 // tick labels, colour-bar labels included
	margin     = vg.Length(4)
)

// textStyle is the style of the figure-level text.
func textStyle(size float64) text.Style {
	return text.Style{
		Color:   color.Black,
		Font:    font.From(plot.DefaultFont, vg.Length(size)),
		Handler: figureText,
	}
}

// newPanel returns a plot with the panel styling of the figures, its
// title and its axis labels ("" for none).
func newPanel(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, xLabel, yLabel
	p.Title.TextStyle.Font.Size = panelSize
	p.Title.TextStyle.Handler = figureText
	p.Title.Padding = vg.Points(2)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = labelSize
		a.Label.TextStyle.Handler = figureText
		a.Label.Padding = vg.Points(2)
		a.Tick.Label.Font.Size = tickSize
		a.Tick.Label.Handler = figureText
		a.Tick.Length = vg.Points(4)
		a.Padding = vg.Points(2)
	}
	return p
}

// logY puts the y axis of p on a log scale with the ticks of
// plot.LogTicks (labelled as powers of ten) and faint horizontal grid
// lines at the decades.
func logY(p *plot.Plot) {
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = powerTicks
	g := plotter.NewGrid()
	g.Vertical.Color = nil
	g.Horizontal = draw.LineStyle{Color: color.Gray{Y: 225}, Width: vg.Points(0.5)}
	p.Add(g)
}

// decadeRange returns the whole decades around the positive values among
// ys (those a log axis can draw), the range of a log axis, so that it
// always has labelled ticks at both ends; 0.1 to 1 if none is positive.
func decadeRange(ys ...float64) (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, y := range ys {
		if positive(y) {
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
	}
	if lo > hi {
		return 1e-1, 1
	}
	a, b := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if a == b {
		b++
	}
	return math.Pow10(int(a)), math.Pow10(int(b))
}

// powerTicks are the ticks of plot.LogTicks over [lo, hi], the major ones
// labelled "10^{e}" (only every second or third one when the axis spans
// more than six or twelve decades).
var powerTicks = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) {
		return nil
	}
	// LogTicks truncates log10(lo) toward zero: from just below lo it
	// starts at lo's decade even when rounding puts log10(lo) above it.
	ts := plot.LogTicks{Prec: -1}.Ticks(lo*(1-1e-9), hi)
	step := 1
	if n := math.Log10(hi / lo); n > 12 {
		step = 3
	} else if n > 6 {
		step = 2
	}
	var out []plot.Tick
	for _, t := range ts {
		if t.Value < lo*(1-1e-9) || t.Value > hi*(1+1e-9) || len(out) > 0 && out[len(out)-1].Value == t.Value {
			continue // out of range, or a decade LogTicks repeats as a minor tick
		}
		if t.Label != "" {
			e := int(math.Round(math.Log10(t.Value)))
			t.Label = ""
			if e%step == 0 {
				t.Label = decade(e)
			}
		}
		out = append(out, t)
	}
	return out
})

// decade labels 10^e: "1", "10" and otherwise "10^{e}" (a superscript).
func decade(e int) string {
	switch e {
	case 0:
		return "1"
	case 1:
		return "10"
	}
	return "10^{" + strings.Replace(strconv.Itoa(e), "-", "−", 1) + "}"
}

// legendItem is one entry of a legend strip: its text and the drawing of
// its thumbnail (lineThumb, glyphThumb).
type legendItem struct {
	text  string
	thumb func(c *draw.Canvas)
}

// page is the layout of a figure: a legend strip and a grid of panels
// drawn aligned; its title and notes become the figure's (not drawn).
type page struct {
	title  string
	notes  []string // "" entries are left out
	legend []legendItem
	// rows are the panels, every row as long, each starting with a panel;
	// nil entries are left empty.
	rows [][]*plot.Plot
	// yLabels, if set, label the y axes row by row ("" for none), drawn
	// once left of each row at the height of its first panel's data,
	// instead of the axes' own labels (whose space gonum/plot reserves at
	// the wrong height on a log axis).
	yLabels []string
	// below, if set, draws under the panel grid in a strip of its height.
	below       func(c draw.Canvas, cells [][]draw.Canvas)
	belowHeight vg.Length
}

// draw lays the page out on c.
func (pg *page) draw(c draw.Canvas) {
	body := draw.Crop(c, 0, 0, 0, pg.header(c)-c.Max.Y-2)
	if pg.below != nil {
		body = draw.Crop(body, 0, 0, pg.belowHeight, 0)
	}
	ls := textStyle(labelSize)
	padLeft := margin
	lh := ls.Height("Xg_{1}")
	if len(pg.yLabels) > 0 {
		padLeft += lh + 5
	}
	tiles := draw.Tiles{Rows: len(pg.rows), Cols: len(pg.rows[0]), PadX: vg.Points(6), PadY: vg.Points(6),
		PadLeft: padLeft, PadRight: margin + 4, PadBottom: vg.Points(2), PadTop: vg.Points(2)}
	cells := plot.Align(pg.rows, tiles, body)
	for i, row := range pg.rows {
		for j, p := range row {
			if p != nil {
				p.Draw(cells[i][j])
			}
		}
	}
	ls.XAlign, ls.YAlign, ls.Rotation = draw.XCenter, draw.YCenter, math.Pi/2
	for i, l := range pg.yLabels {
		if l == "" {
			continue
		}
		dc := pg.rows[i][0].DataCanvas(cells[i][0])
		c.FillText(ls, vg.Point{X: c.Min.X + margin + lh/2, Y: (dc.Min.Y + dc.Max.Y) / 2}, l)
	}
	if pg.below != nil {
		strip := c
		strip.Min.Y, strip.Max.Y = body.Min.Y-pg.belowHeight, body.Min.Y
		pg.below(strip, cells)
	}
}

// header draws the legend strip at the top of c, within its margins, and
// returns the y below it.
func (pg *page) header(c draw.Canvas) vg.Length {
	top := c.Max.Y - margin
	if len(pg.legend) > 0 {
		top = drawLegendStrip(c, pg.legend, c.Min.X+margin, c.Max.X-margin, top)
	}
	return top
}

// figure returns the page as a figure w wide whose panels take body below
// the legend, as high as header draws it on a canvas that only records
// (vg/recorder), with the page's title and notes as its text.
func (pg *page) figure(name, caption string, w, body vg.Length) *Figure {
	top := pg.header(draw.Canvas{Canvas: new(recorder.Canvas), Rectangle: vg.Rectangle{Max: vg.Point{X: w}}})
	notes := slices.DeleteFunc(slices.Clone(pg.notes), func(n string) bool { return n == "" })
	return &Figure{Name: name, Caption: caption, Title: pg.title, Notes: notes, W: w, H: body + 4 - top, draw: pg.draw}
}

// Sizes of the legend strip's entries.
const (
	thumbW    = vg.Length(16) // a thumbnail's width
	legendGap = vg.Length(8)  // between entries
)

// legendWidth is the width of an entry of the legend strip.
func legendWidth(it legendItem) vg.Length { return thumbW + 3 + textStyle(legendSize).Width(it.text) }

// legendColumns returns the number of columns of a legend strip w wide:
// the items in reading order in the fewest rows whose columns (each as
// wide as its widest entry, legendGap apart) fit in w, as few columns as
// give that many rows, so that the rows are balanced (5 items in rows of
// 3 and 2, not 4 and 1); no row holds one entry alone unless every row
// does. It returns 1 if even one column is too wide.
func legendColumns(items []legendItem, w vg.Length) int {
	n := len(items)
	for rows := 1; rows <= n; rows++ {
		c := (n + rows - 1) / rows
		if (n+c-1)/c != rows || rows > 1 && c > 1 && n-c*(rows-1) == 1 {
			continue // this many rows cannot be balanced, or one would hold an entry alone
		}
		if total, _ := legendGrid(items, c); total <= w {
			return c
		}
	}
	return 1
}

// legendGrid returns the width of the legend strip of the items in cols
// columns, and the width of each column.
func legendGrid(items []legendItem, cols int) (total vg.Length, widths []vg.Length) {
	widths = make([]vg.Length, cols)
	for i, it := range items {
		widths[i%cols] = max(widths[i%cols], legendWidth(it))
	}
	for _, cw := range widths {
		total += cw
	}
	return total + legendGap*vg.Length(cols-1), widths
}

// drawLegendStrip draws the items in a grid across [left, right] from top
// down (legendColumns), centred, and returns the y below it.
func drawLegendStrip(c draw.Canvas, items []legendItem, left, right, top vg.Length) vg.Length {
	st := textStyle(legendSize)
	st.YAlign = draw.YBottom
	h := st.Height("Xg") + 3 // a line's
	cols := legendColumns(items, right-left)
	total, widths := legendGrid(items, cols)
	for i, it := range items {
		if i%cols == 0 {
			top -= h // the line's bottom
		}
		x := (left+right)/2 - total/2
		for _, cw := range widths[:i%cols] {
			x += cw + legendGap
		}
		it.thumb(&draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: top + 1}, Max: vg.Point{X: x + thumbW, Y: top + h - 2}}})
		c.FillText(st, vg.Point{X: x + thumbW + 3, Y: top + 1.5}, it.text)
	}
	return top
}

// lineThumb draws the legend thumbnail of a line: the band, unless it is
// nil, across the canvas and the line, unless its width is zero, through
// its middle (a colour's thumbnail is its band alone).
func lineThumb(line draw.LineStyle, band color.Color) func(c *draw.Canvas) {
	return func(c *draw.Canvas) {
		if band != nil {
			c.SetColor(band)
			c.Fill(c.Rectangle.Path())
		}
		if y := (c.Min.Y + c.Max.Y) / 2; line.Width > 0 {
			c.StrokeLine2(line, c.Min.X, y, c.Max.X, y)
		}
	}
}

// glyphThumb draws the legend thumbnail of a marker: the bar, unless it is
// nil, upright through the middle of the canvas and the marker at its
// centre.
func glyphThumb(glyph draw.GlyphStyle, bar *draw.LineStyle) func(c *draw.Canvas) {
	return func(c *draw.Canvas) {
		x := (c.Min.X + c.Max.X) / 2
		y := (c.Min.Y + c.Max.Y) / 2
		if bar != nil {
			c.StrokeLine2(*bar, x, c.Min.Y, x, c.Max.Y)
		}
		c.DrawGlyphNoClip(glyph, vg.Point{X: x, Y: y})
	}
}

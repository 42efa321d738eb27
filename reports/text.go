package reports

import (
	"math"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/encoding/charmap"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// This file holds the text of the figures: a text handler that sets
// subscripts and superscripts written "e_{L1}" and "10^{-5}", and the PDF
// canvas's text, which draws as outlines the characters the PDF backend
// cannot encode (Greek letters, subscript digits).

// minFont is the smallest font size of any text in a figure, in points at
// the figure's printed size (figures are drawn at that size: see
// columnWidth and textWidth).
const minFont = 8

// scriptScale is the size of a subscript or superscript relative to its
// text, never below minFont.
const scriptScale = 0.8

// scriptText is a text.Handler that draws "_{...}" as a subscript and
// "^{...}" as a superscript (one level, no nesting) and everything else as
// text.Plain does: "e_{L1}", "ω_{0}", "10^{-5}". A "_" or "^" not followed
// by "{" is plain text.
type scriptText struct{ text.Plain }

// figureText is the text handler of every figure text.
var figureText = scriptText{text.Plain{Fonts: plot.DefaultTextHandler.Cache()}}

// script matches a subscript "_{...}" or a superscript "^{...}".
var script = regexp.MustCompile(`[_^]\{([^}]*)\}`)

// piece is a piece of a line set in one face, its baseline shifted by
// shift.
type piece struct {
	s     string
	face  font.Face
	shift vg.Length
}

// pieces splits a line set in fnt into its pieces: plain text, and
// subscripts 0.22 and superscripts 0.38 of fnt's size below and above the
// baseline, set at scriptScale of its size (never below minFont).
func (h scriptText) pieces(line string, fnt font.Font) []piece {
	var out []piece
	add := func(s string, shift vg.Length) { // shift in units of fnt's size; 0: plain text
		f := fnt
		if shift != 0 {
			f.Size = max(vg.Length(minFont), fnt.Size*scriptScale)
		}
		if s != "" {
			out = append(out, piece{s, h.Fonts.Lookup(f, f.Size), shift * fnt.Size})
		}
	}
	start := 0
	for _, m := range script.FindAllStringSubmatchIndex(line, -1) {
		add(line[start:m[0]], 0)
		shift := vg.Length(-0.22)
		if line[m[0]] == '^' {
			shift = 0.38
		}
		add(line[m[2]:m[3]], shift)
		start = m[1]
	}
	add(line[start:], 0)
	return out
}

// Box returns the width of the line and its height above and depth below
// the baseline, scripts included.
func (h scriptText) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	ext := h.Extents(fnt)
	height, depth = ext.Ascent, ext.Descent
	for _, p := range h.pieces(txt, fnt) {
		width += p.face.Width(p.s)
		e := p.face.Extents()
		height, depth = max(height, e.Ascent+p.shift), max(depth, e.Descent-p.shift)
	}
	return width, height, depth
}

// Draw draws the text as text.Plain does (alignment, rotation, lines),
// each span at its size and baseline.
func (h scriptText) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	txt = strings.TrimRight(txt, "\n")
	if txt == "" {
		return
	}
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		defer c.Pop()
		c.Rotate(sty.Rotation)
		s, k := math.Sincos(sty.Rotation)
		sin, cos := vg.Length(s), vg.Length(k)
		pt.X, pt.Y = pt.Y*sin+pt.X*cos, pt.Y*cos-pt.X*sin
	}
	lines := h.Lines(txt)
	pt.Y += sty.Height(txt)*vg.Length(sty.YAlign) - h.Extents(sty.Font).Ascent
	for i, line := range lines {
		w, _, _ := h.Box(line, sty.Font)
		x := pt.X + vg.Length(sty.XAlign)*w
		y := pt.Y + vg.Length(len(lines)-i)*sty.Font.Size
		for _, p := range h.pieces(line, sty.Font) {
			c.FillString(p.face, vg.Point{X: x, Y: y + p.shift}, p.s)
			x += p.face.Width(p.s)
		}
	}
}

// FillString draws str with its baseline starting at pt on the PDF canvas,
// whose FillString takes text in code page 1252: runs of characters the
// code page has are passed to it encoded, each other character is filled
// as the outline of its glyph in the font, so that "ω", "κ" or "₀" print as
// they do in the PNG.
func (c straightAlpha) FillString(fnt font.Face, pt vg.Point, str string) {
	var run strings.Builder // printable characters the code page has
	flush := func() {
		if run.Len() > 0 {
			enc, _ := charmap.Windows1252.NewEncoder().String(run.String()) // no error: each character has a code
			c.Canvas.FillString(fnt, pt, enc)
			pt.X += fnt.Width(run.String())
			run.Reset()
		}
	}
	for _, r := range str {
		if _, ok := charmap.Windows1252.EncodeRune(r); ok && !unicode.IsControl(r) {
			run.WriteRune(r)
			continue
		}
		flush()
		c.Fill(glyphPath(fnt, pt, r))
		pt.X += fnt.Width(string(r))
	}
	flush()
}

// glyphPath returns the outline of r's glyph in fnt with its origin at pt.
// A glyph the font lacks gives its "missing" glyph (index 0).
func glyphPath(fnt font.Face, pt vg.Point, r rune) vg.Path {
	var buf sfnt.Buffer
	f := fnt.Face
	upem := fixed.Int26_6(f.UnitsPerEm())
	idx, err := f.GlyphIndex(&buf, r)
	if err != nil {
		idx = 0
	}
	// With ppem = units per em, the segments are in font units.
	segs, err := f.LoadGlyph(&buf, idx, upem, nil)
	var p vg.Path
	if err != nil {
		return p
	}
	scale := fnt.Font.Size / vg.Length(upem)
	at := func(q fixed.Point26_6) vg.Point {
		return vg.Point{X: pt.X + vg.Length(q.X)*scale, Y: pt.Y - vg.Length(q.Y)*scale}
	}
	// A contour starts with a move, which closes the one before.
	for i, s := range segs {
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			if i > 0 {
				p.Close()
			}
			p.Move(at(s.Args[0]))
		case sfnt.SegmentOpLineTo:
			p.Line(at(s.Args[0]))
		case sfnt.SegmentOpQuadTo:
			p.QuadTo(at(s.Args[0]), at(s.Args[1]))
		case sfnt.SegmentOpCubeTo:
			p.CubeTo(at(s.Args[0]), at(s.Args[1]), at(s.Args[2]))
		}
	}
	if len(segs) > 0 {
		p.Close()
	}
	return p
}

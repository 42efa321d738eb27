package reports

import (
	"math"
	"strings"

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

var _ text.Handler = scriptText{}

// figureText is the text handler of every figure text.
var figureText = scriptText{text.Plain{Fonts: plot.DefaultTextHandler.Cache()}}

// piece is a piece of a line set at one level: 0 on the baseline, -1 a
// subscript, +1 a superscript.
type piece struct {
	s     string
	level int
}

// spans splits a line into its pieces.
func spans(line string) []piece {
	var out []piece
	start := 0
	for i := 0; i+1 < len(line); i++ {
		if (line[i] != '_' && line[i] != '^') || line[i+1] != '{' {
			continue
		}
		end := strings.IndexByte(line[i+2:], '}')
		if end < 0 {
			break
		}
		end += i + 2
		if i > start {
			out = append(out, piece{line[start:i], 0})
		}
		level := -1
		if line[i] == '^' {
			level = 1
		}
		if end > i+2 {
			out = append(out, piece{line[i+2 : end], level})
		}
		start = end + 1
		i = end
	}
	if start < len(line) {
		out = append(out, piece{line[start:], 0})
	}
	return out
}

// scriptFont is the font of a span of a text in fnt.
func scriptFont(fnt font.Font, level int) font.Font {
	if level != 0 {
		fnt.Size = max(vg.Length(minFont), fnt.Size*scriptScale)
	}
	return fnt
}

// shift is the baseline offset of a span of a text of size sz.
func shift(sz vg.Length, level int) vg.Length {
	switch level {
	case -1:
		return -0.22 * sz
	case 1:
		return 0.38 * sz
	}
	return 0
}

// Box returns the width of the line and its height above and depth below
// the baseline, scripts included.
func (h scriptText) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	base := h.Fonts.Lookup(fnt, fnt.Size)
	ext := base.Extents()
	height, depth = ext.Ascent, ext.Descent
	for _, s := range spans(txt) {
		f := scriptFont(fnt, s.level)
		face := h.Fonts.Lookup(f, f.Size)
		width += face.Width(s.s)
		e := face.Extents()
		off := shift(fnt.Size, s.level)
		height = max(height, e.Ascent+off)
		depth = max(depth, e.Descent-off)
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
	base := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	pt.Y += sty.Height(txt)*vg.Length(sty.YAlign) - base.Extents().Ascent
	for i, line := range lines {
		w, _, _ := h.Box(line, sty.Font)
		x := pt.X + vg.Length(sty.XAlign)*w
		y := pt.Y + vg.Length(len(lines)-i)*sty.Font.Size
		for _, s := range spans(line) {
			f := scriptFont(sty.Font, s.level)
			face := h.Fonts.Lookup(f, f.Size)
			c.FillString(face, vg.Point{X: x, Y: y + shift(sty.Font.Size, s.level)}, s.s)
			x += face.Width(s.s)
		}
	}
}

// encode1252 returns the byte of r in code page 1252, the PDF canvas's
// encoding; ok is false if r is not a printable character of it.
func encode1252(r rune) (b byte, ok bool) {
	if r < 0x20 || r >= 0x7f && r < 0xa0 {
		return 0, false
	}
	return charmap.Windows1252.EncodeRune(r)
}

// fillStringPDF draws str on a PDF canvas, whose FillString takes text in
// code page 1252: runs of characters the code page has are passed to it
// encoded, each other character is filled as the outline of its glyph in
// the font, so that "ω", "κ" or "₀" print as they do in the PNG.
func fillStringPDF(fill func(font.Face, vg.Point, string), c vg.Canvas, fnt font.Face, pt vg.Point, str string) {
	var run []byte
	var runText strings.Builder
	flush := func() {
		if len(run) > 0 {
			fill(fnt, pt, string(run))
			pt.X += fnt.Width(runText.String())
			run = run[:0]
			runText.Reset()
		}
	}
	for _, r := range str {
		if b, ok := encode1252(r); ok {
			run = append(run, b)
			runText.WriteRune(r)
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
	open := false
	for _, s := range segs {
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			if open {
				p.Close()
			}
			p.Move(at(s.Args[0]))
			open = true
		case sfnt.SegmentOpLineTo:
			p.Line(at(s.Args[0]))
		case sfnt.SegmentOpQuadTo:
			p.QuadTo(at(s.Args[0]), at(s.Args[1]))
		case sfnt.SegmentOpCubeTo:
			p.CubeTo(at(s.Args[0]), at(s.Args[1]), at(s.Args[2]))
		}
	}
	if open {
		p.Close()
	}
	return p
}

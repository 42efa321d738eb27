package reports

import (
	"strings"
	"testing"
)

// The fuzz targets of the report's escaping and of -format: whatever the
// input, escaped Markdown leaves no special character unescaped and stays on
// one line, a code span never breaks a table cell, and escaped LaTeX holds
// none of LaTeX's specials outside its own escapes.

func FuzzEscape(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		md := escapeMarkdown(s)
		if bad, ctrl := unescapedMarkdown(md); len(bad) > 0 || ctrl {
			t.Fatalf("escapeMarkdown(%q) = %q leaves %q unescaped (control: %v)", s, md, string(bad), ctrl)
		}
		cs := codeSpan(s)
		if strings.ContainsAny(cs, "\n\r") {
			t.Fatalf("codeSpan(%q) = %q spans lines", s, cs)
		}
		for i := 0; i < len(cs); i++ {
			if cs[i] == '|' && (i == 0 || cs[i-1] != '\\') {
				t.Fatalf("codeSpan(%q) = %q has an unescaped |", s, cs)
			}
		}
		tex := escapeLaTeX(s)
		if left := latexLeft(tex); strings.ContainsAny(left, "\\{}$&#%_^~<>|\n\r\t") {
			t.Fatalf("escapeLaTeX(%q) = %q leaves specials in %q", s, tex, left)
		}
	})
}

func FuzzParseFormats(f *testing.F) {
	for _, s := range []string{"md,latex,csv,png,pdf", "md", "", "docx", "md,,png", " md , pdf "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fs, err := ParseFormats(s)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("ParseFormats error %q is not one line", err)
			}
			return
		}
		for _, x := range fs {
			if !strings.Contains(",md,latex,csv,png,pdf,", ","+x+",") {
				t.Fatalf("ParseFormats(%q) gave %q", s, x)
			}
		}
	})
}

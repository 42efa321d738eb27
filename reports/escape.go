package reports

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file makes text from outside the program safe in Markdown and
// LaTeX, and in file names.

// mdSpecial are the characters escapeMarkdown puts a backslash before: the
// table's cell separator, emphasis and strike-through, code spans, HTML
// tags and entities, links, and the backslash itself.
const mdSpecial = "\\|*_`<>[]&~"

// mdSpecialRe matches a character of mdSpecial.
var mdSpecialRe = regexp.MustCompile("[" + regexp.QuoteMeta(mdSpecial) + "]")

// visible returns r, or "?" if r may not stand in a line of output: a
// control character or invalid UTF-8.
func visible(r rune) rune {
	if r == utf8.RuneError || unicode.IsControl(r) {
		return '?'
	}
	return r
}

// escapeMarkdown makes plain text safe in a Markdown line or table cell
// (GitHub Markdown): every character of mdSpecial is backslash-escaped, so
// it shows as itself; line breaks and tabs become spaces, and other control
// characters (and invalid UTF-8) "?", so a value stays on its line.
func escapeMarkdown(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return visible(r)
	}, s)
	return mdSpecialRe.ReplaceAllString(s, `\$0`)
}

// codeSpan writes s as a Markdown code span that shows it verbatim: the
// fence is one backtick more than the longest run of backticks in s (with
// a space inside when s starts or ends with one), "|" is escaped for table
// cells, and control characters become "?" as in escapeMarkdown.
func codeSpan(s string) string {
	body := strings.ReplaceAll(strings.Map(visible, s), "|", `\|`)
	fence := "`"
	for strings.Contains(body, fence) { // until longer than every run in s
		fence += "`"
	}
	if strings.HasPrefix(body, "`") || strings.HasSuffix(body, "`") {
		body = " " + body + " "
	}
	return fence + body + fence
}

// latexRunes replaces the characters LaTeX treats specially, and the few
// non-ASCII characters our texts use, by their LaTeX forms.
var latexRunes = map[rune]string{
	'\\': `\textbackslash{}`, '{': `\{`, '}': `\}`, '$': `\$`, '&': `\&`,
	'#': `\#`, '%': `\%`, '_': `\_`, '^': `\^{}`, '~': `\~{}`,
	'<': `\textless{}`, '>': `\textgreater{}`, '|': `\textbar{}`,
	'κ': `$\kappa$`, 'ω': `$\omega$`, 'δ': `$\delta$`, '×': `$\times$`,
	'±': `$\pm$`, '∞': `$\infty$`, '—': `---`, '–': `--`, '−': `$-$`,
	'·': `$\cdot$`, '≤': `$\le$`, '≥': `$\ge$`,
}

// escapeLaTeX makes plain text safe in a LaTeX document that loads no
// packages for Unicode: special characters are escaped, the known non-ASCII
// ones are replaced by commands, and any other non-ASCII character by "?".
func escapeLaTeX(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case latexRunes[r] != "":
			b.WriteString(latexRunes[r])
		case r == '\n' || r == '\t':
			b.WriteByte(' ')
		case r > 0x7e || r < 0x20:
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// labelSafe keeps the characters a \label may hold without trouble, each
// other one becoming '-'.
func labelSafe(s string) string { return labelUnsafe.ReplaceAllString(s, "-") }

var labelUnsafe = regexp.MustCompile(`[^A-Za-z0-9.:-]`)

// safeID reports whether s is a plain name that is safe as a file name, in
// a LaTeX \input path and in Markdown link targets: ASCII letters, digits,
// '.', '_' and '-', not starting with '.' or '-'.
var safeID = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]*$`).MatchString

// capital upper-cases the first letter of s.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

package reports

import (
	"fmt"
	"regexp"
	"strconv"
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

// Hidden reports whether r changes how the text around it shows without
// showing itself: a bidi control or mark (U+202E turns the rest of a line
// around), a zero-width character (U+200B), a soft hyphen (Unicode's
// format characters, Cf) or a line or paragraph separator (U+2028, U+2029).
func Hidden(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r)
}

// reveal writes every Hidden character of s as its Go escape, \u202e, so
// that it shows instead of acting: a value cannot pose as another.
func reveal(s string) string {
	if !strings.ContainsFunc(s, Hidden) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if Hidden(r) {
			q := strconv.QuoteRune(r) // '\u202e'
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// formulaStart are the first characters that make a spreadsheet evaluate a
// CSV cell as a formula (=, +, -, @) or that it may drop (tab, CR).
const formulaStart = "=+-@\t\r"

// csvText makes text from outside the program (a result's commit, Go
// version, CPU, status) safe in a CSV cell: hidden characters revealed,
// other control characters "?", and a cell that would start a formula
// (=HYPERLINK(...), -1+1) prefixed with a single quote, which a
// spreadsheet shows as text. Numbers are not passed through it: a negative
// number stays a number.
func csvText(s string) string {
	s = strings.Map(visible, reveal(s))
	if s != "" && strings.ContainsRune(formulaStart, rune(s[0])) {
		s = "'" + s
	}
	return s
}

// escapeMarkdown makes plain text safe in a Markdown line or table cell
// (GitHub Markdown): every character of mdSpecial is backslash-escaped, so
// it shows as itself; line breaks and tabs become spaces, other control
// characters (and invalid UTF-8) "?", so a value stays on its line, and
// hidden characters (bidi controls, zero-width ones, U+2028) are shown as
// their escapes (reveal).
func escapeMarkdown(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return visible(r)
	}, reveal(s))
	return mdSpecialRe.ReplaceAllString(s, `\$0`)
}

// codeSpan writes s as a Markdown code span that shows it verbatim: the
// fence is one backtick more than the longest run of backticks in s (with
// a space inside when s starts or ends with one), "|" is escaped for table
// cells, control characters become "?" and hidden characters their escapes
// as in escapeMarkdown.
func codeSpan(s string) string {
	body := strings.ReplaceAll(strings.Map(visible, reveal(s)), "|", `\|`)
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

// scriptRe matches a script of figure text with its base: the letters or
// digits before "_{...}" or "^{...}" ("e_{L1}", "ω_{0}", "10^{−5}").
var scriptRe = regexp.MustCompile(`(\p{L}+|[0-9]+)([_^])\{([^}]*)\}`)

// greekTeX are the LaTeX commands of the Greek letters figure text uses.
var greekTeX = map[rune]string{'ω': `\omega`, 'φ': `\varphi`, 'κ': `\kappa`, 'δ': `\delta`, 'ϰ': `\varkappa`}

// mathTeX writes letters and digits of figure text in LaTeX math: a Greek
// letter as its command, a word of two or more ASCII letters upright
// (\mathrm), one letter followed by digits with them as its subscript
// ("L1" as L_1, the paper's e_{L_1}), "−" as "-"; anything else escaped
// as text (\text is not available without amsmath: \mbox).
func mathTeX(s string) string {
	if m := letterDigits.FindStringSubmatch(s); m != nil {
		return m[1] + "_" + m[2]
	}
	if len(s) > 1 && asciiWord.MatchString(s) {
		return `\mathrm{` + s + `}`
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case greekTeX[r] != "":
			b.WriteString(greekTeX[r] + " ")
		case r == '−' || r == '-':
			b.WriteByte('-')
		case r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == ','):
			b.WriteRune(r)
		default:
			b.WriteString(`\mbox{` + escapeLaTeX(string(r)) + `}`)
		}
	}
	return strings.TrimSpace(b.String())
}

var (
	letterDigits = regexp.MustCompile(`^([A-Za-z])([0-9]+)$`)
	asciiWord    = regexp.MustCompile(`^[A-Za-z]+$`)
)

// scriptTeX writes figure text (Figure.Title, Notes) as LaTeX: each
// script with its base in math ("test e_{L1}" as "test $e_{L_1}$", as the
// tables write it; "ω_{0}" as "$\omega_{0}$"), the rest escaped as
// escapeLaTeX does.
func scriptTeX(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range scriptRe.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(escapeLaTeX(s[last:m[0]]))
		fmt.Fprintf(&b, "$%s%s{%s}$", mathTeX(s[m[2]:m[3]]), s[m[4]:m[5]], mathTeX(s[m[6]:m[7]]))
		last = m[1]
	}
	b.WriteString(escapeLaTeX(s[last:]))
	return b.String()
}

// scriptMarkdown writes figure text as Markdown, scripts as the report's
// text writes them: a subscript of digits joined to its base ("ω_{0}" as
// "ω0"), any other script after "_" or "^" ("e_{L1}" as "e_L1", "n_{ω}"
// as "n_ω", "10^{−5}" as "10^−5"); then escaped as escapeMarkdown does.
func scriptMarkdown(s string) string {
	return escapeMarkdown(scriptRe.ReplaceAllStringFunc(s, func(m string) string {
		sm := scriptRe.FindStringSubmatch(m)
		if sm[2] == "_" && digits.MatchString(sm[3]) {
			return sm[1] + sm[3]
		}
		return sm[1] + sm[2] + sm[3]
	}))
}

var digits = regexp.MustCompile(`^[0-9]+$`)

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

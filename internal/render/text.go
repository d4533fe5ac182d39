package render

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/safetext"
)

// tabWidth is the distance between tab stops in snippets.
const tabWidth = 4

// maxSnippetRunes is how many code points of a long source line a snippet
// shows at most; the rest is cut and marked with an ellipsis.
const maxSnippetRunes = 160

// snippetLead is how many code points before the range a cut line keeps.
const snippetLead = 40

// ANSI escape sequences of the text format.
const (
	ansiReset   = "\x1b[0m"
	ansiDim     = "\x1b[2m"
	ansiError   = "\x1b[1;31m"
	ansiWarning = "\x1b[1;33m"
	ansiInfo    = "\x1b[1;36m"
)

// CountTableMin is the number of diagnostics above which the text format
// ends with a table of counts per code (issue 9, "Progress on long runs"):
// enough findings that reading them one by one no longer shows which rules
// fire.
const CountTableMin = 20

// textWriter renders the text format.
type textWriter struct {
	w     *bufio.Writer
	r     *Report
	opts  Options
	index map[string]*diag.LineIndex // by path; nil entry when no source
	last  linePieces                 // the line of the last snippet
}

func writeText(w io.Writer, r *Report, opts Options) error {
	t := &textWriter{w: bufio.NewWriter(w), r: r, opts: opts, index: map[string]*diag.LineIndex{}}
	for _, d := range r.Diagnostics {
		t.diagnostic(d)
	}
	if len(r.Diagnostics) > 0 {
		t.w.WriteString("\n")
	}
	if len(r.Diagnostics) > CountTableMin {
		t.countTable()
	}
	t.w.WriteString(SummaryLine(*r))
	t.w.WriteString("\n")
	if r.Baseline != nil {
		t.w.WriteString(safetext.Text(r.Baseline.Line()))
		t.w.WriteString("\n")
	}
	return t.w.Flush()
}

// paint wraps s in the ANSI colour code when colours are on.
func (t *textWriter) paint(code, s string) string {
	if !t.opts.Color {
		return s
	}
	return code + s + ansiReset
}

func severityColor(s diag.Severity) string {
	switch s {
	case diag.Warning:
		return ansiWarning
	case diag.Info:
		return ansiInfo
	}
	return ansiError
}

// location formats "path:line:col: " for path p and range rg, or "path: "
// for a finding about the whole file ([diag.FileStart]) or an unknown
// range; the root itself has no location.
func (t *textWriter) location(p string, rg diag.Range) string {
	if p == "" {
		return ""
	}
	// The whole location goes through safetext, since it starts a line: a
	// path ":" followed by ":2:3" or ": " must not make a line start with
	// "::".
	s := t.opts.displayPath(p)
	if rg.IsValid() && !rg.IsFileStart() {
		s += fmt.Sprintf(":%d:%d", rg.Start.Line, max(rg.Start.Column, 1))
	}
	return safetext.Text(s + ": ")
}

func (t *textWriter) diagnostic(d diag.Diagnostic) {
	sev := severity(d.Severity)
	color := severityColor(sev)
	fmt.Fprintf(t.w, "%s%s: %s %s\n",
		t.location(d.Path, d.Range),
		t.paint(color, sev.String()),
		safetext.Text(d.Message),
		t.paint(ansiDim, "["+safetext.Text(d.Code)+"]"))
	if d.Path != "" && d.Range.IsValid() && !d.Range.IsFileStart() {
		if x := t.lines(d.Path); x != nil {
			if line, carets, ok := t.last.snippet(x, d.Range); ok {
				marks := strings.TrimLeft(carets, " ")
				pad := carets[:len(carets)-len(marks)]
				fmt.Fprintf(t.w, "    %s\n    %s%s\n", line, pad, t.paint(color, marks))
			}
		}
	}
	for _, rel := range d.Related {
		fmt.Fprintf(t.w, "    %snote: %s\n", t.location(rel.Path, rel.Range), safetext.Text(rel.Message))
	}
	if d.Help != "" {
		help := strings.ReplaceAll(safetext.Lines(d.Help), "\n", "\n          ")
		fmt.Fprintf(t.w, "    help: %s\n", help)
	}
}

// lines returns the line index of path, or nil when its source is unknown.
func (t *textWriter) lines(path string) *diag.LineIndex {
	x, ok := t.index[path]
	if !ok {
		if src := t.r.source(path); src != nil {
			x = diag.NewLineIndex(src)
		}
		t.index[path] = x
	}
	return x
}

// cell is one code point of a snippet line as displayed.
type cell struct {
	text  string // what to print
	width int    // terminal columns it takes
}

// linePieces is a source line split by [safetext.Pieces], kept for the next
// snippet: the diagnostics of a line come one after another, and a long line
// can hold thousands of them (splitting it again for each made the text
// format quadratic in them).
type linePieces struct {
	x      *diag.LineIndex
	line   int // 1-based; 0 before the first snippet
	pieces []safetext.Piece
}

// snippet returns the source line of rg's start, as displayed, and the caret
// line that underlines rg on it: "^" under the first character and "~" under
// the rest of the range on that line (a range that goes on past the line is
// underlined to the line's end; an empty range gets a single "^"). Tabs are
// expanded to tab stops and unsafe characters shown escaped as package
// safetext shows them, in both lines alike, so the carets line up. ok is false when the line does not exist.
// snippet never panics, whatever rg holds.
// The line's pieces are those of c when it holds that line of x, and are
// kept in c.
func (c *linePieces) snippet(x *diag.LineIndex, rg diag.Range) (line, carets string, ok bool) {
	if x == nil || rg.Start.Line < 1 {
		return "", "", false
	}
	if c.x != x || c.line != rg.Start.Line {
		raw := x.Line(rg.Start.Line)
		if raw == nil {
			return "", "", false
		}
		// Split the line into code points, as LineIndex counts columns (an
		// invalid UTF-8 byte is one column), each shown as safetext shows it.
		*c = linePieces{x: x, line: rg.Start.Line, pieces: safetext.Pieces(string(raw))}
	}
	pieces := c.pieces
	n := len(pieces)
	start := clamp(rg.Start.Column-1, 0, n)
	end := start
	switch {
	case rg.End.Line == rg.Start.Line && rg.End.Column > rg.Start.Column:
		end = clamp(rg.End.Column-1, start, n)
	case rg.End.Line > rg.Start.Line:
		end = n
	}

	// Cut long lines to a window around the start of the range.
	from, to := 0, n
	if n > maxSnippetRunes {
		from = clamp(start-snippetLead, 0, n)
		to = clamp(from+maxSnippetRunes, from, n)
	}

	var lb, cb strings.Builder
	col := 0 // display column, for tab stops
	if from > 0 {
		lb.WriteString("…")
		col++
	}
	caretFrom, caretTo := -1, -1
	for i := from; i <= to; i++ {
		if i == start {
			caretFrom = col
		}
		if i == end {
			caretTo = col
		}
		if i == to {
			break
		}
		c := display(pieces[i], col)
		lb.WriteString(c.text)
		col += c.width
	}
	if to < n {
		lb.WriteString("…")
	}
	if caretFrom < 0 { // the range starts outside the window: cannot happen, but be safe
		caretFrom = 0
	}
	if caretTo < 0 { // the range ends after the window
		caretTo = col
	}
	cb.WriteString(strings.Repeat(" ", caretFrom))
	cb.WriteString("^")
	if w := caretTo - caretFrom; w > 1 {
		cb.WriteString(strings.Repeat("~", w-1))
	}
	return lb.String(), cb.String(), true
}

// display returns how piece p of a line shows in a snippet when it starts at
// display column col (0-based).
func display(p safetext.Piece, col int) cell {
	if p.Escaped && p.Text == `\t` { // a tab is expanded, not escaped
		w := tabWidth - col%tabWidth
		return cell{strings.Repeat(" ", w), w}
	}
	if p.Escaped {
		return cell{p.Text, len(p.Text)}
	}
	r, _ := utf8.DecodeRuneInString(p.Text)
	switch {
	case unicode.In(r, unicode.Mn, unicode.Me):
		return cell{p.Text, 0}
	case wide(r):
		return cell{p.Text, 2}
	}
	return cell{p.Text, 1}
}

// wide reports whether r takes two terminal columns: the common East Asian
// wide and fullwidth blocks and emoji. It is an approximation that only
// affects how carets line up.
func wide(r rune) bool {
	switch {
	case r < 0x1100:
		return false
	case r <= 0x115F, // Hangul Jamo initials
		0x2E80 <= r && r <= 0x303E, // CJK radicals, punctuation
		0x3041 <= r && r <= 0x33FF, // kana, CJK compatibility
		0x3400 <= r && r <= 0x4DBF, // CJK extension A
		0x4E00 <= r && r <= 0x9FFF, // CJK unified ideographs
		0xA000 <= r && r <= 0xA4CF, // Yi
		0xAC00 <= r && r <= 0xD7A3, // Hangul syllables
		0xF900 <= r && r <= 0xFAFF, // CJK compatibility ideographs
		0xFE30 <= r && r <= 0xFE4F, // CJK compatibility forms
		0xFF00 <= r && r <= 0xFF60, // fullwidth forms
		0xFFE0 <= r && r <= 0xFFE6,
		0x1F300 <= r && r <= 0x1F64F, // pictographs, emoticons
		0x1F900 <= r && r <= 0x1F9FF, // supplemental pictographs
		0x20000 <= r && r <= 0x3FFFD: // CJK extensions B and later
		return true
	}
	return false
}

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// codeCount is one row of the count table.
type codeCount struct {
	code  string
	sev   diag.Severity
	count int
}

// countTable writes the table of diagnostics per code and severity that
// precedes the summary line of a long report: a header, then one row per
// pair, errors first, then warnings and infos, each by count (most first)
// and then by code, and a blank line.
func (t *textWriter) countTable() {
	type key struct {
		code string
		sev  diag.Severity
	}
	byKey := map[key]int{}
	for _, d := range t.r.Diagnostics {
		byKey[key{d.Code, severity(d.Severity)}]++
	}
	rows := make([]codeCount, 0, len(byKey))
	codeW, countW := len("code"), len("count")
	for k, n := range byKey {
		c := safetext.Text(k.code)
		rows = append(rows, codeCount{c, k.sev, n})
		codeW = max(codeW, utf8.RuneCountInString(c))
		countW = max(countW, len(strconv.Itoa(n)))
	}
	slices.SortFunc(rows, func(a, b codeCount) int {
		if a.sev != b.sev {
			return cmp.Compare(severityRank(a.sev), severityRank(b.sev))
		}
		if a.count != b.count {
			return cmp.Compare(b.count, a.count)
		}
		return strings.Compare(a.code, b.code)
	})
	sevW := len("severity")
	pad := func(s string, w int) string { return s + strings.Repeat(" ", w-utf8.RuneCountInString(s)) }
	fmt.Fprintf(t.w, "%s  %s  %*s\n", pad("code", codeW), pad("severity", sevW), countW, "count")
	for _, r := range rows {
		sev := r.sev.String()
		fmt.Fprintf(t.w, "%s  %s%s  %*d\n", pad(r.code, codeW), t.paint(severityColor(r.sev), sev),
			strings.Repeat(" ", sevW-len(sev)), countW, r.count)
	}
	t.w.WriteString("\n")
}

// severityRank orders severities for the count table: errors first.
func severityRank(s diag.Severity) int {
	switch s {
	case diag.Error:
		return 0
	case diag.Warning:
		return 1
	}
	return 2
}

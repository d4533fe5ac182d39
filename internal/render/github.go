package render

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/safetext"
)

// EscapeData escapes s for the message part of a GitHub Actions workflow
// command (after the second "::"): "%" becomes "%25", CR "%0D" and LF "%0A",
// the escapes the Actions runner undoes (and the only ones it knows). The
// LFs left in s are the annotation's own line breaks: untrusted parts of s
// must have gone through safetext.Text first, which shows their line breaks
// as "\n".
func EscapeData(s string) string {
	if !strings.ContainsAny(s, "%\r\n") {
		return s
	}
	r := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	return r.Replace(s)
}

// EscapeProperty escapes s for a property value of a GitHub Actions workflow
// command (file=…, title=…): as [EscapeData], and also ":" becomes "%3A" and
// "," becomes "%2C".
func EscapeProperty(s string) string {
	if !strings.ContainsAny(s, "%\r\n:,") {
		return s
	}
	r := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	return r.Replace(s)
}

// githubCommand returns the workflow command of severity s.
func githubCommand(s diag.Severity) string {
	switch severity(s) {
	case diag.Warning:
		return "warning"
	case diag.Info:
		return "notice"
	}
	return "error"
}

// githubProps returns the properties of the annotation of d, in the order
// file, line, col, endLine, endColumn, title. Columns are given only for a
// range on one line (GitHub rejects columns across lines); endColumn is the
// exclusive end column, as in the range, and is left out for a range that
// ends at the start of a later line, whose end is the end of a previous line.
func githubProps(d diag.Diagnostic, opts Options) []string {
	var props []string
	add := func(k, v string) { props = append(props, k+"="+EscapeProperty(safetext.Text(v))) }
	if d.Path != "" {
		add("file", opts.displayPath(d.Path))
		if rg := d.Range; rg.IsValid() {
			s, e := rg.Start, rg.End
			endLine, endCol := 0, 0
			if e.IsValid() && (e.Line > s.Line || (e.Line == s.Line && e.Column >= s.Column)) {
				endLine, endCol = e.Line, e.Column
				if endLine > s.Line && endCol <= 1 {
					// Ends right after a line terminator: the subject ends
					// on the line before.
					endLine, endCol = endLine-1, 0
				}
			}
			add("line", strconv.Itoa(s.Line))
			oneLine := endLine == 0 || endLine == s.Line
			if oneLine && s.Column >= 1 {
				add("col", strconv.Itoa(s.Column))
			}
			if endLine > 0 {
				add("endLine", strconv.Itoa(endLine))
				if oneLine && s.Column >= 1 && endCol >= s.Column {
					add("endColumn", strconv.Itoa(endCol))
				}
			}
		}
	}
	add("title", d.Code)
	return props
}

// githubMessage returns the annotation text of d: the message, then the
// related notes and the help on lines of their own. Every untrusted part is
// shown as safetext.Text shows it, so the only line breaks are these.
func githubMessage(d diag.Diagnostic, opts Options) string {
	var b strings.Builder
	b.WriteString(safetext.Text(d.Message))
	for _, rel := range d.Related {
		b.WriteString("\nnote: ")
		if rel.Path != "" {
			b.WriteString(safetext.Text(opts.displayPath(rel.Path)))
			if rel.Range.IsValid() {
				fmt.Fprintf(&b, ":%d:%d", rel.Range.Start.Line, max(rel.Range.Start.Column, 1))
			}
			b.WriteString(": ")
		}
		b.WriteString(safetext.Text(rel.Message))
	}
	if d.Help != "" {
		b.WriteString("\nhelp: ")
		b.WriteString(safetext.Lines(d.Help))
	}
	return b.String()
}

func writeGitHub(w io.Writer, r *Report, opts Options) error {
	bw := bufio.NewWriter(w)
	for _, d := range r.Diagnostics {
		fmt.Fprintf(bw, "::%s %s::%s\n", githubCommand(d.Severity),
			strings.Join(githubProps(d, opts), ","), EscapeData(githubMessage(d, opts)))
	}
	return bw.Flush()
}

// maxSummaryRows caps the table of [WriteStepSummary]: GitHub accepts at
// most 1 MiB of step summary per step.
const maxSummaryRows = 1000

// WriteStepSummary writes a Markdown summary of r for a GitHub Actions job
// summary (the caller appends it to the file named by $GITHUB_STEP_SUMMARY):
// a heading, the [SummaryLine], and a table of the diagnostics with their
// severity, location, code and message, because a step shows only a few
// annotations. The table stops after 1000 rows with a line that says how
// many were left out. Paths are output paths under opts.PathPrefix, as in
// every format. It returns the first error from w.
func WriteStepSummary(w io.Writer, r Report, opts Options) error {
	bw := bufio.NewWriter(w)
	name := nonEmpty(r.Tool.Name, "journal-lint")
	fmt.Fprintf(bw, "### %s\n\n%s\n", markdownText(name), markdownText(SummaryLine(r)))
	if r.Baseline != nil {
		fmt.Fprintf(bw, "\n%s\n", markdownText(r.Baseline.Line()))
	}
	if len(r.Diagnostics) > 0 {
		bw.WriteString("\n| Severity | Location | Code | Message |\n| --- | --- | --- | --- |\n")
		for i, d := range r.Diagnostics {
			if i == maxSummaryRows {
				fmt.Fprintf(bw, "\n… and %d more not shown.\n", len(r.Diagnostics)-i)
				break
			}
			loc := "(root)"
			if d.Path != "" {
				loc = opts.displayPath(d.Path)
				if d.Range.IsValid() {
					loc += fmt.Sprintf(":%d:%d", d.Range.Start.Line, max(d.Range.Start.Column, 1))
				}
			}
			msg := d.Message
			if d.Help != "" {
				msg += "\nhelp: " + d.Help
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s |\n",
				severity(d.Severity), markdownText(loc), markdownCode(d.Code), markdownText(msg))
		}
	}
	return bw.Flush()
}

// markdownText escapes s for a Markdown table cell: unsafe characters are
// shown as safetext shows them, ASCII punctuation that Markdown or HTML give
// meaning gets a backslash, and line breaks become <br>.
func markdownText(s string) string {
	var b strings.Builder
	for _, r := range safetext.Lines(s) {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '|', '#', '!', '&', '~', '$':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString("<br>")
		case '\t':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// markdownCode writes s as a code span when that is safe, else as text.
func markdownCode(s string) string {
	if s == "" || strings.ContainsAny(s, "`|") || safetext.Text(s) != s {
		return markdownText(s)
	}
	return "`" + s + "`"
}

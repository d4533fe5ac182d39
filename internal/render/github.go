package render

import (
	"bufio"
	"errors"
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

// GitHubCommand returns the workflow command that annotates a finding of
// severity s: "error", "warning" or "notice" (an invalid severity as an
// error).
func GitHubCommand(s diag.Severity) string {
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

// writeGitHub writes one workflow command per diagnostic, errors first, then
// warnings, then infos as notices, and ends with one notice of the totals
// (see [GitHubTotals]). GitHub shows only [AnnotationLimit] annotations of
// each kind per step: every error and warning is still written (the log
// keeps them), but the infos stop one short of the limit so that the
// notice of the totals is shown.
func writeGitHub(w io.Writer, r *Report, opts Options) error {
	bw := bufio.NewWriter(w)
	order := SeverityOrder(len(r.Diagnostics), func(i int) diag.Severity { return r.Diagnostics[i].Severity })
	left, notices := 0, 0
	for _, i := range order {
		d := r.Diagnostics[i]
		if severity(d.Severity) == diag.Info {
			if notices == AnnotationLimit-1 {
				left++
				continue
			}
			notices++
		}
		fmt.Fprintf(bw, "::%s %s::%s\n", GitHubCommand(d.Severity),
			strings.Join(githubProps(d, opts), ","), EscapeData(githubMessage(d, opts)))
	}
	if len(r.Diagnostics) > 0 {
		name := nonEmpty(r.Tool.Name, "journal-lint")
		seeAll := "--format json lists every finding"
		if opts.StepSummary {
			seeAll = "the step summary lists the findings (errors first), and --format json lists every one"
		}
		fmt.Fprintf(bw, "::notice title=%s::%s\n", EscapeProperty(safetext.Text(name)),
			EscapeData(GitHubTotals(safetext.Text(SummaryLine(*r)), left, seeAll)))
	}
	return bw.Flush()
}

// GitHubTotals returns the text of the notice that ends the github format:
// the summary line, how many infos were left out to keep the notice within
// [AnnotationLimit] (when any), GitHub's limit on annotations, and where
// the findings are listed (seeAll, such as "the step summary lists the
// findings"). The caller makes summary and seeAll safe (package safetext).
func GitHubTotals(summary string, leftInfos int, seeAll string) string {
	s := summary + "."
	if leftInfos > 0 {
		s += fmt.Sprintf(" %s left out of these annotations.", plural(leftInfos, "info is", "infos are"))
	}
	return s + fmt.Sprintf(" GitHub shows at most %d error, %d warning and %d notice annotations per step: %s.",
		AnnotationLimit, AnnotationLimit, AnnotationLimit, seeAll)
}

// ErrStepSummaryFull is returned by [WriteStepSummary] when not even the
// heading and the summary line fit in the bytes left.
var ErrStepSummaryFull = errors.New("the step summary has no room left within GitHub's limit")

// WriteStepSummary writes a Markdown summary of r for a GitHub Actions job
// summary (the caller appends it to the file named by $GITHUB_STEP_SUMMARY):
// a heading, the [SummaryLine], and a table of the diagnostics with their
// severity, location, code and message, because a step shows only a few
// annotations. The table lists errors, then warnings, then infos, each in
// the order of r.Diagnostics. Paths are output paths under opts.PathPrefix,
// as in every format.
//
// It writes at most maxBytes bytes: the caller passes [StepSummaryLimit]
// less what the step's summary holds already, since GitHub drops a larger
// summary entirely. When the table does not fit, it keeps the rows that do
// (errors first) and ends with a line that says how many findings by
// severity were left out and that the json and sarif formats list them all.
// It returns [ErrStepSummaryFull], writing nothing, when not even the
// heading and that line fit; otherwise the first error from w.
func WriteStepSummary(w io.Writer, r Report, opts Options, maxBytes int) error {
	var head strings.Builder
	name := nonEmpty(r.Tool.Name, "journal-lint")
	fmt.Fprintf(&head, "### %s\n\n%s\n", markdownText(name), markdownText(SummaryLine(r)))
	if r.Baseline != nil {
		fmt.Fprintf(&head, "\n%s\n", markdownText(r.Baseline.Line()))
	}
	order := SeverityOrder(len(r.Diagnostics), func(i int) diag.Severity { return r.Diagnostics[i].Severity })
	rows := make([]string, len(order))
	// rest[k] counts the diagnostics left out when the table has k rows.
	rest := make([]Tally, len(order)+1)
	for k := len(order) - 1; k >= 0; k-- {
		d := r.Diagnostics[order[k]]
		rows[k] = stepSummaryRow(d, opts)
		rest[k] = rest[k+1]
		rest[k].Add(d.Severity)
	}
	const tableHead = "\n| Severity | Location | Code | Message |\n| --- | --- | --- | --- |\n"
	// The largest number of rows that fits with the line about the rest.
	kept, size := -1, head.Len()
	var trailer string
	if len(rows) > 0 {
		size += len(tableHead)
	}
	for k := 0; k <= len(rows) && size <= maxBytes; k++ {
		t := leftOutLine(rest[k], name)
		if size+len(t) <= maxBytes {
			kept, trailer = k, t
		}
		if k < len(rows) {
			size += len(rows[k])
		}
	}
	if kept < 0 {
		return ErrStepSummaryFull
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(head.String())
	if len(rows) > 0 {
		bw.WriteString(tableHead)
		for _, row := range rows[:kept] {
			bw.WriteString(row)
		}
	}
	bw.WriteString(trailer)
	return bw.Flush()
}

// stepSummaryRow returns the table row of d in the step summary.
func stepSummaryRow(d diag.Diagnostic, opts Options) string {
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
	return fmt.Sprintf("| %s | %s | %s | %s |\n",
		severity(d.Severity), markdownText(loc), markdownCode(d.Code), markdownText(msg))
}

// leftOutLine returns the paragraph that ends a step summary whose table
// leaves out the diagnostics counted by t, or "" for none.
func leftOutLine(t Tally, tool string) string {
	if t.Total() == 0 {
		return ""
	}
	return fmt.Sprintf("\n**%s left out** (%s) to stay within GitHub's step summary limit; `%s check --format json` or `--format sarif` lists every finding.\n",
		plural(t.Total(), "finding", "findings"), t, markdownText(tool))
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

package diffrender

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/diff"
	"github.com/r35157/journal-lint/internal/render"
	"github.com/r35157/journal-lint/internal/safetext"
)

// mdCell escapes s for a Markdown table cell: unsafe characters are shown
// as safetext shows them, and pipes, backslashes and HTML brackets cannot
// break out of the cell.
func mdCell(s string) string {
	r := strings.NewReplacer("\\", "\\\\", "|", "\\|", "<", "&lt;", ">", "&gt;")
	return r.Replace(safetext.Text(s))
}

// mdCode writes s as inline code, with a fence long enough for backticks
// inside it; unsafe characters are shown as safetext shows them. s is shown
// as it is otherwise: pass text that is safe already, such as the result of
// [InlineDiff], through mdCodeSafe.
func mdCode(s string) string { return mdCodeSafe(safetext.Text(s)) }

// mdCodeSafe is [mdCode] for s that holds no unsafe character.
func mdCodeSafe(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

func mdLevel(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "🔴 error"
	case diag.Warning:
		return "🟡 warning"
	}
	return "🔵 info"
}

func writeMarkdown(w io.Writer, results []*diff.Result, opts WriteOptions) {
	c := Count(results)
	fmt.Fprintf(w, "### journal-lint diff\n\n%s\n", c.Summary(len(results)))
	for _, r := range results {
		fmt.Fprintf(w, "\n#### %s %s → %s\n\n", mdCell(r.New.Coordinate), r.Old.JournalVersion, r.New.JournalVersion)
		if len(r.Changes) == 0 {
			fmt.Fprintln(w, "No changes: the texts are identical.")
			continue
		}
		fmt.Fprintln(w, "| level | kind | release | change |")
		fmt.Fprintln(w, "|---|---|---|---|")
		for _, ch := range r.Changes {
			rel := ch.Release
			if rel == "" {
				rel = "–"
			}
			fmt.Fprintf(w, "| %s | `%s` | %s | %s |\n", mdLevel(ch.Level), ch.Kind, mdCell(rel), mdCell(ch.Message))
		}
		names, by := groups(r)
		for _, g := range names {
			fmt.Fprintf(w, "\n<details><summary>%s (%s)</summary>\n\n", mdCell(groupTitle(g)), plural(len(by[g]), "change"))
			for _, ch := range by[g] {
				fmt.Fprintf(w, "- **%s** `%s`: %s\n", ch.Level, ch.Kind, mdCell(ch.Message))
				if ch.Old.Present && ch.Kind != diff.NoSemanticChange {
					fmt.Fprintf(w, "  - old: %s (%s)\n", mdCode(ch.Old.Text), mdCode(loc(ch.Old, opts)))
				}
				if ch.New.Present && ch.Kind != diff.NoSemanticChange {
					fmt.Fprintf(w, "  - new: %s (%s)\n", mdCode(ch.New.Text), mdCode(loc(ch.New, opts)))
				}
				if inline(ch) {
					fmt.Fprintf(w, "  - words: %s\n", mdCodeSafe(InlineDiff(ch.Old.Text, ch.New.Text, false)))
				}
			}
			fmt.Fprintln(w, "\n</details>")
		}
	}
}

// writeGitHub writes one workflow command per change, annotating the new
// file: ::error, ::warning or ::notice with file, line, col, endLine,
// endColumn (columns only for a range on one line) and the code as title.
func writeGitHub(w io.Writer, results []*diff.Result, opts WriteOptions) {
	for _, r := range results {
		for _, ch := range r.Changes {
			cmd := "notice"
			switch ch.Level {
			case diag.Error:
				cmd = "error"
			case diag.Warning:
				cmd = "warning"
			}
			var props []string
			add := func(k, v string) { props = append(props, k+"="+render.EscapeProperty(safetext.Text(v))) }
			add("file", opts.path(ch.New.Path))
			if rg := ch.New.Range; rg.IsValid() {
				add("line", strconv.Itoa(rg.Start.Line))
				if rg.End.Line == rg.Start.Line && rg.End.Column >= rg.Start.Column {
					add("col", strconv.Itoa(rg.Start.Column))
					add("endLine", strconv.Itoa(rg.End.Line))
					add("endColumn", strconv.Itoa(rg.End.Column))
				}
			}
			add("title", ch.Kind.Code())
			msg := safetext.Text(ch.Message)
			if ch.Old.Present && ch.New.Present && ch.Kind != diff.NoSemanticChange {
				msg += "\nold: " + safetext.Text(ch.Old.Text) + "\nnew: " + safetext.Text(ch.New.Text)
			}
			fmt.Fprintf(w, "::%s %s::%s\n", cmd, strings.Join(props, ","), render.EscapeData(msg))
		}
	}
}

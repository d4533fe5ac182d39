package diffrender

import (
	"bytes"
	"fmt"
	"io"
	"sort"
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
	// One backtick more than the longest run in s, found in one pass (a
	// longer fence tried at a time is quadratic in a run of backticks).
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
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

// writeMarkdown writes the Markdown of results within
// [render.StepSummaryLimit] bytes, since it is meant for a step summary or a
// pull-request comment.
func writeMarkdown(w io.Writer, results []*diff.Result, opts WriteOptions) {
	WriteStepSummary(w, results, opts, render.StepSummaryLimit)
}

// WriteStepSummary writes the Markdown of results (the markdown format) in
// at most maxBytes bytes: the caller appending to a step's summary passes
// [render.StepSummaryLimit] less what the summary holds already (a check's
// own summary, say), since GitHub drops a larger summary entirely. When
// every change does not fit, it keeps the most changes that do, errors
// first, then warnings, then infos (a prefix of [render.SeverityOrder] over
// all changes), shows each comparison with its kept changes in their
// order, leaves out a comparison whose changes are all left out, and ends
// with a line that counts what was left out and says that the json format
// lists every change. It returns [render.ErrStepSummaryFull], writing
// nothing, when not even the heading and that line fit; otherwise the
// error of w.
func WriteStepSummary(w io.Writer, results []*diff.Result, opts WriteOptions, maxBytes int) error {
	type ref struct{ result, change int }
	var refs []ref
	for i, r := range results {
		for j := range r.Changes {
			refs = append(refs, ref{i, j})
		}
	}
	order := render.SeverityOrder(len(refs), func(k int) diag.Severity {
		return results[refs[k].result].Changes[refs[k].change].Level
	})
	c := Count(results)
	// Each change's Markdown (its word diff most of all), rendered once
	// for all the builds below.
	pieces := make([][]mdChange, len(results))
	for i, r := range results {
		pieces[i] = make([]mdChange, len(r.Changes))
		for j, ch := range r.Changes {
			pieces[i][j] = markdownChange(ch, opts)
		}
	}
	// build returns the Markdown with the first k changes of order.
	build := func(k int) []byte {
		keep := make([][]bool, len(results))
		for i, r := range results {
			keep[i] = make([]bool, len(r.Changes))
		}
		var left render.Tally
		for n, o := range order {
			rf := refs[o]
			if n < k {
				keep[rf.result][rf.change] = true
			} else {
				left.Add(results[rf.result].Changes[rf.change].Level)
			}
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, "### journal-lint diff\n\n%s\n", c.Summary(len(results)))
		for i, r := range results {
			kept := r.Changes[:0:0]
			var keptPieces []mdChange
			for j, ch := range r.Changes {
				if keep[i][j] {
					kept = append(kept, ch)
					keptPieces = append(keptPieces, pieces[i][j])
				}
			}
			if len(kept) == 0 && len(r.Changes) > 0 {
				continue
			}
			rk := *r
			rk.Changes = kept
			writeMarkdownResult(&b, &rk, keptPieces, len(r.Changes)-len(kept))
		}
		if left.Total() > 0 {
			fmt.Fprintf(&b, "\n**%s left out** (%s) to stay within GitHub's step summary limit; `journal-lint diff --format json` lists every change.\n",
				plural(left.Total(), "change"), left)
		}
		return b.Bytes()
	}
	out := build(len(order))
	if len(out) > maxBytes {
		// The largest k whose Markdown fits; it grows with k.
		k := sort.Search(len(order)+1, func(k int) bool { return len(build(k)) > maxBytes }) - 1
		if k < 0 {
			return render.ErrStepSummaryFull
		}
		out = build(k)
	}
	_, err := w.Write(out)
	return err
}

// mdChange is the Markdown of one change: its row of the table and its
// item in the details of its release.
type mdChange struct{ row, item string }

// markdownChange renders the Markdown of ch.
func markdownChange(ch diff.Change, opts WriteOptions) mdChange {
	rel := ch.Release
	if rel == "" {
		rel = "–"
	}
	var item strings.Builder
	fmt.Fprintf(&item, "- **%s** `%s`: %s\n", ch.Level, ch.Kind, mdCell(ch.Message))
	if ch.Old.Present && ch.Kind != diff.NoSemanticChange {
		fmt.Fprintf(&item, "  - old: %s (%s)\n", mdCode(ch.Old.Text), mdCode(loc(ch.Old, opts)))
	}
	if ch.New.Present && ch.Kind != diff.NoSemanticChange {
		fmt.Fprintf(&item, "  - new: %s (%s)\n", mdCode(ch.New.Text), mdCode(loc(ch.New, opts)))
	}
	if inline(ch) {
		fmt.Fprintf(&item, "  - words: %s\n", mdCodeSafe(InlineDiff(ch.Old.Text, ch.New.Text, false)))
	}
	return mdChange{
		row:  fmt.Sprintf("| %s | `%s` | %s | %s |\n", mdLevel(ch.Level), ch.Kind, mdCell(rel), mdCell(ch.Message)),
		item: item.String(),
	}
}

// writeMarkdownResult writes the section of one comparison with its
// changes, whose Markdown is pieces, and a line for the leftOut changes of
// it that are not shown.
func writeMarkdownResult(w io.Writer, r *diff.Result, pieces []mdChange, leftOut int) {
	fmt.Fprintf(w, "\n#### %s %s → %s\n\n", mdCell(r.New.Coordinate), r.Old.JournalVersion, r.New.JournalVersion)
	if len(r.Changes) == 0 {
		fmt.Fprintln(w, "No changes: the texts are identical.")
		return
	}
	fmt.Fprintln(w, "| level | kind | release | change |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, p := range pieces {
		io.WriteString(w, p.row)
	}
	if leftOut > 0 {
		fmt.Fprintf(w, "\n%s of this comparison left out.\n", plural(leftOut, "more change"))
	}
	names, by := groups(r)
	for _, g := range names {
		fmt.Fprintf(w, "\n<details><summary>%s (%s)</summary>\n\n", mdCell(groupTitle(g)), plural(len(by[g]), "change"))
		for _, i := range by[g] {
			io.WriteString(w, pieces[i].item)
		}
		fmt.Fprintln(w, "\n</details>")
	}
}

// writeGitHub writes one workflow command per change, annotating the new
// file: ::error, ::warning or ::notice with file, line, col, endLine,
// endColumn (columns only for a range on one line) and the code as title.
// Errors come first, then warnings, then infos, and one notice of the
// totals ends the output, as for a report: infos stop one short of
// [render.AnnotationLimit] so that GitHub shows that notice.
func writeGitHub(w io.Writer, results []*diff.Result, opts WriteOptions) {
	var changes []diff.Change
	for _, r := range results {
		changes = append(changes, r.Changes...)
	}
	left, notices := 0, 0
	for _, i := range render.SeverityOrder(len(changes), func(i int) diag.Severity { return changes[i].Level }) {
		ch := changes[i]
		cmd := render.GitHubCommand(ch.Level)
		if cmd == "notice" {
			if notices == render.AnnotationLimit-1 {
				left++
				continue
			}
			notices++
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
	if len(changes) > 0 {
		fmt.Fprintf(w, "::notice title=journal-lint diff::%s\n", render.EscapeData(render.GitHubTotals(
			Count(results).Summary(len(results)), left, "--format markdown (for the step summary, errors first) lists the changes, and --format json lists every one")))
	}
}

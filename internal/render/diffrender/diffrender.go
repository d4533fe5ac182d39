package diffrender

import (
	"fmt"
	"io"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/diff"
	"github.com/r35157/journal-lint/internal/outpath"
	"github.com/r35157/journal-lint/internal/render"
	"github.com/r35157/journal-lint/internal/safetext"
)

// WriteOptions adjust [Write].
type WriteOptions struct {
	// Color enables ANSI colours in the text format; the inline diff marks
	// deletions and insertions with [-…-] and {+…+} either way.
	Color bool
	// PathPrefix is the output path of the root (package outpath), put
	// before the root-relative paths of COORDINATE mode in every format;
	// empty for paths that are output paths already.
	PathPrefix string
}

// path returns the output path of p under the prefix ("" stays ""), as
// safetext shows untrusted text.
func (o WriteOptions) path(p string) string {
	if p == "" {
		return ""
	}
	return safetext.Text(outpath.Join(o.PathPrefix, p))
}

// Write renders results (oldest pair first) in format f to w. It returns an
// error for a format that is not one of [render.DiffFormats], or the first
// error of w.
func Write(w io.Writer, f render.Format, results []*diff.Result, opts WriteOptions) error {
	ew := &errWriter{w: w}
	switch f {
	case render.Text:
		writeText(ew, results, opts)
	case render.JSON:
		writeJSON(ew, results, opts)
	case render.Markdown:
		writeMarkdown(ew, results, opts)
	case render.GitHub:
		writeGitHub(ew, results, opts)
	default:
		return fmt.Errorf("diffrender: %v is not a diff format", f)
	}
	return ew.err
}

// errWriter keeps the first write error and drops later writes.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	_, e.err = e.w.Write(p)
	return len(p), nil
}

// Counts tallies changes by level.
type Counts struct {
	Changes, Errors, Warnings, Infos int
}

// Count returns the counts of every change of results.
func Count(results []*diff.Result) Counts {
	var c Counts
	for _, r := range results {
		for _, ch := range r.Changes {
			c.Changes++
			switch ch.Level {
			case diag.Error:
				c.Errors++
			case diag.Warning:
				c.Warnings++
			default:
				c.Infos++
			}
		}
	}
	return c
}

func plural(n int, one string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %ss", n, one)
}

// Summary returns the summary line of the text format, such as
// "2 comparisons, 5 changes: 1 error, 1 warning, 3 infos".
func (c Counts) Summary(comparisons int) string {
	s := fmt.Sprintf("%s: %s, %s, %s", plural(c.Changes, "change"), plural(c.Errors, "error"), plural(c.Warnings, "warning"), plural(c.Infos, "info"))
	if comparisons != 1 {
		s = plural(comparisons, "comparison") + ", " + s
	}
	return s
}

// groups splits the changes of r by release, keeping their order: the
// artifact-level group ("") first when there is one. by holds indexes of
// r.Changes.
func groups(r *diff.Result) (names []string, by map[string][]int) {
	by = map[string][]int{}
	for i, c := range r.Changes {
		if _, ok := by[c.Release]; !ok {
			names = append(names, c.Release)
		}
		by[c.Release] = append(by[c.Release], i)
	}
	return names, by
}

func groupTitle(release string) string {
	if release == "" {
		return "artifact"
	}
	return "release " + safetext.Text(release)
}

// loc formats a value's location as "path:line:col".
func loc(v diff.Value, opts WriteOptions) string {
	p := opts.path(v.Path)
	if v.Range.IsValid() {
		return fmt.Sprintf("%s:%d:%d", p, v.Range.Start.Line, v.Range.Start.Column)
	}
	return p
}

// inline reports whether c's values are quoted text worth a word diff.
func inline(c diff.Change) bool {
	return c.Kind == diff.DescriptionChanged && c.Old.Present && c.New.Present
}

// ansi colours for the text format.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
)

func levelColor(s diag.Severity) string {
	switch s {
	case diag.Error:
		return ansiRed
	case diag.Warning:
		return ansiYellow
	}
	return ansiCyan
}

func paint(on bool, color, s string) string {
	if !on || s == "" {
		return s
	}
	return color + s + ansiReset
}

// InlineDiff renders the word diff of old and new on one line: deletions as
// [-…-], insertions as {+…+}, and with color also in red and green. The
// words are shown as safetext shows untrusted text.
func InlineDiff(old, new string, color bool) string {
	var b strings.Builder
	for _, s := range diff.WordDiff(old, new) {
		text := safetext.Text(s.Text)
		switch s.Op {
		case diff.Equal:
			b.WriteString(text)
		case diff.Delete:
			b.WriteString(paint(color, ansiRed, "[-"+text+"-]"))
		case diff.Insert:
			b.WriteString(paint(color, ansiGreen, "{+"+text+"+}"))
		}
	}
	return b.String()
}

func writeText(w io.Writer, results []*diff.Result, opts WriteOptions) {
	col := opts.Color
	for i, r := range results {
		if i > 0 {
			fmt.Fprintln(w)
		}
		title := safetext.Text(r.New.Coordinate)
		if r.Old.Coordinate != r.New.Coordinate {
			title = safetext.Text(r.Old.Coordinate) + " → " + title
		}
		fmt.Fprintf(w, "%s %s → %s\n", paint(col, ansiBold, title), r.Old.JournalVersion, r.New.JournalVersion)
		fmt.Fprintf(w, "  old %s  %s\n", opts.path(r.Old.Path), r.Old.Digest)
		fmt.Fprintf(w, "  new %s  %s\n", opts.path(r.New.Path), r.New.Digest)
		if len(r.Changes) == 0 {
			fmt.Fprintln(w, "  no changes: the texts are identical")
			continue
		}
		names, by := groups(r)
		for _, g := range names {
			fmt.Fprintf(w, "\n  %s\n", paint(col, ansiBold, groupTitle(g)))
			for _, i := range by[g] {
				c := r.Changes[i]
				lvl := fmt.Sprintf("%-7s", c.Level)
				fmt.Fprintf(w, "    %s %s: %s\n", paint(col, levelColor(c.Level), lvl), c.Kind, safetext.Text(c.Message))
				fmt.Fprintf(w, "            at %s", loc(c.New, opts))
				if c.Old.Present && c.Kind != diff.NoSemanticChange {
					fmt.Fprintf(w, ", was %s", loc(c.Old, opts))
				}
				fmt.Fprintln(w)
				switch {
				case c.Kind == diff.NoSemanticChange:
				case inline(c):
					fmt.Fprintf(w, "            %s\n", InlineDiff(c.Old.Text, c.New.Text, col))
				default:
					if c.Old.Present {
						fmt.Fprintf(w, "            %s %s\n", paint(col, ansiRed, "-"), safetext.Text(c.Old.Text))
					}
					if c.New.Present {
						fmt.Fprintf(w, "            %s %s\n", paint(col, ansiGreen, "+"), safetext.Text(c.New.Text))
					}
				}
			}
		}
	}
	fmt.Fprintf(w, "\n%s\n", Count(results).Summary(len(results)))
}

// Package render writes a list of diagnostics in one of the output formats
// of journal-lint: human-readable text with source snippets, a stable JSON
// document, SARIF 2.1.0 for code-scanning tools, and GitHub Actions workflow
// commands (plus a Markdown step summary).
//
// Rendering is separate from producing diagnostics: the caller gathers a
// [Report] (the diagnostics, counts, a way to read source text and rule
// metadata) and calls [Write] with a [Format] chosen by [ParseFormat].
// Package diffrender, beside it, writes the results of the semantic diff
// engine in the same formats.
//
// # Positions
//
// Lines and columns are 1-based and columns count Unicode code points, as in
// package diag. Ranges are half-open: the end position is the first character
// after the subject. Formats that need something else convert at the edge
// (see the format's documentation on [Format]).
//
// # Fingerprints
//
// Every diagnostic gets a stable identifier, [Fingerprint], that does not
// change when unrelated lines move. The JSON format writes it as
// "fingerprint" and SARIF as partialFingerprints["journalLint/v1"], so every
// machine-readable format identifies a finding the same way.
package render

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/outpath"
)

// Format is an output format of journal-lint: of a diagnostics report
// ([Write], `journal-lint check`) or of a semantic diff (package
// diffrender, `journal-lint diff`). Not every format fits both: see
// [ReportFormats] and [DiffFormats]. The zero value is [Text].
type Format int

// The output formats. What a format looks like for a report is described
// here; package diffrender describes the diff forms.
const (
	// Text is for people: "path:line:col: severity: message [code]" with a
	// source snippet and a caret line, related notes, help, and a summary.
	Text Format = iota
	// JSON is a stable document for programs; fields may be added, never
	// renamed or removed.
	JSON
	// SARIF is SARIF 2.1.0 for code-scanning tools such as GitHub code
	// scanning. Regions carry startLine/startColumn, the exclusive
	// endLine/endColumn of SARIF (the same convention as diag.Range), and
	// byteOffset/byteLength rather than charOffset/charLength, since our
	// offsets count bytes. Artifact URIs are output paths (package
	// outpath: repository-relative inside a git work tree) under the
	// uriBaseId %SRCROOT%, so the log holds no machine path. A diagnostic
	// about the root itself points at the root directory (such as
	// "journals/"), because GitHub code scanning refuses a whole upload
	// that holds a result without a location ("expected at least one
	// location"). Reports only.
	SARIF
	// GitHub is GitHub Actions workflow commands (::error, ::warning,
	// ::notice) that become annotations on a workflow run. col and
	// endColumn are written only for a range on one line, as GitHub
	// requires; endColumn is the exclusive end column of the range (GitHub
	// does not document which it expects).
	GitHub
	// Markdown is a compact table for a pull-request comment, with
	// collapsible details. Diffs only.
	Markdown
)

var formatNames = [...]string{Text: "text", JSON: "json", SARIF: "sarif", GitHub: "github", Markdown: "markdown"}

// ReportFormats returns the formats of a diagnostics report ([Write]), in
// the order of their names in help texts: text, json, sarif, github.
func ReportFormats() []Format { return []Format{Text, JSON, SARIF, GitHub} }

// DiffFormats returns the formats of a semantic diff (package diffrender),
// in the order of their names in help texts: text, json, markdown, github.
func DiffFormats() []Format { return []Format{Text, JSON, Markdown, GitHub} }

// String returns the name of f as [ParseFormat] accepts it ("text", "json",
// "sarif", "github", "markdown"), or "Format(N)" for a value that is no
// format.
func (f Format) String() string {
	if f >= 0 && int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat returns the format of accepted (such as [ReportFormats] or
// [DiffFormats]) named s, compared without regard to case and surrounding
// spaces. Any other string gives an error that lists the accepted names in
// their order, such as `unknown output format "x" (want text, json, sarif
// or github)`, fit for a usage message about a --format flag.
func ParseFormat(s string, accepted []Format) (Format, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	names := make([]string, len(accepted))
	for i, f := range accepted {
		if f.String() == name {
			return f, nil
		}
		names[i] = f.String()
	}
	want := strings.Join(names, ", ")
	if n := len(names); n > 1 {
		want = strings.Join(names[:n-1], ", ") + " or " + names[n-1]
	}
	return Text, fmt.Errorf("unknown output format %q (want %s)", s, want)
}

// Summary holds the counts of what was checked. The counts of errors,
// warnings and infos are not here: the renderers count the diagnostics.
type Summary struct {
	// Files is the number of Journal files read.
	Files int
	// Artifacts is the number of distinct artifact coordinates found.
	Artifacts int
	// Revisions is the number of revisions (accepted Journal files) found.
	Revisions int
	// Alone says that the files were checked on their own (check --file),
	// outside a tree: no artifact or revision was counted, and the
	// summary line names the files only.
	Alone bool
}

// RuleInfo describes one rule (one diagnostic code) for formats that carry
// rule metadata (SARIF).
type RuleInfo struct {
	// Code is the stable rule ID, such as "chain/fork".
	Code string
	// DefaultSeverity is the severity the rule reports unless configured.
	DefaultSeverity diag.Severity
	// Summary is a one-line description without a final period.
	Summary string
	// Doc is the full documentation in Markdown.
	Doc string
	// HelpURI is an absolute URI of the rule's documentation, or empty.
	HelpURI string
}

// ToolInfo names the tool that produced a report.
type ToolInfo struct {
	// Name is the tool name, "journal-lint".
	Name string
	// Version is the tool version as SemVer 2.0.0 without a "v", such as
	// "1.2.0" or "0.0.0"; SARIF writes it as tool.driver.version and
	// semanticVersion. Empty means unknown, written as "0.0.0".
	Version string
	// InformationURI is an absolute URI of the tool's home page; may be empty.
	InformationURI string
}

// Baseline is the commit a gated check (--against, --staged) compared
// with, as the text summary and SARIF versionControlProvenance report it.
type Baseline struct {
	// Rev is the revision as given, such as "origin/main".
	Rev string
	// Commit is the full object name of the commit compared with: the
	// merge base of Rev and HEAD, or of Rev and the merge being committed
	// (Merge).
	Commit string
	// MergeBase reports whether Commit differs from the commit Rev names.
	MergeBase bool
	// Merge reports that the check was of a merge being committed.
	Merge bool
	// Head is the full object name of the checked commit, or "".
	Head string
	// RepositoryURI is an absolute network URI of the repository, or "";
	// SARIF versionControlProvenance is written only with it.
	RepositoryURI string
}

// Line returns the sentence that says what was compared with, such as
// "compared with 1a2b3c4d5e6f, the merge base of origin/main and HEAD"
// ("… and the merge being committed" for Merge) or "compared with
// origin/main (1a2b3c4d5e6f)".
func (b *Baseline) Line() string {
	short := b.Commit[:min(len(b.Commit), 12)]
	switch {
	case b.MergeBase && b.Merge:
		return "compared with " + short + ", the merge base of " + b.Rev + " and the merge being committed"
	case b.MergeBase:
		return "compared with " + short + ", the merge base of " + b.Rev + " and HEAD"
	}
	return "compared with " + b.Rev + " (" + short + ")"
}

// Report is everything the renderers need. Only Diagnostics is required;
// every other field may be left zero.
type Report struct {
	// Root is the absolute path of the checked Journal root, in the form of
	// the operating system. No format writes it: outputs name the root by
	// its output path, Options.PathPrefix.
	Root string
	// Diagnostics are the findings, already sorted (see [diag.List.Sort]).
	// Their paths are root-relative with forward slashes.
	Diagnostics diag.List
	// Summary holds the counts of files, artifacts and revisions.
	Summary Summary
	// Source returns the bytes of the file at a root-relative path, for
	// snippets and fingerprints, or nil when they are unknown. Nil means no
	// source is known at all. It is called from several goroutines at once
	// (see [Fingerprints]).
	Source func(path string) []byte
	// Rule returns the metadata of the rule with the given code and whether
	// it is known. Nil means no rule is known; the renderers then describe a
	// rule by its code alone.
	Rule func(code string) (RuleInfo, bool)
	// Tool names the producing tool.
	Tool ToolInfo
	// Baseline is the commit a gated check compared with; nil for none.
	Baseline *Baseline
	// Fingerprints overrides the fingerprint of the diagnostic at an index of
	// Diagnostics; a missing or empty entry means the computed one (see
	// [Fingerprints]).
	Fingerprints map[int]string
}

// source returns the bytes of path, or nil when unknown.
func (r *Report) source(path string) []byte {
	if r.Source == nil || path == "" {
		return nil
	}
	return r.Source(path)
}

// rule returns the metadata of code; an unknown rule gets its code only.
func (r *Report) rule(code string) (RuleInfo, bool) {
	if r.Rule != nil {
		if ri, ok := r.Rule(code); ok {
			if ri.Code == "" {
				ri.Code = code
			}
			return ri, true
		}
	}
	return RuleInfo{Code: code}, false
}

// Options adjusts how a report is written.
type Options struct {
	// Color enables ANSI colours in the text format. The caller decides, for
	// example with [ColorWanted]; the other formats ignore it.
	Color bool
	// PathPrefix is the output path of the root (package outpath: relative
	// to the top level of the git work tree, else to the working
	// directory), such as "journals"; every format writes each
	// root-relative path of the report below it, so that text, JSON, SARIF
	// URIs, annotations and the step summary name a file alike. Empty means
	// the root is the base itself.
	PathPrefix string
	// StepSummary says that the caller writes the step summary
	// (WriteStepSummary, to the file $GITHUB_STEP_SUMMARY names), so that
	// the github format's closing notice may send readers there.
	StepSummary bool
}

// displayPath returns the root-relative path p as an output path under the
// prefix of o, cleaned ("journals/../.journal-lint.yaml" becomes
// ".journal-lint.yaml"); "" stays "" (the root itself).
func (o Options) displayPath(p string) string {
	if p == "" {
		return ""
	}
	return outpath.Join(o.PathPrefix, p)
}

// Write renders r in format f to w. It returns an error for a format that is
// not one of [ReportFormats], or the first error from w; output may
// be partly written when w fails.
func Write(w io.Writer, f Format, r Report, opts Options) error {
	switch f {
	case Text:
		return writeText(w, &r, opts)
	case JSON:
		return writeJSON(w, &r, opts)
	case SARIF:
		return writeSARIF(w, &r, opts)
	case GitHub:
		return writeGitHub(w, &r, opts)
	}
	return fmt.Errorf("render: unknown format %v", f)
}

// ColorWanted reports whether coloured output should go to f: never when the
// NO_COLOR environment variable has any non-empty value (no-color.org);
// always when FORCE_COLOR is set to a value other than "0" or "false";
// otherwise when f is a terminal and TERM is not "dumb". env looks up
// environment variables; nil means [os.Getenv]. A nil f is no terminal.
func ColorWanted(f *os.File, env func(string) string) bool {
	if env == nil {
		env = os.Getenv
	}
	if env("NO_COLOR") != "" {
		return false
	}
	switch v := strings.ToLower(env("FORCE_COLOR")); v {
	case "", "0", "false":
	default:
		return true
	}
	if f == nil || env("TERM") == "dumb" {
		return false
	}
	fd := f.Fd()
	return isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd)
}

// severity returns the severity of d as rendered: an invalid severity is
// shown as an error, so that a forgotten severity is never hidden.
func severity(s diag.Severity) diag.Severity {
	switch s {
	case diag.Error, diag.Warning, diag.Info:
		return s
	}
	return diag.Error
}

// tally counts the diagnostics of l by severity.
func tally(l diag.List) Tally {
	var t Tally
	for _, d := range l {
		t.Add(d.Severity)
	}
	return t
}

// SummaryLine returns the one-line summary of r that ends the text format,
// such as "3 errors, 1 warning, 0 infos in 12 files (4 artifacts, 9
// revisions)", or "… in 2 files checked on their own" (Summary.Alone),
// without a newline. An invalid severity counts as an error.
func SummaryLine(r Report) string {
	s := r.Summary
	if s.Alone {
		own := "their"
		if s.Files == 1 {
			own = "its"
		}
		return fmt.Sprintf("%s in %s checked on %s own", tally(r.Diagnostics), plural(s.Files, "file", "files"), own)
	}
	return fmt.Sprintf("%s in %s (%s, %s)", tally(r.Diagnostics),
		plural(s.Files, "file", "files"),
		plural(s.Artifacts, "artifact", "artifacts"),
		plural(s.Revisions, "revision", "revisions"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

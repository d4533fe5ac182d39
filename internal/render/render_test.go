package render

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Sources of the fixture report, by root-relative path.
var fixtureSources = map[string]string{
	"acme/widget/2024-01-02T03:04:05Z.journal": "JOURNAL_VERSION 2024-01-02T03:04:05Z\n" +
		"ARTIFACT acme:widget\n" +
		"PREDECESSOR sha256:abcd\n" +
		"RELEASE 1.0.0\n" +
		"\tDIGEST sha256:xyz\n",
	"acme/widget/2024-01-01T00:00:00Z.journal": "JOURNAL_VERSION 2024-01-01T00:00:00Z\n" +
		"ARTIFACT acme:widget\n",
	"acme/名前/2024-01-03T00:00:00Z.journal": "JOURNAL_VERSION 2024-01-03T00:00:00Z\n" +
		"ARTIFACT acme:名前ü\n",
	"crlf/x/2024-01-04T00:00:00Z.journal": "JOURNAL_VERSION 2024-01-04T00:00:00Z\r\n" +
		"ARTIFACT crlf:x\r\n" +
		"LICENSE Nope-1.0\r\n",
}

// at returns the range of the first occurrence of sub in the fixture file
// path, plus extra bytes, computed as the parser would.
func at(path, sub string, extra int) diag.Range {
	src := fixtureSources[path]
	i := strings.Index(src, sub)
	if i < 0 {
		panic("fixture: " + sub + " not in " + path)
	}
	return diag.NewLineIndex([]byte(src)).Range(i, i+len(sub)+extra)
}

func fixtureReport() Report {
	const (
		a = "acme/widget/2024-01-02T03:04:05Z.journal"
		b = "acme/widget/2024-01-01T00:00:00Z.journal"
		c = "acme/名前/2024-01-03T00:00:00Z.journal"
		d = "crlf/x/2024-01-04T00:00:00Z.journal"
	)
	eol := diag.NewLineIndex([]byte(fixtureSources[b])).Range(36, 36) // end of line 1 (empty)
	l := diag.List{
		{Code: "fs/unexpected-entry", Severity: diag.Info, Message: "2 entries ignored at the root"},
		{
			Code: rules.ChainFork, Severity: diag.Error,
			Message: "predecessor sha256:abcd is not the head of acme:widget",
			Path:    a, Range: at(a, "sha256:abcd", 0),
			Related: []diag.Related{
				{Path: b, Range: at(b, "JOURNAL_VERSION 2024-01-01T00:00:00Z", 0), Message: "the head is this revision"},
				{Message: "the chain of acme:widget has 2 revisions"},
			},
			Help: "make PREDECESSOR name the head revision,\nor rebase the change",
		},
		{
			Code: rules.SyntaxMisplacedDirective, Severity: diag.Warning,
			Message: "release block runs to the end of the file",
			Path:    a, Range: at(a, "RELEASE 1.0.0\n\tDIGEST", 0),
		},
		{
			Code: rules.ValueDigest, Severity: diag.Error,
			Message: "digest has 3 hex digits, want 64",
			Path:    a, Range: at(a, "sha256:xyz", 0),
		},
		{
			Code: rules.SyntaxMissingDirective, Severity: diag.Info,
			Message: "missing LICENSE; 100% of releases need one",
			Path:    b, Range: eol,
		},
		{
			Code: rules.ValueName, Severity: diag.Warning,
			Message: "name 名前ü is not ASCII",
			Path:    c, Range: at(c, "名前ü", 0),
		},
		{
			Code: rules.ValueLicense, Severity: diag.Error,
			Message: "unknown SPDX license Nope-1.0",
			Path:    d, Range: at(d, "Nope-1.0", 0),
		},
		{
			Code: rules.FSBadFilename, Severity: diag.Error,
			Message: "file name is not a timestamp",
			Path:    "odd,dir/bad:name.journal",
		},
	}
	l.Sort()
	rules := map[string]RuleInfo{
		rules.ChainFork: {
			DefaultSeverity: diag.Error,
			Summary:         "PREDECESSOR names a known revision that is not the head",
			Doc:             "# chain/fork\n\nA revision must extend the **head** of its chain.",
			HelpURI:         "https://example.com/rules/chain/fork",
		},
		rules.ValueDigest: {Code: rules.ValueDigest, DefaultSeverity: diag.Error, Summary: "a digest breaks its grammar"},
		rules.ValueName:   {Code: rules.ValueName, DefaultSeverity: diag.Warning, Summary: "a name breaks its grammar", Doc: "Names are ASCII."},
		rules.ValueLicense: {
			Code: rules.ValueLicense, DefaultSeverity: diag.Error, Summary: "a license breaks its grammar",
		},
		rules.SyntaxMissingDirective:   {DefaultSeverity: diag.Error, Summary: "a required directive is absent"},
		rules.SyntaxMisplacedDirective: {DefaultSeverity: diag.Error, Summary: "a directive out of order"},
		rules.FSBadFilename:            {DefaultSeverity: diag.Error, Summary: "a file name whose stem is not a strict timestamp"},
		// fs/unexpected-entry is deliberately unknown.
	}
	return Report{
		Root:        "/srv/journal root",
		Diagnostics: l,
		Summary:     Summary{Files: 4, Artifacts: 3, Revisions: 1},
		Source: func(p string) []byte {
			if s, ok := fixtureSources[p]; ok {
				return []byte(s)
			}
			return nil
		},
		Rule: func(code string) (RuleInfo, bool) {
			ri, ok := rules[code]
			return ri, ok
		},
		Tool: ToolInfo{Name: "journal-lint", Version: "0.1.0", InformationURI: "https://github.com/r35157/journal-lint"},
	}
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/render -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got); run with -update if intended:\n%s", name, diff)
	}
}

func render(t *testing.T, f Format, r Report, opts Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, f, r, opts); err != nil {
		t.Fatalf("Write(%v): %v", f, err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		format Format
		opts   Options
	}{
		{"text.golden", Text, Options{}},
		{"text_color.golden", Text, Options{Color: true}},
		{"text_prefix.golden", Text, Options{PathPrefix: "journals/"}},
		{"json.golden", JSON, Options{}},
		{"sarif.golden", SARIF, Options{}},
		{"github.golden", GitHub, Options{PathPrefix: "journals"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden(t, tt.name, render(t, tt.format, fixtureReport(), tt.opts))
		})
	}
	t.Run("summary.md.golden", func(t *testing.T) {
		var buf bytes.Buffer
		if err := WriteStepSummary(&buf, fixtureReport(), Options{}, StepSummaryLimit); err != nil {
			t.Fatal(err)
		}
		golden(t, "summary.md.golden", buf.Bytes())
	})
	t.Run("empty_text.golden", func(t *testing.T) {
		golden(t, "empty_text.golden", render(t, Text, Report{Root: "/r"}, Options{}))
	})
	t.Run("empty_json.golden", func(t *testing.T) {
		golden(t, "empty_json.golden", render(t, JSON, Report{Root: "/r"}, Options{}))
	})
}

var parseFormatTests = []struct {
	in      string
	want    Format
	wantErr bool
}{
	{"text", Text, false},
	{"json", JSON, false},
	{"sarif", SARIF, false},
	{"github", GitHub, false},
	{"JSON", JSON, false},
	{" sarif ", SARIF, false},
	{"", Text, true},
	{"xml", Text, true},
	{"github-actions", Text, true},
	{"txt", Text, true},
}

func TestParseFormat(t *testing.T) {
	t.Parallel()
	for _, tt := range parseFormatTests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseFormat(tt.in, ReportFormats())
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParseFormat(%q) error = %v, want error %v", tt.in, err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("ParseFormat(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
	for _, f := range ReportFormats() {
		if got, err := ParseFormat(f.String(), ReportFormats()); err != nil || got != f {
			t.Errorf("ParseFormat(%v.String()) = %v, %v", f, got, err)
		}
	}
	if s := Format(42).String(); s != "Format(42)" {
		t.Errorf("Format(42).String() = %q", s)
	}
}

// The report and the diff formats share one enum; each command accepts its
// own list, and the error names exactly that list.
func TestParseFormatLists(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in       string
		accepted []Format
		want     Format
		wantErr  string
	}{
		{"markdown", DiffFormats(), Markdown, ""},
		{" Markdown ", DiffFormats(), Markdown, ""},
		{"github", DiffFormats(), GitHub, ""},
		{"markdown", ReportFormats(), Text, `unknown output format "markdown" (want text, json, sarif or github)`},
		{"sarif", DiffFormats(), Text, `unknown output format "sarif" (want text, json, markdown or github)`},
		{"x", []Format{JSON}, Text, `unknown output format "x" (want json)`},
	}
	for _, tt := range tests {
		got, err := ParseFormat(tt.in, tt.accepted)
		if got != tt.want || (err == nil) != (tt.wantErr == "") || (err != nil && err.Error() != tt.wantErr) {
			t.Errorf("ParseFormat(%q, %v) = %v, %v; want %v, %q", tt.in, tt.accepted, got, err, tt.want, tt.wantErr)
		}
	}
	if err := Write(&bytes.Buffer{}, Markdown, Report{}, Options{}); err == nil {
		t.Error("Write accepted Markdown, which is a diff format")
	}
}

func TestWriteErrors(t *testing.T) {
	t.Parallel()
	if err := Write(&bytes.Buffer{}, Format(9), Report{}, Options{}); err == nil {
		t.Error("Write with an unknown format: no error")
	}
	boom := errors.New("boom")
	for _, f := range ReportFormats() {
		if err := Write(failWriter{boom}, f, fixtureReport(), Options{}); !errors.Is(err, boom) {
			t.Errorf("Write(%v) to a failing writer = %v, want %v", f, err, boom)
		}
	}
	if err := WriteStepSummary(failWriter{boom}, fixtureReport(), Options{}, StepSummaryLimit); !errors.Is(err, boom) {
		t.Errorf("WriteStepSummary to a failing writer = %v, want %v", err, boom)
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

func TestSummaryLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sevs []diag.Severity
		sum  Summary
		want string
	}{
		{nil, Summary{}, "0 errors, 0 warnings, 0 infos in 0 files (0 artifacts, 0 revisions)"},
		{[]diag.Severity{diag.Error, diag.Warning, diag.Info}, Summary{Files: 1, Artifacts: 1, Revisions: 1},
			"1 error, 1 warning, 1 info in 1 file (1 artifact, 1 revision)"},
		{[]diag.Severity{diag.Error, diag.Error, diag.Error, diag.Warning, diag.SeverityInvalid}, Summary{Files: 12, Artifacts: 4, Revisions: 9},
			"4 errors, 1 warning, 0 infos in 12 files (4 artifacts, 9 revisions)"},
		{[]diag.Severity{diag.Warning}, Summary{Files: 1, Alone: true}, "0 errors, 1 warning, 0 infos in 1 file checked on its own"},
		{nil, Summary{Files: 2, Alone: true}, "0 errors, 0 warnings, 0 infos in 2 files checked on their own"},
	}
	for _, tt := range tests {
		var r Report
		for _, s := range tt.sevs {
			r.Diagnostics = append(r.Diagnostics, diag.Diagnostic{Code: "x/y", Severity: s})
		}
		r.Summary = tt.sum
		if got := SummaryLine(r); got != tt.want {
			t.Errorf("SummaryLine = %q, want %q", got, tt.want)
		}
	}
}

func TestColorWanted(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string {
		return func(k string) string { return m[k] }
	}
	regular, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer regular.Close()
	tests := []struct {
		name string
		f    *os.File
		env  map[string]string
		want bool
	}{
		{"file is no terminal", regular, nil, false},
		{"nil file", nil, nil, false},
		{"FORCE_COLOR", regular, map[string]string{"FORCE_COLOR": "1"}, true},
		{"FORCE_COLOR=0", regular, map[string]string{"FORCE_COLOR": "0"}, false},
		{"FORCE_COLOR=false", regular, map[string]string{"FORCE_COLOR": "false"}, false},
		{"NO_COLOR wins", regular, map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"}, false},
		{"NO_COLOR any value", nil, map[string]string{"FORCE_COLOR": "yes", "NO_COLOR": "0"}, false},
		{"NO_COLOR empty is unset", nil, map[string]string{"FORCE_COLOR": "yes", "NO_COLOR": ""}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ColorWanted(tt.f, env(tt.env)); got != tt.want {
				t.Errorf("ColorWanted = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTextColorOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	plain := render(t, Text, fixtureReport(), Options{})
	if bytes.Contains(plain, []byte("\x1b")) {
		t.Error("text without Color contains an escape sequence")
	}
	colored := render(t, Text, fixtureReport(), Options{Color: true})
	for _, want := range []string{ansiError + "error" + ansiReset, ansiWarning + "warning" + ansiReset,
		ansiInfo + "info" + ansiReset, ansiDim + "[chain/fork]" + ansiReset, ansiError + "^~~~~~~~~~~" + ansiReset} {
		if !bytes.Contains(colored, []byte(want)) {
			t.Errorf("coloured text lacks %q", want)
		}
	}
}

func TestTextSanitizesControlCharacters(t *testing.T) {
	t.Parallel()
	r := Report{
		Diagnostics: diag.List{{
			Code: "syntax/encoding", Severity: diag.Error, Message: "bad \x1b[31m byte",
			Path: "a/b.journal", Range: diag.NewLineIndex([]byte("X\x1b[2JY\n")).Range(1, 2),
		}},
		Source: func(string) []byte { return []byte("X\x1b[2JY\n") },
	}
	out := render(t, Text, r, Options{})
	if bytes.Contains(out, []byte("\x1b")) {
		t.Errorf("text output passes an escape character through:\n%q", out)
	}
	want := `a/b.journal:1:2: error: bad \x1b[31m byte [syntax/encoding]` + "\n" + `    X\x1b[2JY` + "\n     ^~~~\n"
	if !strings.HasPrefix(string(out), want) {
		t.Errorf("got\n%q\nwant prefix\n%q", out, want)
	}
}

// TestBaselineLine: what the summary says was compared with.
func TestBaselineLine(t *testing.T) {
	commit := "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d"
	for _, tt := range []struct {
		b    Baseline
		want string
	}{
		{Baseline{Rev: "origin/main", Commit: commit}, "compared with origin/main (1a2b3c4d5e6f)"},
		{Baseline{Rev: "origin/main", Commit: commit, MergeBase: true}, "compared with 1a2b3c4d5e6f, the merge base of origin/main and HEAD"},
		{Baseline{Rev: "origin/HEAD", Commit: commit, MergeBase: true, Merge: true}, "compared with 1a2b3c4d5e6f, the merge base of origin/HEAD and the merge being committed"},
		{Baseline{Rev: "origin/HEAD", Commit: commit, Merge: true}, "compared with origin/HEAD (1a2b3c4d5e6f)"},
	} {
		if got := tt.b.Line(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.b, got, tt.want)
		}
	}
}

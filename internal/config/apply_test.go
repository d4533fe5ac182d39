package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/rules"
)

const applyConfig = `rules:
  style/crlf: off
  license/noassertion: error
  history/release-license-changed: info
ignore:
  - code: style/trailing-whitespace
    path: "legacy/**"
    reason: imported as-is from the old registry
  - code: "time/*"
    path: "**/*.example"
    reason: examples are fixed in time
  - code: style/tabs
    reason: never matches anything
  - code: style/crlf
    reason: redundant, the rule is off
  - code: "*/*"
    path: "quarantine/**"
    reason: being rewritten
`

// d builds a diagnostic for the tests.
func d(code string, sev diag.Severity, path string) diag.Diagnostic {
	return diag.Diagnostic{Code: code, Severity: sev, Path: path, Message: code + " at " + path}
}

// brief renders diagnostics as "code severity path" for comparison.
func brief(ds diag.List) []string {
	var out []string
	for _, x := range ds {
		out = append(out, x.Code+" "+x.Severity.String()+" "+x.Path)
	}
	return out
}

func TestApply(t *testing.T) {
	t.Parallel()
	cfg, err := Parse("conf/.journal-lint.yaml", []byte(applyConfig))
	if err != nil {
		t.Fatal(err)
	}
	in := diag.List{
		d("style/crlf", diag.Warning, "a/1.journal"),                      // off: dropped
		d("license/noassertion", diag.Warning, "a/1.journal"),             // raised to error
		d("history/release-license-changed", diag.Warning, "a/2.journal"), // lowered to info
		d("style/trailing-whitespace", diag.Warning, "legacy/x/1.journal"),
		d("style/trailing-whitespace", diag.Warning, "new/1.journal"), // path does not match
		d("time/future-version", diag.Warning, "a/3.journal.example"),
		d("time/future-version", diag.Warning, "a/3.journal"),
		d("syntax/encoding", diag.Error, "quarantine/1.journal"), // validity: never ignored
		d("value/license", diag.Error, "legacy/x/1.journal"),
		d("style/other", diag.Info, "quarantine/2.journal"),
		d("style/other", diag.Info, ""), // the root: "**" patterns still need a path
	}
	out, unused := Apply(cfg, "", in)
	want := []string{
		"license/noassertion error a/1.journal",
		"history/release-license-changed info a/2.journal",
		"style/trailing-whitespace warning new/1.journal",
		"time/future-version warning a/3.journal",
		"syntax/encoding error quarantine/1.journal",
		"value/license error legacy/x/1.journal",
		"style/other info ",
	}
	if got := brief(out); !slices.Equal(got, want) {
		t.Errorf("Apply:\n got %q\nwant %q", got, want)
	}
	if len(out) > 0 && &out[0] != &in[0] {
		t.Error("Apply copied its input instead of filtering it in place")
	}
	var codes []string
	for _, e := range unused {
		codes = append(codes, e.Code)
	}
	if !slices.Equal(codes, []string{"style/tabs", "style/crlf"}) {
		t.Errorf("unused = %q", codes)
	}

	ds := UnusedIgnoreDiagnostics(cfg, "", unused)
	if len(ds) != 2 {
		t.Fatalf("UnusedIgnoreDiagnostics: %v", ds)
	}
	u := ds[0]
	if u.Code != rules.ConfigUnusedIgnore || u.Severity != diag.Warning || u.Path != "conf/.journal-lint.yaml" ||
		u.Range.Start.Line != 12 || u.Range.Start.Column != 5 ||
		!strings.Contains(u.Message, `"style/tabs"`) || !strings.Contains(u.Message, "any path") {
		t.Errorf("unused diagnostic = %+v", u)
	}
	if got := u.String(); got != `conf/.journal-lint.yaml:12:5: warning: ignore entry for code "style/tabs" and any path matched no diagnostic [config/unused-ignore]` {
		t.Errorf("String() = %s", got)
	}
}

func TestUnusedIgnoreNamesPath(t *testing.T) {
	t.Parallel()
	cfg, err := Parse("c.yaml", []byte("ignore:\n  - code: style/x\n    path: old/**\n    reason: r\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, unused := Apply(cfg, "", nil)
	ds := UnusedIgnoreDiagnostics(cfg, "", unused)
	if len(ds) != 1 || !strings.Contains(ds[0].Message, `code "style/x" and path "old/**"`) || ds[0].Range.Start.Line != 2 {
		t.Errorf("got %v", ds)
	}
	// A pattern written relative to the root, not to the file's directory:
	// the help gives it below the root; one that starts there, or that
	// starts with **, gets no such hint.
	for _, tc := range []struct{ rootRel, pat, hint string }{
		{"journals", "old/**", `; path patterns are relative to the directory of the configuration file, where the root is journals: did you mean "journals/old/**"?`},
		{"data/journals", "old/**", `; path patterns are relative to the directory of the configuration file, where the root is data/journals: did you mean "data/journals/old/**"?`},
		{"journals", "journals/old/**", ""},
		{"journals", "**/old.journal", ""},
		{"", "old/**", ""},
		{"../journals", "old/**", ""},
	} {
		if got := belowRoot(tc.pat, tc.rootRel); got != tc.hint {
			t.Errorf("belowRoot(%q, %q) = %q, want %q", tc.pat, tc.rootRel, got, tc.hint)
		}
	}
	if ds := UnusedIgnoreDiagnostics(cfg, "journals", unused); len(ds) != 1 || !strings.HasSuffix(ds[0].Help, `did you mean "journals/old/**"?`) {
		t.Errorf("help with the root at journals: %v", ds)
	}
	// The warning itself obeys rules.
	cfg.Rules[rules.ConfigUnusedIgnore] = Rule{Code: rules.ConfigUnusedIgnore, Level: LevelError}
	if ds := UnusedIgnoreDiagnostics(cfg, "", unused); len(ds) != 1 || ds[0].Severity != diag.Error {
		t.Errorf("override to error: %v", ds)
	}
	cfg.Rules[rules.ConfigUnusedIgnore] = Rule{Code: rules.ConfigUnusedIgnore, Level: LevelOff}
	if ds := UnusedIgnoreDiagnostics(cfg, "", unused); ds != nil {
		t.Errorf("off: %v", ds)
	}
}

func TestApplyProtectsValidity(t *testing.T) {
	t.Parallel()
	// Load refuses these, but a configuration built in code must not get
	// around the protection either.
	cfg := Default()
	cfg.Rules["syntax/encoding"] = Rule{Code: "syntax/encoding", Level: LevelOff}
	cfg.Rules["chain/fork"] = Rule{Code: "chain/fork", Level: LevelInfo}
	cfg.Ignore = []IgnoreEntry{
		{Code: "fs/*", Reason: "no"},
		{Code: "*/*", Path: "**", Reason: "everything"},
	}
	in := diag.List{
		d("syntax/encoding", diag.Error, "a/1.journal"),
		d("chain/fork", diag.Error, "a/2.journal"),
		d("fs/unexpected-entry", diag.Error, "junk"),
		d("style/crlf", diag.Warning, "a/1.journal"),
	}
	out, unused := Apply(cfg, "", in)
	want := []string{
		"syntax/encoding error a/1.journal",
		"chain/fork error a/2.journal",
		"fs/unexpected-entry error junk",
	}
	if got := brief(out); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if len(unused) != 1 || unused[0].Code != "fs/*" {
		t.Errorf("unused = %+v", unused)
	}
}

func TestApplyNilConfig(t *testing.T) {
	t.Parallel()
	in := diag.List{d("style/crlf", diag.Warning, "a")}
	out, unused := Apply(nil, "", in)
	if len(out) != 1 || unused != nil {
		t.Errorf("Apply(nil) = %v, %v", out, unused)
	}
	if UnusedIgnoreDiagnostics(nil, "", nil) != nil {
		t.Error("UnusedIgnoreDiagnostics(nil, \"\", nil) not nil")
	}
}

func TestIgnoreEntryMatches(t *testing.T) {
	t.Parallel()
	e := IgnoreEntry{Code: "style/*", Path: "legacy/**"}
	if !e.Matches(d("style/crlf", diag.Warning, "legacy/a/b"), "") || e.Matches(d("style/crlf", diag.Warning, "other/a"), "") {
		t.Error("Matches")
	}
	if (IgnoreEntry{Code: "not a code"}).Matches(d("style/crlf", diag.Warning, ""), "") {
		t.Error("a malformed entry matched")
	}
}

// Path patterns are relative to the configuration file's directory: with
// the file at the repository's top level and the root at journals/, they
// are the repository-relative paths the output shows.
func TestIgnorePathRelativeToConfig(t *testing.T) {
	e := IgnoreEntry{Code: "style/*", Path: "journals/legacy/**"}
	if !e.Matches(d("style/crlf", diag.Warning, "legacy/a.journal"), "journals") {
		t.Error("journals/legacy/** does not match legacy/a.journal under a root at journals")
	}
	if e.Matches(d("style/crlf", diag.Warning, "legacy/a.journal"), "") {
		t.Error("journals/legacy/** matched legacy/a.journal with the root beside the configuration")
	}
	root := IgnoreEntry{Code: "style/*", Path: "journals"}
	if !root.Matches(d("style/crlf", diag.Warning, ""), "journals") {
		t.Error("a diagnostic about the root does not match the root's own path")
	}
	cfg := &Config{File: filepath.FromSlash("/repo/.journal-lint.yaml")}
	for root, want := range map[string]string{"/repo/journals": "journals", "/repo": "", "/elsewhere/j": "../elsewhere/j"} {
		if got := cfg.RootRel(filepath.FromSlash(root)); got != want {
			t.Errorf("RootRel(%s) = %q, want %q", root, got, want)
		}
	}
}

// TestApplyIndexAgreesWithEachEntry: Apply, which tries on a diagnostic
// only the entries its code and the literal start of its path select
// (ignoreIndex), drops and marks used exactly what trying every entry's
// Matches on every diagnostic does, for patterns with literal starts,
// wildcards at the start, in the middle and at the end, trailing /, no
// path, and for roots below, at and beside the configuration's directory.
func TestApplyIndexAgreesWithEachEntry(t *testing.T) {
	t.Parallel()
	patterns := []string{"", "**", "journals/**", "journals/", "journals/com.a/**", "journals/com.a/1.journal",
		"journals/*/1.journal", "**/1.journal", "*/com.a/**", "journals/com.[ab]/**", "journals/**/2.journal",
		"com.a/**", "../journals/**", "j?urnals/com.b/*", "journals/com.a", "journals/com.a/1.journal/**"}
	codes := []string{"style/crlf", "style/*", "*/crlf", "time/future-version"}
	var entries []IgnoreEntry
	for i, p := range patterns {
		entries = append(entries, IgnoreEntry{Code: codes[i%len(codes)], Path: p, Reason: "r"})
		entries = append(entries, IgnoreEntry{Code: codes[(i+1)%len(codes)], Path: p, Reason: "r"})
	}
	paths := []string{"", "com.a", "com.a/1.journal", "com.a/2.journal", "com.b/1.journal", "com.c/x/2.journal", "x"}
	diagCodes := []string{"style/crlf", "style/tabs", "time/future-version", "license/noassertion"}
	for _, rootRel := range []string{"", ".", "journals", "../journals", "a/journals"} {
		var in diag.List
		for _, p := range paths {
			for _, c := range diagCodes {
				in = append(in, d(c, diag.Warning, p), d(c, diag.Warning, p)) // twice: the verdict is reused
			}
		}
		var want []string
		used := make([]bool, len(entries))
		for _, x := range in {
			drop := false
			for i, e := range entries {
				if e.Matches(x, rootRel) {
					used[i], drop = true, true
				}
			}
			if !drop {
				want = append(want, x.Code+" "+x.Severity.String()+" "+x.Path)
			}
		}
		var wantUnused []IgnoreEntry
		for i, e := range entries {
			if !used[i] {
				wantUnused = append(wantUnused, e)
			}
		}
		cfg := Default()
		cfg.Ignore = entries
		out, unused := Apply(cfg, rootRel, in)
		if got := brief(out); !slices.Equal(got, want) {
			t.Errorf("root at %q: kept\n %q\nwant\n %q", rootRel, got, want)
		}
		if !slices.EqualFunc(unused, wantUnused, func(a, b IgnoreEntry) bool { return a.Code == b.Code && a.Path == b.Path }) {
			t.Errorf("root at %q: unused %v, want %v", rootRel, unused, wantUnused)
		}
	}
}

// BenchmarkApplyManyIgnores is the bound on what ignore entries cost
// (issue 26: 400 entries that matched nothing took a check of 10^6
// findings from 8.3 s to 256 s): Apply of 200,000 findings on 20,000
// files with no entry and with 400 entries whose code matches and whose
// path does not. It reports the time per finding of each as ns/finding
// and fails when the entries make Apply more than 4 times as slow (each
// entry tried on each finding: 426 times).
func BenchmarkApplyManyIgnores(b *testing.B) {
	const files, perFile = 20_000, 10
	in := make(diag.List, 0, files*perFile)
	for f := range files {
		p := fmt.Sprintf("com.example.a%d/20260101T000000Z.journal", f)
		for range perFile {
			in = append(in, d("style/crlf", diag.Warning, p))
		}
	}
	var many []IgnoreEntry
	for i := range 400 {
		many = append(many, IgnoreEntry{Code: "style/crlf", Path: fmt.Sprintf("p%d/**", i), Reason: "r"})
	}
	per := map[int]float64{}
	for _, n := range []int{0, len(many)} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			cfg := Default()
			cfg.Ignore = many[:n]
			ds := make(diag.List, len(in))
			for b.Loop() {
				copy(ds, in)
				if out, _ := Apply(cfg, "journals", ds); len(out) != len(in) {
					b.Fatalf("kept %d of %d", len(out), len(in))
				}
			}
			per[n] = float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(len(in))
			b.ReportMetric(per[n], "ns/finding")
		})
	}
	if per[0] > 0 && per[len(many)] > 4*per[0] {
		b.Fatalf("400 entries make Apply %.1f times as slow, want at most 4", per[len(many)]/per[0])
	}
}

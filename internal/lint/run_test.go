package lint_test

import (
	"strings"
	"testing"
	"time"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/lint"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/rules"
)

func parse(t *testing.T, path, src string) *syntax.Document {
	t.Helper()
	doc, _ := syntax.Parse(path, []byte(src))
	return doc
}

const header = "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"A tiny UI toolkit\"\n"

// probe is a lint rule that reports once per document at its first byte.
var probe = lint.Rule{
	Rule: rules.Rule{
		Code:            "test/probe",
		Kind:            rules.Document,
		DefaultSeverity: diag.Info,
		Summary:         "reports every document",
		Doc:             "Test.\n\nFailing example:\n\n```journal\nA\n```\n\nPassing example:\n\n```journal\nB\n```\n",
		Options:         []rules.Option{{Name: "word", Kind: rules.StringOption, Default: "x", Summary: "the word"}},
	},
	Check: func(p *lint.Pass) {
		p.Report(diag.Diagnostic{Range: p.Range(0, 1), Message: "seen " + p.Options.Text("word")})
	},
}

func TestRunFillsDefaultsAndSorts(t *testing.T) {
	docs := []*syntax.Document{parse(t, "b.journal", header), nil, parse(t, "a.journal", header)}
	got := lint.Run(docs, nil, lint.RunConfig{Rules: []lint.Rule{probe}, Options: map[string]map[string]string{"test/probe": {"word": "y"}}})
	if len(got) != 2 {
		t.Fatalf("got %d diagnostics, want 2:%s", len(got), codes(got))
	}
	for i, path := range []string{"a.journal", "b.journal"} {
		d := got[i]
		if d.Path != path || d.Code != "test/probe" || d.Severity != diag.Info || d.Message != "seen y" || d.Range.Start.Line != 1 {
			t.Errorf("diagnostic %d = %+v", i, d)
		}
	}
}

func TestRunEnabled(t *testing.T) {
	docs := []*syntax.Document{parse(t, "a.journal", header+"# trailing \n")}
	all := lint.Run(docs, nil, lint.RunConfig{})
	if !has(all, "style/trailing-whitespace") {
		t.Fatalf("default run misses style/trailing-whitespace:%s", codes(all))
	}
	off := lint.Run(docs, nil, lint.RunConfig{Enabled: func(code string) bool { return code != "style/trailing-whitespace" }})
	if has(off, "style/trailing-whitespace") {
		t.Errorf("disabled rule ran:%s", codes(off))
	}
}

func TestRunSkipsRulesWithoutCheck(t *testing.T) {
	v, _ := rules.Lookup(rules.SyntaxEmpty)
	got := lint.Run([]*syntax.Document{parse(t, "a.journal", "")}, nil, lint.RunConfig{Rules: []lint.Rule{{Rule: v}}})
	if len(got) != 0 {
		t.Errorf("validity rule produced diagnostics:%s", codes(got))
	}
	if _, ok := lint.Lookup(rules.SyntaxEmpty); ok {
		t.Error("a validity rule is a lint rule")
	}
}

func TestRunBadOptions(t *testing.T) {
	cfg := lint.RunConfig{Options: map[string]map[string]string{"time/future-version": {"skew": "-1h"}}}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("Validate() = %v, want a negative-duration error", err)
	}
	got := lint.Run([]*syntax.Document{parse(t, "a.journal", header)}, nil, cfg)
	if len(got) != 1 || got[0].Code != "time/future-version" || got[0].Severity != diag.Error || got[0].Path != "" {
		t.Errorf("Run with a bad option = %s, want one error under time/future-version without a path", codes(got))
	}
}

func TestRunConfigValidate(t *testing.T) {
	tests := []struct {
		name    string
		options map[string]map[string]string
		wantErr string
	}{
		{"none", nil, ""},
		{"good", map[string]map[string]string{"time/future-version": {"skew": "1h30m"}}, ""},
		{"unknown rule", map[string]map[string]string{"style/nope": {}}, "unknown rule"},
		{"validity rule", map[string]map[string]string{"chain/fork": {}}, "validity rule"},
		{"unknown option", map[string]map[string]string{"time/future-version": {"slack": "1h"}}, `unknown option "slack"`},
		{"bad value", map[string]map[string]string{"time/future-version": {"skew": "soon"}}, "not a duration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := lint.RunConfig{Options: tt.options}.Validate()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("Validate() = %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("Validate() = %v, want it to mention %q", err, tt.wantErr)
			}
		})
	}
}

func TestRunRecoversFromPanic(t *testing.T) {
	bad := probe
	bad.Code = "test/panics"
	bad.Check = func(p *lint.Pass) { panic("boom") }
	got := lint.Run([]*syntax.Document{parse(t, "a.journal", header)}, nil, lint.RunConfig{Rules: []lint.Rule{bad}})
	if len(got) != 1 || got[0].Code != "test/panics" || got[0].Severity != diag.Error || !strings.Contains(got[0].Message, "boom") {
		t.Errorf("got %s", codes(got))
	}
}

func TestFutureVersionSkew(t *testing.T) {
	r, _ := lint.Lookup("time/future-version")
	doc := parse(t, "a.journal", strings.Replace(header, "20260110T080000Z", "20260301T010000Z", 1))
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		skew string
		want bool
	}{{"", false}, {"24h", false}, {"1h", false}, {"59m59s", true}, {"0s", true}} {
		var opts map[string]map[string]string
		if tt.skew != "" {
			opts = map[string]map[string]string{r.Code: {"skew": tt.skew}}
		}
		got := lint.Run([]*syntax.Document{doc}, nil, lint.RunConfig{Now: now, Rules: []lint.Rule{r}, Options: opts})
		if has(got, r.Code) != tt.want {
			t.Errorf("skew %q: got%s, want reported=%v", tt.skew, codes(got), tt.want)
		}
	}
}

// TestExactRanges pins the full range of one diagnostic per rule whose range
// is not a plain token.
func TestExactRanges(t *testing.T) {
	tests := []struct {
		code, src  string
		start, end diag.Pos
	}{
		{"style/crlf", "JOURNAL_FORMAT 1\r\nARTIFACT x.y\r\n", diag.Pos{Offset: 16, Line: 1, Column: 17}, diag.Pos{Offset: 18, Line: 2, Column: 1}},
		{"style/missing-final-newline", "JOURNAL_FORMAT 1\nARTIFACT x.y", diag.Pos{Offset: 29, Line: 2, Column: 13}, diag.Pos{Offset: 29, Line: 2, Column: 13}},
		{"style/trailing-whitespace", "JOURNAL_FORMAT 1\nARTIFACT x.y \t\r\n", diag.Pos{Offset: 29, Line: 2, Column: 13}, diag.Pos{Offset: 31, Line: 2, Column: 15}},
		{"security/bidi-control", "# é\u202e\n", diag.Pos{Offset: 4, Line: 1, Column: 4}, diag.Pos{Offset: 7, Line: 1, Column: 5}},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			r, _ := lint.Lookup(tt.code)
			got := lint.Run([]*syntax.Document{parse(t, "a.journal", tt.src)}, nil, lint.RunConfig{Rules: []lint.Rule{r}})
			if len(got) != 1 {
				t.Fatalf("got %d diagnostics:%s", len(got), codes(got))
			}
			if rg := got[0].Range; rg.Start != tt.start || rg.End != tt.end {
				t.Errorf("range = %+v-%+v, want %+v-%+v", rg.Start, rg.End, tt.start, tt.end)
			}
		})
	}
}

func TestReleaseOrderRelated(t *testing.T) {
	release := func(v string) string {
		return "\nRELEASE " + v + "\nLICENSE MIT\nCONTENT w.jar sha256:" + strings.Repeat("3", 64) + "\n"
	}
	tests := []struct {
		name, src, related string
	}{
		{"belongs after", header + release("1.0.0") + release("2.0.0") + release("1.5.0"), "6:1 release 1.5.0 belongs after this one"},
		{"belongs before", header + release("1.0.0") + release("0.5.0"), "6:1 release 0.5.0 belongs before this one"},
	}
	r, _ := lint.Lookup("style/release-order")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := lint.Run([]*syntax.Document{parse(t, "a.journal", tt.src)}, nil, lint.RunConfig{Rules: []lint.Rule{r}})
			if len(got) != 1 || len(got[0].Related) != 1 {
				t.Fatalf("got %s", codes(got))
			}
			rel := got[0].Related[0]
			if s := rel.Range.Start.String() + " " + rel.Message; s != tt.related || rel.Path != "a.journal" {
				t.Errorf("related = %s %q, want %q in a.journal", rel.Path, s, tt.related)
			}
		})
	}
}

package rules_test

import (
	"strings"
	"testing"

	"github.com/r35157/journal-lint/rules"
)

func TestValidateRejects(t *testing.T) {
	lintRule, _ := rules.Lookup("style/crlf")
	validityRule, _ := rules.Lookup("chain/fork")
	historyRule, _ := rules.Lookup("history/release-removed")
	engineRule, _ := rules.Lookup("plugin/failed")
	tests := []struct {
		name   string
		change func(r *rules.Rule)
		base   rules.Rule
		want   string
	}{
		{"bad code", func(r *rules.Rule) { r.Code = "Style/CRLF" }, lintRule, "category/name"},
		{"no category", func(r *rules.Rule) { r.Code = "crlf" }, lintRule, "category/name"},
		{"invalid severity", func(r *rules.Rule) { r.DefaultSeverity = rules.SeverityInvalid }, lintRule, "severity"},
		{"empty summary", func(r *rules.Rule) { r.Summary = " " }, lintRule, "summary"},
		{"two-line summary", func(r *rules.Rule) { r.Summary = "a\nb" }, lintRule, "summary"},
		{"empty doc", func(r *rules.Rule) { r.Doc = "" }, lintRule, "empty doc"},
		{"no passing example", func(r *rules.Rule) { r.Doc = r.Doc[:strings.Index(r.Doc, "Passing example:")] }, lintRule, "passing"},
		{"invalid kind", func(r *rules.Rule) { r.Kind = rules.KindInvalid }, lintRule, "invalid kind"},
		{"lint rule in validity category", func(r *rules.Rule) { r.Code = "syntax/crlf" }, lintRule, "validity category"},
		{"validity rule outside validity", func(r *rules.Rule) { r.Code = "style/fork" }, validityRule, "outside the validity"},
		{"validity warning", func(r *rules.Rule) { r.DefaultSeverity = rules.Warning }, validityRule, "not an error"},
		{"validity rule without scope", func(r *rules.Rule) { r.Scope = rules.ScopeNone }, validityRule, "scope"},
		{"lint rule with scope", func(r *rules.Rule) { r.Scope = rules.ScopeText }, lintRule, "scope"},
		{"cross-revision rule outside history", func(r *rules.Rule) { r.Code = "style/release-removed" }, historyRule, "history category"},
		{"options without a check", func(r *rules.Rule) {
			r.Options = []rules.Option{{Name: "n", Kind: rules.IntOption, Default: "1", Summary: "s"}}
		}, engineRule, "has options"},
		{"bad option default", func(r *rules.Rule) {
			r.Options = []rules.Option{{Name: "n", Kind: rules.IntOption, Default: "x", Summary: "s"}}
		}, lintRule, "not an integer"},
		{"bad option name", func(r *rules.Rule) {
			r.Options = []rules.Option{{Name: "Big", Kind: rules.BoolOption, Default: "true", Summary: "s"}}
		}, lintRule, "kebab-case"},
		{"bad option kind", func(r *rules.Rule) { r.Options = []rules.Option{{Name: "k", Default: "1", Summary: "s"}} }, lintRule, "option kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.base
			tt.change(&r)
			err := rules.Validate([]rules.Rule{r})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate() = %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
	t.Run("duplicate", func(t *testing.T) {
		if err := rules.Validate([]rules.Rule{lintRule, lintRule}); err == nil || !strings.Contains(err.Error(), "duplicate code") {
			t.Errorf("Validate() = %v", err)
		}
	})
}

func TestParseOptions(t *testing.T) {
	r := rules.Rule{Options: []rules.Option{
		{Name: "skew", Kind: rules.DurationOption, Default: "24h"},
		{Name: "max", Kind: rules.IntOption, Default: "3"},
		{Name: "strict", Kind: rules.BoolOption, Default: "false"},
		{Name: "word", Kind: rules.StringOption, Default: "hi"},
	}}
	o, err := r.ParseOptions(nil)
	if err != nil || o.Duration("skew").Hours() != 24 || o.Int("max") != 3 || o.Bool("strict") || o.Text("word") != "hi" {
		t.Fatalf("defaults: %+v, %v", o, err)
	}
	o, err = r.ParseOptions(map[string]string{"skew": "90m", "max": "7", "strict": "true", "word": ""})
	if err != nil || o.Duration("skew").Minutes() != 90 || o.Int("max") != 7 || !o.Bool("strict") || o.Text("word") != "" {
		t.Fatalf("set: %+v, %v", o, err)
	}
	if o.Duration("missing") != 0 || o.Int("skew") != 0 {
		t.Error("getters of absent or other-kind options are not zero")
	}
	for _, raw := range []map[string]string{{"skew": "-1s"}, {"skew": "1"}, {"max": "1.5"}, {"strict": "yes"}, {"strict": "1"}, {"other": "x"}} {
		if _, err := r.ParseOptions(raw); err == nil {
			t.Errorf("ParseOptions(%v) succeeded", raw)
		}
	}
}

func TestDecodeExample(t *testing.T) {
	tests := []struct{ in, want string }{
		{"A\n", "A\n"},
		{"A␍\nB␍\n", "A\r\nB\r\n"},
		{"A␠␉\n", "A \t\n"},
		{"x⟦U+202E⟧y⟦U+1F600⟧\n", "x\u202ey\U0001F600\n"},
		{"A\nB␄\n", "A\nB"},
		{"A␄", "A"},
	}
	for _, tt := range tests {
		got, err := rules.DecodeExample(tt.in)
		if err != nil || string(got) != tt.want {
			t.Errorf("DecodeExample(%q) = %q, %v, want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"A␄\nB\n", "⟦U+202E", "⟦202E⟧", "⟦U+ZZ⟧", "⟦U+D800⟧", "⟦U+12⟧"} {
		if got, err := rules.DecodeExample(bad); err == nil {
			t.Errorf("DecodeExample(%q) = %q, want an error", bad, got)
		}
	}
}

func TestExamples(t *testing.T) {
	doc := "Intro.\n\n```text\nnot an example\n```\n\nFailing example:\n\n~~~journal\nA␍\n~~~\n\nPassing example:\n\n```text\nlayout\n```\n"
	exs, err := rules.Rule{Doc: doc}.Examples()
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 2 || !exs[0].Failing || exs[0].Lang != "journal" || exs[0].Text != "A␍\n" || exs[1].Failing || exs[1].Lang != "text" {
		t.Fatalf("Examples() = %+v", exs)
	}
	if src, err := exs[0].Source(); err != nil || string(src) != "A\r\n" {
		t.Errorf("Source() = %q, %v", src, err)
	}
	for name, bad := range map[string]string{
		"no failing":     "Passing example:\n```journal\nA\n```\n",
		"marker alone":   "Failing example:\nPassing example:\n```journal\nA\n```\n",
		"unterminated":   "Failing example:\n```journal\nA\n",
		"wrong language": "Failing example:\n```go\nA\n```\nPassing example:\n```journal\nA\n```\n",
		"empty block":    "Failing example:\n```journal\n```\nPassing example:\n```journal\nA\n```\n",
		"bad notation":   "Failing example:\n```journal\n⟦U+⟧\n```\nPassing example:\n```journal\nA\n```\n",
	} {
		if _, err := (rules.Rule{Doc: bad}).Examples(); err == nil {
			t.Errorf("%s: Examples() succeeded", name)
		}
	}
}

package config

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/rules"
)

var testRegistry = Registry{
	Codes: []string{"style/crlf", "style/trailing-whitespace", "time/future-version", "license/noassertion", "syntax/encoding"},
	Options: map[string]OptionSpec{
		"time/future-version": {"skew": OptionDuration, "strict": OptionBool},
		"style/crlf":          {"mode": OptionString, "limit": OptionInt, "extra": OptionAny},
	},
}

func TestValidate(t *testing.T) {
	t.Parallel()
	src := `rules:
  style/crfl: off
  style/crlf: info
  syntax/encoding: error
options:
  time/future-version:
    skew: soon
    strct: true
  style/crlf:
    mode: 3
    limit: x
    extra: [1, 2]
  license/noassertion:
    level: 1
  nope/nope:
    a: 1
ignore:
  - code: style/trailing-whitespac
    reason: r
  - code: "legal/*"
    reason: r
  - code: "style/*"
    reason: r
  - code: config/unused-ignore
    reason: r
`
	cfg, err := Parse("c.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	err = Validate(cfg, testRegistry)
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("Validate = %v", err)
	}
	want := []wantErr{
		{2, 3, `rules: unknown rule code "style/crfl"; did you mean "style/crlf"?`},
		{7, 11, `time/future-version: option skew: "soon" is not a Go duration`},
		{8, 5, `unknown option "strct" of rule time/future-version (allowed: skew, strict); did you mean "strict"?`},
		{10, 11, "style/crlf: option mode: want a string, got 3"},
		{11, 12, `style/crlf: option limit: want an integer, got "x"`},
		{14, 5, "rule license/noassertion takes no options"},
		{15, 3, `options: unknown rule code "nope/nope"`},
		{18, 11, `ignore: unknown rule code "style/trailing-whitespac"; did you mean "style/trailing-whitespace"?`},
		{20, 11, `ignore: code glob "legal/*" matches no known rule code`},
	}
	if len(list) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(list), len(want), err)
	}
	for i, w := range want {
		g := list[i]
		if g.File != "c.yaml" || g.Line != w.line || g.Column != w.col || !strings.Contains(g.Msg, w.msg) {
			t.Errorf("error %d = %d:%d: %s\nwant       %d:%d: ...%s...", i, g.Line, g.Column, g.Msg, w.line, w.col, w.msg)
		}
	}
}

func TestValidateKnownFunc(t *testing.T) {
	t.Parallel()
	cfg, err := Parse("c.yaml", []byte("rules:\n  diff/added-release: info\n  style/x: off\n"))
	if err != nil {
		t.Fatal(err)
	}
	// Known may accept codes that Codes does not list, such as diff kinds.
	reg := Registry{Known: func(c string) bool { return strings.HasPrefix(c, "diff/") }}
	err = Validate(cfg, reg)
	if err == nil || !strings.Contains(err.Error(), `c.yaml:3:3: rules: unknown rule code "style/x"`) || strings.Contains(err.Error(), "diff/") {
		t.Errorf("Validate = %v", err)
	}
	if err := Validate(cfg, Registry{Known: func(string) bool { return true }}); err != nil {
		t.Errorf("all known: %v", err)
	}
	if err := Validate(nil, reg); err != nil {
		t.Errorf("nil config: %v", err)
	}
}

func TestValidateWithoutOptionSpecs(t *testing.T) {
	t.Parallel()
	cfg, err := Parse("c.yaml", []byte("options:\n  style/crlf:\n    anything: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(cfg, Registry{Codes: []string{"style/crlf"}}); err != nil {
		t.Errorf("options checked without specs: %v", err)
	}
	if !slices.Contains(Codes(), rules.ConfigUnusedIgnore) {
		t.Error("Codes misses config/unused-ignore")
	}
}

package config

import (
	"slices"
	"testing"

	"github.com/r35157/journal-lint/suggest"
)

func TestPathGlob(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"legacy/**", "legacy/a.journal", true},
		{"legacy/**", "legacy/x/y/z.journal", true},
		{"legacy/**", "legacy", true},
		{"legacy/**", "legacyx/a", false},
		{"legacy/**", "new/legacy/a", false},
		{"legacy/", "legacy/a/b", true},
		{"**/*.example", "a/b/c.example", true},
		{"**/*.example", "c.example", true},
		{"**/*.example", "a/c.journal", false},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a/**/b", "a/x/y/bb", false},
		{"a/**/**/b", "a/x/b", true},
		{"**", "", true},
		{"**", "any/thing", true},
		{"*", "top", true},
		{"*", "a/b", false},
		{"com.example:*/*.journal", "com.example:lib/2024.journal", true},
		{"com.example:*/*.journal", "com.example:lib/x/2024.journal", false},
		{"a/?.journal", "a/1.journal", true},
		{"a/?.journal", "a/12.journal", false},
		{"a/[0-9]*.journal", "a/2024.journal", true},
		{"a/[0-9]*.journal", "a/x.journal", false},
		{"a/[!0-9]*", "a/x", true},
		{"a/[!0-9]*", "a/1", false},
		{"a/[^0-9]*", "a/x", true},
		{"a/[]x]", "a/]", true},
		{`a/\*`, "a/*", true},
		{`a/\*`, "a/b", false},
		{"a.b+c(d)", "a.b+c(d)", true},
		{"a.b", "axb", false},
	}
	for _, tt := range tests {
		re, err := compilePathGlob(tt.pattern)
		if err != nil {
			t.Errorf("%q: %v", tt.pattern, err)
			continue
		}
		if got := re.MatchString(tt.path); got != tt.want {
			t.Errorf("%q ~ %q = %v, want %v (regexp %s)", tt.pattern, tt.path, got, tt.want, re)
		}
	}
}

func TestPathGlobErrors(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"", "/a", "a//b", "a/**b", "a**", "a/[b", "a/[z-a]", "a/[/]", `a\`} {
		if _, err := compilePathGlob(p); err == nil {
			t.Errorf("%q: no error", p)
		}
	}
}

func TestCodeGlob(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern, code string
		want          bool
	}{
		{"style/*", "style/crlf", true},
		{"style/*", "styles/crlf", false},
		{"style/crlf", "style/crlf", true},
		{"style/crlf", "style/crlfx", false},
		{"*/trailing-*", "style/trailing-whitespace", true},
		{"*/*", "history/release-license-changed", true},
		{"hist?ry/*", "history/x", true},
	}
	for _, tt := range tests {
		re, err := compileCodeGlob(tt.pattern)
		if err != nil {
			t.Errorf("%q: %v", tt.pattern, err)
			continue
		}
		if got := re.MatchString(tt.code); got != tt.want {
			t.Errorf("%q ~ %q = %v, want %v", tt.pattern, tt.code, got, tt.want)
		}
	}
	for _, p := range []string{"style", "Style/CRLF", "*", "a/b/*", "style/**", "/x*"} {
		if _, err := compileCodeGlob(p); err == nil {
			t.Errorf("%q: no error", p)
		}
	}
}

func TestSuggest(t *testing.T) {
	t.Parallel()
	tests := []struct{ s, want string }{
		{"rule", "rules"},
		{"fromat", "format"},
		{"warn", "warning"},
		{"zzzzzz", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := suggest.Closest(tt.s, append(slices.Clone(topKeys), "warning")); got != tt.want {
			t.Errorf("suggest.Closest(%q) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

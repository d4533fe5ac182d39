package lint_test

import (
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/lint"
	"github.com/r35157/journal-lint/rules"
)

func TestAllValidates(t *testing.T) {
	if err := lint.Validate(lint.All()); err != nil {
		t.Fatal(err)
	}
}

// TestEveryCheckedKindHasCheck keeps the registry and the checks in step:
// every rule of a kind with a check is a lint rule, and no other is.
func TestEveryCheckedKindHasCheck(t *testing.T) {
	for _, r := range rules.All() {
		_, ok := lint.Lookup(r.Code)
		if ok != r.Kind.HasCheck() {
			t.Errorf("%s (kind %s): lint rule %v", r.Code, r.Kind, ok)
		}
	}
	if n, want := len(lint.All()), 13; n != want {
		t.Errorf("%d lint rules, want %d (a check without a rule of a checked kind?)", n, want)
	}
}

func TestValidateRejects(t *testing.T) {
	lintRule, _ := lint.Lookup(rules.StyleCRLF)
	engine, _ := rules.Lookup(rules.PluginFailed)
	tests := []struct {
		name string
		r    lint.Rule
		want string
	}{
		{"catalogue", lint.Rule{Rule: rules.Rule{Code: "Style/CRLF"}, Check: lintRule.Check}, "category/name"},
		{"without check", lint.Rule{Rule: lintRule.Rule}, "without a Check"},
		{"kind without check", lint.Rule{Rule: engine, Check: lintRule.Check}, "has no check"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := lint.Validate([]lint.Rule{tt.r}); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate() = %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
}

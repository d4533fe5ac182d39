package rules_test

import (
	"bufio"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/rules"
)

func TestAllValidates(t *testing.T) {
	if err := rules.Validate(rules.All()); err != nil {
		t.Fatal(err)
	}
}

func TestLookup(t *testing.T) {
	for _, r := range rules.All() {
		got, ok := rules.Lookup(r.Code)
		if !ok || got.Code != r.Code {
			t.Errorf("Lookup(%q) = %q, %v", r.Code, got.Code, ok)
		}
	}
	if _, ok := rules.Lookup("style/nope"); ok {
		t.Error("Lookup of an unknown code succeeded")
	}
}

func TestAllIsStable(t *testing.T) {
	a, b := rules.All(), rules.All()
	a[0].Code = "changed/by-caller"
	if b[0].Code == a[0].Code || rules.All()[0].Code == a[0].Code {
		t.Fatal("All shares its slice with callers")
	}
	// Lint rules come after the validity rules, sorted by code.
	var lint []string
	for i, r := range b {
		if r.Validity {
			if len(lint) > 0 {
				t.Errorf("validity rule %s at %d after a lint rule", r.Code, i)
			}
			continue
		}
		if len(lint) > 0 && lint[len(lint)-1] >= r.Code {
			t.Errorf("lint rules out of order: %s before %s", lint[len(lint)-1], r.Code)
		}
		lint = append(lint, r.Code)
	}
}

// specCodeRow matches a row of the §8 table: the first cell holds one or
// more backquoted codes.
var specCodeRow = regexp.MustCompile("^\\| (`[a-z]+/[a-z-]+`(, `[a-z]+/[a-z-]+`)*) \\|")

// specCodes reads the §8 codes from the format spec in ../../shared, or
// skips the test when the spec is absent.
func specCodes(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("../../shared/spec/journal-format.md")
	if os.IsNotExist(err) {
		t.Skip("format spec not found beside the checkout")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var codes []string
	in8 := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in8 = strings.HasPrefix(line, "## 8.")
			continue
		}
		if m := specCodeRow.FindStringSubmatch(line); in8 && m != nil {
			for _, c := range strings.Split(m[1], ", ") {
				codes = append(codes, strings.Trim(c, "`"))
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(codes) < 30 {
		t.Fatalf("read only %d codes from §8 of the spec; has the table changed form?", len(codes))
	}
	return codes
}

func TestEverySpecCodeHasValidityRule(t *testing.T) {
	for _, code := range append(specCodes(t), diag.RevisionMissing, diag.SyntaxEmpty, diag.ChangedDuringRead) {
		r, ok := rules.Lookup(code)
		switch {
		case !ok:
			t.Errorf("no rule for %s", code)
		case !r.Validity || r.Check != nil || r.DefaultSeverity != diag.Error:
			t.Errorf("%s: Validity=%v Check!=nil=%v severity=%v, want a validity error rule", code, r.Validity, r.Check != nil, r.DefaultSeverity)
		}
	}
}

func TestValidityRulesAreOnlySpecCodes(t *testing.T) {
	known := map[string]bool{diag.RevisionMissing: true, diag.SyntaxEmpty: true, diag.ChangedDuringRead: true}
	for _, c := range specCodes(t) {
		known[c] = true
	}
	for _, r := range rules.All() {
		if r.Validity && !known[r.Code] {
			t.Errorf("validity rule %s is neither in §8 nor a documented project addition", r.Code)
		}
	}
}

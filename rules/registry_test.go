package rules_test

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
		if r.Kind == rules.Validity {
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

// specCodeRow matches a row of the diagnostic code table of the shared
// format specification: the first cell holds one or
// more backquoted codes.
var specCodeRow = regexp.MustCompile("^\\| (`[a-z]+/[a-z-]+`(, `[a-z]+/[a-z-]+`)*) \\|")

// specCodes reads the codes of the shared format specification
// ("8. Diagnostic codes" in ../../shared/spec/journal-format.md), or
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
		t.Fatalf("read only %d codes from the diagnostic codes of the shared spec; has the table changed form?", len(codes))
	}
	return codes
}

func TestEverySpecCodeHasValidityRule(t *testing.T) {
	for _, code := range append(specCodes(t), rules.FSRevisionMissing, rules.SyntaxEmpty, rules.FSChangedDuringRead) {
		r, ok := rules.Lookup(code)
		switch {
		case !ok:
			t.Errorf("no rule for %s", code)
		case r.Kind != rules.Validity || r.DefaultSeverity != rules.Error:
			t.Errorf("%s: kind %s, severity %v, want a validity error rule", code, r.Kind, r.DefaultSeverity)
		}
	}
}

func TestValidityRulesAreOnlySpecCodes(t *testing.T) {
	known := map[string]bool{rules.FSRevisionMissing: true, rules.SyntaxEmpty: true, rules.FSChangedDuringRead: true}
	for _, c := range specCodes(t) {
		known[c] = true
	}
	for _, r := range rules.All() {
		if r.Kind == rules.Validity && !known[r.Code] {
			t.Errorf("validity rule %s is neither in the shared spec's diagnostic codes nor a documented project addition", r.Code)
		}
	}
}

// TestKinds pins the kind of every code whose kind drives the engine: the
// check engine runs ChainHead rules on heads only, --new-only keeps
// Repository and Config codes, and a validity scope decides the sentinel
// errors of package journalerr and what journal-lint diff refuses.
func TestKinds(t *testing.T) {
	for _, r := range rules.All() {
		var want rules.Kind
		cat := rules.Category(r.Code)
		switch {
		case rules.IsValidityCategory(cat):
			want = rules.Validity
		case cat == "deps":
			want = rules.ChainHead
		case strings.HasPrefix(r.Code, "history/revision-") || cat == "repo" || cat == "tlog":
			want = rules.Repository
		case cat == "history":
			want = rules.CrossRevision
		case cat == "config":
			want = rules.Config
		case cat == "plugin" || cat == "check":
			want = rules.Engine
		default:
			want = rules.Document
		}
		if r.Kind != want {
			t.Errorf("%s: kind %s, want %s", r.Code, r.Kind, want)
		}
	}
	for code, want := range map[string]rules.Kind{
		"license-policy/denied": rules.Document, // a rule pack's code
		"chain/*":               rules.Validity,
		"fs/changed":            rules.Validity,
		rules.StyleCRLF:         rules.Document,
	} {
		if got := rules.KindOf(code); got != want {
			t.Errorf("KindOf(%q) = %s, want %s", code, got, want)
		}
	}
}

func TestScopes(t *testing.T) {
	for _, r := range rules.All() {
		var want rules.Scope
		switch cat := rules.Category(r.Code); {
		case strings.HasPrefix(r.Code, "fs/root-"):
			want = rules.ScopeRoot
		case cat == "syntax" || cat == "value" || cat == "semantic" || r.Code == rules.FSUnreadableFile || r.Code == rules.FSTooLarge:
			want = rules.ScopeText
		case cat == "chain":
			want = rules.ScopeChain
		case cat == "fs":
			want = rules.ScopeLayout
		}
		if r.Scope != want {
			t.Errorf("%s: scope %d, want %d", r.Code, r.Scope, want)
		}
	}
}

func TestEveryCodeHasDocFile(t *testing.T) {
	for _, r := range rules.All() {
		if r.Doc == "" {
			t.Errorf("%s: no docs/%s.md", r.Code, r.Code)
		}
	}
}

// TestEveryDocFileHasCode checks that each file under docs/ is the doc of a
// registered code, docs/<category>/<name>.md.
func TestEveryDocFileHasCode(t *testing.T) {
	err := filepath.WalkDir("docs", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, "docs"+string(filepath.Separator)))
		code, ok := strings.CutSuffix(rel, ".md")
		if _, known := rules.Lookup(code); !ok || !known {
			t.Errorf("%s is the doc of no registered code", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

package diff_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/diff"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/journal/model"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata (also JOURNAL_UPDATE=1)")

func updating() bool { return *update || os.Getenv("JOURNAL_UPDATE") != "" }

// fixture is one pair of testdata/<kind>[/noncase]/{previous,current}: the
// last file of previous/ is the old revision, the earlier ones its history,
// and current/ holds the new revision.
type fixture struct {
	dir      string
	history  []*syntax.Document
	old, new *syntax.Document
}

func parseFile(t *testing.T, base, rel string) *syntax.Document {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(base, rel))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := diff.Parse(filepath.ToSlash(rel), src)
	if err != nil {
		t.Fatalf("fixture %s/%s: %v", base, rel, err)
	}
	return doc
}

func loadFixture(t *testing.T, dir string) fixture {
	t.Helper()
	f := fixture{dir: dir}
	var prev []*syntax.Document
	for _, side := range []string{"previous", "current"} {
		names, err := filepath.Glob(filepath.Join(dir, side, "*.journal"))
		if err != nil || len(names) == 0 {
			t.Fatalf("%s/%s: no .journal files", dir, side)
		}
		sort.Strings(names)
		for _, n := range names {
			doc := parseFile(t, dir, filepath.Join(side, filepath.Base(n)))
			if side == "previous" {
				prev = append(prev, doc)
			} else {
				f.new = doc
			}
		}
	}
	f.old, f.history = prev[len(prev)-1], prev[:len(prev)-1]
	return f
}

func (f fixture) compare(t *testing.T) *diff.Result {
	t.Helper()
	var hist []model.Revision
	for _, d := range f.history {
		hist = append(hist, d.Revision)
	}
	r, err := diff.Compare(f.old, f.new, diff.Options{History: hist})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func kindsOf(r *diff.Result) []string {
	var out []string
	for _, c := range r.Changes {
		out = append(out, string(c.Kind))
	}
	return out
}

func hasKind(r *diff.Result, k diff.Kind) bool {
	return slices.Contains(kindsOf(r), string(k))
}

// golden compares got with the file, or rewrites it when updating.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if updating() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/diff -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test ./internal/diff -update to accept):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

var goldenFormats = []struct {
	format diff.Format
	ext    string
}{
	{diff.Text, "text"}, {diff.JSON, "json"}, {diff.Markdown, "md"}, {diff.GitHub, "github"},
}

// TestKindFixtures proves every kind: its fixture produces it, its nearest
// non-case does not, and the outputs match the golden files.
func TestKindFixtures(t *testing.T) {
	for _, ki := range diff.Kinds() {
		t.Run(string(ki.Kind), func(t *testing.T) {
			dir := filepath.Join("testdata", string(ki.Kind))
			f := loadFixture(t, dir)
			r := f.compare(t)
			if !hasKind(r, ki.Kind) {
				t.Errorf("fixture does not produce %s, got %v", ki.Kind, kindsOf(r))
			}
			for _, c := range r.Changes {
				if c.Kind == ki.Kind && c.Level != ki.Level {
					t.Errorf("%s at level %v, want %v", c.Kind, c.Level, ki.Level)
				}
			}
			non := loadFixture(t, filepath.Join(dir, "noncase")).compare(t)
			if hasKind(non, ki.Kind) {
				t.Errorf("nearest non-case produces %s: %v", ki.Kind, kindsOf(non))
			}
			for _, gf := range goldenFormats {
				var b bytes.Buffer
				if err := diff.Write(&b, gf.format, []*diff.Result{r}, diff.WriteOptions{}); err != nil {
					t.Fatal(err)
				}
				golden(t, filepath.Join(dir, "expected."+gf.ext), b.Bytes())
			}
		})
	}
}

func TestEveryKindIsDocumented(t *testing.T) {
	seen := map[diff.Kind]bool{}
	for _, ki := range diff.Kinds() {
		if seen[ki.Kind] {
			t.Errorf("duplicate kind %s", ki.Kind)
		}
		seen[ki.Kind] = true
		if ki.Summary == "" || ki.Dimension == "" {
			t.Errorf("%s: empty summary or dimension", ki.Kind)
		}
		switch ki.Level {
		case diag.Error, diag.Warning, diag.Info:
		default:
			t.Errorf("%s: level %v", ki.Kind, ki.Level)
		}
		if got, ok := diff.LookupKind(ki.Kind); !ok || got != ki {
			t.Errorf("LookupKind(%s) = %v, %v", ki.Kind, got, ok)
		}
	}
	if len(seen) != 16 {
		t.Errorf("%d kinds, issue 4 lists 16", len(seen))
	}
}

// allDocs returns every fixture document.
func allDocs(t *testing.T) []*syntax.Document {
	var out []*syntax.Document
	for _, ki := range diff.Kinds() {
		for _, sub := range []string{"", "noncase"} {
			f := loadFixture(t, filepath.Join("testdata", string(ki.Kind), sub))
			out = append(out, append(slices.Clone(f.history), f.old, f.new)...)
		}
	}
	return out
}

// TestSelfDiffIsEmpty: a revision diffed against itself yields no change.
func TestSelfDiffIsEmpty(t *testing.T) {
	for _, d := range allDocs(t) {
		r, err := diff.Compare(d, d, diff.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Changes) != 0 {
			t.Errorf("%s against itself: %v", d.Path, kindsOf(r))
		}
	}
}

// swapped is the kind a change has when old and new trade places.
var swapped = map[diff.Kind]diff.Kind{
	diff.ReleaseAdded:          diff.ReleaseRemoved,
	diff.ReleaseRemoved:        diff.ReleaseAdded,
	diff.ContentAdded:          diff.ReleaseContentRemoved,
	diff.ReleaseContentRemoved: diff.ContentAdded,
	diff.PolicyTightened:       diff.PolicyRelaxed,
	diff.PolicyRelaxed:         diff.PolicyTightened,
}

// TestReverseSwapsKinds: diffing A→B and B→A swaps the added/removed (and
// tightened/relaxed) kinds and keeps the others, subject by subject. Kinds
// that only exist in one direction (release-backdated, which needs a new
// release, and release-resurrected, which needs history) are left out.
func TestReverseSwapsKinds(t *testing.T) {
	key := func(c diff.Change, k diff.Kind) string { return fmt.Sprintf("%s %s %s", k, c.Release, c.Subject) }
	for _, ki := range diff.Kinds() {
		for _, sub := range []string{"", "noncase"} {
			f := loadFixture(t, filepath.Join("testdata", string(ki.Kind), sub))
			ab, err := diff.Compare(f.old, f.new, diff.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ba, err := diff.Compare(f.new, f.old, diff.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var want, got []string
			for _, c := range ab.Changes {
				if c.Kind == diff.ReleaseBackdated {
					continue
				}
				k := c.Kind
				if s, ok := swapped[k]; ok {
					k = s
				}
				want = append(want, key(c, k))
			}
			for _, c := range ba.Changes {
				if c.Kind == diff.ReleaseBackdated {
					continue
				}
				got = append(got, key(c, c.Kind))
			}
			sort.Strings(want)
			sort.Strings(got)
			if !slices.Equal(want, got) {
				t.Errorf("%s/%s: B→A = %v, want %v", ki.Kind, sub, got, want)
			}
		}
	}
}

func TestLicenseEquivalentIsInfo(t *testing.T) {
	base := "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION %s\nDESCRIPTION \"w\"\n\nRELEASE 1.0.0\nLICENSE %s\nCONTENT w.jar sha256:1111111111111111111111111111111111111111111111111111111111111111\n"
	tests := []struct {
		old, new string
		level    diag.Severity
	}{
		{"GPL-2.0+", "GPL-2.0-or-later", diag.Info},
		{"MIT OR Apache-2.0", "Apache-2.0 OR MIT", diag.Info},
		{"MIT", "Apache-2.0", diag.Warning},
		{"GPL-2.0-or-later", "GPL-3.0-only", diag.Warning},
	}
	for _, tt := range tests {
		t.Run(tt.old+" to "+tt.new, func(t *testing.T) {
			a := mustParse(t, "a.journal", fmt.Sprintf(base, "20260101T000000Z", tt.old))
			b := mustParse(t, "b.journal", fmt.Sprintf(base, "20260102T000000Z", tt.new))
			r, err := diff.Compare(a, b, diff.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Changes) != 1 || r.Changes[0].Kind != diff.ReleaseLicenseChanged || r.Changes[0].Level != tt.level {
				t.Fatalf("changes %+v, want one release-license-changed at %v", r.Changes, tt.level)
			}
		})
	}
}

func mustParse(t *testing.T, path, src string) *syntax.Document {
	t.Helper()
	d, err := diff.Parse(path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestInvalidInputIsRefused(t *testing.T) {
	_, err := diff.Parse("bad.journal", []byte("JOURNAL_FORMAT 2\n"))
	var ie *diff.InvalidError
	if !errors.As(err, &ie) || len(ie.Diagnostics) == 0 || ie.Path != "bad.journal" {
		t.Fatalf("Parse of an invalid text: %v", err)
	}
	bad, _ := syntax.Parse("bad.journal", []byte("RELEASE 1.0.0\n"))
	good := loadFixture(t, filepath.Join("testdata", "release-added")).old
	for _, pair := range [][2]*syntax.Document{{bad, good}, {good, bad}, {nil, good}} {
		if _, err := diff.Compare(pair[0], pair[1], diff.Options{}); !errors.As(err, &ie) {
			t.Errorf("Compare with an invalid document: err = %v", err)
		}
	}
	for _, src := range []string{"", "\xff\xfe", "RELEASE\n", strings.Repeat("A", 100)} {
		if _, err := diff.Parse("x", []byte(src)); err == nil {
			t.Errorf("Parse(%q) accepted", src)
		}
	}
}

func TestDiagnosticHasBothSides(t *testing.T) {
	r := loadFixture(t, filepath.Join("testdata", "release-content-changed")).compare(t)
	if len(r.Changes) != 1 {
		t.Fatalf("changes %v", kindsOf(r))
	}
	c := r.Changes[0]
	d := c.Diagnostic()
	if d.Code != "history/release-content-changed" || d.Severity != diag.Error || d.Path != "current/20260210T080000Z.journal" {
		t.Errorf("diagnostic %v", d)
	}
	if !d.Range.IsValid() || len(d.Related) != 1 || d.Related[0].Path != "previous/20260110T080000Z.journal" || !d.Related[0].Range.IsValid() {
		t.Errorf("ranges: %+v related %+v", d.Range, d.Related)
	}
	if got := string(d.Range.Slice(mustRead(t, "testdata/release-content-changed/"+d.Path))); got != c.New.Text {
		t.Errorf("new range covers %q, want %q", got, c.New.Text)
	}
	if got := string(d.Related[0].Range.Slice(mustRead(t, "testdata/release-content-changed/"+d.Related[0].Path))); got != c.Old.Text {
		t.Errorf("old range covers %q, want %q", got, c.Old.Text)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFingerprintsAreStable: the fingerprint depends on what changed, not
// on the file names or positions.
func TestFingerprintsAreStable(t *testing.T) {
	f := loadFixture(t, filepath.Join("testdata", "release-content-changed"))
	a := f.compare(t)
	moved := mustParse(t, "elsewhere/new.journal", "# a comment that moves every line\n\n"+string(f.new.Src))
	b, err := diff.Compare(f.old, moved, diff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Changes[0].Fingerprint != b.Changes[0].Fingerprint || len(a.Changes[0].Fingerprint) != 64 {
		t.Errorf("fingerprints %s and %s", a.Changes[0].Fingerprint, b.Changes[0].Fingerprint)
	}
	seen := map[string]string{}
	for _, ki := range diff.Kinds() {
		r := loadFixture(t, filepath.Join("testdata", string(ki.Kind))).compare(t)
		for _, c := range r.Changes {
			k := fmt.Sprintf("%s %s %s", c.Kind, c.Release, c.Subject)
			if prev, ok := seen[c.Fingerprint]; ok && prev != k {
				t.Errorf("fingerprint shared by %q and %q", prev, k)
			}
			seen[c.Fingerprint] = k
		}
	}
}

// TestCompareChainOnExamples diffs the example chain of quill and checks the
// history-aware API against pairwise Compare.
func TestCompareChainOnExamples(t *testing.T) {
	dir := filepath.Join("..", "..", "data", "nenjim", "journals", "net.example.quill")
	names, _ := filepath.Glob(filepath.Join(dir, "*.journal.example"))
	if len(names) < 3 {
		t.Skip("example tree not found")
	}
	sort.Strings(names)
	var docs []*syntax.Document
	for _, n := range names {
		docs = append(docs, parseFile(t, dir, filepath.Base(n)))
	}
	rs, err := diff.CompareChain(docs)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != len(docs)-1 {
		t.Fatalf("%d results for %d revisions", len(rs), len(docs))
	}
	for _, r := range rs {
		for _, c := range r.Changes {
			if c.Level == diag.Error {
				t.Errorf("the example chain rewrites history: %s", c.Message)
			}
		}
	}
	if !hasKind(rs[0], diff.ReleaseLicenseChanged) || rs[0].Changes[0].Level != diag.Info {
		t.Errorf("revision 2 corrects a deprecated license id: want an info release-license-changed, got %v", kindsOf(rs[0]))
	}
	if empty, err := diff.CompareChain(docs[:1]); err != nil || len(empty) != 0 {
		t.Errorf("CompareChain of one revision = %v, %v", empty, err)
	}
}

// TestResurrectionNeedsHistory: without the history, the same pair is a
// plain release-added.
func TestResurrectionNeedsHistory(t *testing.T) {
	f := loadFixture(t, filepath.Join("testdata", "release-resurrected"))
	r, err := diff.Compare(f.old, f.new, diff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if hasKind(r, diff.ReleaseResurrected) || !hasKind(r, diff.ReleaseAdded) {
		t.Errorf("without history: %v", kindsOf(r))
	}
	rs, err := diff.CompareChain(append(slices.Clone(f.history), f.old, f.new))
	if err != nil {
		t.Fatal(err)
	}
	if !hasKind(rs[len(rs)-1], diff.ReleaseResurrected) {
		t.Errorf("CompareChain: %v", kindsOf(rs[len(rs)-1]))
	}
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(diff.Schema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://github.com/r35157/journal-lint/docs/diff.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// TestJSONValidatesAgainstSchema validates real output of every fixture,
// one by one and all together, and an empty run.
func TestJSONValidatesAgainstSchema(t *testing.T) {
	sch := compileSchema(t)
	var all []*diff.Result
	check := func(name string, rs []*diff.Result) {
		var b bytes.Buffer
		if err := diff.Write(&b, diff.JSON, rs, diff.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(&b)
		if err != nil {
			t.Fatalf("%s: output is not JSON: %v", name, err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: output does not validate: %v", name, err)
		}
	}
	for _, ki := range diff.Kinds() {
		for _, sub := range []string{"", "noncase"} {
			r := loadFixture(t, filepath.Join("testdata", string(ki.Kind), sub)).compare(t)
			check(string(ki.Kind)+"/"+sub, []*diff.Result{r})
			all = append(all, r)
		}
	}
	check("all", all)
	check("none", nil)
}

func TestParseFormat(t *testing.T) {
	for _, gf := range goldenFormats {
		name := gf.format.String()
		if f, err := diff.ParseFormat(" " + strings.ToUpper(name) + " "); err != nil || f != gf.format {
			t.Errorf("ParseFormat(%q) = %v, %v", name, f, err)
		}
	}
	if _, err := diff.ParseFormat("sarif"); err == nil {
		t.Error("sarif accepted")
	}
	if err := diff.Write(&bytes.Buffer{}, diff.Format(42), nil, diff.WriteOptions{}); err == nil {
		t.Error("Write accepted an unknown format")
	}
}

func TestColorText(t *testing.T) {
	r := loadFixture(t, filepath.Join("testdata", "description-changed")).compare(t)
	var b bytes.Buffer
	if err := diff.Write(&b, diff.Text, []*diff.Result{r}, diff.WriteOptions{Color: true, PathPrefix: "journals"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"\x1b[31m[-", "\x1b[32m{+", "journals/current/"} {
		if !strings.Contains(out, want) {
			t.Errorf("coloured text lacks %q:\n%s", want, out)
		}
	}
}

// TestDocListsEveryKind keeps docs/diff.md in step with the kinds.
func TestDocListsEveryKind(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "diff.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ki := range diff.Kinds() {
		row := fmt.Sprintf("| `%s` | %s", ki.Kind, ki.Level)
		if !strings.Contains(string(b), row) {
			t.Errorf("docs/diff.md has no row starting %q", row)
		}
	}
}

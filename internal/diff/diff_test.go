package diff_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/diff"
	"github.com/r35157/journal-lint/internal/diff/difftest"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/journal/model"
	"github.com/r35157/journal-lint/rules"
)

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

// TestKindFixtures proves every kind: its fixture produces it and its
// nearest non-case does not. The outputs of each fixture are golden files of
// package diffrender.
func TestKindFixtures(t *testing.T) {
	t.Parallel()
	for _, ki := range diff.Kinds() {
		t.Run(string(ki.Kind), func(t *testing.T) {
			dir := filepath.Join("testdata", string(ki.Kind))
			f := difftest.Load(t, dir)
			r := f.Compare(t)
			if !hasKind(r, ki.Kind) {
				t.Errorf("fixture does not produce %s, got %v", ki.Kind, kindsOf(r))
			}
			for _, c := range r.Changes {
				if c.Kind == ki.Kind && c.Level != ki.Level {
					t.Errorf("%s at level %v, want %v", c.Kind, c.Level, ki.Level)
				}
			}
			non := difftest.Load(t, filepath.Join(dir, "noncase")).Compare(t)
			if hasKind(non, ki.Kind) {
				t.Errorf("nearest non-case produces %s: %v", ki.Kind, kindsOf(non))
			}
		})
	}
}

func TestEveryKindIsDocumented(t *testing.T) {
	t.Parallel()
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
			f := difftest.Load(t, filepath.Join("testdata", string(ki.Kind), sub))
			out = append(out, append(slices.Clone(f.History), f.Old, f.New)...)
		}
	}
	return out
}

// TestSelfDiffIsEmpty: a revision diffed against itself yields no change.
func TestSelfDiffIsEmpty(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	key := func(c diff.Change, k diff.Kind) string { return fmt.Sprintf("%s %s %s", k, c.Release, c.Subject) }
	for _, ki := range diff.Kinds() {
		for _, sub := range []string{"", "noncase"} {
			f := difftest.Load(t, filepath.Join("testdata", string(ki.Kind), sub))
			ab, err := diff.Compare(f.Old, f.New, diff.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ba, err := diff.Compare(f.New, f.Old, diff.Options{})
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
	t.Parallel()
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
	t.Parallel()
	_, err := diff.Parse("bad.journal", []byte("JOURNAL_FORMAT 2\n"))
	var ie *diff.InvalidError
	if !errors.As(err, &ie) || len(ie.Diagnostics) == 0 || ie.Path != "bad.journal" {
		t.Fatalf("Parse of an invalid text: %v", err)
	}
	bad, _ := syntax.Parse("bad.journal", []byte("RELEASE 1.0.0\n"))
	good := difftest.Load(t, filepath.Join("testdata", "release-added")).Old
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
	t.Parallel()
	r := difftest.Load(t, filepath.Join("testdata", "release-content-changed")).Compare(t)
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
	t.Parallel()
	f := difftest.Load(t, filepath.Join("testdata", "release-content-changed"))
	a := f.Compare(t)
	moved := mustParse(t, "elsewhere/new.journal", "# a comment that moves every line\n\n"+string(f.New.Src))
	b, err := diff.Compare(f.Old, moved, diff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Changes[0].Fingerprint != b.Changes[0].Fingerprint || len(a.Changes[0].Fingerprint) != 64 {
		t.Errorf("fingerprints %s and %s", a.Changes[0].Fingerprint, b.Changes[0].Fingerprint)
	}
	seen := map[string]string{}
	for _, ki := range diff.Kinds() {
		r := difftest.Load(t, filepath.Join("testdata", string(ki.Kind))).Compare(t)
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
	t.Parallel()
	dir := filepath.Join("..", "..", "data", "nenjim", "journals", "net.example.quill")
	names, _ := filepath.Glob(filepath.Join(dir, "*.journal.example"))
	if len(names) < 3 {
		t.Skip("example tree not found")
	}
	sort.Strings(names)
	var docs []*syntax.Document
	for _, n := range names {
		docs = append(docs, difftest.ParseFile(t, dir, filepath.Base(n)))
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
	t.Parallel()
	f := difftest.Load(t, filepath.Join("testdata", "release-resurrected"))
	r, err := diff.Compare(f.Old, f.New, diff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if hasKind(r, diff.ReleaseResurrected) || !hasKind(r, diff.ReleaseAdded) {
		t.Errorf("without history: %v", kindsOf(r))
	}
	rs, err := diff.CompareChain(append(slices.Clone(f.History), f.Old, f.New))
	if err != nil {
		t.Fatal(err)
	}
	if !hasKind(rs[len(rs)-1], diff.ReleaseResurrected) {
		t.Errorf("CompareChain: %v", kindsOf(rs[len(rs)-1]))
	}
}

// TestDocListsEveryKind keeps docs/diff.md in step with the kinds.
func TestDocListsEveryKind(t *testing.T) {
	t.Parallel()
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

// TestKindCodes checks that each kind's code is "history/" + kind, a
// cross-revision rule of the registry, and that every cross-revision rule
// is a kind.
func TestKindCodes(t *testing.T) {
	kinds := map[string]bool{}
	for _, ki := range diff.Kinds() {
		code := ki.Kind.Code()
		kinds[code] = true
		if code != "history/"+string(ki.Kind) {
			t.Errorf("%s: code %q, want history/%s", ki.Kind, code, ki.Kind)
		}
		r, ok := rules.Lookup(code)
		if !ok || r.Kind != rules.CrossRevision {
			t.Errorf("%s: code %s is not a cross-revision rule of the registry (found %v, kind %s)", ki.Kind, code, ok, r.Kind)
		}
	}
	for _, r := range rules.All() {
		if r.Kind == rules.CrossRevision && !kinds[r.Code] {
			t.Errorf("cross-revision rule %s is no kind of the diff engine", r.Code)
		}
	}
	if got := diff.Kind("nope").Code(); got != "" {
		t.Errorf("Code of an unknown kind = %q", got)
	}
}

// TestKindDocs checks that the doc of each kind's rule names the kind and
// its dimension as journal-lint diff shows them, and says that an info kind
// is off in check unless configured.
func TestKindDocs(t *testing.T) {
	for _, ki := range diff.Kinds() {
		r, _ := rules.Lookup(ki.Kind.Code())
		if want := fmt.Sprintf("kind `%s` (dimension %s)", ki.Kind, ki.Dimension); !strings.Contains(strings.Join(strings.Fields(r.Doc), " "), want) {
			t.Errorf("%s: doc does not say %q", r.Code, want)
		}
		if off := strings.Contains(r.Doc, "it is off in `journal-lint check` unless"); off != (ki.Level == diag.Info) {
			t.Errorf("%s: doc says off in check %v, level %s", r.Code, off, ki.Level)
		}
	}
}

// TestDropLeavesOutButCounts holds Options.Drop to its word: a dropped
// release-added is not made, yet the revision still changed, so no
// no-semantic-change stands for it; a resurrected release is made whatever
// the caller drops of the added ones.
func TestDropLeavesOutButCounts(t *testing.T) {
	t.Parallel()
	const head = "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION %s\nDESCRIPTION \"w\"\n"
	const rel = "\nRELEASE %s\nLICENSE MIT\nCONTENT w-%[1]s.jar sha256:1111111111111111111111111111111111111111111111111111111111111111\n"
	a := mustParse(t, "a.journal", fmt.Sprintf(head, "20260101T000000Z")+fmt.Sprintf(rel, "1.0.0"))
	b := mustParse(t, "b.journal", fmt.Sprintf(head, "20260102T000000Z")+fmt.Sprintf(rel, "1.0.0")+fmt.Sprintf(rel, "1.1.0"))
	added := func(k diff.Kind) bool { return k == diff.ReleaseAdded }
	r, err := diff.Compare(a, b, diff.Options{Drop: added})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Changes) != 0 {
		t.Errorf("dropping release-added: %v", kindsOf(r))
	}
	if r, _ := diff.Compare(a, b, diff.Options{}); !slices.Equal(kindsOf(r), []string{string(diff.ReleaseAdded)}) {
		t.Errorf("dropping none: %v", kindsOf(r))
	}
	// 1.1.0 was in an earlier revision: resurrected, which Drop does not
	// leave out.
	r, err = diff.Compare(a, b, diff.Options{History: []model.Revision{b.Revision}, Drop: added})
	if err != nil || !slices.Equal(kindsOf(r), []string{string(diff.ReleaseResurrected)}) {
		t.Errorf("with history: %v, %v", kindsOf(r), err)
	}
}

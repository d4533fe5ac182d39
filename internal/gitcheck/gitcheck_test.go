package gitcheck

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gitfacts"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/gitrepo/gittest"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/source"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// TestMain runs the tests with git's configuration of the machine out of
// the way and an author (gittest.Main).
func TestMain(m *testing.M) { gittest.Main(m) }

const genesis = `JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "Widget"

RELEASE 1.0.0
LICENSE MIT
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
`

// tree commits a genesis and its successor under journals/, lets edit
// change the work tree, and returns the Tree a check of the work tree
// against HEAD looks at.
func tree(t *testing.T, edit func(root string)) *Tree {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	root := filepath.Join(dir, "journals")
	successor := strings.Replace(genesis, "JOURNAL_VERSION 20260110T080000Z\n",
		"JOURNAL_VERSION 20260111T080000Z\nPREDECESSOR "+vt.DigestOf([]byte(genesis)).String()+"\n", 1)
	gittest.Repo(t, dir, map[string]string{
		".gitattributes": "*.journal -text\n",
		"journals/com.example.widget/20260110T080000Z.journal": genesis,
		"journals/com.example.widget/20260111T080000Z.journal": successor,
	})
	edit(root)
	repo, err := gitrepo.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	f := &gitfacts.Facts{Repo: repo, RootRel: "journals", Against: "HEAD"}
	if f.Commit, err = gitfacts.BaseCommit(ctx, repo, "HEAD"); err != nil {
		t.Fatal(err)
	}
	f.Rev = f.Commit
	changes, err := repo.IndexDiff(ctx, f.Commit, f.RootRel)
	if err := f.LoadBase(ctx, changes, err); err != nil {
		t.Fatal(err)
	}
	src := &source.Disk{Root: root}
	lr, err := load.Load(ctx, root, load.Options{Source: src, DropDocs: true})
	if err != nil {
		t.Fatal(err)
	}
	return &Tree{Facts: f, Source: src, Load: lr}
}

// TestRevisionsExplainWhatBrokeTheChain: an accepted revision edited in the
// work tree is history/revision-modified, and the successor's broken link
// gets a note naming the edit, while the load's own list stays as the
// load found it.
func TestRevisionsExplainWhatBrokeTheChain(t *testing.T) {
	t.Parallel()
	tr := tree(t, func(root string) {
		p := filepath.Join(root, "com.example.widget/20260110T080000Z.journal")
		if err := os.WriteFile(p, []byte(strings.Replace(genesis, `"Widget"`, `"Widget, edited"`, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	found, notes, err := tr.Revisions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].Code != rules.HistoryRevisionModified || found[0].Path != "com.example.widget/20260110T080000Z.journal" {
		t.Fatalf("found %v, want one %s on the genesis", found, rules.HistoryRevisionModified)
	}
	if !strings.Contains(found[0].Help, "git checkout HEAD -- journals/com.example.widget/20260110T080000Z.journal") {
		t.Errorf("help %q does not say how to restore it", found[0].Help)
	}
	if len(notes) != 1 {
		t.Fatalf("notes %v, want one", notes)
	}
	at := tr.Load.Diagnostics[notes[0].At]
	if at.Code != rules.ChainMissingPredecessor || at.Path != "com.example.widget/20260111T080000Z.journal" {
		t.Errorf("the note amends %s on %s, want %s on the successor", at.Code, at.Path, rules.ChainMissingPredecessor)
	}
	amended := diag.Amend(tr.Load.Diagnostics, notes)[notes[0].At]
	if !strings.Contains(amended.Message, "which has changed since") || strings.Contains(at.Message, "which has changed since") {
		t.Errorf("amended %q from %q: want the explanation in the copy only", amended.Message, at.Message)
	}
}

// TestRevisionsOfAnUnchangedTree: nothing changed since the commit,
// nothing to report or note.
func TestRevisionsOfAnUnchangedTree(t *testing.T) {
	t.Parallel()
	tr := tree(t, func(string) {})
	found, notes, err := tr.Revisions(context.Background())
	if err != nil || len(found) > 0 || len(notes) > 0 {
		t.Errorf("Revisions = %v, %v, %v; want nothing", found, notes, err)
	}
	if l, err := tr.ReviseWorkTree(context.Background(), nil); err != nil || len(l) > 0 {
		t.Errorf("ReviseWorkTree = %v, %v; want nothing", l, err)
	}
}

// TestEOLConversionCounts: one warning for every file git may convert,
// those a summary speaks for counted with the loaded ones, naming the
// first file of the first directory; none when every file unsets text.
func TestEOLConversionCounts(t *testing.T) {
	t.Parallel()
	files := []*load.File{{Path: "b.example/1.journal"}, {Path: "b.example/2.journal"}, {Path: "d.example/1.journal"}}
	attrs := gitfacts.NewAttrTable(nil, "journals")
	auto, unset := gitfacts.AttrsOf([]string{"auto", "unspecified", "unspecified", "unspecified", "unspecified"}),
		gitfacts.AttrsOf([]string{"unset", "unspecified", "unspecified", "unspecified", "unspecified"})
	attrs.Set(files[0].Path, &auto)
	attrs.Set(files[1].Path, &auto)
	attrs.Set(files[2].Path, &unset)
	tr := &Tree{Facts: &gitfacts.Facts{RootRel: "journals"}, Load: &load.Result{Files: files}, Attrs: attrs}
	summarised := []EOLGroup{{Dir: "c.example", Count: 3, First: "journals/c.example/1.journal (text=auto)"}}
	got := tr.EOLConversion(summarised)
	if len(got) != 1 || got[0].Code != rules.RepoEOLConversion ||
		!strings.Contains(got[0].Message, "of 5 Journal files") || !strings.Contains(got[0].Message, "(first: journals/b.example/1.journal (") {
		t.Errorf("EOLConversion = %v, want one warning for 5 files, first journals/b.example/1.journal", got)
	}
	if summarised[0].Count != 3 {
		t.Errorf("the summarised groups given were changed: %v", summarised)
	}
	attrs.Set(files[0].Path, &unset)
	attrs.Set(files[1].Path, &unset)
	if got := tr.EOLConversion(nil); len(got) != 0 {
		t.Errorf("EOLConversion = %v, want nothing when every file unsets text", got)
	}
}

// TestSetsConversion: only lines that may decide git's line-ending
// conversion make the help name info/attributes.
func TestSetsConversion(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"":                               false,
		"# *.journal text\n":             false,
		"*.png binary\n":                 true,
		"*.png -diff\n*.sh linguist=x\n": false,
		"*.journal text=auto\n":          true,
		"* -text\n":                      true,
		"*.journal !eol\n":               true,
		"*.txt crlf\n":                   true,
		"*.journal\n":                    false,
	} {
		if got := setsConversion(text); got != want {
			t.Errorf("setsConversion(%q) = %v, want %v", text, got, want)
		}
	}
}

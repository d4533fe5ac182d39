package gitfacts

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/gitrepo/gittest"
	"github.com/r35157/journal-lint/internal/source"
)

// TestAtBaseIsTheCommitsTree: what Facts learns of the compared commit's
// Journal files from the index and git's short diff (AtBase) is what the
// commit's tree lists (listBase), for files added, modified, deleted,
// turned into a link or left alone in the index, for a tree loaded from
// the index and for the work tree, and while a merge left the index
// unmerged.
func TestAtBaseIsTheCommitsTree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	git := func(args ...string) { t.Helper(); gitIn(t, dir, args...) }
	root := filepath.Join(dir, "journals")
	j := func(p string) string { return filepath.Join(root, "com.example."+p+".journal") }
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	for _, p := range []string{"a/1", "a/2", "b/1", "c/1", "d/1", "e/1"} {
		write(j(p), "x "+p)
	}
	write(filepath.Join(root, "com.example.b/notes.txt"), "not a Journal")
	git("add", "-A")
	git("commit", "-q", "-m", "first")

	write(j("a/1"), "changed")
	os.Remove(j("b/1"))
	os.Remove(j("c/1"))
	if err := os.Symlink("elsewhere", j("c/1")); err != nil {
		t.Fatal(err)
	}
	write(j("f/1"), "new")
	git("add", "-A")
	write(j("d/1"), "changed in the work tree only")

	// open builds the Facts of a check against HEAD as package check does.
	open := func(staged bool) *Facts {
		t.Helper()
		repo, err := gitrepo.Open(ctx, root)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := repo.Rel(root)
		if err != nil {
			t.Fatal(err)
		}
		f := &Facts{Repo: repo, RootRel: rel, Against: "HEAD"}
		if f.Commit, err = BaseCommit(ctx, repo, "HEAD"); err != nil {
			t.Fatal(err)
		}
		f.Rev = f.Commit
		if staged {
			index, err := source.Index(ctx, repo, rel)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(index.Close)
			f.StagedIndex = index
		}
		changes, err := repo.IndexDiff(ctx, f.Commit, rel)
		if err := f.LoadBase(ctx, changes, err); err != nil {
			t.Fatal(err)
		}
		return f
	}
	compare := func(what string, f *Facts) {
		t.Helper()
		if f.baseFull != nil {
			t.Fatalf("%s: the index was not used", what)
		}
		want := &Facts{Repo: f.Repo, RootRel: f.RootRel, Commit: f.Commit}
		if err := want.listBase(ctx); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"com.example.a/1.journal", "com.example.a/2.journal", "com.example.b/1.journal", "com.example.b/notes.txt",
			"com.example.c/1.journal", "com.example.d/1.journal", "com.example.e/1.journal", "com.example.f/1.journal", "com.example.g/1.journal"} {
			got, ok := f.AtBase(p)
			we, wok := want.baseFull[p]
			if ok != wok || got.Object != we.Object || got.Mode != we.Mode {
				t.Errorf("%s: AtBase(%s) = %v %v, the commit's tree %v %v", what, p, got, ok, we, wok)
			}
		}
		if !f.UnchangedDir("com.example.e") || f.UnchangedDir("com.example.a") {
			t.Errorf("%s: UnchangedDir: e %v (want true), a %v (want false)", what, f.UnchangedDir("com.example.e"), f.UnchangedDir("com.example.a"))
		}
	}
	compare("the index", open(true))
	compare("the work tree", open(false))

	// An unmerged index: the commit's tree is listed.
	git("commit", "-q", "-m", "second")
	git("checkout", "-q", "-b", "other", "HEAD~1")
	write(j("e/1"), "other side")
	git("commit", "-q", "-am", "other")
	git("checkout", "-q", "main")
	write(j("e/1"), "main side")
	git("commit", "-q", "-am", "main")
	cmd := exec.Command("git", "merge", "-q", "other")
	cmd.Dir = dir
	cmd.Run() // conflicts
	if f := open(false); f.baseFull == nil {
		t.Error("with an unmerged index, the commit's tree was not listed")
	}
}

func TestAtNamesTheMergeBase(t *testing.T) {
	t.Parallel()
	same := &Facts{Against: "origin/main", Commit: "0123456789abcdef0123", Rev: "0123456789abcdef0123"}
	if got := same.At(); got != "origin/main" {
		t.Errorf("At = %q", got)
	}
	if got := same.CheckoutRev(); got != "origin/main" {
		t.Errorf("CheckoutRev = %q", got)
	}
	forked := &Facts{Against: "origin/main", Commit: "0123456789abcdef0123", Rev: "fedcba9876543210fedc"}
	if got, want := forked.At(), "0123456789ab (the merge base of origin/main and HEAD)"; got != want {
		t.Errorf("At = %q, want %q", got, want)
	}
	if got := forked.CheckoutRev(); got != "0123456789ab" {
		t.Errorf("CheckoutRev = %q", got)
	}
}

func TestPathsUnderTheRoot(t *testing.T) {
	t.Parallel()
	f := &Facts{RootRel: "journals"}
	if p, ok := f.JournalPath("journals/com.example.a/20260101T000000Z.journal"); !ok || p != "com.example.a/20260101T000000Z.journal" {
		t.Errorf("JournalPath = %q %v", p, ok)
	}
	for _, top := range []string{"other/com.example.a/20260101T000000Z.journal", "journals/com.example.a/x/1.journal",
		"journals/com.example.a/20260101T000000Z.journal.example", "journals/README.md"} {
		if p, ok := f.JournalPath(top); ok {
			t.Errorf("JournalPath(%q) = %q, want none", top, p)
		}
	}
	f.Examples = true
	if _, ok := f.JournalPath("journals/com.example.a/20260101T000000Z.journal.example"); !ok {
		t.Error("an example is a Journal with Examples")
	}
	if got := f.TopPath("com.example.a/1.journal"); got != "journals/com.example.a/1.journal" {
		t.Errorf("TopPath = %q", got)
	}
	if got := (&Facts{}).TopPath("com.example.a/1.journal"); got != "com.example.a/1.journal" {
		t.Errorf("TopPath at the top = %q", got)
	}
}

// TestBaseCommitRefusesCrissCross: when the compared branch and HEAD have
// two merge bases, git would pick one, which may lack a revision accepted
// through the other; BaseCommit refuses and says how to get one base.
func TestBaseCommitRefusesCrissCross(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	git := func(args ...string) { t.Helper(); gitIn(t, dir, args...) }
	commit := func(name string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", "-A")
		git("commit", "-q", "-m", name)
	}
	git("init", "-q", "-b", "main")
	commit("base")
	git("checkout", "-q", "-b", "side")
	commit("a1")
	git("checkout", "-q", "main")
	commit("m1")
	git("merge", "-q", "--no-ff", "-m", "main takes a1", "side")
	git("checkout", "-q", "side")
	git("merge", "-q", "--no-ff", "-m", "side takes m1", "main~1")
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := BaseCommit(ctx, repo, "main"); err == nil || !strings.Contains(err.Error(), "2 merge bases") || !strings.Contains(err.Error(), "merge main into this branch") {
		t.Errorf("BaseCommit = %v, want the criss-cross refusal", err)
	}
	git("merge", "-q", "--no-ff", "-m", "side takes main", "main")
	got, err := BaseCommit(ctx, repo, "main")
	if want, _ := repo.ResolveCommit(ctx, "main"); err != nil || got != want {
		t.Errorf("after merging main: BaseCommit = %q, %v; want main's tip %s", got, err, want)
	}
}

// TestMain runs the tests with git's configuration of the machine out of
// the way and an author (gittest.Main).
func TestMain(m *testing.M) { gittest.Main(m) }

// gitIn runs git in dir, skipping the test without git.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	gittest.Need(t)
	gittest.Git(t, dir, args...)
}

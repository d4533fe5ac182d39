package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestStamp checks that Repo.Stamp stays the same while nothing that
// decides git's answers changes, and changes with each thing that does:
// staging, committing, moving HEAD without touching the index, and the
// attribute files from the top level down to the directory asked about
// and in the repository.
func TestStamp(t *testing.T) {
	dir := newRepo(t, map[string]string{"j/com.example.a/20260101T000000Z.journal": "one\n"})
	ctx := context.Background()
	root := filepath.Join(dir, "j")
	r, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	// stamp waits until every file is older than readfile's racy window,
	// so that the stamp is not 0.
	stamp := func() uint64 {
		t.Helper()
		for range 100 {
			if s := r.Stamp(root); s != 0 {
				return s
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatal("the stamp stays 0")
		return 0
	}
	last := stamp()
	if again := stamp(); again != last {
		t.Fatalf("the stamp changed without a change: %x, then %x", last, again)
	}
	// A Journal edited in the work tree changes nothing git lists.
	write(t, dir, "j/com.example.a/20260101T000000Z.journal", "changed\n")
	if s := stamp(); s != last {
		t.Errorf("editing a work-tree file changed the stamp")
	}
	steps := []struct {
		what string
		do   func()
	}{
		{"git add", func() { git(t, dir, "add", "-A") }},
		{"git commit", func() { git(t, dir, "commit", "-q", "-m", "second") }},
		{"git reset --soft", func() { git(t, dir, "reset", "-q", "--soft", "HEAD~1") }},
		{"a .gitattributes at the top", func() { write(t, dir, ".gitattributes", "*.journal -text\n") }},
		{"a .gitattributes in the root", func() { write(t, dir, "j/.gitattributes", "*.journal text\n") }},
		{"info/attributes", func() { write(t, dir, ".git/info/attributes", "*.journal text\n") }},
		{"the repository's configuration", func() { git(t, dir, "config", "core.autocrlf", "true") }},
		{"removing the root's .gitattributes", func() {
			if err := os.Remove(filepath.Join(root, ".gitattributes")); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, s := range steps {
		s.do()
		now := stamp()
		if now == last {
			t.Errorf("%s left the stamp as it was", s.what)
		}
		last = now
	}
	// A .gitattributes beside the root, not above it, decides nothing.
	write(t, dir, "other/.gitattributes", "*.journal text\n")
	if s := stamp(); s != last {
		t.Errorf("a .gitattributes outside the root's directories changed the stamp")
	}
}

// TestOpenNewlineInTop: a newline in the name of the top level neither
// breaks Open nor the paths of the files Stamp looks at.
func TestOpenNewlineInTop(t *testing.T) {
	dir := newRepo(t, map[string]string{"j/a.journal": "one\n"})
	moved := filepath.Join(t.TempDir(), "new\nline")
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	r, err := Open(context.Background(), filepath.Join(moved, "j"))
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.EvalSymlinks(moved); r.Top() != want {
		t.Errorf("Top() = %q, want %q", r.Top(), want)
	}
	if want := filepath.Join(moved, ".git", "HEAD"); r.head != want {
		t.Errorf("HEAD is %q, want %q", r.head, want)
	}
}

// TestMerging: MERGE_HEAD is looked for beside the HEAD of the
// work tree that the Repo opened, so a merge stopped in a linked work tree
// is that work tree's alone.
func TestMerging(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "one\n"})
	ctx := context.Background()
	git(t, dir, "branch", "side")
	git(t, dir, "checkout", "-q", "side")
	write(t, dir, "b.txt", "side\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "side")
	git(t, dir, "checkout", "-q", "-")
	linked := filepath.Join(t.TempDir(), "linked")
	git(t, dir, "worktree", "add", "-q", "--detach", linked, "HEAD")
	main, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	other, err := Open(ctx, linked)
	if err != nil {
		t.Fatal(err)
	}
	if main.Merging() || other.Merging() {
		t.Fatal("a merge in progress before any merge")
	}
	git(t, linked, "merge", "-q", "--no-ff", "--no-commit", "side")
	if !other.Merging() {
		t.Error("the linked work tree's stopped merge is not seen")
	}
	side, err := other.ResolveCommit(ctx, "side")
	if err != nil {
		t.Fatal(err)
	}
	if got := other.MergeHeads(ctx); !slices.Equal(got, []string{side}) {
		t.Errorf("MergeHeads during the merge: %q, want %q", got, side)
	}
	if got := main.MergeHeads(ctx); got != nil {
		t.Errorf("MergeHeads of the main work tree: %q, want none", got)
	}
	if main.Merging() {
		t.Error("the main work tree sees the linked work tree's merge")
	}
	git(t, linked, "merge", "--abort")
	if other.Merging() {
		t.Error("a merge in progress after git merge --abort")
	}
	// Before git writes MERGE_HEAD (the pre-merge-commit hook), git merge
	// names the merged commit in the environment.
	t.Setenv("GITHEAD_"+side, "side")
	if got := main.MergeHeads(ctx); got != nil {
		t.Errorf("MergeHeads from GITHEAD_ without git merge's GIT_REFLOG_ACTION: %q, want none", got)
	}
	t.Setenv("GIT_REFLOG_ACTION", "merge side")
	if got := main.MergeHeads(ctx); !slices.Equal(got, []string{side}) {
		t.Errorf("MergeHeads from GITHEAD_: %q, want %q", got, side)
	}
	t.Setenv("GITHEAD_"+strings.Repeat("0123456789", 4), "a commit of another repository")
	t.Setenv("GITHEAD_not-a-commit", "x")
	if got := main.MergeHeads(ctx); !slices.Equal(got, []string{side}) {
		t.Errorf("MergeHeads with a malformed GITHEAD_: %q, want %q", got, side)
	}
	if !main.Merging() {
		t.Error("git merge's GIT_REFLOG_ACTION is not taken for a merge")
	}
}

package gitrepo

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// gitStdin runs git in dir with stdin for the test, failing it on an error.
func gitStdin(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

func TestBlobIDIsGits(t *testing.T) {
	dir := newRepo(t, map[string]string{"a": "x"})
	for _, data := range []string{"", "x", "JOURNAL_FORMAT 1\r\n", strings.Repeat("é", 1000)} {
		got := BlobID("sha1", []byte(data))
		want := strings.TrimSpace(gitStdin(t, dir, data, "hash-object", "--stdin"))
		if got != want {
			t.Errorf("BlobID(%q) = %s, git says %s", data, got, want)
		}
	}
}

// TestAttributeSources: the sum is the same for the index and a work tree
// that hold the same .gitattributes, and changes with any of them, with
// the configuration git's conversions read and with the user's
// attributes file.
func TestAttributeSources(t *testing.T) {
	dir := newRepo(t, map[string]string{".gitattributes": "*.journal -text\n", "j/.gitattributes": "", "j/a/1.journal": "x"})
	ctx := context.Background()
	sum := func(cached bool) []byte {
		t.Helper()
		r, err := Open(ctx, dir) // a Repo reads the configuration once
		if err != nil {
			t.Fatal(err)
		}
		s, err := r.AttributeSources(ctx, []string{"j"}, cached)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	base := sum(false)
	if !bytes.Equal(base, sum(true)) {
		t.Error("the index and the work tree hold the same attributes, but the sums differ")
	}
	seen := [][]byte{base}
	differs := func(what string, s []byte) {
		t.Helper()
		for _, o := range seen {
			if bytes.Equal(o, s) {
				t.Errorf("%s: the sum did not change", what)
			}
		}
		seen = append(seen, s)
	}
	write(t, dir, "j/.gitattributes", "*.journal text\n")
	differs("the root's .gitattributes in the work tree", sum(false))
	if !bytes.Equal(base, sum(true)) {
		t.Error("a work-tree edit changed the index's sum")
	}
	git(t, dir, "add", "-A")
	if s := sum(true); !bytes.Equal(s, sum(false)) {
		t.Error("after staging, the index's and the work tree's sums differ")
	}
	git(t, dir, "config", "core.autocrlf", "input")
	differs("core.autocrlf", sum(false))
	write(t, dir, ".git/info/attributes", "*.journal eol=crlf\n")
	differs("info/attributes", sum(false))
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	write(t, dir, "user-attributes", "* -text\n")
	git(t, dir, "config", "core.attributesFile", "user-attributes")
	differs("core.attributesFile", sum(false))
	write(t, dir, "user-attributes", "* text\n")
	differs("the user's attributes file", sum(false))
}

// TestStagedViewsAreGits: IndexDiff and Diff of the index, both made from
// one rename-detecting diff (stagedDiff), list what git lists without and
// with rename detection: renames (exact and edited) split into a deletion
// and an addition for IndexDiff, additions, deletions, edits, a mode and a
// type change, an entry only intended to be added, names git quotes.
func TestStagedViewsAreGits(t *testing.T) {
	long := strings.Repeat("a line that makes the file long enough to be recognised when renamed\n", 20)
	dir := newRepo(t, map[string]string{
		"j/a/1.journal":  long + "one\n",
		"j/a/2.journal":  long + "two\n",
		"j/b/1.journal":  "b\n",
		"j/b/2.journal":  "b2\n",
		"j/c/1.journal":  "c\n",
		spaced:           "spaced\n",
		"other/file.txt": "outside\n",
	})
	write(t, dir, "j/z/.keep", "")
	git(t, dir, "mv", "j/a/1.journal", "j/z/moved.journal")
	git(t, dir, "mv", "j/a/2.journal", "j/a/renamed.journal")
	write(t, dir, "j/a/renamed.journal", long+"two, edited\n")
	git(t, dir, "rm", "-q", "j/b/1.journal")
	write(t, dir, "j/b/2.journal", "b2 changed\n")
	write(t, dir, "j/b/new.journal", "new\n")
	git(t, dir, "update-index", "--chmod=+x", "j/c/1.journal")
	git(t, dir, "mv", spaced, unicode)
	write(t, dir, ".gitattributes", "*.journal -text\n") // above the prefix: asked, not listed
	git(t, dir, "add", "-A")
	write(t, dir, "j/d/later.journal", "later\n")
	git(t, dir, "add", "-N", "j/d/later.journal")
	r, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	head := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	got, err := r.IndexDiff(ctx, "HEAD", "j")
	if err != nil {
		t.Fatal(err)
	}
	want, err := parseRaw([]byte(git(t, dir, "-c", "core.quotepath=off", "diff", "--cached", "--raw", "--no-abbrev", "-z", "--no-renames", "--ita-visible-in-index", head, "--", "j")))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("IndexDiff differs from git diff --no-renames (-git +IndexDiff):\n%s", d)
	}
	if !slices.ContainsFunc(got, func(c RawChange) bool { return c.Status == 'A' && c.Path == "j/z/moved.journal" }) {
		t.Error("IndexDiff lists no addition of the renamed file's new path")
	}
	changes, err := r.Diff(ctx, "HEAD", true, "j")
	if err != nil {
		t.Fatal(err)
	}
	wantChanges, err := parseNameStatus([]byte(git(t, dir, "-c", "core.quotepath=off", "diff", "--name-status", "-z", "-M", "--ita-visible-in-index", "--cached", head, "--", "j")))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(wantChanges, changes); d != "" {
		t.Errorf("Diff of the index differs from git diff -M (-git +Diff):\n%s", d)
	}
	if !slices.ContainsFunc(changes, func(c Change) bool { return c.Status == 'R' && c.OldPath == "j/a/2.journal" }) {
		t.Error("Diff of the index lists no rename of the edited file")
	}
}

// TestStagedAttributeSources: the attribute sources of a prefix made from
// the commit's trees and the staged changes are those made from the
// index, for .gitattributes added, changed, deleted or made a link above
// the prefix and in it, and the changed ones are listed.
func TestStagedAttributeSources(t *testing.T) {
	dir := newRepo(t, map[string]string{
		".gitattributes":       "*.journal -text\n",
		"j/k/1.journal":        "1\n",
		"j/.gitattributes":     "*.journal text\n",
		"other/.gitattributes": "* -text\n",
	})
	r, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		what   string
		change func()
		listed []string
	}{
		{"nothing staged", func() {}, nil},
		{"the top one changed", func() { write(t, dir, ".gitattributes", "*.journal text=auto\n") }, []string{".gitattributes"}},
		{"the prefix's own deleted, one below added", func() {
			git(t, dir, "rm", "-q", "j/.gitattributes")
			write(t, dir, "j/k/.gitattributes", "* -text\n")
		}, []string{".gitattributes", "j/.gitattributes", "j/k/.gitattributes"}},
		{"an unrelated one changed", func() { write(t, dir, "other/.gitattributes", "* text\n") }, []string{".gitattributes", "j/.gitattributes", "j/k/.gitattributes"}},
		{"the top one made a link", func() {
			top := filepath.Join(dir, ".gitattributes")
			if err := os.Remove(top); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("other/.gitattributes", top); err != nil {
				t.Fatal(err)
			}
		}, []string{".gitattributes", "j/.gitattributes", "j/k/.gitattributes"}},
	}
	for _, st := range steps {
		st.change()
		git(t, dir, "add", "-A", ".gitattributes", "j", "other")
		ctx := WithMemo(context.Background())
		for _, prefix := range []string{"j", "j/k"} {
			want, err := r.AttributeSources(ctx, []string{prefix}, true)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.StagedAttributeSources(ctx, "HEAD", prefix)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, prefix %s: StagedAttributeSources differs from AttributeSources of the index", st.what, prefix)
			}
			at, err := r.AttributeSourcesAt(ctx, "HEAD", prefix)
			if err != nil {
				t.Fatal(err)
			}
			if same := bytes.Equal(at, want); same != (st.listed == nil) {
				t.Errorf("%s, prefix %s: AttributeSourcesAt of HEAD equal to the index's: %v, want %v", st.what, prefix, same, st.listed == nil)
			}
		}
		listed, err := r.StagedAttributeChanges(ctx, "HEAD", "j")
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(listed)
		if !slices.Equal(listed, st.listed) {
			t.Errorf("%s: StagedAttributeChanges = %q, want %q", st.what, listed, st.listed)
		}
	}
}

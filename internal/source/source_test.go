package source

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/readfile"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// gitIn runs git in dir with a configuration of its own.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// newTree makes a repository whose root j/ holds files (root-relative path
// → text; a text starting with "->" is a symbolic link to the rest), and
// commits it.
func newTree(t *testing.T, files map[string]string) (top string, repo *gitrepo.Repo) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	top = t.TempDir()
	gitIn(t, top, "init", "-q", "-b", "main")
	for rel, text := range files {
		abs := filepath.Join(top, "j", filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target, ok := strings.CutPrefix(text, "->"); ok {
			err = os.Symlink(target, abs)
		} else {
			err = os.WriteFile(abs, []byte(text), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(top, "outside"), []byte("not under the root\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, top, "add", "-A")
	gitIn(t, top, "commit", "-q", "-m", "first")
	repo, err := gitrepo.Open(context.Background(), top)
	if err != nil {
		t.Fatal(err)
	}
	return top, repo
}

// view is what a source shows of a tree: every directory's listing, the
// type of every entry, and the bytes or the error of every file.
type view struct {
	Dirs  map[string][]Entry
	Types map[string]fs.FileMode
	Files map[string]string
}

func look(t *testing.T, src Source) view {
	t.Helper()
	v := view{Dirs: map[string][]Entry{}, Types: map[string]fs.FileMode{}, Files: map[string]string{}}
	var walk func(dir string)
	walk = func(dir string) {
		es, err := src.ReadDir(dir, false)
		if err != nil {
			t.Fatalf("ReadDir(%q): %v", dir, err)
		}
		v.Dirs[dir] = es
		for _, e := range es {
			rel := strings.TrimPrefix(dir+"/"+e.Name, "/")
			typ, err := src.Stat(rel)
			if err != nil {
				t.Fatalf("Stat(%q): %v", rel, err)
			}
			v.Types[rel] = typ
			if typ.IsDir() {
				walk(rel)
				continue
			}
			f, err := src.ReadFile(rel)
			switch {
			case errors.Is(err, readfile.ErrNotRegular):
				v.Files[rel] = "(not regular)"
			case err != nil:
				t.Fatalf("ReadFile(%q): %v", rel, err)
			default:
				v.Files[rel] = string(f.Data)
				if got := src.ReadAgain(rel, vt.DigestOf(f.Data)); string(got) != string(f.Data) {
					t.Errorf("ReadAgain(%q) = %q, want what ReadFile read", rel, got)
				}
			}
		}
	}
	walk("")
	return v
}

var tree = map[string]string{
	"com.example.a/20260101T000000Z.journal": "JOURNAL\r\nCRLF kept\r\n",
	"com.example.a/20260102T000000Z.journal": "second\n",
	"com.example.a/link.journal":             "->20260102T000000Z.journal",
	"com.example.a/sub/deep.journal":         "deep\n",
	"com.example.b/20260101T000000Z.journal": "",
	".gitkeep":                               "",
	"stray link":                             "->com.example.a",
}

// The index and a commit show what the checkout shows on disk.
func TestGitIsTheCheckout(t *testing.T) {
	top, repo := newTree(t, tree)
	ctx := context.Background()
	disk := look(t, &Disk{Root: filepath.Join(top, "j")})
	index, err := Index(ctx, repo, "j")
	if err != nil {
		t.Fatal(err)
	}
	defer index.Close()
	commit, err := Commit(ctx, repo, "HEAD", "j")
	if err != nil {
		t.Fatal(err)
	}
	defer commit.Close()
	for name, src := range map[string]Source{"index": index, "commit": commit} {
		if diff := cmp.Diff(disk, look(t, src)); diff != "" {
			t.Errorf("%s differs from the disk (-disk +%s):\n%s", name, name, diff)
		}
		if _, err := src.Stat("com.example.c"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: Stat of a missing entry = %v", name, err)
		}
		if _, err := src.ReadDir("com.example.a/20260102T000000Z.journal", false); err == nil {
			t.Errorf("%s: ReadDir of a file succeeded", name)
		}
		if _, err := src.ReadFile("com.example.c/x.journal"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: ReadFile of a missing file = %v", name, err)
		}
	}
}

// The index is what is staged, not the work tree; a root with nothing
// staged under it is an empty directory.
func TestIndexIsStaged(t *testing.T) {
	top, repo := newTree(t, tree)
	ctx := context.Background()
	p := filepath.Join(top, "j", "com.example.a", "20260102T000000Z.journal")
	if err := os.WriteFile(p, []byte("staged\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, top, "add", "-A")
	if err := os.WriteFile(p, []byte("not staged\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	index, err := Index(ctx, repo, "j")
	if err != nil {
		t.Fatal(err)
	}
	defer index.Close()
	if f, err := index.ReadFile("com.example.a/20260102T000000Z.journal"); err != nil || string(f.Data) != "staged\n" {
		t.Errorf("ReadFile = %q, %v; want the staged bytes", f.Data, err)
	}
	empty, err := Index(ctx, repo, "nothing/here")
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	if typ, err := empty.Stat(""); err != nil || !typ.IsDir() {
		t.Errorf("Stat of an empty root = %v, %v", typ, err)
	}
	if es, err := empty.ReadDir("", false); err != nil || len(es) != 0 {
		t.Errorf("ReadDir of an empty root = %v, %v", es, err)
	}
}

// A file added with intent to add (git add -N) is no part of what a commit
// takes, so the index's source does not list it; a file staged empty is.
func TestIndexLeavesOutIntentToAdd(t *testing.T) {
	top, repo := newTree(t, tree)
	ctx := context.Background()
	write := func(rel, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(top, "j", filepath.FromSlash(rel)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("com.example.a/20260105T000000Z.journal", "not staged yet\n")
	gitIn(t, top, "add", "-N", "j/com.example.a/20260105T000000Z.journal")
	write("com.example.a/20260106T000000Z.journal", "")
	gitIn(t, top, "add", "j/com.example.a/20260106T000000Z.journal")
	if tree := gitIn(t, top, "write-tree"); !strings.Contains(gitIn(t, top, "ls-tree", "-r", tree), "20260106T000000Z") ||
		strings.Contains(gitIn(t, top, "ls-tree", "-r", tree), "20260105T000000Z") {
		t.Fatal("git's own tree is not as the test expects: it proves nothing")
	}
	index, err := Index(ctx, repo, "j")
	if err != nil {
		t.Fatal(err)
	}
	defer index.Close()
	if _, err := index.Stat("com.example.a/20260105T000000Z.journal"); err == nil {
		t.Error("the intent-to-add entry is listed")
	}
	if f, err := index.ReadFile("com.example.a/20260106T000000Z.journal"); err != nil || len(f.Data) != 0 {
		t.Errorf("the empty staged file: %q, %v", f.Data, err)
	}
}

// The index's blobs are read from the work tree where a file there holds
// exactly their bytes, and from git where it does not: a file changed
// after it was staged, removed, or swapped for a symbolic link to the
// staged bytes. A stretch of changed files shorter than workMisses does
// not stop ReadLocal looking; one that long does.
func TestIndexReadsTheWorkTreeOnlyWhereItHoldsTheBlob(t *testing.T) {
	// Not parallel: it lowers workMisses while no other test runs.
	defer func(n int64) { workMisses = n }(workMisses)
	workMisses = 16
	files := map[string]string{
		"a/same.journal":    "same\n",
		"a/changed.journal": "staged\n",
		"a/gone.journal":    "gone\n",
		"a/link.journal":    "linked\n",
	}
	many := int(2 * workMisses)
	for i := range many {
		files[fmt.Sprintf("b/%03d.journal", i)] = fmt.Sprintf("staged %d\n", i)
	}
	top, repo := newTree(t, files)
	ctx := context.Background()
	abs := func(rel string) string { return filepath.Join(top, "j", filepath.FromSlash(rel)) }
	// The only copy of same.journal's bytes is the work tree's: git lost
	// the object, as after a damaged clone.
	gitIn(t, top, "gc", "-q")
	packs, _ := filepath.Glob(filepath.Join(top, ".git", "objects", "pack", "*.pack"))
	sameBlob := gitIn(t, top, "rev-parse", "HEAD:j/a/same.journal")
	write := func(rel, text string) {
		t.Helper()
		if err := os.WriteFile(abs(rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/changed.journal", "not staged\n")
	if err := os.Remove(abs("a/gone.journal")); err != nil {
		t.Fatal(err)
	}
	write("a/target", "linked\n")
	if err := os.Remove(abs("a/link.journal")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target", abs("a/link.journal")); err != nil {
		t.Fatal(err)
	}
	for i := range many {
		write(fmt.Sprintf("b/%03d.journal", i), "not staged\n")
	}
	index, err := Index(ctx, repo, "j")
	if err != nil {
		t.Fatal(err)
	}
	defer index.Close()
	if f, ok := index.ReadLocal("a/same.journal"); !ok || string(f.Data) != "same\n" {
		t.Errorf("ReadLocal of an unchanged file = %q, %v; want its bytes", f.Data, ok)
	}
	for _, rel := range []string{"a/changed.journal", "a/gone.journal", "a/link.journal", "a/none.journal", "a"} {
		if f, ok := index.ReadLocal(rel); ok {
			t.Errorf("ReadLocal(%q) = %q; want nothing", rel, f.Data)
		}
	}
	same := func() bool {
		_, ok := index.ReadLocal("a/same.journal")
		return ok
	}
	if !same() {
		t.Errorf("ReadLocal stopped looking after three changed files")
	}
	for i := range many {
		if _, ok := index.ReadLocal(fmt.Sprintf("b/%03d.journal", i)); ok {
			t.Errorf("ReadLocal of changed file %d found it", i)
		}
		if i == int(workMisses)-2 && !same() {
			t.Errorf("ReadLocal stopped looking after %d changed files in a row", i+1)
		}
	}
	if index.HasLocal() || same() {
		t.Errorf("ReadLocal still looks after %d changed files in a row", workMisses)
	}
	rels := slices.Sorted(maps.Keys(files))
	got := map[string]string{}
	if err := index.Stream(ctx, rels, func(i int, f File, err error) bool {
		if err != nil {
			t.Errorf("Stream: %s: %v", rels[i], err)
		}
		got[rels[i]] = string(f.Data)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(files, got); d != "" {
		t.Errorf("Stream gave other than the staged bytes (-staged +got):\n%s", d)
	}
	for _, rel := range []string{"a/changed.journal", "a/gone.journal", "a/link.journal", "a/same.journal"} {
		if f, err := index.ReadFile(rel); err != nil || string(f.Data) != files[rel] {
			t.Errorf("ReadFile(%q) = %q, %v; want %q", rel, f.Data, err, files[rel])
		}
	}
	// Without its object, same.journal comes from the work tree alone.
	for _, p := range packs {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := exec.Command("git", "-C", top, "cat-file", "-e", sameBlob).CombinedOutput(); err == nil {
		t.Fatal("git still has the blob")
	}
	lost, err := Index(ctx, repo, "j")
	if err != nil {
		t.Fatal(err)
	}
	defer lost.Close()
	if f, err := lost.ReadFile("a/same.journal"); err != nil || string(f.Data) != "same\n" {
		t.Errorf("ReadFile of a blob git lost = %q, %v; want the work tree's bytes", f.Data, err)
	}
}

// StagedDirs shows of the directories it names what Index shows of them:
// HEAD's files with every staged change (added, modified, deleted, a mode
// changed, a link, an entry intended to be added), and nothing else.
func TestStagedDirsIsTheIndexThere(t *testing.T) {
	top, repo := newTree(t, tree)
	ctx := context.Background()
	write := func(rel, text string) {
		t.Helper()
		abs := filepath.Join(top, "j", filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("com.example.a/20260102T000000Z.journal", "changed\n")
	write("com.example.a/20260103T000000Z.journal", "added\n")
	write("com.example.c/20260101T000000Z.journal", "a new directory\n")
	gitIn(t, top, "rm", "-q", "j/com.example.a/link.journal")
	gitIn(t, top, "add", "-A")
	gitIn(t, top, "update-index", "--chmod=+x", "j/com.example.a/20260101T000000Z.journal")
	write("com.example.d/20260101T000000Z.journal", "later\n")
	gitIn(t, top, "add", "-N", "j/com.example.d/20260101T000000Z.journal")
	changes, err := repo.IndexDiff(ctx, "HEAD", "j")
	if err != nil {
		t.Fatal(err)
	}
	dirs := []string{"com.example.a", "com.example.c", "com.example.d"}
	staged, err := StagedDirs(ctx, repo, "j", dirs, "HEAD", changes)
	if err != nil {
		t.Fatal(err)
	}
	defer staged.Close()
	index, err := Index(ctx, repo, "j")
	if err != nil {
		t.Fatal(err)
	}
	defer index.Close()
	got, want := look(t, staged), look(t, index)
	for p := range want.Types {
		if dir, _, _ := strings.Cut(p, "/"); !slices.Contains(dirs, dir) {
			delete(want.Types, p)
			delete(want.Files, p)
			delete(want.Dirs, p)
		}
	}
	want.Dirs[""] = slices.DeleteFunc(want.Dirs[""], func(e Entry) bool { return !slices.Contains(dirs, e.Name) })
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("StagedDirs shows otherwise than Index (-index +staged):\n%s", d)
	}
}

// A submodule is an empty directory; an unmerged index is refused.
func TestIndexSubmoduleAndUnmerged(t *testing.T) {
	top, repo := newTree(t, tree)
	ctx := context.Background()
	commit := gitIn(t, top, "rev-parse", "HEAD")
	gitIn(t, top, "update-index", "--add", "--cacheinfo", "160000,"+commit+",j/com.example.s")
	index, err := Index(ctx, repo, "j")
	if err != nil {
		t.Fatal(err)
	}
	defer index.Close()
	if typ, err := index.Stat("com.example.s"); err != nil || !typ.IsDir() {
		t.Errorf("Stat of a submodule = %v, %v; want a directory", typ, err)
	}
	if es, err := index.ReadDir("com.example.s", false); err != nil || len(es) != 0 {
		t.Errorf("ReadDir of a submodule = %v, %v; want it empty", es, err)
	}

	blob := gitIn(t, top, "rev-parse", "HEAD:j/com.example.a/20260102T000000Z.journal")
	cmd := exec.Command("git", "update-index", "--index-info")
	cmd.Dir = top
	cmd.Stdin = strings.NewReader("0 " + strings.Repeat("0", 40) + "\tj/com.example.b/20260101T000000Z.journal\n" +
		"100644 " + blob + " 1\tj/com.example.b/20260101T000000Z.journal\n" +
		"100644 " + blob + " 2\tj/com.example.b/20260101T000000Z.journal\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git update-index: %v\n%s", err, out)
	}
	if _, err := Index(ctx, repo, "j"); err == nil || !strings.Contains(err.Error(), "unmerged entry") {
		t.Errorf("Index of an unmerged index = %v", err)
	}
}

// A source keeps a table of the kinds of entries (mode and tag) git
// lists; more kinds than the table holds is an error, not a wrong type.
func TestTooManyKindsOfEntries(t *testing.T) {
	_, repo := newTree(t, map[string]string{"a/1.journal": "one\n"})
	var entries []gitrepo.Entry
	for i := range 257 {
		entries = append(entries, gitrepo.Entry{Mode: fmt.Sprintf("1%05d", i), Object: strings.Repeat("0", 40), Path: fmt.Sprintf("j/a/%03d.journal", i)})
	}
	if _, err := newGit(context.Background(), repo, "j", entries[:256]); err != nil {
		t.Errorf("256 kinds: %v", err)
	}
	if _, err := newGit(context.Background(), repo, "j", entries); err == nil || !strings.Contains(err.Error(), "kinds of entries") {
		t.Errorf("257 kinds: %v; want an error", err)
	}
}

// Stream gives every file in order, blobs and refusals alike, and stops
// when asked to.
func TestStream(t *testing.T) {
	big := strings.Repeat("x", readfile.MaxJournal+1)
	files := map[string]string{"a/1.journal": "one\n", "a/2.journal": "->1.journal", "a/3.journal": big, "a/4.journal": "four\n"}
	_, repo := newTree(t, files)
	ctx := context.Background()
	index, err := Index(ctx, repo, "j")
	if err != nil {
		t.Fatal(err)
	}
	defer index.Close()
	rels := []string{"a/4.journal", "a/2.journal", "a/gone.journal", "a/3.journal", "a/1.journal", "a"}
	var got []string
	err = index.Stream(ctx, rels, func(i int, f File, err error) bool {
		var tl *readfile.TooLargeError
		switch {
		case errors.As(err, &tl):
			got = append(got, rels[i]+": too large")
		case errors.Is(err, fs.ErrNotExist):
			got = append(got, rels[i]+": missing")
		case errors.Is(err, readfile.ErrNotRegular):
			got = append(got, rels[i]+": not regular")
		case err != nil:
			t.Fatalf("%s: %v", rels[i], err)
		default:
			got = append(got, rels[i]+": "+string(f.Data))
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a/4.journal: four\n", "a/2.journal: not regular", "a/gone.journal: missing", "a/3.journal: too large", "a/1.journal: one\n", "a: not regular"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Stream (-want +got):\n%s", diff)
	}
	calls := 0
	if err := index.Stream(ctx, rels, func(int, File, error) bool { calls++; return calls < 2 }); err != nil || calls != 2 {
		t.Errorf("Stream stopped after %d calls, %v; want 2, nil", calls, err)
	}
	if f, err := index.ReadFile("a/3.journal"); err == nil {
		t.Errorf("ReadFile of a large blob read %d bytes", len(f.Data))
	}
}

// TestDiskReadsTheIndexBlobOnce checks that the disk takes a file's bytes
// after one read where they are the blob the index holds (Disk.Blob), even
// for a file written so recently that a careful read reads it again, and
// gives them no stamp; other bytes, or a file the index does not hold, are
// read the careful way, with a stamp. The bytes are the same either way.
func TestDiskReadsTheIndexBlobOnce(t *testing.T) {
	dir := t.TempDir()
	text := "JOURNAL_FORMAT 1\n"
	blob := gitrepo.BlobID("sha1", []byte(text))
	for _, tc := range []struct {
		name string
		blob func(string) (string, bool)
		once bool // taken after one read, as the index's blob
	}{
		{"no index", nil, false},
		{"the index's blob", func(string) (string, bool) { return blob, true }, true},
		{"another blob", func(string) (string, bool) { return strings.Repeat("0", 40), true }, false},
		{"not in the index", func(string) (string, bool) { return "", false }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Written just now: a careful read waits and reads it again.
			if err := os.WriteFile(filepath.Join(dir, "a.journal"), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			opens := 0
			d := &Disk{Root: dir, Blob: tc.blob, Hook: func(point, abs string) {
				if point == "open" {
					opens++
				}
			}}
			f, err := d.ReadFile("a.journal")
			if err != nil || string(f.Data) != text {
				t.Fatalf("ReadFile = %q, %v", f.Data, err)
			}
			if tc.once && (opens != 1 || f.Stamp != 0) {
				t.Errorf("opened %d times, stamp %x; want once, no stamp", opens, f.Stamp)
			}
			if !tc.once && (opens < 2 || f.Stamp == 0) {
				t.Errorf("opened %d times, stamp %x; want the careful reads of a recent file, a stamp", opens, f.Stamp)
			}
		})
	}
}

package gitrepo

import (
	"context"
	"encoding/hex"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// treeBase is the tree the cases of TestPatchTree start from.
var treeBase = map[string]string{
	"top.txt":                       "top\n",
	"other/readme":                  "other\n",
	"journals/com.example.a/1.j":    "a1\n",
	"journals/com.example.a/2.j":    "a2\n",
	"journals/com.example.b/1.j":    "b1\n",
	"journals/x/y/z.j":              "z\n",
	"journals/s/a/f":                "f\n",
	"journals/s/a.b":                "ab\n",
	"journals/s/a-b":                "a-b\n",
	"journals/s/a0":                 "a0\n",
	"journals/s/with space/ünï ✓.j": "u\n",
}

// repoState is what PatchTree must not change: the index and the list of
// the repository's objects.
func repoState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	index, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	b.Write(index)
	err = filepath.WalkDir(filepath.Join(dir, ".git", "objects"), func(p string, d fs.DirEntry, err error) error {
		b.WriteString(p + "\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// wantTree is what "git write-tree" prints for prefix, or the empty tree's
// id when the index has nothing under it (git refuses then).
func wantTree(t *testing.T, r *Repo, dir, prefix string) string {
	t.Helper()
	args := []string{"write-tree"}
	if prefix != "" {
		if git(t, dir, "ls-files", "--", prefix) == "" {
			return hex.EncodeToString(objectID(r.ObjectFormat(), "tree", nil))
		}
		args = append(args, "--prefix="+prefix+"/")
	}
	return strings.TrimSpace(git(t, dir, args...))
}

// checkPatch compares PatchTree of the staged changes under each of
// prefixes with git write-tree, and checks that it wrote nothing.
func checkPatch(t *testing.T, r *Repo, dir string, prefixes ...string) {
	t.Helper()
	ctx := context.Background()
	got := map[string]string{}
	before := repoState(t, dir)
	for _, prefix := range prefixes {
		changes, err := r.IndexDiff(ctx, "HEAD", prefix)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := r.TreeAt(ctx, "HEAD", prefix)
		if err != nil {
			if typ := git(t, dir, "cat-file", "-t", "HEAD:"+prefix); typ == "tree\n" {
				t.Fatalf("TreeAt(%q): %v", prefix, err)
			}
			continue // the prefix is a file at HEAD
		}
		p, err := r.PatchTree(ctx, tree, prefix, changes)
		if err != nil {
			if prefix != "" && git(t, dir, "ls-files", "--", prefix) == prefix+"\n" {
				continue // the prefix is a file in the index
			}
			t.Fatalf("PatchTree(%q) with %v: %v", prefix, changes, err)
		}
		got[prefix] = p
	}
	if repoState(t, dir) != before {
		t.Fatal("PatchTree changed the index or the objects")
	}
	for prefix := range got { // write-tree after: it writes the objects
		if want := wantTree(t, r, dir, prefix); got[prefix] != want {
			t.Errorf("PatchTree(%q) = %s, git write-tree says %s", prefix, got[prefix], want)
		}
	}
}

func TestPatchTree(t *testing.T) {
	symlink := func(t *testing.T, dir, target, p string) {
		abs := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		_ = os.Remove(abs)
		if err := os.Symlink(target, abs); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	cases := []struct {
		name   string
		change func(t *testing.T, dir string)
	}{
		{"no change", func(t *testing.T, dir string) {}},
		{"add in an existing directory", func(t *testing.T, dir string) {
			write(t, dir, "journals/com.example.a/3.j", "a3\n")
		}},
		{"add in a new directory", func(t *testing.T, dir string) {
			write(t, dir, "journals/com.example.c/1.j", "c1\n")
		}},
		{"add in nested new directories", func(t *testing.T, dir string) {
			write(t, dir, "journals/p/q/r/s.j", "s\n")
			write(t, dir, "journals/p/q/t.j", "t\n")
		}},
		{"modify", func(t *testing.T, dir string) {
			write(t, dir, "journals/com.example.a/1.j", "a1 changed\n")
		}},
		{"delete", func(t *testing.T, dir string) {
			git(t, dir, "rm", "-q", "journals/com.example.a/2.j")
		}},
		{"delete the last file of a directory", func(t *testing.T, dir string) {
			git(t, dir, "rm", "-q", "journals/com.example.b/1.j")
		}},
		{"delete the last file of nested directories", func(t *testing.T, dir string) {
			git(t, dir, "rm", "-q", "journals/x/y/z.j")
		}},
		{"delete every file of the prefix", func(t *testing.T, dir string) {
			git(t, dir, "rm", "-q", "-r", "journals")
		}},
		{"make executable", func(t *testing.T, dir string) {
			git(t, dir, "update-index", "--chmod=+x", "journals/com.example.a/1.j")
		}},
		{"add a symbolic link", func(t *testing.T, dir string) {
			symlink(t, dir, "../com.example.a/1.j", "journals/l/link")
		}},
		{"a file becomes a symbolic link", func(t *testing.T, dir string) {
			symlink(t, dir, "2.j", "journals/com.example.a/1.j")
		}},
		{"names in git's order", func(t *testing.T, dir string) {
			write(t, dir, "journals/s/a.c", "\n")
			write(t, dir, "journals/s/a-c/f", "\n")
			write(t, dir, "journals/s/a/g", "\n")
			write(t, dir, "journals/s/b/c", "\n")
			write(t, dir, "journals/s/a!", "\n")
		}},
		{"a file becomes a directory and a directory a file", func(t *testing.T, dir string) {
			git(t, dir, "rm", "-q", "journals/com.example.a/2.j", "journals/x/y/z.j")
			write(t, dir, "journals/com.example.a/2.j/inside", "\n")
			write(t, dir, "journals/x", "x\n")
		}},
		{"a submodule", func(t *testing.T, dir string) {
			head := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
			git(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+head+",journals/sub")
		}},
		{"an empty file", func(t *testing.T, dir string) {
			write(t, dir, "journals/com.example.a/empty", "")
		}},
		{"intended to add", func(t *testing.T, dir string) {
			write(t, dir, "journals/ita/1.j", "later\n")
			write(t, dir, "journals/com.example.a/ita.j", "later\n")
			git(t, dir, "add", "-N", "journals/ita/1.j", "journals/com.example.a/ita.j")
		}},
		{"outside the prefix", func(t *testing.T, dir string) {
			write(t, dir, "other/new", "\n")
			write(t, dir, "top.txt", "changed\n")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := newRepo(t, treeBase)
			r, err := Open(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			c.change(t, dir)
			if c.name == "intended to add" {
				// IndexDiff shows such an entry as an empty file added,
				// which write-tree leaves out: PatchTree refuses rather
				// than name a tree git would not write.
				changes, err := r.IndexDiff(context.Background(), "HEAD", "journals")
				if err != nil {
					t.Fatal(err)
				}
				tree, err := r.TreeAt(context.Background(), "HEAD", "journals")
				if err != nil {
					t.Fatal(err)
				}
				if _, err := r.PatchTree(context.Background(), tree, "journals", changes); err == nil || !strings.Contains(err.Error(), "git add -N") {
					t.Fatalf("PatchTree with an entry intended to add: %v, want an error naming git add -N", err)
				}
				return
			}
			git(t, dir, "add", "-A")
			checkPatch(t, r, dir, "", "journals", "journals/com.example.a")
		})
	}
}

func TestPatchTreeSHA256(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err == nil {
		if out, err := exec.Command("git", "init", "-q", "--object-format=sha256", t.TempDir()).CombinedOutput(); err != nil {
			t.Skipf("this git has no SHA-256 repositories: %v %s", err, out)
		}
	}
	dir := newRepoInit(t, []string{"--object-format=sha256"}, treeBase)
	r, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.ObjectFormat() != "sha256" {
		t.Fatalf("ObjectFormat = %q", r.ObjectFormat())
	}
	write(t, dir, "journals/com.example.a/3.j", "a3\n")
	write(t, dir, "journals/new/deep/1.j", "1\n")
	git(t, dir, "rm", "-q", "journals/com.example.b/1.j")
	git(t, dir, "add", "-A")
	checkPatch(t, r, dir, "", "journals")
}

// TestPatchTreeLarge: a directory of thousands of entries, one of them
// changed, one added, one deleted.
func TestPatchTreeLarge(t *testing.T) {
	t.Parallel()
	n := 1000
	if testing.Short() {
		n = 500
	}
	files := map[string]string{"j/other/1": "1\n"}
	for i := range n {
		files[fmt.Sprintf("j/big/%d.j", i)] = fmt.Sprintf("%d\n", i)
		files[fmt.Sprintf("j/big/d%d/1", i%50)] = "d\n"
	}
	dir := newRepo(t, files)
	r, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "j/big/17.j", "changed\n")
	write(t, dir, "j/big/17.k", "new\n")
	git(t, dir, "rm", "-q", "j/big/100.j", "j/big/d7/1")
	git(t, dir, "add", "-A")
	checkPatch(t, r, dir, "", "j", "j/big")
}

// TestPatchTreeRandom applies random additions, modifications, changes of
// mode and deletions over a small set of names (chosen so that files and
// directories of neighbouring names swap places), committing now and
// then, and compares each staged tree with git write-tree.
func TestPatchTreeRandom(t *testing.T) {
	names := []string{"a", "a.b", "a-b", "a0", "b"}
	seeds, rounds := 3, 8
	if testing.Short() {
		seeds, rounds = 2, 5
	}
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(seed), 7))
			dir := newRepo(t, map[string]string{"j/a/a": "0\n", "j/b": "0\n", "k": "0\n"})
			r, err := Open(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			for round := range rounds {
				for range 1 + rng.IntN(4) {
					parts := []string{"j"}
					for range 1 + rng.IntN(3) {
						parts = append(parts, names[rng.IntN(len(names))])
					}
					randomChange(t, rng, dir, filepath.Join(parts...))
				}
				git(t, dir, "add", "-A")
				checkPatch(t, r, dir, "", "j", "j/a")
				if rng.IntN(3) == 0 {
					git(t, dir, "commit", "-q", "--allow-empty", "-m", fmt.Sprint(round))
				}
			}
		})
	}
}

// randomChange changes the file rel (under dir): modifies, deletes or
// flips the executable bit of a file, or makes one, replacing a file on
// its way or a directory in its place.
func randomChange(t *testing.T, rng *rand.Rand, dir, rel string) {
	t.Helper()
	abs := filepath.Join(dir, rel)
	fi, err := os.Lstat(abs)
	switch {
	case err == nil && fi.Mode().IsRegular():
		switch rng.IntN(3) {
		case 0:
			err = os.Remove(abs)
		case 1:
			err = os.WriteFile(abs, []byte(fmt.Sprint(rng.Int())), 0o644)
		default:
			err = os.Chmod(abs, fi.Mode().Perm()^0o111)
		}
	default:
		// Clear the way: a file above, a directory in its place.
		for p := filepath.Dir(rel); p != "."; p = filepath.Dir(p) {
			if fi, err := os.Lstat(filepath.Join(dir, p)); err == nil && !fi.IsDir() {
				_ = os.Remove(filepath.Join(dir, p))
			}
		}
		if err = os.RemoveAll(abs); err == nil {
			if err = os.MkdirAll(filepath.Dir(abs), 0o755); err == nil {
				err = os.WriteFile(abs, []byte(fmt.Sprint(rng.Int())), 0o644)
			}
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}

func TestPatchTreeErrors(t *testing.T) {
	ctx := context.Background()
	dir := newRepo(t, map[string]string{"j/a/1": "1\n", "j/b": "b\n"})
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := r.TreeAt(ctx, "HEAD", "j")
	if err != nil {
		t.Fatal(err)
	}
	zeros := strings.Repeat("0", 40)
	blob := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD:j/b"))
	otherBlob := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD:j/a/1"))
	empty := BlobID("sha1", nil)
	emptyTree := hex.EncodeToString(objectID("sha1", "tree", nil))
	// A tree object as git would not write it: names out of order.
	raw, _ := hex.DecodeString(blob)
	unsorted := strings.TrimSpace(gitStdin(t, dir, "100644 b\x00"+string(raw)+"100644 a\x00"+string(raw), "hash-object", "-t", "tree", "-w", "--literally", "--stdin"))
	badMode := strings.TrimSpace(gitStdin(t, dir, "100664 a\x00"+string(raw), "hash-object", "-t", "tree", "-w", "--literally", "--stdin"))
	// An entry intended to be added, as a git before 2.19 listed it.
	write(t, dir, "j/ita", "later\n")
	git(t, dir, "add", "-N", "j/ita")
	add := func(p, object string) RawChange {
		return RawChange{Status: 'A', OldMode: "000000", NewMode: "100644", OldObject: zeros, NewObject: object, Path: p}
	}
	for _, c := range []struct {
		name, tree string
		changes    []RawChange
		want       string
	}{
		{"unmerged", tree, []RawChange{{Status: 'U', OldMode: "100644", NewMode: "000000", OldObject: blob, NewObject: zeros, Path: "j/b"}}, "unmerged"},
		{"unknown status", tree, []RawChange{{Status: 'X', Path: "j/b"}}, "status"},
		{"intended to add", tree, []RawChange{add("j/ita", empty)}, "git add -N"},
		{"outside the prefix", tree, []RawChange{add("k/new", blob)}, "not under j"},
		{"the prefix itself", tree, []RawChange{add("j", blob)}, "a file where the tree is"},
		{"no object", tree, []RawChange{add("j/new", zeros)}, "malformed new side"},
		{"short object", tree, []RawChange{add("j/new", "abc")}, "malformed new side"},
		{"missing object", tree, []RawChange{add("j/new", strings.Repeat("1", 40))}, "missing"},
		{"added twice", tree, []RawChange{add("j/new", blob), add("j/new", blob)}, "changed twice"},
		{"added but present", tree, []RawChange{add("j/b", blob)}, "the tree has it"},
		{"deleted but absent", tree, []RawChange{{Status: 'D', OldMode: "100644", NewMode: "000000", OldObject: blob, NewObject: zeros, Path: "j/c"}}, "lacks it"},
		{"old side differs", tree, []RawChange{{Status: 'M', OldMode: "100644", NewMode: "100644", OldObject: otherBlob, NewObject: blob, Path: "j/b"}}, "the tree has"},
		{"a file on the way", tree, []RawChange{add("j/b/c", blob)}, "a file in the tree"},
		{"a file and a directory", emptyTree, []RawChange{add("j/n/c", blob), add("j/n", blob)}, "both a file and a directory"},
		{"missing tree", strings.Repeat("2", 40), []RawChange{add("j/new", blob)}, "missing"},
		{"not a tree", blob, []RawChange{add("j/new", blob)}, "is a blob"},
		{"unsorted tree", unsorted, []RawChange{add("j/new", blob)}, "out of git's order"},
		{"unknown mode", badMode, []RawChange{add("j/new", blob)}, "mode"},
		{"malformed tree id", "xyz", []RawChange{add("j/new", blob)}, "malformed object id"},
	} {
		got, err := r.PatchTree(ctx, c.tree, "j", c.changes)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: PatchTree = %q, %v; want an error with %q", c.name, got, err, c.want)
		}
	}
	if _, err := r.PatchTree(ctx, tree, "j/../x", nil); err == nil {
		t.Error("PatchTree with a prefix that leaves the top level succeeded")
	}
}

// TestPatchTreeUnmerged: a conflict that IndexDiff reports is an error.
func TestPatchTreeUnmerged(t *testing.T) {
	ctx := context.Background()
	dir := newRepo(t, map[string]string{"j/a": "1\n"})
	git(t, dir, "checkout", "-q", "-b", "other")
	write(t, dir, "j/a", "2\n")
	git(t, dir, "commit", "-q", "-am", "other")
	git(t, dir, "checkout", "-q", "main")
	write(t, dir, "j/a", "3\n")
	git(t, dir, "commit", "-q", "-am", "main")
	if err := exec.Command("git", "-C", dir, "merge", "-q", "other").Run(); err == nil {
		t.Fatal("the merge had no conflict")
	}
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := r.IndexDiff(ctx, "HEAD", "j")
	if err != nil {
		t.Fatal(err)
	}
	tree, err := r.TreeAt(ctx, "HEAD", "j")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := r.PatchTree(ctx, tree, "j", changes); err == nil || !strings.Contains(err.Error(), "unmerged") {
		t.Errorf("PatchTree of a conflict = %q, %v; want an error", got, err)
	}
}

func TestTreeAt(t *testing.T) {
	ctx := context.Background()
	dir := newRepo(t, map[string]string{"j/a/1": "1\n", "j/b": "b\n", "j/a b/c": "c\n"})
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, prefix := range []string{"", "j", "j/a", "j/a b"} {
		want := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD:"+prefix))
		if got, err := r.TreeAt(ctx, "HEAD", prefix); got != want || err != nil {
			t.Errorf("TreeAt(%q) = %q, %v; want %s", prefix, got, err, want)
		}
	}
	for _, prefix := range []string{"nope", "j/nope/deeper", "j/a/1/x"} {
		if got, err := r.TreeAt(ctx, "HEAD", prefix); got != "" || err != nil {
			t.Errorf("TreeAt(%q) = %q, %v; want none", prefix, got, err)
		}
	}
	for _, prefix := range []string{"j/b", "j/", "/j", "j/../j"} {
		if got, err := r.TreeAt(ctx, "HEAD", prefix); err == nil {
			t.Errorf("TreeAt(%q) = %q, want an error", prefix, got)
		}
	}
	if _, err := r.TreeAt(ctx, "no-such", ""); err == nil {
		t.Error("TreeAt of a bad revision succeeded")
	}
}

func TestTreeDiff(t *testing.T) {
	ctx := context.Background()
	dir := newRepo(t, map[string]string{"j/a/1": "1\n", "j/b/1": "1\n", "j/c/1": "1\n", "j/f": "f\n"})
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := r.TreeAt(ctx, "HEAD", "j")
	for rel, text := range map[string]string{"j/a/2": "2\n", "j/d/1": "1\n", "j/f": "g\n"} {
		write(t, dir, rel, text)
	}
	git(t, dir, "rm", "-q", "-r", "j/b")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "two")
	after, _ := r.TreeAt(ctx, "HEAD", "j")
	changes, err := r.TreeDiff(ctx, before, after)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, fmt.Sprintf("%c %s %s>%s", c.Status, c.Path, c.OldMode, c.NewMode))
	}
	want := []string{"M a 040000>040000", "D b 040000>000000", "A d 000000>040000", "M f 100644>100644"}
	if !slices.Equal(got, want) {
		t.Errorf("TreeDiff = %q, want %q", got, want)
	}
	if same, err := r.TreeDiff(ctx, after, after); len(same) != 0 || err != nil {
		t.Errorf("TreeDiff of a tree with itself = %v, %v; want nothing", same, err)
	}
	if _, err := r.TreeDiff(ctx, "no-such", after); err == nil {
		t.Error("TreeDiff of a bad id succeeded")
	}
}

// TreeDirs lists the files under the directories asked for, and only
// those, in git's order, however many directories there are: more than one
// command line holds (500 names of 4,200 bytes, over Linux's 2 MiB) are
// listed by several commands (maxArgBytes). The tree is written with git's
// plumbing: no file system holds such names.
func TestTreeDirs(t *testing.T) {
	ctx := context.Background()
	dir := newRepo(t, map[string]string{"j/other/1": "o\n", "top": "t\n"})
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	blob := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD:top"))
	var info strings.Builder
	var dirs []string
	for i := range 500 {
		d := fmt.Sprintf("j/%03d.%s", i, strings.Repeat("x", 4200))
		fmt.Fprintf(&info, "100644 %s\t%s/1\n100644 %s\t%s/2\n", blob, d, blob, d)
		dirs = append(dirs, d)
	}
	cmd := exec.Command("git", "update-index", "--index-info")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(info.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git update-index: %v\n%s", err, out)
	}
	git(t, dir, "commit", "-q", "-m", "long names")
	slices.Reverse(dirs) // asked in any order, listed in git's
	entries, err := r.TreeDirs(ctx, "HEAD", dirs)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Path)
	}
	var want []string
	for _, p := range strings.Split(strings.TrimSpace(git(t, dir, "ls-tree", "-r", "--name-only", "HEAD", "j")), "\n") {
		if p != "j/other/1" {
			want = append(want, p)
		}
	}
	if len(want) != 1000 || !slices.Equal(got, want) {
		t.Errorf("TreeDirs listed %d files, want the %d under the directories, in git's order", len(got), len(want))
	}
	if entries, err := r.TreeDirs(ctx, "HEAD", nil); entries != nil || err != nil {
		t.Errorf("TreeDirs of no directories = %v, %v", entries, err)
	}
}

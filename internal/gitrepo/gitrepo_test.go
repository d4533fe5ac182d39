package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/r35157/journal-lint/internal/gitrepo/gittest"
)

// newRepo makes a repository with one commit holding files (path → text)
// and returns its directory.
func newRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	return newRepoInit(t, nil, files)
}

// newRepoInit is newRepo with more arguments for "git init".
func newRepoInit(t *testing.T, initArgs []string, files map[string]string) string {
	t.Helper()
	gittest.Need(t)
	dir := t.TempDir()
	git(t, dir, append([]string{"init", "-q", "-b", "main"}, initArgs...)...)
	for p, text := range files {
		write(t, dir, p, text)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

// Names that break line-oriented or quoted git output.
const (
	spaced   = "j/com.example.a/with space.journal"
	unicode  = "j/com.example.a/ünïcødé ✓.journal"
	newline  = "j/com.example.a/new\nline.journal"
	outside  = "other/file.txt"
	crlfText = "A\r\nB\r\n"
)

func TestRepository(t *testing.T) {
	dir := newRepo(t, map[string]string{
		spaced:           "one\n",
		unicode:          "two\n",
		newline:          "three\n",
		"j/keep.journal": crlfText,
		"j/crlf.journal": crlfText,
		outside:          "x\n",
		".gitattributes": "*.journal -text\nj/keep.journal text\n",
	})
	ctx := context.Background()
	r, err := Open(ctx, filepath.Join(dir, "j"))
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.EvalSymlinks(dir); r.Top() != want {
		t.Errorf("Top = %q, want %q", r.Top(), want)
	}
	if rel, err := r.Rel(filepath.Join(dir, "j", "missing", "deeper")); err != nil || rel != "j/missing/deeper" {
		t.Errorf("Rel = %q, %v", rel, err)
	}
	if rel, err := r.Rel(dir); err != nil || rel != "" {
		t.Errorf("Rel(top) = %q, %v", rel, err)
	}
	if _, err := r.Rel(t.TempDir()); err == nil {
		t.Error("Rel outside the work tree succeeded")
	}

	// Tree lists the names byte for byte, restricted to the prefix.
	tree, err := r.Tree(ctx, "HEAD", "j")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range tree {
		names = append(names, e.Path)
	}
	slices.Sort(names)
	want := []string{spaced, newline, unicode, "j/keep.journal", "j/crlf.journal"}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("Tree = %q, want %q", names, want)
	}

	// Modify, delete and rename, then diff the work tree and the index.
	write(t, dir, spaced, "one changed\n")
	if err := os.Remove(filepath.Join(dir, filepath.FromSlash(newline))); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "mv", unicode, "j/com.example.a/moved ✓.journal")
	changes, err := r.Diff(ctx, "HEAD", false, "j")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Change{}
	for _, c := range changes {
		got[c.Path] = c
	}
	if c := got[spaced]; c.Status != 'M' {
		t.Errorf("modified: %+v", c)
	}
	if c := got[newline]; c.Status != 'D' {
		t.Errorf("deleted: %+v", c)
	}
	if c := got["j/com.example.a/moved ✓.journal"]; c.Status != 'R' || c.OldPath != unicode || c.Score != 100 {
		t.Errorf("renamed: %+v", c)
	}
	staged, err := r.Diff(ctx, "HEAD", true, "j")
	if err != nil {
		t.Fatal(err)
	}
	if len(staged) != 1 || staged[0].Status != 'R' {
		t.Errorf("staged diff = %+v, want only the rename", staged)
	}

	// Blobs come back exact, CRLF included (-text: git stored them as is).
	var obj string
	for _, e := range tree {
		if e.Path == "j/crlf.journal" {
			obj = e.Object
		}
	}
	blobs, _, err := r.ReadBlobs(ctx, []string{obj}, 1<<20)
	if err != nil || string(blobs[obj]) != crlfText {
		t.Errorf("ReadBlobs = %q, %v", blobs[obj], err)
	}
	if _, _, err := r.ReadBlobs(ctx, []string{strings.Repeat("0", 40)}, 1<<20); err == nil {
		t.Error("ReadBlobs of a missing object succeeded")
	}

	attrs, err := r.Attributes(ctx, false, "", []string{spaced, "j/keep.journal", outside}, "text", "eol")
	if err != nil {
		t.Fatal(err)
	}
	if attrs[0][0] != "unset" || attrs[1][0] != "set" || attrs[2][0] != "unspecified" || attrs[2][1] != "unspecified" {
		t.Errorf("Attributes = %v", attrs)
	}
	// The same asked relative to a directory.
	if under, err := r.Attributes(ctx, false, "j", []string{"keep.journal"}, "text", "eol"); err != nil || !slices.Equal(under[0], attrs[1]) {
		t.Errorf("Attributes under j = %v, %v; want %v", under, err, attrs[1])
	}

	// A BlobReader reads the staged bytes one object at a time, goes on
	// after a missing object, and gives only the size of one over max.
	index, err := r.Index(ctx, "j")
	if err != nil {
		t.Fatal(err)
	}
	br := r.NewBlobReader(ctx)
	defer br.Close()
	found := false
	for _, e := range index.All() {
		if e.Path != spaced {
			continue
		}
		found = true
		if b, size, err := br.Read(e.Object, 1<<20); err != nil || string(b) != "one\n" || size != 4 {
			t.Errorf("BlobReader.Read(%s) = %q, %d, %v; want the staged bytes", spaced, b, size, err)
		}
		if _, _, err := br.Read(strings.Repeat("0", 40), 1<<20); err == nil {
			t.Error("BlobReader.Read of a missing object succeeded")
		}
		if b, size, err := br.Read(e.Object, 2); err != nil || b != nil || size != 4 {
			t.Errorf("BlobReader.Read over max = %q, %d, %v; want only the size", b, size, err)
		}
	}
	if !found {
		t.Errorf("the index has no %s", spaced)
	}
	if b, _, err := br.Read(obj, 1<<20); err != nil || string(b) != crlfText {
		t.Errorf("BlobReader.Read(crlf.journal) = %q, %v", b, err)
	}
}

func TestErrors(t *testing.T) {
	dir := newRepo(t, map[string]string{"a": "a\n"})
	ctx := context.Background()
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, rev := range []string{"no-such-branch", "-h", "", "HEAD~5", "HEAD:a"} {
		_, err := r.ResolveCommit(ctx, rev)
		var re *RevisionError
		if !errors.As(err, &re) || re.Rev != rev {
			t.Errorf("ResolveCommit(%q) = %v, want a *RevisionError", rev, err)
		}
	}
	if _, err := r.Diff(ctx, "nope", false, ""); err == nil {
		t.Error("Diff against a bad revision succeeded")
	}
	if _, err := Open(ctx, t.TempDir()); !errors.Is(err, ErrNotRepository) {
		t.Errorf("Open outside a repository = %v, want ErrNotRepository", err)
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := Open(ctx, dir); !errors.Is(err, ErrGitNotFound) {
		t.Errorf("Open without git = %v, want ErrGitNotFound", err)
	}
}

func TestParseNameStatus(t *testing.T) {
	got, err := parseNameStatus([]byte("M\x00a b\x00R087\x00old\x00new\x00D\x00x\ny\x00"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{{Status: 'M', Path: "a b"}, {Status: 'R', Score: 87, OldPath: "old", Path: "new"}, {Status: 'D', Path: "x\ny"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	for _, bad := range []string{"R100\x00only\x00", "M\x00"} {
		if _, err := parseNameStatus([]byte(bad)); err == nil {
			t.Errorf("parseNameStatus(%q) succeeded", bad)
		}
	}
}

// Diff of the work tree in two steps lists what the one step lists when
// nothing was deleted: staged and unstaged additions, edits and changes of
// type, alone and together. With a deletion it is the one step, renames
// included.
func TestDiffInTwoStepsIsTheOneStep(t *testing.T) {
	ctx := context.Background()
	for name, change := range map[string]func(t *testing.T, dir string){
		"staged addition": func(t *testing.T, dir string) {
			write(t, dir, "j/a/new.journal", "new\n")
			git(t, dir, "add", "-A")
		},
		"staged and unstaged edits": func(t *testing.T, dir string) {
			write(t, dir, "j/a/1.journal", "staged\n")
			git(t, dir, "add", "-A")
			write(t, dir, "j/a/1.journal", "unstaged\n")
			write(t, dir, "j/b/2.journal", "unstaged only\n")
		},
		"added then edited": func(t *testing.T, dir string) {
			write(t, dir, "j/c/3.journal", "staged\n")
			git(t, dir, "add", "-A")
			write(t, dir, "j/c/3.journal", "edited\n")
		},
		"type change": func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "j", "b", "2.journal"))
			if err := os.Symlink("../a/1.journal", filepath.Join(dir, "j", "b", "2.journal")); err != nil {
				t.Fatal(err)
			}
		},
		"staged edit, work tree converted back": func(t *testing.T, dir string) {
			git(t, dir, "config", "core.autocrlf", "true")
			write(t, dir, "j/a/1.journal", "staged\n")
			git(t, dir, "add", "-A")
			write(t, dir, "j/a/1.journal", "one\r\n")
			write(t, dir, "j/b/2.journal", "two and more\n")
		},
		"deletion and rename": func(t *testing.T, dir string) {
			git(t, dir, "mv", "j/a/1.journal", "j/a/moved.journal")
			os.Remove(filepath.Join(dir, "j", "b", "2.journal"))
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := newRepo(t, map[string]string{"j/a/1.journal": "one\n", "j/b/2.journal": "two\n", "other": "x\n"})
			change(t, dir)
			r, err := Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.Diff(ctx, "HEAD", false, "j")
			if err != nil {
				t.Fatal(err)
			}
			commit, _ := r.ResolveCommit(ctx, "HEAD")
			want, err := r.diff(ctx, "j", "-M", commit)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 || !slices.Equal(got, want) {
				t.Errorf("Diff = %+v\nthe one step = %+v", got, want)
			}
		})
	}
}

// TestReadAttributes holds the reader of git check-attr's answer to its
// record format: fields longer than the scanner's first buffer, paths
// under a directory, equal lists of values shared, and an answer that is
// cut short, too long or about another path refused.
func TestReadAttributes(t *testing.T) {
	long := strings.Repeat("d/", 40<<10) + "x.journal"
	paths, names := []string{"a.journal", long, "b.journal"}, []string{"text", "eol"}
	answer := "r/a.journal\x00text\x00set\x00r/a.journal\x00eol\x00lf\x00" +
		"r/" + long + "\x00text\x00set\x00r/" + long + "\x00eol\x00unspecified\x00" +
		"r/b.journal\x00text\x00set\x00r/b.journal\x00eol\x00lf\x00"
	out, err := readAttributes(strings.NewReader(answer), "r", paths, names)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 3 || !slices.Equal(out[0], []string{"set", "lf"}) || !slices.Equal(out[1], []string{"set", "unspecified"}) || !slices.Equal(out[2], out[0]) {
		t.Fatalf("readAttributes = %q", out)
	}
	if &out[0][0] != &out[2][0] {
		t.Error("equal lists of values do not share one slice")
	}
	for name, bad := range map[string]string{
		"cut short":     answer[:len(answer)-1],
		"a field short": answer[:strings.LastIndex(answer, long)],
		"too long":      answer + "b\x00text\x00set\x00",
		"another path":  strings.Replace(answer, "a.journal", "c.journal", 1),
		"another dir":   strings.Replace(answer, "r/a.journal", "s/a.journal", 1),
		"no dir":        strings.Replace(answer, "r/a.journal", "a.journal", 1),
		"another name":  strings.Replace(answer, "\x00eol\x00", "\x00text\x00", 1),
	} {
		if _, err := readAttributes(strings.NewReader(bad), "r", paths, names); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestIndexListFind finds every entry of an index listing by directory
// and name as a map by joined path would, and nothing else: paths that
// sort around the "/" after the directory (".", "-", "0"), an unmerged
// path whose first entry is stage 1, and an answer out of order.
func TestIndexListFind(t *testing.T) {
	const oid = "0123456789abcdef0123456789abcdef01234567"
	paths := []string{"j/a.journal", "j-a/x.journal", "j.b/x.journal", "j/a/b.journal", "j0/x.journal", "j/b.journal", "top.journal"}
	var out []byte
	for _, p := range paths {
		out = fmt.Appendf(out, "H 100644 %s 0\t%s\x00", oid, p)
	}
	for stage := 1; stage <= 3; stage++ {
		out = fmt.Appendf(out, "M 100644 %s %d\tj/c.journal\x00", oid, stage)
	}
	l, err := parseIndex(out)
	if err != nil {
		t.Fatal(err)
	}
	if l.Len() != len(paths)+3 {
		t.Fatalf("Len = %d, want %d", l.Len(), len(paths)+3)
	}
	prev := ""
	for _, e := range l.All() {
		if e.Path < prev {
			t.Errorf("All: %q after %q", e.Path, prev)
		}
		prev = e.Path
	}
	for _, p := range paths {
		dir, name := "", p
		if i := strings.IndexByte(p, '/'); i >= 0 {
			dir, name = p[:i], p[i+1:]
		}
		if e, ok := l.Find(dir, name); !ok || e.Path != p || e.Object != oid || e.Mode != "100644" || e.Tag != 'H' {
			t.Errorf("Find(%q, %q) = %+v, %v", dir, name, e, ok)
		}
		if e, ok := l.Find("", p); !ok || e.Path != p {
			t.Errorf("Find(\"\", %q) = %+v, %v", p, e, ok)
		}
	}
	if e, ok := l.Find("j", "c.journal"); !ok || e.Stage != 1 {
		t.Errorf("Find of an unmerged path = %+v, %v; want its stage 1", e, ok)
	}
	for _, miss := range [][2]string{{"j", "a"}, {"j", "z.journal"}, {"", "j"}, {"j/a", "x.journal"}, {"k", "a.journal"}, {"", "a.journal"}} {
		if e, ok := l.Find(miss[0], miss[1]); ok {
			t.Errorf("Find(%q, %q) = %+v; want none", miss[0], miss[1], e)
		}
	}
	// Enough paths that some share their hash's slot.
	var many []byte
	for i := range 1000 {
		many = fmt.Appendf(many, "H 100644 %s 0\td%d/%d.journal\x00", oid, i%37, i)
	}
	if ml, err := parseIndex(many); err != nil {
		t.Fatal(err)
	} else {
		for i := range 1000 {
			dir, name := fmt.Sprint("d", i%37), fmt.Sprint(i, ".journal")
			if e, ok := ml.Find(dir, name); !ok || e.Path != dir+"/"+name {
				t.Fatalf("Find(%q, %q) among 1000 = %+v, %v", dir, name, e, ok)
			}
		}
		if _, ok := ml.Find("d1", "2.journal"); ok {
			t.Error("Find among 1000: found a path never listed")
		}
	}
	if _, err := parseIndex([]byte("H 100644 " + oid + " 0 j/a.journal\x00")); err == nil {
		t.Error("parseIndex accepted an entry without a tab")
	}
	if n, m := l.SkipWorktree(), l.Symlinks(); n != 0 || m != 0 {
		t.Errorf("SkipWorktree, Symlinks = %d, %d with none listed", n, m)
	}
	marked, err := parseIndex(fmt.Appendf(nil, "S 100644 %[1]s 0\ta\x00H 120000 %[1]s 0\tb\x00s 100644 %[1]s 0\tc\x00h 100644 %[1]s 0\td\x00H 160000 %[1]s 0\te\x00", oid))
	if err != nil {
		t.Fatal(err)
	}
	if n, m := marked.SkipWorktree(), marked.Symlinks(); n != 2 || m != 1 {
		t.Errorf("SkipWorktree, Symlinks = %d, %d; want 2 (tags S and s), 1 (mode 120000)", n, m)
	}
}

// TestPathInput reads the input of check-attr in reads of every size,
// and gets each path under the directory once, NUL-terminated.
func TestPathInput(t *testing.T) {
	paths := []string{"a.journal", strings.Repeat("long/", 20) + "b.journal", "c"}
	for _, dir := range []string{"", "root/dir"} {
		var want strings.Builder
		for _, p := range paths {
			if dir != "" {
				want.WriteString(dir + "/")
			}
			want.WriteString(p + "\x00")
		}
		for size := 1; size <= want.Len()+1; size++ {
			in := &pathInput{dir: dir, paths: paths}
			var got []byte
			buf := make([]byte, size)
			for {
				n, err := in.Read(buf)
				got = append(got, buf[:n]...)
				if err == io.EOF {
					break
				}
				if err != nil || n == 0 {
					t.Fatalf("dir %q, size %d: Read = %d, %v", dir, size, n, err)
				}
			}
			if string(got) != want.String() {
				t.Fatalf("dir %q, size %d: read %q, want %q", dir, size, got, want.String())
			}
		}
	}
}

// StoredTop finds the top that stores the root's path as written: through
// a link to a submodule (or any repository that the parent's work tree
// holds), the parent's; through a link to a repository elsewhere, the
// link, even under another repository (a home directory kept in git).
func TestStoredTopThroughLinks(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"repo/.git", "repo/journals/x", "repo/vendor/other/.git", "home/.git", "srv/repo/.git"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"repo/linked": "vendor/other", "home/repo-link": "../srv/repo"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skip(err)
		}
	}
	for _, c := range []struct{ root, top, rel string }{
		{"repo/journals", "repo", "journals"},
		{"repo/linked", "repo", "linked"},
		{"repo/linked/journals", "repo", "linked/journals"},
		{"repo/vendor/other/journals", "repo/vendor/other", "journals"},
		{"home/repo-link/journals", "home/repo-link", "journals"},
		{"home/repo-link", "home/repo-link", ""},
	} {
		top, rel, ok := StoredTop(filepath.Join(dir, c.root))
		if want := filepath.Join(dir, c.top); !ok || top != want || rel != c.rel {
			t.Errorf("StoredTop(%s) = %s, %q, %v; want %s, %q", c.root, top, rel, ok, want, c.rel)
		}
	}
	if _, _, ok := StoredTop(filepath.Join(dir, "srv")); ok {
		t.Error("StoredTop of a directory no repository holds found one")
	}
}

// AttributesAt answers for a few paths from the .gitattributes above them
// what it answers for many from the commit's whole tree, and what the
// index answers when it holds the commit: nested files, a macro of the
// top level's, a directory's own file overriding its parent's, a path
// under a directory without one, and a change after the commit that it
// does not see. Its temporary index leaves nothing in the repository's
// directory, even where the configuration splits indexes.
func TestAttributesAtFewIsTheWholeTree(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{
		".gitattributes":       "[attr]journal -text eol=lf\n*.journal journal\n",
		"j/.gitattributes":     "*.journal text\n",
		"j/a/.gitattributes":   "x.journal -text filter=upper\n",
		"j/a/x.journal":        "x\n",
		"j/a/y.journal":        "y\n",
		"j/b/z.journal":        "z\n",
		"other/.gitattributes": "*.journal ident\n",
		"other/w.journal":      "w\n",
		"top.journal":          "t\n",
		"j/c/d/deep.journal":   "d\n",
		"j/c/d/.gitattributes": "deep.journal working-tree-encoding=latin1\n",
	})
	write(t, dir, "j/.gitattributes", "*.journal -text\n") // not committed
	git(t, dir, "config", "core.splitIndex", "true")
	git(t, dir, "update-index", "--split-index")
	before, _ := filepath.Glob(filepath.Join(dir, ".git", "sharedindex.*"))
	r, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	paths := []string{"a/x.journal", "a/y.journal", "b/z.journal", "c/d/deep.journal", "none/n.journal"}
	names := []string{"text", "eol", "filter", "ident", "working-tree-encoding"}
	few, err := r.AttributesAt(ctx, "HEAD", "j", paths, names...)
	if err != nil {
		t.Fatal(err)
	}
	// The whole tree: the same paths among more than FewAttributePaths.
	many := slices.Clone(paths)
	for i := len(many); i <= FewAttributePaths; i++ {
		many = append(many, fmt.Sprintf("b/%d.journal", i))
	}
	whole, err := r.AttributesAt(ctx, "HEAD", "j", many, names...)
	if err != nil {
		t.Fatal(err)
	}
	index, err := r.Attributes(ctx, true, "j", paths, names...)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range paths {
		if !slices.Equal(few[i], whole[i]) || !slices.Equal(few[i], index[i]) {
			t.Errorf("%s: few paths %v, whole tree %v, index %v", p, few[i], whole[i], index[i])
		}
	}
	if few[0][0] != "unset" || few[1][0] != "set" || few[0][2] != "upper" {
		t.Errorf("a/x %v, a/y %v: the test proves less than it says", few[0], few[1])
	}
	if after, _ := filepath.Glob(filepath.Join(dir, ".git", "sharedindex.*")); len(after) != len(before) {
		t.Errorf("shared indexes before %v, after %v", before, after)
	}
	if none, err := r.AttributesAt(ctx, "HEAD", "j", nil, names...); err != nil || len(none) != 0 {
		t.Errorf("AttributesAt of no path = %v, %v", none, err)
	}
}

// TestIndexListKeepsEveryField: each entry comes back from the compact
// listing with git's tag, mode, stage, object name and path, for SHA-1
// and SHA-256 object names; an object name that is no hex, or of another
// length than the others, is a malformed answer.
func TestIndexListKeepsEveryField(t *testing.T) {
	for _, width := range []int{40, 64} {
		var out []byte
		var want []Entry
		for i, tm := range []struct {
			tag  byte
			mode string
		}{{'H', "100644"}, {'S', "100755"}, {'h', "120000"}, {'H', "160000"}, {'M', "100644"}, {'H', "100600"}} {
			e := Entry{Tag: tm.tag, Mode: tm.mode, Object: fmt.Sprintf("%0*x", width, 0xabc0+i), Stage: i % 4, Path: fmt.Sprintf("j/%d.journal", i)}
			want = append(want, e)
			out = fmt.Appendf(out, "%c %s %s %d\t%s\x00", e.Tag, e.Mode, e.Object, e.Stage, e.Path)
		}
		l, err := parseIndex(out)
		if err != nil {
			t.Fatal(err)
		}
		var got []Entry
		for _, e := range l.All() {
			got = append(got, e)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("object names of %d digits (-want +got):\n%s", width, diff)
		}
	}
	oid := strings.Repeat("a", 40)
	for _, bad := range []string{
		"H 100644 " + strings.Repeat("g", 40) + " 0\ta\x00",
		"H 100644 " + oid + " 0\ta\x00H 100644 " + strings.Repeat("a", 64) + " 0\tb\x00",
		"H 100644 " + oid + " 4\ta\x00",
		"H 100644  0\ta\x00",
	} {
		if _, err := parseIndex([]byte(bad)); err == nil {
			t.Errorf("parseIndex(%q): no error", bad)
		}
	}
}

// TestObjectsAsStored: git is asked about objects as they are stored, not
// as refs/replace/ names a replacement for them, which git commit and a
// clone ignore: a staged blob reads as its own bytes, and a replaced
// commit is still resolved, and diffed against, as itself.
func TestObjectsAsStored(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := newRepo(t, map[string]string{"a.journal": "committed\n"})
	base := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	write(t, dir, "a.journal", "staged\n")
	git(t, dir, "add", "a.journal")
	staged := strings.TrimSpace(git(t, dir, "rev-parse", ":a.journal"))
	hashed := func(text string) string {
		cmd := exec.Command("git", "hash-object", "-w", "--stdin")
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(text)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	git(t, dir, "replace", staged, hashed("a replacement\n"))
	fake := strings.TrimSpace(git(t, dir, "commit-tree", strings.TrimSpace(git(t, dir, "write-tree")), "-m", "fake"))
	git(t, dir, "replace", base, fake)

	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	blobs, _, err := r.ReadBlobs(ctx, []string{staged}, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(blobs[staged]); got != "staged\n" {
		t.Errorf("the staged blob reads %q, want its own bytes", got)
	}
	changes, err := r.IndexDiff(ctx, base, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].Path != "a.journal" {
		t.Errorf("the index differs from the replaced commit by %v, want a.journal (the commit as stored)", changes)
	}
}

// TestDirtyFilesWithoutTheMonitor: a file changed in the work tree is
// reported even when a file system monitor (core.fsmonitor) says that
// nothing changed; git's own commands would trust it.
func TestDirtyFilesWithoutTheMonitor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := newRepo(t, map[string]string{"a.journal": "committed\n", "b.journal": "other\n"})
	hook := filepath.Join(t.TempDir(), "fsmonitor")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\nprintf 'token\\0'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "config", "core.fsmonitor", hook)
	git(t, dir, "config", "core.fsmonitorHookVersion", "2")
	git(t, dir, "update-index", "--fsmonitor")
	git(t, dir, "status", "--porcelain")
	write(t, dir, "a.journal", "edited, and the monitor misses it\n")
	if out := git(t, dir, "diff-files", "--name-only"); out != "" {
		t.Logf("this git does not trust the monitor here (%q); the test still holds", out)
	}
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	dirty, err := r.DirtyFiles(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if !dirty["a.journal"] || dirty["b.journal"] {
		t.Errorf("DirtyFiles = %v, want a.journal alone", dirty)
	}
}

// TestParents: none for a root commit, one, two for a merge, and the
// parent's name kept at a shallow clone's boundary, whose object is gone.
func TestParents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := newRepo(t, map[string]string{"a": "1\n"})
	rev := func(r string) string { return strings.TrimSpace(git(t, dir, "rev-parse", r)) }
	root := rev("HEAD")
	git(t, dir, "checkout", "-q", "-b", "side")
	write(t, dir, "b", "2\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "side")
	git(t, dir, "checkout", "-q", "main")
	write(t, dir, "c", "3\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "main")
	one := rev("HEAD")
	git(t, dir, "merge", "-q", "--no-edit", "side")
	merge := rev("HEAD")
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for commit, want := range map[string][]string{root: nil, one: {root}, merge: {one, rev("side")}} {
		got, err := r.Parents(ctx, commit)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Parents(%s) = %v, %v; want %v", commit, got, err, want)
		}
	}
	shallow := filepath.Join(t.TempDir(), "shallow")
	git(t, dir, "clone", "-q", "--depth", "1", "file://"+dir, shallow)
	s, err := Open(ctx, shallow)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Parents(ctx, merge)
	if err != nil || len(got) != 2 {
		t.Fatalf("Parents of the shallow boundary = %v, %v; want its two parents", got, err)
	}
	if _, err := s.ResolveCommit(ctx, got[0]); err == nil {
		t.Errorf("the shallow clone resolves the boundary's parent %s", got[0])
	}
}

// TestMain runs the tests with git's configuration of the machine out of
// the way and an author (gittest.Main).
func TestMain(m *testing.M) { gittest.Main(m) }

// git and write are gittest's, for the many calls of this package.
var (
	git   = gittest.Git
	write = gittest.Write
)

// A failed command's error names it, but a long list of paths is cut.
func TestCommandErrorIsShort(t *testing.T) {
	short := &CommandError{Args: []string{"ls-tree", "-r", "HEAD"}, Stderr: "fatal: no", Err: errors.New("exit status 128")}
	if got, want := short.Error(), "git ls-tree -r HEAD: exit status 128: fatal: no"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	args := []string{"ls-tree", "-r", "HEAD", "--"}
	for i := range 500 {
		args = append(args, fmt.Sprintf("j/%03d.%s/", i, strings.Repeat("x", 4200)))
	}
	long := (&CommandError{Args: args, Err: errors.New("argument list too long")}).Error()
	if len(long) > 4000 || !strings.Contains(long, "(492 more arguments)") || !strings.HasSuffix(long, ": argument list too long") {
		t.Errorf("Error() of a long command is %d bytes: %.300q…", len(long), long)
	}
}

package check

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestAtBaseIsTheCommitsTree: what the gate learns of the compared
// commit's Journal files from the index and git's short diff (atBase) is
// what the commit's tree lists (listBase), for files added, modified,
// deleted, turned into a link or left alone in the index, for --staged and
// for the work tree, and while a merge left the index unmerged.
func TestAtBaseIsTheCommitsTree(t *testing.T) {
	t.Parallel()
	gitEnv(t)
	dir := t.TempDir()
	files := map[string]string{}
	for _, p := range []string{"a/1", "a/2", "b/1", "c/1", "d/1", "e/1"} {
		files["journals/com.example."+p+".journal"] = "x " + p
	}
	files["journals/com.example.b/notes.txt"] = "not a Journal"
	gitRepo(t, dir, files)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	root := filepath.Join(dir, "journals")
	j := func(p string) string { return filepath.Join(root, "com.example."+p+".journal") }
	os.WriteFile(j("a/1"), []byte("changed"), 0o644)
	os.Remove(j("b/1"))
	os.Remove(j("c/1"))
	os.Symlink("elsewhere", j("c/1"))
	os.WriteFile(j("f/1"), []byte("new"), 0o644)
	os.MkdirAll(filepath.Dir(j("f/1")), 0o755)
	os.WriteFile(j("f/1"), []byte("new"), 0o644)
	git("add", "-A")
	os.WriteFile(j("d/1"), []byte("changed in the work tree only"), 0o644)
	compare := func(what string, opts Options) {
		t.Helper()
		g, err := openGate(context.Background(), opts, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer g.close()
		if g.baseFull != nil {
			t.Fatalf("%s: the index was not used", what)
		}
		want := &gate{repo: g.repo, rootRel: g.rootRel, commit: g.commit, examples: g.examples}
		if err := want.listBase(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"com.example.a/1.journal", "com.example.a/2.journal", "com.example.b/1.journal", "com.example.b/notes.txt",
			"com.example.c/1.journal", "com.example.d/1.journal", "com.example.e/1.journal", "com.example.f/1.journal", "com.example.g/1.journal"} {
			got, ok := g.atBase(p)
			we, wok := want.baseFull[p]
			if ok != wok || got.Object != we.Object || got.Mode != we.Mode {
				t.Errorf("%s: atBase(%s) = %v %v, the commit's tree %v %v", what, p, got, ok, we, wok)
			}
		}
	}
	compare("--staged", Options{Root: root, Staged: true})
	compare("the work tree against HEAD", Options{Root: root, Against: "HEAD"})

	// An unmerged index: the commit's tree is listed.
	git("commit", "-q", "-m", "second")
	git("checkout", "-q", "-b", "other", "HEAD~1")
	os.WriteFile(j("e/1"), []byte("other side"), 0o644)
	git("commit", "-q", "-am", "other")
	git("checkout", "-q", "main")
	os.WriteFile(j("e/1"), []byte("main side"), 0o644)
	git("commit", "-q", "-am", "main")
	cmd := exec.Command("git", "merge", "-q", "other")
	cmd.Dir = dir
	cmd.Run() // conflicts
	g, err := openGate(context.Background(), Options{Root: root, Against: "HEAD"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	if g.baseFull == nil {
		t.Error("with an unmerged index, the commit's tree was not listed")
	}
}

package config

import (
	"os"
	"path/filepath"
	"testing"
)

// mkfile creates the file at path with its directories.
func mkfile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFind(t *testing.T) {
	top := t.TempDir()
	// outer/.journal-lint.yaml lies above a repository root and must never be found from inside it.
	mkfile(t, filepath.Join(top, FileName), "format: json\n")
	repo := filepath.Join(top, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(repo, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}

	// No configuration inside the repository: the walk stops at .git.
	if got, err := Find(deep); err != nil || got != "" {
		t.Errorf("Find(deep) without config = %q, %v; want \"\"", got, err)
	}

	// A configuration at the repository root is found from below.
	mkfile(t, filepath.Join(repo, FileName), "")
	if got, err := Find(deep); err != nil || got != filepath.Join(repo, FileName) {
		t.Errorf("Find(deep) = %q, %v", got, err)
	}

	// The nearest one wins.
	mkfile(t, filepath.Join(repo, "a", FileName), "")
	if got, err := Find(deep); err != nil || got != filepath.Join(repo, "a", FileName) {
		t.Errorf("Find(deep) nearest = %q, %v", got, err)
	}

	// .git as a file (a worktree or submodule) also marks the root.
	sub := filepath.Join(top, "sub")
	mkfile(t, filepath.Join(sub, ".git"), "gitdir: elsewhere\n")
	if err := os.MkdirAll(filepath.Join(sub, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(filepath.Join(sub, "x")); err != nil || got != "" {
		t.Errorf("Find below a .git file = %q, %v; want \"\"", got, err)
	}

	// Without any .git the walk goes up to the outer file.
	plain := filepath.Join(top, "plain", "y")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(plain); err != nil || got != filepath.Join(top, FileName) {
		t.Errorf("Find(plain) = %q, %v", got, err)
	}

	// A relative start directory gives an absolute path.
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	if err := os.Chdir(deep); err != nil {
		t.Fatal(err)
	}
	if got, err := Find("."); err != nil || got != filepath.Join(repo, "a", FileName) {
		t.Errorf("Find(.) = %q, %v", got, err)
	}
}

func TestFindDirectoryNamedLikeConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(dir); err == nil {
		t.Error("a directory named .journal-lint.yaml was not reported")
	}
}

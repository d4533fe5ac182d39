// Package gittest sets up git repositories for tests: an environment in
// which git reads no configuration of the machine and has an author, and
// repositories made of a few committed files.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Main runs the tests of m with git's global and system configuration out
// of the way and an identity for commits, set once for the package, so
// that tests may run in parallel; it exits with their status. Call it from
// TestMain.
func Main(m *testing.M) {
	for k, v := range map[string]string{"GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME": "t", "GIT_COMMITTER_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_EMAIL": "t@example.org"} {
		os.Setenv(k, v)
	}
	os.Exit(m.Run())
}

// Need skips the test when git is not installed.
func Need(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
}

// Git runs git with args in dir and returns its combined output, failing
// the test when git fails.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Write writes text to the file at the slash-separated path p under dir,
// making its directories.
func Write(t testing.TB, dir, p, text string) {
	t.Helper()
	abs := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Repo makes dir a repository on branch main whose one commit holds files
// (slash-separated path → text); it skips the test without git.
func Repo(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	Need(t)
	for p, text := range files {
		Write(t, dir, p, text)
	}
	Git(t, dir, "init", "-q", "-b", "main")
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "-m", "base")
}

package outpath

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestJoin(t *testing.T) {
	tests := []struct{ prefix, p, want string }{
		{"", "a/b.journal", "a/b.journal"},
		{"journals", "a/b.journal", "journals/a/b.journal"},
		{"journals/", "a/b.journal", "journals/a/b.journal"},
		{"journals", "../.journal-lint.yaml", ".journal-lint.yaml"},
		{"../x", "a", "../x/a"},
		{"journals", "", "journals"},
		{"", "", "."},
	}
	for _, tt := range tests {
		if got := Join(tt.prefix, tt.p); got != tt.want {
			t.Errorf("Join(%q, %q) = %q, want %q", tt.prefix, tt.p, got, tt.want)
		}
	}
}

// Inside a work tree the base is its top level, from any directory; outside
// one it is the working directory.
func TestBaseAndPrefix(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	root := filepath.Join(repo, "journals")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "init", "-q", repo)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	t.Chdir(dir)
	ctx := context.Background()
	if base, in := Base(ctx, root); !in || Rel(base, repo) != "." {
		t.Errorf("Base(root) = %q, %v; want the repository's top level", base, in)
	}
	if got := Prefix(ctx, root); got != "journals" {
		t.Errorf("Prefix(root) = %q from outside the repository, want journals", got)
	}
	if got := Of(ctx, filepath.Join(root, "x", "y.journal")); got != "journals/x/y.journal" {
		t.Errorf("Of = %q", got)
	}
	// A root behind a link, inside the repository or out of it, is
	// named by the link's path.
	for _, target := range []string{filepath.Join(repo, "shadow"), filepath.Join(dir, "outside")} {
		linked := filepath.Join(repo, "linked")
		if err := os.MkdirAll(target, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, linked); err != nil {
			t.Skip(err)
		}
		if got := Prefix(ctx, linked); got != "linked" {
			t.Errorf("Prefix of a root linked to %s = %q, want linked", target, got)
		}
		os.Remove(linked)
	}
	plain := filepath.Join(dir, "plain", "journals")
	if got := Prefix(ctx, plain); got != "plain/journals" {
		t.Errorf("Prefix outside a work tree = %q, want plain/journals", got)
	}
}

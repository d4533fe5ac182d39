package gitrepo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigIsGits: Config answers from one `git config --list` what
// `git config --get` answers for each name: the last of several values,
// a section and a variable name in another case, a subsection that is
// case-sensitive, a key without a value, a value with a newline, and
// names that are not set.
func TestConfigIsGits(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a": "x"})
	git(t, dir, "config", "core.autocrlf", "input")
	git(t, dir, "config", "--add", "journal.multi", "first")
	git(t, dir, "config", "--add", "journal.multi", "last")
	git(t, dir, "config", "remote.Origin.url", "https://example.org/Upper.git")
	git(t, dir, "config", "remote.origin.url", "https://example.org/lower.git")
	git(t, dir, "config", "journal.lines", "one\ntwo")
	// A key without a value: "[journal] novalue" in the file itself.
	f, err := os.OpenFile(filepath.Join(dir, ".git", "config"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("[journal]\n\tnovalue\n")
	f.Close()
	r, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"core.autocrlf", "CORE.AutoCRLF", "journal.multi", "remote.Origin.url",
		"remote.origin.url", "REMOTE.origin.URL", "remote.ORIGIN.url", "journal.lines", "journal.novalue", "journal.unset", "nosuch.key"} {
		got, err := r.Config(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("git", "config", "--get", name)
		cmd.Dir = dir
		out, _ := cmd.Output() // exit 1: not set
		if want := strings.TrimSuffix(string(out), "\n"); got != want {
			t.Errorf("Config(%q) = %q, git config --get says %q", name, got, want)
		}
	}
	if got := r.RemoteURI(context.Background(), "origin"); got != "https://example.org/lower.git" {
		t.Errorf("RemoteURI(origin) = %q", got)
	}
}

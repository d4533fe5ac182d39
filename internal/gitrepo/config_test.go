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

// ConfigBool reads a boolean as `git config --type=bool --get` does: the
// words in any case, integers, the empty value, a key without a value,
// the last of several, and the default for a name not set.
func TestConfigBoolIsGits(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a": "x"})
	values := map[string]string{"b.yes": "Yes", "b.off": "OFF", "b.two": "2", "b.zero": "0", "b.empty": "", "b.hex": "0x10", "b.unit": "0k", "b.units": "2M"}
	for name, v := range values {
		git(t, dir, "config", name, v)
	}
	git(t, dir, "config", "--add", "b.multi", "true")
	git(t, dir, "config", "--add", "b.multi", "false")
	f, err := os.OpenFile(filepath.Join(dir, ".git", "config"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("[b]\n\tnovalue\n")
	f.Close()
	r, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"b.yes", "b.off", "b.two", "b.zero", "b.empty", "b.hex", "b.unit", "b.units", "b.multi", "b.novalue", "b.unset"} {
		for _, def := range []bool{false, true} {
			got, err := r.ConfigBool(context.Background(), name, def)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("git", "config", "--type=bool", "--get", name)
			cmd.Dir = dir
			out, err := cmd.Output()
			want := def // exit 1: not set
			if err == nil {
				want = strings.TrimSpace(string(out)) == "true"
			}
			if got != want {
				t.Errorf("ConfigBool(%q, %v) = %v, git says %q", name, def, got, out)
			}
		}
	}
}

package gitrepo

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
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
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	sum := func(cached bool) []byte {
		t.Helper()
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

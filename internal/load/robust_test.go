package load

// Robustness of the loader against a hostile or changing filesystem (issue
// 3, "Robustness"): each case yields its diagnostic, nothing hangs (every
// load runs under a generous deadline) and nothing is written (the tree is
// fingerprinted before and after).

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/rules"
)

// hangLimit is how long a load may take before the test calls it hung. It
// is a deadlock guard, not a speed assertion.
const hangLimit = 60 * time.Second

// genTree writes a small valid generated tree and returns its root and
// files.
func genTree(t *testing.T, files int) (string, *gen.Tree) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "journals")
	tr, err := gen.Write(root, gen.Options{Files: files, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	return root, tr
}

// loadNoHang loads root and fails the test if the load does not return.
func loadNoHang(t *testing.T, root string, opts Options) *Result {
	t.Helper()
	type out struct {
		res *Result
		err error
	}
	ch := make(chan out, 1)
	go func() {
		res, err := Load(context.Background(), root, opts)
		ch <- out{res, err}
	}()
	select {
	case o := <-ch:
		if o.err != nil {
			t.Fatalf("Load: %v", o.err)
		}
		return o.res
	case <-time.After(hangLimit):
		t.Fatalf("Load of %s did not return within %v: it hangs", root, hangLimit)
		return nil
	}
}

// fingerprint describes every entry under root (without following
// symbolic links): path, type, permissions, size, modification time, link
// target and, for regular files, the SHA-256 of the content. A missing root
// has the fingerprint "absent".
func fingerprint(t *testing.T, root string) string {
	t.Helper()
	if _, err := os.Lstat(root); os.IsNotExist(err) {
		return "absent"
	}
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			lines = append(lines, fmt.Sprintf("%s error %v", p, err))
			return nil
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %v %d %d", p, fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + target
		case fi.Mode().IsRegular() && fi.Mode().Perm()&0o400 != 0:
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			h := sha256.New()
			_, err = io.Copy(h, f)
			f.Close()
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %x", h.Sum(nil))
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// unchanged fails the test if the tree's fingerprint differs from before.
func unchanged(t *testing.T, root, before string) {
	t.Helper()
	if after := fingerprint(t, root); after != before {
		t.Errorf("the load changed the tree:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// wantDiag fails unless res has an error with code at path.
func wantDiag(t *testing.T, res *Result, code, path string) diag.Diagnostic {
	t.Helper()
	i := slices.IndexFunc(res.Diagnostics, func(d diag.Diagnostic) bool {
		return d.Code == code && d.Path == path && d.Severity == diag.Error
	})
	if i < 0 {
		t.Fatalf("want error %s at %q, got %v", code, path, res.Diagnostics)
	}
	if res.Valid() {
		t.Error("Valid() is true with a validity error")
	}
	return res.Diagnostics[i]
}

// setHook installs readHook for one test, which must not be parallel (the
// hook is package state); it runs fn once, for the file at
// abs only.
func setHook(t *testing.T, point, abs string, fn func()) *bool {
	t.Helper()
	var once sync.Once
	called := new(bool)
	readHook = func(p, a string) {
		if p == point && a == abs {
			once.Do(func() { *called = true; fn() })
		}
	}
	t.Cleanup(func() { readHook = nil })
	return called
}

func TestLoadUnreadableFile(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("running as root, who can read a file of mode 000")
	}
	root, tr := genTree(t, 4)
	rel := tr.Files[1].Path
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.Chmod(abs, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(abs, 0o644) })
	before := fingerprint(t, root)
	res := loadNoHang(t, root, Options{})
	wantDiag(t, res, rules.FSUnreadableFile, rel)
	if len(res.Files) != len(tr.Files) {
		t.Errorf("%d files in the result, want all %d (collect-all)", len(res.Files), len(tr.Files))
	}
	unchanged(t, root, before)
}

func TestLoadUnreadableRoot(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("running as root, who can list a directory of mode 000")
	}
	root, _ := genTree(t, 2)
	if err := os.Chmod(root, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(root, 0o755) })
	res := loadNoHang(t, root, Options{})
	wantDiag(t, res, rules.FSRootUnreadable, "")
}

func TestLoadFileVanishesBeforeRead(t *testing.T) {
	root, tr := genTree(t, 4)
	rel := tr.Files[len(tr.Files)-1].Path
	abs := filepath.Join(root, filepath.FromSlash(rel))
	var want string
	called := setHook(t, "open", abs, func() {
		if err := os.Remove(abs); err != nil {
			t.Error(err)
		}
		want = fingerprint(t, root)
	})
	res := loadNoHang(t, root, Options{})
	if !*called {
		t.Fatal("the hook never ran")
	}
	d := wantDiag(t, res, rules.FSUnreadableFile, rel)
	if !strings.Contains(d.Message, "vanished") {
		t.Errorf("message %q does not say the file vanished", d.Message)
	}
	unchanged(t, root, want)
}

func TestLoadFileChangesWhileRead(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(abs string) error
	}{
		{"appended", func(abs string) error {
			f, err := os.OpenFile(abs, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				return err
			}
			_, err = f.WriteString("# appended by a writer\n")
			if err2 := f.Close(); err == nil {
				err = err2
			}
			return err
		}},
		{"replaced", func(abs string) error {
			tmp := abs + ".tmp"
			if err := os.WriteFile(tmp, []byte("JOURNAL_FORMAT 1\n"), 0o644); err != nil {
				return err
			}
			return os.Rename(tmp, abs)
		}},
		{"same size, new time", func(abs string) error {
			b, err := os.ReadFile(abs)
			if err != nil {
				return err
			}
			b[len(b)-2] ^= 0x20 // flip the case of one letter of the last line
			if err := os.WriteFile(abs, b, 0o644); err != nil {
				return err
			}
			later := time.Now().Add(time.Hour)
			return os.Chtimes(abs, later, later)
		}},
		{"same size, same time", func(abs string) error {
			// Rewritten in place within the file system's clock tick: only
			// the second read of a racy file can tell.
			b, err := os.ReadFile(abs)
			if err != nil {
				return err
			}
			b[len(b)-2] ^= 0x20
			return os.WriteFile(abs, b, 0o644)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A writer that changes the file during every read: after a few
			// attempts the file is refused (issue: hostile input §4).
			root, tr := genTree(t, 4)
			rel := tr.Files[0].Path
			abs := filepath.Join(root, filepath.FromSlash(rel))
			var want string
			calls := 0
			readHook = func(p, a string) {
				if p == "read" && a == abs {
					calls++
					if err := tc.change(abs); err != nil {
						t.Error(err)
					}
					want = fingerprint(t, root)
				}
			}
			t.Cleanup(func() { readHook = nil })
			res := loadNoHang(t, root, Options{})
			if calls < 2 {
				t.Fatalf("the file was read %d times, want retries", calls)
			}
			d := wantDiag(t, res, rules.FSChangedDuringRead, rel)
			if !strings.Contains(d.Message, "changed") {
				t.Errorf("message %q does not say the file changed", d.Message)
			}
			unchanged(t, root, want)
		})
	}
}

// A file changed or removed once while it is read is read again: its new
// content is what counts.
func TestLoadFileChangedOnceIsReadAgain(t *testing.T) {
	root, tr := genTree(t, 4)
	rel := tr.Files[0].Path
	abs := filepath.Join(root, filepath.FromSlash(rel))
	called := setHook(t, "read", abs, func() {
		tmp := abs + ".tmp"
		if err := os.WriteFile(tmp, []byte("JOURNAL_FORMAT 1\n"), 0o644); err != nil {
			t.Error(err)
		}
		if err := os.Rename(tmp, abs); err != nil {
			t.Error(err)
		}
	})
	res := loadNoHang(t, root, Options{})
	if !*called {
		t.Fatal("the hook never ran")
	}
	wantDiag(t, res, rules.SyntaxMissingDirective, rel)

	root, tr = genTree(t, 4)
	rel = tr.Files[0].Path
	abs = filepath.Join(root, filepath.FromSlash(rel))
	setHook(t, "read", abs, func() {
		if err := os.Remove(abs); err != nil {
			t.Error(err)
		}
	})
	res = loadNoHang(t, root, Options{})
	if d := wantDiag(t, res, rules.FSUnreadableFile, rel); !strings.Contains(d.Message, "vanished") {
		t.Errorf("message %q does not say the file vanished", d.Message)
	}
}

func TestLoadTooLarge(t *testing.T) {
	root, tr := genTree(t, 3)
	dir := strings.Split(tr.Files[0].Path, "/")[0]
	rel := dir + "/20991231T235959Z.journal"
	abs := filepath.Join(root, filepath.FromSlash(rel))
	f, err := os.Create(abs)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(tr.Files[0].Data); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(17 << 20); err != nil { // sparse: 17 MiB, little disk
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	before := fingerprint(t, root)
	read := setHook(t, "read", abs, func() {})
	res := loadNoHang(t, root, Options{})
	d := wantDiag(t, res, rules.FSTooLarge, rel)
	if *read {
		t.Error("the 17 MiB file was read; its size alone must reject it")
	}
	if !strings.Contains(d.Message, "16 MiB") {
		t.Errorf("message %q does not name the limit", d.Message)
	}
	if got := res.State.RevisionCount(); got != len(tr.Files) {
		t.Errorf("%d revisions accepted, want the other %d files (collect-all)", got, len(tr.Files))
	}
	unchanged(t, root, before)
}

func TestLoadSymlinkLoop(t *testing.T) {
	t.Parallel()
	root, tr := genTree(t, 3)
	dir := strings.Split(tr.Files[0].Path, "/")[0]
	self := dir + "/20991231T235959Z.journal"
	links := map[string]string{
		"loop-a":               "loop-b",
		"loop-b":               "loop-a",
		"com.example.loop":     ".", // a directory link back to the root
		self:                   "20991231T235959Z.journal",
		dir + "/nested-parent": "..",
	}
	for rel, target := range links {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(rel))); err != nil {
			t.Fatal(err)
		}
	}
	before := fingerprint(t, root)
	res := loadNoHang(t, root, Options{})
	for rel := range links {
		d := wantDiag(t, res, rules.FSUnexpectedEntry, rel)
		if !strings.Contains(d.Message, "symbolic link") {
			t.Errorf("%s: message %q does not say it is a symbolic link", rel, d.Message)
		}
	}
	if got := res.State.RevisionCount(); got != len(tr.Files) {
		t.Errorf("%d revisions accepted, want %d", got, len(tr.Files))
	}
	unchanged(t, root, before)
}

func TestLoadRootIsAFile(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "journals")
	if err := os.WriteFile(root, []byte("JOURNAL_FORMAT 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := fingerprint(t, root)
	res := loadNoHang(t, root, Options{})
	wantDiag(t, res, rules.FSRootNotDirectory, "")
	if len(res.Diagnostics) != 1 || len(res.Files) != 0 {
		t.Errorf("want exactly the root diagnostic and no files, got %v and %d files", res.Diagnostics, len(res.Files))
	}
	unchanged(t, root, before)
}

func TestLoadRootMissing(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "no", "such", "journals")
	res := loadNoHang(t, root, Options{})
	wantDiag(t, res, rules.FSRootMissing, "")
	if _, err := os.Lstat(filepath.Dir(root)); !os.IsNotExist(err) {
		t.Errorf("the load created part of the missing root: %v", err)
	}
}

func TestLoadRootSymlinkLoop(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "journals")
	if err := os.Symlink("journals", root); err != nil {
		t.Fatal(err)
	}
	before := fingerprint(t, dir)
	res := loadNoHang(t, root, Options{})
	if res.Valid() || len(res.Diagnostics) != 1 || !strings.HasPrefix(res.Diagnostics[0].Code, "fs/root-") {
		t.Errorf("a root that is a symlink loop: want one fs/root-* error, got %v", res.Diagnostics)
	}
	unchanged(t, dir, before)
}

// TestLoadWritesNothing loads a valid generated tree with examples and a
// base state and checks that nothing changed.
func TestLoadWritesNothing(t *testing.T) {
	t.Parallel()
	root, tr := genTree(t, 12)
	before := fingerprint(t, root)
	first := loadNoHang(t, root, Options{})
	if !first.Valid() || first.State.RevisionCount() != len(tr.Files) {
		t.Fatalf("generated tree: valid %v, %d revisions: %v", first.Valid(), first.State.RevisionCount(), first.Diagnostics)
	}
	again := loadNoHang(t, root, Options{Base: first.State, Examples: true})
	if !again.Valid() {
		t.Errorf("reload with base: %v", again.Diagnostics)
	}
	unchanged(t, root, before)
}

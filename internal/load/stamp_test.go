package load

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/rules"
)

// serviceOpts are the options of the query service's Start and Refresh.
func serviceOpts(res *Result) Options {
	o := Options{Compact: true, DropDocs: true, KeepState: true, Stamp: true}
	if res != nil {
		o.Base, o.Stamped = res.State, res.Stamps
	}
	return o
}

// stampedLoad loads root with opts and returns the result and how many
// files it read.
func stampedLoad(t *testing.T, root string, opts Options) (*Result, int64) {
	t.Helper()
	p := &countingProgress{}
	opts.Progress = p
	return loadNoHang(t, root, opts), p.files.Load()
}

// settled starts a service load of the n files under root once every one
// of them gets a stamp: a file is stamped only when its times are not
// recent when it is listed (readfile.Recent).
func settled(t *testing.T, root string, n int) *Result {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		res := loadNoHang(t, root, serviceOpts(nil))
		if !res.Valid() {
			t.Fatalf("the tree is not valid: %v", res.Diagnostics)
		}
		if res.Stamps.Len() == n {
			return res
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d files stamped after 10 s", res.Stamps.Len(), n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// appendSuccessor writes a valid successor of the head of the artifact
// of the generated file f (its head when f is the last of its artifact)
// and returns its root-relative path.
func appendSuccessor(t *testing.T, root string, f gen.File) string {
	t.Helper()
	dir, name, _ := strings.Cut(f.Path, "/")
	rel, data := gen.Successor(dir, strings.TrimSuffix(name, Suffix), f.Data)
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return rel
}

// TestStampedRefreshReadsOnlyWhatChanged checks that a load with Base and
// the stamps of the load that made it reads no file when nothing changed
// (opening none: every file is then unreadable to it) and only the new
// file when a successor was added, and that it accepts what a load that
// reads everything accepts.
func TestStampedRefreshReadsOnlyWhatChanged(t *testing.T) {
	root, tr := genTree(t, 60)
	start := settled(t, root, len(tr.Files))
	if start.Revisions != len(tr.Files) {
		t.Fatalf("start accepted %d revisions, want %d", start.Revisions, len(tr.Files))
	}
	var mu sync.Mutex
	openedPaths := map[string]bool{}
	opened := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(openedPaths)
	}
	readHook = func(point, abs string) {
		if point == "open" {
			mu.Lock()
			defer mu.Unlock()
			openedPaths[abs] = true
		}
	}
	t.Cleanup(func() { readHook = nil })

	same, read := stampedLoad(t, root, serviceOpts(start))
	if read != 0 || opened() != 0 || !same.Valid() {
		t.Fatalf("no change: read %d files, opened %d, diagnostics %v", read, opened(), same.Diagnostics)
	}
	if same.State != start.State || same.Stamps != start.Stamps {
		t.Errorf("no change: a new state or new stamps")
	}

	head := tr.Files[len(tr.Files)-1]
	rel := appendSuccessor(t, root, head)
	grown, read := stampedLoad(t, root, serviceOpts(same))
	if read != 1 || opened() != 1 || !grown.Valid() {
		t.Fatalf("one new file: read %d files, opened %d, diagnostics %v", read, opened(), grown.Diagnostics)
	}
	if grown.Revisions != len(tr.Files)+1 || len(grown.Files) != 1 || grown.Files[0].Path != rel {
		t.Errorf("one new file: %d revisions, files read %d, want %d and %s", grown.Revisions, len(grown.Files), len(tr.Files)+1, rel)
	}
	full := loadNoHang(t, root, Options{Base: start.State, Compact: true, DropDocs: true, KeepState: true})
	if full.Revisions != grown.Revisions || full.Chains != grown.Chains {
		t.Errorf("a full load accepts %d/%d, the stamped one %d/%d", full.Chains, full.Revisions, grown.Chains, grown.Revisions)
	}
	// The new file is stamped once its times are old enough; until then
	// every refresh reads it (and only it) again.
	for prev := grown; ; {
		next, read := stampedLoad(t, root, serviceOpts(prev))
		if read > 1 || !next.Valid() || next.Revisions != grown.Revisions {
			t.Fatalf("refresh after the new file: read %d, %d revisions, %v", read, next.Revisions, next.Diagnostics)
		}
		if read == 0 {
			break
		}
		prev = next
		time.Sleep(50 * time.Millisecond)
	}
	if check := loadNoHang(t, root, Options{DropDocs: true}); check.Stamps != nil {
		t.Errorf("a load without Stamp kept stamps")
	}
}

// validityErrors returns the validity errors of ds: what the manager
// reports of a failed refresh.
func validityErrors(ds diag.List) diag.List {
	var out diag.List
	for _, d := range ds {
		if d.Severity == diag.Error && rules.IsValidity(d.Code) {
			out = append(out, d)
		}
	}
	return out
}

func hasCode(ds diag.List, code string) bool {
	return slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Code == code })
}

// TestStampedRefreshFindsEveryFault injects each fault that a refresh can
// meet into a started tree and checks that a load with the stamps reports
// exactly the validity errors of a load that reads every file, and so
// fails where it fails.
func TestStampedRefreshFindsEveryFault(t *testing.T) {
	t.Parallel()
	for _, code := range gen.Codes() {
		t.Run(code, func(t *testing.T) {
			t.Parallel()
			root, tr := genTree(t, 24)
			start := settled(t, root, len(tr.Files))
			fault, err := gen.Inject(root, code, 3)
			if errors.Is(err, gen.ErrNotExpressible) {
				t.Skip(err)
			}
			if err != nil {
				t.Fatal(err)
			}
			if fault.Cleanup != nil {
				t.Cleanup(func() { _ = fault.Cleanup() })
			}
			opts := serviceOpts(start)
			opts.Examples = fault.Examples
			stamped := loadNoHang(t, root, opts)
			opts.Stamped = nil
			full := loadNoHang(t, root, opts)
			if d := cmp.Diff(validityErrors(full.Diagnostics), validityErrors(stamped.Diagnostics)); d != "" {
				t.Errorf("%s (%s): validity errors differ (-full +stamped):\n%s", code, fault.Note, d)
			}
			if full.Valid() != stamped.Valid() {
				t.Errorf("%s: valid %v with stamps, %v without", code, stamped.Valid(), full.Valid())
			}
		})
	}
}

// TestStampSeesHiddenEdits checks that an accepted file edited in place
// with its size kept and its modification time set back, or only changed
// in mode, is read again and the edit found: the stamp holds the change
// time and the mode.
func TestStampSeesHiddenEdits(t *testing.T) {
	t.Parallel()
	root, tr := genTree(t, 12)
	f := tr.Files[0]
	abs := filepath.Join(root, filepath.FromSlash(f.Path))
	fi, err := os.Lstat(abs)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "linux" {
		t.Skip("the stamp has the change time on Linux only")
	}
	start := settled(t, root, len(tr.Files))
	edited := []byte(strings.Replace(string(f.Data), "JOURNAL_FORMAT 1", "JOURNAL_FORMAT 9", 1))
	if len(edited) != len(f.Data) || string(edited) == string(f.Data) {
		t.Fatal("the edit must keep the size")
	}
	if err := os.WriteFile(abs, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(abs, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	res, read := stampedLoad(t, root, serviceOpts(start))
	if read != 1 || res.Valid() || !hasCode(res.Diagnostics, rules.ValueFormat) {
		t.Errorf("size and time kept: read %d files, diagnostics %v", read, res.Diagnostics)
	}
	if err := os.WriteFile(abs, f.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	restored := settled(t, root, len(tr.Files))
	if err := os.Chmod(abs, 0o600); err != nil {
		t.Fatal(err)
	}
	res, read = stampedLoad(t, root, serviceOpts(restored))
	if read != 1 || !res.Valid() {
		t.Errorf("mode changed: read %d files, diagnostics %v", read, res.Diagnostics)
	}
}

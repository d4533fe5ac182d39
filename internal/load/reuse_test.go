package load

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/r35157/journal-lint/internal/source"
)

// TestPriorReadsOnlyWhatChanged checks that a load with Options.Prior reads
// only the artifact directories that an overlay touches (now or before),
// or, with Rescan, whose files changed on disk, and that its diagnostics
// and visits equal those of a load from scratch.
func TestPriorReadsOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	root, tr := genTree(t, 60)
	dirOf := func(p string) string { return p[:strings.IndexByte(p, '/')] }
	inDir := func(dir string) int {
		n := 0
		for _, f := range tr.Files {
			if dirOf(f.Path) == dir {
				n++
			}
		}
		return n
	}
	a, b := tr.Files[0].Path, tr.Files[len(tr.Files)-1].Path
	if dirOf(a) == dirOf(b) {
		t.Fatal("the generated tree has one artifact")
	}
	load := func(opts Options) (*Result, int64, []int) {
		t.Helper()
		p := &countingProgress{}
		var mu sync.Mutex
		var visits []int
		opts.Progress = p
		of := map[int]bool{}
		opts.Visit = func(a *Artifact) {
			mu.Lock()
			defer mu.Unlock()
			if a.Prior >= 0 {
				visits = append(visits, a.Index)
			}
			if a.Index < 0 || a.Index >= a.Of {
				t.Errorf("artifact %s: Index %d of %d", a.Dir, a.Index, a.Of)
			}
			of[a.Of] = true
		}
		res, err := Load(context.Background(), root, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(of) != 1 || !of[res.Artifacts] {
			t.Errorf("visits say the load has %v artifacts, it has %d", of, res.Artifacts)
		}
		return res, p.total.Load(), visits
	}
	same := func(step string, got *Result, opts Options) {
		t.Helper()
		opts.Prior = nil
		want, _, _ := load(opts)
		if d := cmp.Diff(want.Diagnostics, got.Diagnostics); d != "" {
			t.Errorf("%s: diagnostics differ from a fresh load (-fresh +prior):\n%s", step, d)
		}
		if want.Chains != got.Chains || want.Revisions != got.Revisions || len(want.Files) != len(got.Files) {
			t.Errorf("%s: counts differ", step)
		}
	}

	first, read, _ := load(Options{})
	if read != int64(len(tr.Files)) {
		t.Fatalf("first load read %d files, want %d", read, len(tr.Files))
	}
	// An edit in a's directory: only that directory is read again.
	edited := append([]byte("# draft\n"), tr.Files[0].Data...)
	opts := Options{Prior: first, Source: Overlay(root, nil, map[string][]byte{a: edited})}
	second, read, reused := load(opts)
	if want := inDir(dirOf(a)); read != int64(want) {
		t.Errorf("edit: read %d files, want %d (the directory of %s)", read, want, a)
	}
	if len(reused) != first.Artifacts-1 {
		t.Errorf("edit: %d artifacts taken over, want %d", len(reused), first.Artifacts-1)
	}
	same("edit", second, opts)
	// The buffer moves to b: a's directory (touched before) and b's are read.
	opts = Options{Prior: second, Source: Overlay(root, nil, map[string][]byte{b: tr.Files[len(tr.Files)-1].Data})}
	third, read, _ := load(opts)
	if want := inDir(dirOf(a)) + inDir(dirOf(b)); read != int64(want) {
		t.Errorf("move: read %d files, want %d", read, want)
	}
	same("move", third, opts)
	// Rescan without a change on disk reads nothing but b's directory.
	opts = Options{Prior: third, Source: opts.Source, Rescan: true}
	fourth, read, _ := load(opts)
	if want := inDir(dirOf(b)); read != int64(want) {
		t.Errorf("rescan: read %d files, want %d", read, want)
	}
	// A file of a's directory changes on disk (same size, new time): Rescan
	// reads that directory again, a load without Rescan trusts Prior.
	abs := filepath.Join(root, filepath.FromSlash(a))
	data := []byte(strings.Replace(string(tr.Files[0].Data), "JOURNAL_FORMAT 1", "JOURNAL_FORMAT 2", 1))
	if err := os.WriteFile(abs, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(abs, time.Now(), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	_, read, _ = load(Options{Prior: fourth, Source: opts.Source})
	if want := inDir(dirOf(b)); read != int64(want) {
		t.Errorf("no rescan: read %d files, want %d", read, want)
	}
	opts = Options{Prior: fourth, Source: opts.Source, Rescan: true}
	fifth, read, _ := load(opts)
	if want := inDir(dirOf(a)) + inDir(dirOf(b)); read != int64(want) {
		t.Errorf("rescan after a change: read %d files, want %d", read, want)
	}
	same("rescan after a change", fifth, opts)
}

// unlistedRoot is the disk with a root that can be entered but not
// listed (mode 0300, which a test run as root cannot make).
type unlistedRoot struct{ *source.Disk }

func (u unlistedRoot) ReadDir(rel string, stat bool) ([]source.Entry, error) {
	if rel == "" {
		return nil, &fs.PathError{Op: "open", Path: u.Root, Err: fs.ErrPermission}
	}
	return u.Disk.ReadDir(rel, stat)
}

// A load that takes over from one that could not list the root, with a
// buffer in a new artifact directory, cannot list it either: it reports
// what a fresh load does, not the buffer's directory beside the root's
// error.
func TestPriorOfAnUnlistedRoot(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	text := "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"A tiny UI toolkit\"\n"
	if err := os.MkdirAll(filepath.Join(root, "com.example.widget"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "com.example.widget", "20260110T080000Z.journal"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	disk := unlistedRoot{&source.Disk{Root: root}}
	prior, err := Load(context.Background(), root, Options{Source: disk})
	if err != nil {
		t.Fatal(err)
	}
	buffers := Overlay(root, disk, map[string][]byte{"org.new.c/20260105T090000Z.journal": []byte(strings.ReplaceAll(text, "com.example.widget", "org.new.c")), "org.new.c/x.txt": []byte("x\n")})
	fresh, err := Load(context.Background(), root, Options{Source: buffers})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Load(context.Background(), root, Options{Source: buffers, Prior: prior})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(fresh.Diagnostics, got.Diagnostics); d != "" || len(got.Files) != len(fresh.Files) {
		t.Errorf("with Prior (+) against fresh (-), %d files against %d:\n%s", len(got.Files), len(fresh.Files), d)
	}
}

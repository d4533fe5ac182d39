package load

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/r35157/journal-lint/internal/source"
)

// localDisk is a source.Local over a tree on disk whose local copy holds
// only the files local says, until it stops looking after stopAfter calls
// of ReadLocal (0 for never, below 0 from the start), and which counts every file given and
// every stream.
type localDisk struct {
	*source.Disk
	local     func(rel string) bool
	stopAfter int
	mu        sync.Mutex
	calls     int
	streams   int
	given     map[string]int
}

func (d *localDisk) HasLocal() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.stopAfter == 0 || d.calls < d.stopAfter
}

func (d *localDisk) give(rel string) {
	d.mu.Lock()
	d.given[rel]++
	d.mu.Unlock()
}

func (d *localDisk) ReadLocal(rel string) (source.File, bool) {
	if !d.HasLocal() {
		return source.File{}, false
	}
	d.mu.Lock()
	d.calls++
	d.mu.Unlock()
	if !d.local(rel) {
		return source.File{}, false
	}
	f, err := d.Disk.ReadFile(rel)
	if err != nil {
		return source.File{}, false
	}
	d.give(rel)
	return f, true
}

func (d *localDisk) Stream(ctx context.Context, rels []string, fn func(int, source.File, error) bool) error {
	d.mu.Lock()
	d.streams++
	d.mu.Unlock()
	for i, rel := range rels {
		f, err := d.Disk.ReadFile(rel)
		d.give(rel)
		if !fn(i, f, err) {
			return nil
		}
	}
	return ctx.Err()
}

// A source with a local copy (source.Local) gives each file once, from the
// copy or, for the rest, from its stream, chunk after chunk, and the load
// finds what it finds reading the disk. Once the copy stops giving
// (HasLocal), all that is left is one stream.
func TestLocalCopyThenStream(t *testing.T) {
	// Not parallel: it lowers localChunk while no other test runs.
	defer func(n int) { localChunk = n }(localChunk)
	localChunk = 16
	root, tr := genTree(t, 60)
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Load(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	all := func(string) bool { return true }
	for name, tc := range map[string]struct {
		local      func(string) bool
		stopAfter  int
		maxStreams int
	}{
		"all":     {all, 0, 0},
		"none":    {func(string) bool { return false }, 0, len(tr.Files)},
		"some":    {func(rel string) bool { return len(rel)%3 != 0 }, 0, len(tr.Files)},
		"no copy": {all, -1, 1},
		"stops":   {all, localChunk + 4, 2},
	} {
		src := &localDisk{Disk: &source.Disk{Root: abs}, local: tc.local, stopAfter: tc.stopAfter, given: map[string]int{}}
		got, err := Load(context.Background(), root, Options{Source: src})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want.Diagnostics, got.Diagnostics); d != "" {
			t.Errorf("%s: diagnostics differ from the disk's (-disk +local):\n%s", name, d)
		}
		if len(got.Files) != len(tr.Files) || got.State.RevisionCount() != want.State.RevisionCount() {
			t.Errorf("%s: %d files, %d revisions; want %d, %d", name, len(got.Files), got.State.RevisionCount(), len(tr.Files), want.State.RevisionCount())
		}
		for _, f := range tr.Files {
			if n := src.given[f.Path]; n != 1 {
				t.Errorf("%s: %s given %d times", name, f.Path, n)
			}
		}
		if src.streams > tc.maxStreams {
			t.Errorf("%s: %d streams; want at most %d", name, src.streams, tc.maxStreams)
		}
	}
}

package ref

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/load"
)

// TestRefreshIsAllOrNothing covers the refresh failures of issue 2: a changed
// accepted file is a chain/conflict, a vanished one is fs/revision-missing,
// an invalid new file fails the refresh; each time the service keeps exactly
// the state it had, and a later valid refresh still works.
func TestRefreshIsAllOrNothing(t *testing.T) {
	t.Parallel()
	g, s1, s2 := chainTexts()
	for _, tc := range []struct {
		name, code string
		breakTree  func(root string)
	}{
		{"changed accepted file", "chain/conflict", func(root string) {
			write(t, root, widget+"/20260201T080000Z.journal", append([]byte("# edited\n"), s1...))
		}},
		{"vanished accepted file", "fs/revision-missing", func(root string) {
			if err := os.Remove(filepath.Join(root, widget, "20260201T080000Z.journal")); err != nil {
				t.Fatal(err)
			}
		}},
		{"invalid new file", "value/format", func(root string) {
			write(t, root, widget+"/20260301T080000Z.journal", []byte("JOURNAL_FORMAT 2\n"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := tree(t, map[string][]byte{
				widget + "/20260110T080000Z.journal": g,
				widget + "/20260201T080000Z.journal": s1,
			})
			m, svc := started(t, root)
			ctx := context.Background()
			before := svc.Revisions(coord(widget))
			tc.breakTree(root)
			wantCode(t, m.Refresh(ctx), tc.code)
			after := svc.Revisions(coord(widget))
			if len(after) != len(before) || after[len(after)-1].Digest() != before[len(before)-1].Digest() {
				t.Fatalf("a failed refresh changed the state: %d → %d revisions", len(before), len(after))
			}
			if _, err := m.Service(); err != nil {
				t.Errorf("a failed refresh stopped the service: %v", err)
			}
			// Repair the tree and add a valid successor: refresh works again.
			write(t, root, widget+"/20260201T080000Z.journal", s1)
			write(t, root, widget+"/20260301T080000Z.journal", s2)
			if err := m.Refresh(ctx); err != nil {
				t.Fatalf("refresh after repair: %v", err)
			}
			if head, _ := svc.Latest(coord(widget)); head.Digest().String() != digest(s2) {
				t.Errorf("head after repair is %s", head.Digest())
			}
		})
	}
}

// readCounter counts the files a load reads (load.Options.Progress).
type readCounter struct{ files atomic.Int64 }

func (c *readCounter) Total(int)    {}
func (c *readCounter) Read(n int64) { c.files.Add(1) }

// countingManager returns a started manager of root whose loads count the
// files they read into the returned counter.
func countingManager(t testing.TB, root string) (*manager, *readCounter) {
	t.Helper()
	jm, err := NewServiceManager(root)
	if err != nil {
		t.Fatal(err)
	}
	m := jm.(*manager)
	c := &readCounter{}
	m.load = func(ctx context.Context, root string, opts load.Options) (*load.Result, error) {
		opts.Progress = c
		return load.Load(ctx, root, opts)
	}
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return m, c
}

// refreshReads refreshes m and returns how many files the refresh read.
func refreshReads(t testing.TB, m *manager, c *readCounter) (int64, error) {
	t.Helper()
	before := c.files.Load()
	err := m.Refresh(context.Background())
	return c.files.Load() - before, err
}

// TestRefreshReadsOnlyWhatChanged checks the cost side of requirement
// "Explicit idempotent refresh": once the files are older than the file
// system's clock can confuse with a new write, a refresh that finds no
// change reads no file and one that finds a new successor reads only it,
// while a changed accepted file whose size and modification time were
// kept is still read and fails the refresh, leaving the state as it was.
func TestRefreshReadsOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "journals")
	tr, err := gen.Write(root, gen.Options{Files: 40, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	m, c := countingManager(t, root)
	if got := c.files.Load(); got != int64(len(tr.Files)) {
		t.Fatalf("Start read %d files, want %d", got, len(tr.Files))
	}
	// Files written just before a load get no stamp and are read again by
	// the next refresh, until their times are old enough.
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, err := refreshReads(t, m, c)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("refreshes still read %d files after 10 s", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n, err := refreshReads(t, m, c); n != 0 || err != nil {
		t.Fatalf("unchanged tree: refresh read %d files, err %v", n, err)
	}

	head := tr.Files[len(tr.Files)-1]
	dir, name, _ := strings.Cut(head.Path, "/")
	rel, data := gen.Successor(dir, strings.TrimSuffix(name, load.Suffix), head.Data)
	write(t, root, rel, data)
	n, err := refreshReads(t, m, c)
	if n != 1 || err != nil {
		t.Fatalf("one new successor: refresh read %d files, err %v", n, err)
	}
	svc, _ := m.Service()
	if got, _ := svc.Latest(coord(dir)); got.Digest().String() != digest(data) {
		t.Fatalf("the new successor is not the head of %s", dir)
	}
	revisions := len(svc.Revisions(coord(dir)))

	// An accepted file edited in place, same size, modification time set
	// back: read again and refused.
	first := tr.Files[0]
	abs := filepath.Join(root, filepath.FromSlash(first.Path))
	fi, err := os.Stat(abs)
	if err != nil {
		t.Fatal(err)
	}
	edited := []byte(strings.Replace(string(first.Data), "JOURNAL_FORMAT 1", "JOURNAL_FORMAT 9", 1))
	write(t, root, first.Path, edited)
	if err := os.Chtimes(abs, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	n, err = refreshReads(t, m, c)
	wantCode(t, err, "value/format")
	if n > 2 { // the edited file, and the new successor when it is still recent
		t.Errorf("refresh after an edit read %d files", n)
	}
	if got := len(svc.Revisions(coord(dir))); got != revisions {
		t.Errorf("a failed refresh changed %s from %d to %d revisions", dir, revisions, got)
	}

	// A valid successor that a failed refresh read (old enough for a
	// stamp) is still ingested by the refresh after the repair: a failed
	// refresh keeps the stamps of the state it leaves published.
	rel2, data2 := gen.Successor(dir, strings.TrimSuffix(strings.TrimPrefix(rel, dir+"/"), load.Suffix), data)
	write(t, root, rel2, data2)
	time.Sleep(50 * time.Millisecond)
	_, err = refreshReads(t, m, c)
	wantCode(t, err, "value/format")
	write(t, root, first.Path, first.Data)
	if _, err := refreshReads(t, m, c); err != nil {
		t.Fatalf("refresh after the repair: %v", err)
	}
	if got, _ := svc.Latest(coord(dir)); got.Digest().String() != digest(data2) {
		t.Errorf("the successor added during the failed refresh is not the head of %s", dir)
	}
}

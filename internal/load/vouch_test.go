package load

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/r35157/journal-lint/internal/readfile"
	"github.com/r35157/journal-lint/internal/source"
)

// vouchingDisk is a tree on disk that vouches for the addresses addrs
// (source.Voucher), as the work tree does for the files git reports clean.
type vouchingDisk struct {
	*source.Disk
	addrs map[string]string
}

func (d *vouchingDisk) Vouch(rel string) (string, bool) {
	a, ok := d.addrs[rel]
	return a, ok
}

// missingMemo has no record, and remembers the key each artifact was
// asked for by and the files it was told were not as vouched for
// (Misvoucher).
type missingMemo struct {
	mu         sync.Mutex
	asked      map[string]Key
	misvouched []string
}

func (m *missingMemo) Misvouched(path string) {
	m.mu.Lock()
	m.misvouched = append(m.misvouched, path)
	m.mu.Unlock()
}

func (m *missingMemo) Lookup(dir string, _ []string, key Key) (*Record, bool) {
	m.mu.Lock()
	m.asked[dir] = key
	m.mu.Unlock()
	return nil, false
}

// An artifact asked for by vouched addresses and then read keeps its key
// only when every file read has the address vouched for: a file edited
// after git looked at it, or one that could not be read, leaves its
// artifact with no key, so that nothing is kept under a key that names
// other bytes. A memo that is a Misvoucher is told of the file read with
// other bytes.
func TestReadKeepsAVouchedKeyOnlyForTheBytesVouchedFor(t *testing.T) {
	t.Parallel()
	root, tr := genTree(t, 40)
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	disk := &source.Disk{Root: abs}
	src := &vouchingDisk{Disk: disk, addrs: map[string]string{}}
	for _, f := range tr.Files {
		b, err := os.ReadFile(filepath.Join(abs, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		src.addrs[f.Path] = disk.AddressOf(b)
	}
	// After git looked: one file edited, another grown past the limit.
	edited, grown := tr.Files[0].Path, tr.Files[len(tr.Files)-1].Path
	dirOf := func(p string) string { d, _, _ := strings.Cut(p, "/"); return d }
	if dirOf(edited) == dirOf(grown) {
		t.Fatal("the two files share an artifact: the test proves less")
	}
	b, _ := os.ReadFile(filepath.Join(abs, filepath.FromSlash(edited)))
	if err := os.WriteFile(filepath.Join(abs, filepath.FromSlash(edited)), bytes.Replace(b, []byte("LICENSE "), []byte("LICENSX "), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(abs, filepath.FromSlash(grown)), make([]byte, readfile.MaxJournal+1), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &missingMemo{asked: map[string]Key{}}
	var mu sync.Mutex
	visited := map[string]Key{}
	_, err = Load(context.Background(), root, Options{Source: src, Memo: m, DropDocs: true, Visit: func(a *Artifact) {
		mu.Lock()
		visited[a.Dir] = a.Key
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(visited) < 3 {
		t.Fatalf("%d artifacts visited", len(visited))
	}
	// The memo is told of the edited file, read with other bytes; not of
	// the one that could not be read.
	if len(m.misvouched) != 1 || m.misvouched[0] != edited {
		t.Errorf("the memo was told of %q, want [%q]", m.misvouched, edited)
	}
	for dir, key := range visited {
		asked, ok := m.asked[dir]
		switch {
		case !ok:
			t.Errorf("%s: read without asking the memo by its vouched addresses", dir)
		case dir == dirOf(edited) || dir == dirOf(grown):
			if key != (Key{}) {
				t.Errorf("%s: a file's bytes are not those vouched for, yet the artifact keeps a key", dir)
			}
		case key != asked:
			t.Errorf("%s: visited with another key than it was asked for by", dir)
		}
	}
}

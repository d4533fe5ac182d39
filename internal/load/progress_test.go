package load

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// countingProgress records what a load reports, as a progress line would.
type countingProgress struct {
	totals       atomic.Int32 // calls of Total
	total        atomic.Int64
	early        atomic.Bool // a Read came before Total
	files, bytes atomic.Int64
}

func (p *countingProgress) Total(files int) {
	p.totals.Add(1)
	p.total.Store(int64(files))
}

func (p *countingProgress) Read(bytes int64) {
	if p.totals.Load() == 0 {
		p.early.Store(true)
	}
	p.files.Add(1)
	p.bytes.Add(bytes)
}

// TestLoadProgress checks that Options.Progress hears the number of files
// once before any read, and then every file with its exact size, from
// concurrent workers.
func TestLoadProgress(t *testing.T) {
	t.Parallel()
	root, _ := genTree(t, 60)
	var want int64
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err == nil {
			want += fi.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	p := &countingProgress{}
	res := loadNoHang(t, root, Options{Workers: 4, Progress: p, DropDocs: true})
	if got := p.totals.Load(); got != 1 {
		t.Errorf("Total called %d times, want once", got)
	}
	if p.early.Load() {
		t.Error("Read was called before Total")
	}
	if got, n := p.total.Load(), int64(len(res.Files)); got != n || got == 0 {
		t.Errorf("Total(%d), want the %d files read", got, n)
	}
	if got := p.files.Load(); got != int64(len(res.Files)) {
		t.Errorf("Read called %d times, want once per file (%d)", got, len(res.Files))
	}
	if got := p.bytes.Load(); got != want {
		t.Errorf("Read reported %d bytes, want the tree's %d", got, want)
	}
}

package ref

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/load"
)

// benchTree returns a writable Journal tree for BenchmarkRefresh: a copy of
// the tree named by JOURNAL_BENCH_ROOT (the trees of `make bench-scale`,
// which stay untouched), else a generated tree of 10,000 files (seed 2, as
// `make bench-scale`). It returns the root and one head revision of it.
func benchTree(b *testing.B) (string, gen.File) {
	b.Helper()
	root := filepath.Join(b.TempDir(), "journals")
	src := os.Getenv("JOURNAL_BENCH_ROOT")
	if src == "" {
		tr, err := gen.Write(root, gen.Options{Files: 10000, Seed: 2})
		if err != nil {
			b.Fatal(err)
		}
		return root, tr.Files[len(tr.Files)-1]
	}
	var head gen.File
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(root, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		head = gen.File{Path: filepath.ToSlash(rel), Data: data} // the last file is a head
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
	return root, head
}

// BenchmarkRefresh measures Refresh of a started manager next to its
// Start, on the tree of benchTree: "start" starts a manager, "unchanged"
// refreshes a tree where nothing changed, and "one-new-file" adds one
// valid successor to an artifact (outside the timing, and older than the
// file system's clock granularity when the refresh lists it) and
// refreshes. read-files/op is how many files each operation read.
func BenchmarkRefresh(b *testing.B) {
	root, head := benchTree(b)
	ctx := context.Background()
	b.Run("start", func(b *testing.B) {
		b.ReportAllocs()
		var c *readCounter
		for b.Loop() {
			var m *manager
			m, c = countingManager(b, root)
			b.StopTimer()
			if err := m.Stop(ctx); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		b.ReportMetric(float64(c.files.Load()), "read-files/op")
	})
	m, c := countingManager(b, root)
	defer m.Stop(ctx)
	if _, err := refreshReads(b, m, c); err != nil { // the files too recent for a stamp at Start
		b.Fatal(err)
	}
	b.Run("unchanged", func(b *testing.B) {
		b.ReportAllocs()
		var read int64
		for b.Loop() {
			n, err := refreshReads(b, m, c)
			if err != nil {
				b.Fatal(err)
			}
			read += n
		}
		b.ReportMetric(float64(read)/float64(b.N), "read-files/op")
	})
	b.Run("one-new-file", func(b *testing.B) {
		b.ReportAllocs()
		var read int64
		for b.Loop() {
			b.StopTimer()
			dir, name, _ := strings.Cut(head.Path, "/")
			rel, data := gen.Successor(dir, strings.TrimSuffix(name, load.Suffix), head.Data)
			write(b, root, rel, data)
			head = gen.File{Path: rel, Data: data}
			time.Sleep(30 * time.Millisecond) // older than readfile's racy window
			b.StartTimer()
			n, err := refreshReads(b, m, c)
			if err != nil {
				b.Fatal(err)
			}
			read += n
		}
		b.ReportMetric(float64(read)/float64(b.N), "read-files/op")
	})
}

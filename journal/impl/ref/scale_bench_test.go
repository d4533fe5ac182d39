package ref_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/r35157/journal-lint/journal/impl/ref"
)

// BenchmarkStartTree starts a ServiceManager on the Journal tree named by
// the environment variable JOURNAL_BENCH_ROOT (`make bench-scale` sets it
// to its generated trees) and reports the text throughput and the heap the
// started service holds per accepted revision, measured after a garbage
// collection with the manager still running. Without the variable it is
// skipped.
func BenchmarkStartTree(b *testing.B) {
	root := os.Getenv("JOURNAL_BENCH_ROOT")
	if root == "" {
		b.Skip("JOURNAL_BENCH_ROOT is not set")
	}
	var size int64
	var files int
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				size += fi.Size()
				files++
			}
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	var held uint64
	for b.Loop() {
		var before runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		m, err := ref.NewServiceManager(root)
		if err != nil {
			b.Fatal(err)
		}
		if err := m.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		var after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&after)
		held = after.HeapAlloc - before.HeapAlloc
		if err := m.Stop(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(held)/float64(files), "heap-B/revision")
	b.ReportMetric(float64(held)/float64(size), "heap/text")
}

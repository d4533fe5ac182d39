package check_test

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"sync/atomic"
	"testing"

	"github.com/r35157/journal-lint/internal/check"
)

type hp struct {
	n    atomic.Int64
	done atomic.Bool
}

func (h *hp) Total(int) {}
func (h *hp) Read(int64) {
	if h.n.Add(1) >= 85000 && h.done.CompareAndSwap(false, true) {
		runtime.GC()
		f, _ := os.Create("/tmp/heap_mid.prof")
		pprof.WriteHeapProfile(f)
		f.Close()
	}
}
func TestHeapTmp(t *testing.T) {
	root := os.Getenv("JOURNAL_BENCH_ROOT")
	if root == "" {
		t.Skip()
	}
	_, err := check.Run(context.Background(), check.Options{Root: root, Progress: &hp{}})
	if err != nil {
		t.Fatal(err)
	}
}

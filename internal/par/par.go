// Package par runs independent pieces of work on every core: the one
// worker pool that the loader, the check and the renderers share for work
// whose results go into slots by index, so that the outcome does not depend
// on which goroutine did what.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls f(i) once for every i from 0 to n-1 and returns when every call
// has returned. The calls run on workers goroutines (GOMAXPROCS when
// workers ≤ 0, never more than n), each taking the next index in turn, so f
// must be safe to call for distinct indexes at once.
func For(n, workers int, f func(i int)) {
	ForWorkers(n, workers, func() func(int) { return f })
}

// ForWorkers is [For] with state per goroutine: each goroutine calls
// newWorker once and calls the function it returns for the indexes it
// takes (for example a memo that is not safe to share).
func ForWorkers(n, workers int, newWorker func() func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := newWorker()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(i)
			}
		}()
	}
	wg.Wait()
}

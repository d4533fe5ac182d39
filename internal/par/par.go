// Package par runs independent pieces of work on every core: the one
// worker pool that the loader, the check and the renderers share for work
// whose results go into slots by index, so that the outcome does not depend
// on which goroutine did what.
package par

import (
	"fmt"
	"runtime"
	"runtime/debug"
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
//
// A panic in a call does not crash the process from its goroutine: the
// workers take no further index, and once every call in progress has
// returned, ForWorkers panics on the caller's goroutine with a [*Panic]
// that holds the first value and its stack, so that the caller's recover
// (journal-lint's internal-error report) sees it.
func ForWorkers(n, workers int, newWorker func() func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var first atomic.Pointer[Panic]
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if v := recover(); v != nil {
					first.CompareAndSwap(nil, &Panic{Value: v, Stack: debug.Stack()})
					next.Store(int64(n)) // no index is taken any more
				}
			}()
			f := newWorker()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(i)
			}
		}()
	}
	wg.Wait()
	if p := first.Load(); p != nil {
		panic(p)
	}
}

// Panic is the value [ForWorkers] (and [For]) panics with when a call
// panicked: the value the call panicked with and the stack of its
// goroutine at that moment.
type Panic struct {
	Value any
	Stack []byte
}

// Error returns the value and the worker's stack, as a crash would have
// printed them.
func (p *Panic) Error() string {
	return fmt.Sprintf("%v\n\nin a worker goroutine:\n%s", p.Value, p.Stack)
}

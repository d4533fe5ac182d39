package par

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestFor: every index is visited exactly once, with any number of
// workers, and with none to visit.
func TestFor(t *testing.T) {
	t.Parallel()
	for _, workers := range []int{0, 1, 3, 100} {
		for _, n := range []int{0, 1, 7, 1000} {
			seen := make([]int32, n)
			For(n, workers, func(i int) { atomic.AddInt32(&seen[i], 1) })
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("workers %d, n %d: index %d visited %d times", workers, n, i, c)
				}
			}
		}
	}
}

// TestForWorkers: each goroutine makes its worker once, and no more
// goroutines start than there are indexes.
func TestForWorkers(t *testing.T) {
	t.Parallel()
	var made, calls atomic.Int32
	ForWorkers(2, 8, func() func(int) {
		made.Add(1)
		return func(int) { calls.Add(1) }
	})
	if made.Load() > 2 || calls.Load() != 2 {
		t.Errorf("%d workers made, %d calls; want at most 2 and 2", made.Load(), calls.Load())
	}
}

// TestPanicReachesTheCaller: a call that panics stops the workers taking
// indexes and the panic is raised again on the caller's goroutine, with
// the value and the worker's stack.
func TestPanicReachesTheCaller(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	defer func() {
		p, ok := recover().(*Panic)
		if !ok || p.Value != "boom" || !strings.Contains(p.Error(), "boom") || len(p.Stack) == 0 {
			t.Errorf("recovered %#v, want a *Panic of \"boom\" with a stack", p)
		}
		if n := calls.Load(); n >= 1000 {
			t.Errorf("the workers went on after the panic: %d calls", n)
		}
	}()
	For(1000, 2, func(i int) {
		calls.Add(1)
		if i == 3 {
			panic("boom")
		}
		if i > 3 {
			time.Sleep(time.Millisecond) // let the panic be seen before the end
		}
	})
	t.Error("For returned after a panic")
}

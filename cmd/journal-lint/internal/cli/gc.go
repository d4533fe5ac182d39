package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The garbage collector's goal for journal-lint check, when the GOGC
// environment variable does not set one. Go lets the heap grow by as much
// as its live size between two collections (GOGC=100). A check's live heap
// is what it keeps of every file of the tree (the summaries of the load,
// the chain heads), and nearly all else it allocates is parse state that
// dies with its artifact: on a large tree the default goal doubles the
// summaries for nothing, while on a small one the collections are cheap
// and more of them would cost CPU for a few megabytes. So after each
// collection check lets the heap grow by gcRoom or by half the live heap,
// whichever is more, and never by more than the live heap: on the
// generated 100,000-file tree that takes about a third off the peak
// memory for a few percent more CPU, and the 10,000-file tree runs as with
// the default (docs/performance.md, "Known limits").
const (
	gcRoom       = 16 << 20 // bytes
	minGCPercent = 50
)

// gcPercent returns the GC percent for a live heap of live bytes: the
// percent that lets the heap grow by gcRoom, between minGCPercent and 100.
func gcPercent(live uint64) int {
	if live == 0 {
		return 100
	}
	return int(max(minGCPercent, min(100, gcRoom*100/live)))
}

// setCheckGC keeps the goal above after every collection for the rest of
// the process, unless GOGC is set (then it rules, as for any Go program).
// Calls after the first do nothing, so that a process running several
// checks follows the collections once.
func setCheckGC() { checkGCOnce.Do(followCollections) }

var checkGCOnce sync.Once

// followCollections is setCheckGC's first call.
func followCollections() {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		// A finalizer runs once the collector found its object
		// unreachable, that is after a collection: it sets the percent
		// for the next one and arms itself again.
		runtime.SetFinalizer(new(gcMark), func(*gcMark) {
			metrics.Read(sample)
			debug.SetGCPercent(gcPercent(sample[0].Value.Uint64()))
			arm()
		})
	}
	arm()
}

// gcMark is the object whose finalizer follows the collections.
type gcMark struct{ _ [16]byte }

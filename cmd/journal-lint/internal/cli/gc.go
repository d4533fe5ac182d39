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
// the chain heads), and nearly all else it allocates while the tree loads
// is parse state that dies with its artifact: on a large tree the default
// goal doubles the summaries for nothing, while on a small one the
// collections are cheap and more of them would cost CPU for a few
// megabytes. So after each collection check lets the heap grow by gcRoom
// or by a part of the live heap, whichever is more, and never by more than
// the live heap: half of it while the tree loads, a quarter once it is
// loaded (checkLoaded), since the rest of the run (the head-only rules,
// the git gate, the report) allocates little beside what the load keeps.
// On the generated 100,000-file tree the first takes about a third off the
// peak memory for a few percent more CPU, and the second another tenth for
// a few collections more; the 10,000-file tree runs within gcRoom
// (docs/performance.md, "Known limits").
const (
	gcRoom = 16 << 20 // bytes
	// The room over a large live heap is the live heap divided by
	// these, while the tree loads and once it is loaded.
	loadRoomDivisor   = 2
	loadedRoomDivisor = 4
)

// gcPercent returns the GC percent for a live heap of live bytes, once
// the tree is loaded or while it loads: the percent that lets the heap
// grow by gcRoom or by the live heap divided by loadedRoomDivisor or
// loadRoomDivisor, whichever is more, and at most 100.
func gcPercent(live uint64, loaded bool) int {
	if live == 0 {
		return 100
	}
	divisor := uint64(loadRoomDivisor)
	if loaded {
		divisor = loadedRoomDivisor
	}
	return int(min(100, max(gcRoom, live/divisor)*100/live))
}

// setCheckGC keeps the goal above after every collection for the rest of
// the process, unless GOGC is set (then it rules, as for any Go program):
// the goal of a tree that loads, until checkLoaded. A process running
// several checks calls it before each; the collections are followed once.
func setCheckGC() {
	if userGOGC() {
		return
	}
	checkGCOnce.Do(followCollections)
	setLoaded(false)
}

// checkLoaded is check.Options.Loaded: from then on the goal is the one
// for a loaded tree, until the next setCheckGC.
func checkLoaded() {
	if !userGOGC() {
		setLoaded(true)
	}
}

// userGOGC reports whether the GOGC environment variable sets the goal:
// then it rules, and check follows nothing.
func userGOGC() bool {
	_, set := os.LookupEnv("GOGC")
	return set
}

var (
	checkGCOnce sync.Once
	// gcMu orders the changes of loaded and of the percent, so that a
	// collection's follower does not put back the goal of a tree that
	// loads after checkLoaded.
	gcMu   sync.Mutex
	loaded bool // the goal is a loaded tree's
)

// setLoaded records whether the tree is loaded and sets the percent for
// it (setGCPercent).
func setLoaded(v bool) {
	gcMu.Lock()
	defer gcMu.Unlock()
	loaded = v
	setGCPercent()
}

// setGCPercent sets the percent for the live heap of the last collection
// (gcPercent) and loaded; the caller holds gcMu.
func setGCPercent() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	debug.SetGCPercent(gcPercent(sample[0].Value.Uint64(), loaded))
}

// followCollections is setCheckGC's first call: after each collection, it
// sets the percent for the next one (setGCPercent).
func followCollections() {
	var arm func()
	arm = func() {
		// A finalizer runs once the collector found its object
		// unreachable, that is after a collection: it sets the percent
		// for the next one and arms itself again.
		runtime.SetFinalizer(new(gcMark), func(*gcMark) {
			gcMu.Lock()
			setGCPercent()
			gcMu.Unlock()
			arm()
		})
	}
	arm()
}

// gcMark is the object whose finalizer follows the collections.
type gcMark struct{ _ [16]byte }

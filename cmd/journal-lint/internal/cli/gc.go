package cli

import (
	"os"
	"runtime/debug"
)

// checkGCPercent is the garbage collector's goal for journal-lint check when
// the GOGC environment variable is not set: between two collections the heap
// may grow by half its live size instead of all of it (Go's default of 100).
// A check's live heap is what it keeps of every file of the tree (the
// summaries of the load, the chain heads), and nearly all else it allocates
// is parse state that dies with its artifact, so the default goal doubles the
// summaries for nothing: on the generated 100,000-file tree 50 takes about a
// quarter off the peak memory for about 3 % more CPU (docs/performance.md,
// "Scale, fifth round").
const checkGCPercent = 50

// setCheckGC sets checkGCPercent, unless GOGC is set (then it rules, as for
// any Go program).
func setCheckGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(checkGCPercent)
	}
}

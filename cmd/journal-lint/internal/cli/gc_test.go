package cli

import (
	"runtime/debug"
	"testing"
)

// TestGCPercent: the heap may grow by gcRoom over a small live heap (at
// most 100 %), and by half a large one while the tree loads, a quarter
// once it is loaded.
func TestGCPercent(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		live   uint64
		loaded bool
		want   int
	}{
		{0, false, 100},
		{8 << 20, false, 100},
		{gcRoom, false, 100},
		{24 << 20, false, 66},
		{32 << 20, false, 50},
		{500 << 20, false, 50},
		{8 << 20, true, 100},
		{32 << 20, true, 50},
		{64 << 20, true, 25},
		{500 << 20, true, 25},
	} {
		if got := gcPercent(c.live, c.loaded); got != c.want {
			t.Errorf("gcPercent(%d MiB, loaded %v) = %d, want %d", c.live>>20, c.loaded, got, c.want)
		}
	}
}

// TestLoadedUntilTheNextCheck: the goal of a loaded tree holds from
// checkLoaded until the next check of the process starts (setCheckGC),
// which is back to a tree that loads.
func TestLoadedUntilTheNextCheck(t *testing.T) {
	if userGOGC() {
		t.Skip("GOGC is set: the collector's goal is the user's")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	isLoaded := func() bool {
		gcMu.Lock()
		defer gcMu.Unlock()
		return loaded
	}
	setCheckGC()
	if isLoaded() {
		t.Fatal("loaded after setCheckGC")
	}
	checkLoaded()
	if !isLoaded() {
		t.Fatal("not loaded after checkLoaded")
	}
	setCheckGC()
	if isLoaded() {
		t.Error("still loaded when the next check starts")
	}
}

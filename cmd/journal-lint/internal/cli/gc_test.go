package cli

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestSetCheckGC: check sets its own goal for the garbage collector only
// when GOGC does not say one.
func TestSetCheckGC(t *testing.T) {
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })

	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	setCheckGC()
	if got := debug.SetGCPercent(100); got != checkGCPercent {
		t.Errorf("without GOGC the goal is %d, want %d", got, checkGCPercent)
	}

	t.Setenv("GOGC", "200")
	setCheckGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set the goal changed to %d", got)
	}
}

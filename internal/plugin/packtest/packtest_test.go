package packtest

import (
	"flag"
	"io"
	"runtime"
	"testing"
)

// TestRaiseParallel: a test binary of Main runs parallelPerCPU parallel
// tests per CPU, and as many as -test.parallel says when it is given.
func TestRaiseParallel(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int
	}{
		{nil, parallelPerCPU * runtime.GOMAXPROCS(0)},
		{[]string{"-test.v"}, parallelPerCPU * runtime.GOMAXPROCS(0)},
		{[]string{"-test.parallel=3"}, 3},
		{[]string{"-test.parallel", "1"}, 1},
	} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		parallel := fs.Int("test.parallel", runtime.GOMAXPROCS(0), "")
		fs.Bool("test.v", false, "")
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		raiseParallel(fs)
		if *parallel != c.want {
			t.Errorf("%q: test.parallel = %d, want %d", c.args, *parallel, c.want)
		}
	}
}

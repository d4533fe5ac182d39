// Package longtest sizes the long tests: the equivalence and scale tests
// that hold an optimised path to the simple one on generated trees, the
// tests whose corpus is large, and the tests that run journal-lint as
// hundreds of processes. A plain `go test` runs them whole.
// `go test -short`, the inner loop, runs them small or not at all, and so
// does the race detector, whose instrumentation makes them several times
// slower and which finds on a small tree what it would find on a large
// one; `make test` runs every test under the race detector and then the
// long ones whole without it (LONG_TESTS in the Makefile, which
// TestMakefileListsLongTests holds to the tests that call this package).
package longtest

import "testing"

// Race reports whether the race detector is on.
const Race = race

// Small reports whether a long test runs small: under -short or under the
// race detector.
func Small() bool { return testing.Short() || Race }

// Size returns full, or small when the test runs small ([Small]).
func Size(full, small int) int {
	if Small() {
		return small
	}
	return full
}

// Whole marks a long test that has no small form: it skips the test when
// tests run small ([Small]). Its code runs on one goroutine, where the race
// detector has nothing to find, or a smaller test takes the same paths
// under the detector.
func Whole(t testing.TB) {
	t.Helper()
	if Small() {
		t.Skip("a long test: go test without -short and -race runs it (make test does)")
	}
}

// NoRace marks a long test whose work is processes of journal-lint (the
// CLI's scripts): it skips the test under the race detector, which makes
// each process start and run several times slower, and runs it otherwise,
// under -short too. The detector still sees the same code in-process, in
// the tests that call the CLI and the check directly.
func NoRace(t testing.TB) {
	t.Helper()
	if Race {
		t.Skip("runs journal-lint as processes: go test without -race runs it (make test does)")
	}
}

// Package longtest sizes the long tests: the equivalence and scale tests
// that hold an optimised path to the simple one on generated trees, and
// the tests whose corpus is large. A plain `go test` runs them whole.
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

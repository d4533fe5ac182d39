package lsp

import (
	"context"
	"testing"
)

// HoldAfterCheck makes every check call f after it ran and before its
// diagnostics are published (ctx ends when the check is cancelled), until
// the test ends. Call it before the server starts.
func HoldAfterCheck(t testing.TB, f func(ctx context.Context, root string)) {
	hooks.checked.Store(&f)
	t.Cleanup(func() { hooks.checked.Store(nil) })
}

// HoldParse makes every parse of a buffer for a request call f first,
// until the test ends. Call it before the server starts.
func HoldParse(t testing.TB, f func()) {
	hooks.parse.Store(&f)
	t.Cleanup(func() { hooks.parse.Store(nil) })
}

// OnShutdown makes the server call f when shutdown arrives, until the
// test ends. Call it before the server starts.
func OnShutdown(t testing.TB, f func()) {
	hooks.shutdown.Store(&f)
	t.Cleanup(func() { hooks.shutdown.Store(nil) })
}

// OnAwaitFullCheck makes a request that waits for a check call f first,
// until the test ends. Call it before the server starts.
func OnAwaitFullCheck(t testing.TB, f func()) {
	hooks.awaiting.Store(&f)
	t.Cleanup(func() { hooks.awaiting.Store(nil) })
}

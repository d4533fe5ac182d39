package gitrepo

import (
	"context"
	"errors"
	"testing"
)

// TestMemo: under WithMemo a question is asked once and its answer (or
// error) handed out again, as a copy; under WithoutMemo, or without
// either, every time; an answer cut short by a cancelled context, or
// longer than memoMax, is not remembered.
func TestMemo(t *testing.T) {
	t.Parallel()
	asked := 0
	ask := func() ([]byte, error) { asked++; return []byte("answer"), nil }
	ctx := WithMemo(context.Background())
	for range 3 {
		out, err := remembered(ctx, []string{"git", "dir", "rev-parse"}, ask)
		if err != nil || string(out) != "answer" {
			t.Fatalf("remembered = %q, %v", out, err)
		}
		out[0] = 'X' // the caller owns its copy
	}
	if asked != 1 {
		t.Errorf("asked %d times under WithMemo, want 1", asked)
	}
	if _, err := remembered(ctx, []string{"git", "other dir", "rev-parse"}, ask); err != nil || asked != 2 {
		t.Errorf("another question: asked %d times, %v", asked, err)
	}
	failing := errors.New("not a git repository")
	fails := 0
	for range 2 {
		if _, err := remembered(ctx, []string{"git", "x"}, func() ([]byte, error) { fails++; return nil, failing }); err != failing {
			t.Errorf("error = %v, want %v", err, failing)
		}
	}
	if fails != 1 {
		t.Errorf("a failing question was asked %d times, want 1", fails)
	}
	for _, c := range []context.Context{context.Background(), WithoutMemo(ctx)} {
		asked = 0
		remembered(c, []string{"git", "dir", "rev-parse"}, ask)
		remembered(c, []string{"git", "dir", "rev-parse"}, ask)
		if asked != 2 {
			t.Errorf("asked %d times without a memo, want 2", asked)
		}
	}
	long := make([]byte, memoMax+1)
	asked = 0
	for range 2 {
		remembered(ctx, []string{"git", "ls-files"}, func() ([]byte, error) { asked++; return long, nil })
	}
	if asked != 2 {
		t.Errorf("a long answer was asked for %d times, want 2 (not remembered)", asked)
	}
	cctx, cancel := context.WithCancel(WithMemo(context.Background()))
	cancel()
	asked = 0
	remembered(cctx, []string{"q"}, ask)
	remembered(cctx, []string{"q"}, ask)
	if asked != 2 {
		t.Errorf("asked %d times under a cancelled context, want 2", asked)
	}
}

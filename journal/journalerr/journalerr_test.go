package journalerr

import (
	"errors"
	"fmt"
	"testing"
)

func TestInvalidErrorMatching(t *testing.T) {
	t.Parallel()
	chain := &InvalidError{Op: "start", Diagnostics: []Diagnostic{
		{Code: "chain/conflict", Severity: "error", Message: "different text", Path: "a.b/20260101T000000Z.journal", Line: 3, Column: 17},
		{Code: "syntax/arguments", Severity: "error", Message: "bad", Path: "a.b/20260102T000000Z.journal", Line: 1, Column: 1},
	}}
	wrapped := fmt.Errorf("loading: %w", chain)
	for _, tc := range []struct {
		target error
		want   bool
	}{
		{ErrInvalidJournal, true},
		{ErrChain, true},
		{ErrConflict, true},
		{ErrInvalidRoot, false},
		{ErrUnavailable, false},
	} {
		if got := errors.Is(wrapped, tc.target); got != tc.want {
			t.Errorf("errors.Is(%v) = %v, want %v", tc.target, got, tc.want)
		}
	}
	root := &InvalidError{Op: "start", Diagnostics: []Diagnostic{{Code: "fs/root-missing", Severity: "error", Message: "gone"}}}
	if !errors.Is(root, ErrInvalidRoot) || errors.Is(root, ErrChain) {
		t.Error("a root diagnostic must match ErrInvalidRoot only")
	}
	var ie *InvalidError
	if !errors.As(wrapped, &ie) || len(ie.Diagnostics) != 2 {
		t.Fatal("errors.As lost the diagnostics")
	}
	want := "start: a.b/20260101T000000Z.journal:3:17: error: different text [chain/conflict] (and 1 more)"
	if got := chain.Error(); got != want {
		t.Errorf("Error() = %q\nwant      %q", got, want)
	}
	if got := root.Diagnostics[0].String(); got != "error: gone [fs/root-missing]" {
		t.Errorf("root diagnostic String() = %q", got)
	}
}

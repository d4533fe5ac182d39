package diff

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// TestEditScriptIsShortest: editScript's steps turn a into b, and their
// insertions and deletions number len(a)+len(b)-2·LCS (the shortest
// script), for random word lists over a small alphabet; past maxD it
// gives up.
func TestEditScriptIsShortest(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	words := func() []string {
		out := make([]string, rng.IntN(12))
		for i := range out {
			out[i] = string(rune('a' + rng.IntN(3)))
		}
		return out
	}
	for range 2000 {
		a, b := words(), words()
		lcs := make([][]int, len(a)+1)
		for i := range lcs {
			lcs[i] = make([]int, len(b)+1)
		}
		for i := len(a) - 1; i >= 0; i-- {
			for j := len(b) - 1; j >= 0; j-- {
				if a[i] == b[j] {
					lcs[i][j] = 1 + lcs[i+1][j+1]
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		want := len(a) + len(b) - 2*lcs[0][0]
		e, ok := editScript(a, b, 64)
		if !ok {
			t.Fatalf("%q → %q: gave up", a, b)
		}
		var gotA, gotB []string
		d := 0
		for i, op := range e.ops {
			if op != diffmatchpatch.DiffInsert {
				gotA = append(gotA, e.steps[i])
			}
			if op != diffmatchpatch.DiffDelete {
				gotB = append(gotB, e.steps[i])
			}
			if op != diffmatchpatch.DiffEqual {
				d++
			}
		}
		if !slices.Equal(gotA, a) || !slices.Equal(gotB, b) || d != want {
			t.Fatalf("%q → %q: %v %q, %d edits, want %d", a, b, e.ops, e.steps, d, want)
		}
		if _, ok := editScript(a, b, want-1); want > 0 && ok {
			t.Fatalf("%q → %q: found a script of fewer than %d edits", a, b, want)
		}
	}
}

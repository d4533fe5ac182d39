package cli

import "testing"

// TestGCPercent: the heap may grow by gcRoom over a small live heap (at
// most 100 %), and by half a large one.
func TestGCPercent(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 100},
		{8 << 20, 100},
		{gcRoom, 100},
		{24 << 20, 66},
		{32 << 20, 50},
		{500 << 20, 50},
	} {
		if got := gcPercent(c.live); got != c.want {
			t.Errorf("gcPercent(%d MiB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}

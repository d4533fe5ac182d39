package hashpos

import (
	"fmt"
	"hash/maphash"
	"testing"
)

// TestFindsEveryKeptKey: every key the table kept is found at its
// position, by FindString and by a hash written in parts; a key left
// out, or never in the list, is not; an empty table finds nothing.
func TestFindsEveryKeptKey(t *testing.T) {
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprintf("dir%d/%d.journal", i%37, i/2) // each key twice in a row
	}
	tab := New(len(keys), func(i int) (string, bool) { return keys[i], i%2 == 0 })
	for i := 0; i < len(keys); i += 2 {
		k := keys[i]
		is := func(j int) bool { return keys[j] == k }
		if got, ok := tab.FindString(k, is); !ok || got != i {
			t.Fatalf("FindString(%q) = %d, %v; want %d", k, got, ok, i)
		}
		var h maphash.Hash
		h.SetSeed(tab.Seed())
		h.WriteString(fmt.Sprintf("dir%d", (i)%37))
		h.WriteString(k[len(fmt.Sprintf("dir%d", i%37)):])
		if got, ok := tab.Find(h.Sum64(), is); !ok || got != i {
			t.Fatalf("Find of %q hashed in parts = %d, %v; want %d", k, got, ok, i)
		}
	}
	if _, ok := tab.FindString("dir1/none.journal", func(j int) bool { return keys[j] == "dir1/none.journal" }); ok {
		t.Error("found a key never in the list")
	}
	empty := New(0, nil)
	if _, ok := empty.FindString("x", func(int) bool { return true }); ok {
		t.Error("an empty table found a key")
	}
	var zero Table
	if _, ok := zero.FindString("x", func(int) bool { return true }); ok {
		t.Error("the zero table found a key")
	}
}

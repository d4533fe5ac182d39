// Package hashpos finds the position of a key in a list by the key's
// hash, for a list that holds its keys itself (sorted coordinates, an
// index listing): an open-addressing table of positions, uint32s that
// the garbage collector need not scan, at most half full so that a probe
// ends within a few slots. A lookup costs one hash and about one key
// comparison where a binary search among keys with long common prefixes
// costs a dozen.
package hashpos

import "hash/maphash"

// Table maps keys to their positions in a list. A Table does not change
// once made and is safe for concurrent use; the zero Table finds nothing.
type Table struct {
	seed  maphash.Seed
	slots []uint32 // a position plus one; 0 for an empty slot
}

// New returns the table of the positions 0 ≤ i < n of a list whose key
// at position i is key(i), leaving out a position for which key returns
// false (a repeat of an earlier key, say). Keys are hashed as
// [maphash.String] with the table's seed ([Table.Seed]).
func New(n int, key func(i int) (string, bool)) *Table {
	t := &Table{seed: maphash.MakeSeed()}
	if n == 0 {
		return t
	}
	size := 2
	for size < 2*n {
		size <<= 1
	}
	t.slots = make([]uint32, size)
	mask := uint64(size - 1)
	for i := range n {
		k, ok := key(i)
		if !ok {
			continue
		}
		h := maphash.String(t.seed, k) & mask
		for t.slots[h] != 0 {
			h = (h + 1) & mask
		}
		t.slots[h] = uint32(i + 1)
	}
	return t
}

// Seed returns the seed the keys are hashed with, for a caller that
// hashes a key in parts (a maphash.Hash written the key's bytes gives
// what maphash.String gives).
func (t *Table) Seed() maphash.Seed { return t.seed }

// Find returns the position whose key has the hash h and is the key
// sought (is reports whether the key at a position is), and whether
// there is one.
func (t *Table) Find(h uint64, is func(i int) bool) (int, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for h &= mask; ; h = (h + 1) & mask {
		p := t.slots[h]
		if p == 0 {
			return 0, false
		}
		if is(int(p - 1)) {
			return int(p - 1), true
		}
	}
}

// FindString returns the position of key, as [Table.Find] with key's
// hash.
func (t *Table) FindString(key string, is func(i int) bool) (int, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	return t.Find(maphash.String(t.seed, key), is)
}

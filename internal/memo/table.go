package memo

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"maps"
	"slices"
	"sync"

	"github.com/r35157/journal-lint/internal/codec"
	"github.com/r35157/journal-lint/internal/par"
)

// Key names one record of a [Table]: the SHA-256 of everything the record
// was computed from, in the namespace of its table.
type Key [sha256.Size]byte

// Shards is the number of shards a [Table] spreads its records over. A
// record's shard is fixed by its name (an artifact's directory), not by
// its key, so that a changed artifact replaces its old record in the same
// shard and a run that changes one artifact writes one shard again.
const Shards = 256

// formatTable is the version of the encoding of shards and states.
const formatTable = "journal-lint/memo/table/v1"

// Table is one run's view of the records of a namespace under a scope:
// what the last run that committed a table there left, to take records
// from ([Table.Get]) and add to ([Table.Put]); [Table.Commit] keeps the
// records this run used or added, and only those, for the next run. Its
// methods are safe for concurrent use.
type Table struct {
	s       *Store
	ns      []byte
	pointer ID
	shards  [Shards]shard
	// read is closed once the records the last run left are read.
	read chan struct{}
}

// shard is one shard of a table: the records the last run left in it
// (sorted by key, as the shard object holds them; the records are slices
// of it), which of them this run used, and the records it added.
type shard struct {
	mu   sync.Mutex
	id   ID // of the object the records came from; zero for none
	keys []Key
	// pre holds the first 8 bytes of each key, big-endian, for find.
	pre   []uint64
	old   [][]byte
	used  []bool
	nused int
	added map[Key][]byte
}

// find returns the index of key among the old records, and whether it is
// there.
func (sh *shard) find(key Key) (int, bool) {
	p := binary.BigEndian.Uint64(key[:8])
	i, _ := slices.BinarySearch(sh.pre, p)
	for ; i < len(sh.pre) && sh.pre[i] == p; i++ {
		if sh.keys[i] == key {
			return i, true
		}
	}
	return i, false
}

// use marks the old record i used.
func (sh *shard) use(i int) {
	if !sh.used[i] {
		sh.used[i] = true
		sh.nused++
	}
}

// Table opens the table of namespace ns (the SHA-256 of what every record
// of it depends on beyond its key, such as the tool and the rules) under
// scope (such as the Journal root's absolute path): the records the last
// commit there left, read and verified in the background, so that the
// caller can do other work meanwhile; the first use of the table waits
// for them. A missing or corrupt object leaves those records out.
func (s *Store) Table(ns []byte, scope string) *Table {
	t := &Table{s: s, ns: bytes.Clone(ns), pointer: idOf([]byte(formatTable), []byte("pointer"), ns, []byte(scope)), read: make(chan struct{})}
	go t.readState()
	return t
}

// readState reads the records of the state the table's pointer names,
// and closes t.read.
func (t *Table) readState() {
	defer close(t.read)
	ids := t.state()
	par.For(Shards, 0, func(i int) {
		sh := &t.shards[i]
		sh.added = map[Key][]byte{}
		if ids != nil && ids[i] != (ID{}) {
			if keys, recs, ok := t.readShard(ids[i]); ok {
				sh.id, sh.keys, sh.old, sh.used = ids[i], keys, recs, make([]bool, len(keys))
				sh.pre = make([]uint64, len(keys))
				for j, k := range keys {
					sh.pre[j] = binary.BigEndian.Uint64(k[:8])
				}
			}
		}
	})
}

// state returns the shard ids of the state the pointer names, or nil.
func (t *Table) state() []ID {
	p, ok := t.s.get(t.pointer)
	if !ok || len(p) != len(ID{}) {
		return nil
	}
	data, ok := t.s.get(ID(p))
	if !ok {
		return nil
	}
	r := codec.NewReader(data)
	if r.String() != formatTable || !bytes.Equal(r.Raw(), t.ns) || r.Uint() != Shards {
		t.s.warn("cache state %x does not decode; it was ignored", p[:4])
		return nil
	}
	ids := make([]ID, Shards)
	for i := range ids {
		r.Fixed(ids[i][:])
	}
	if r.Done() != nil {
		t.s.warn("cache state %x does not decode; it was ignored", p[:4])
		return nil
	}
	return ids
}

// readShard reads the shard object id: its keys, in ascending order, and
// the record of each (slices of the object).
func (t *Table) readShard(id ID) ([]Key, [][]byte, bool) {
	data, ok := t.s.get(id)
	if !ok {
		return nil, nil, false
	}
	r := codec.NewReader(data)
	if r.String() != formatTable {
		return nil, nil, false
	}
	n := r.Len()
	keys, recs := make([]Key, n), make([][]byte, n)
	for i := range n {
		r.Fixed(keys[i][:])
		recs[i] = r.Slice()
		if i > 0 && bytes.Compare(keys[i-1][:], keys[i][:]) >= 0 {
			r.Fail()
		}
	}
	if r.Done() != nil {
		t.s.warn("cache shard %x does not decode; its records were recomputed", id[:4])
		return nil, nil, false
	}
	return keys, recs, true
}

// ShardOf returns the shard of the records named name, from 0 to
// Shards-1: records of names in one shard are read and written together.
func ShardOf(name string) int { return int(sha256.Sum256([]byte(name))[0]) }

// Get returns the record stored under key by a record named name, and
// whether there is one. The bytes are shared: the caller must not change
// them.
func (t *Table) Get(name string, key Key) ([]byte, bool) {
	<-t.read
	sh := &t.shards[ShardOf(name)]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if rec, ok := sh.added[key]; ok {
		return rec, true
	}
	i, ok := sh.find(key)
	if !ok {
		return nil, false
	}
	sh.use(i)
	return sh.old[i], true
}

// Forget undoes what this run did to the record stored under key by a
// record named name: one that [Table.Get] found no longer stands, and that
// the caller could not replace, is not kept for the next run unless it is
// got or put again. A caller whose records vouch for one another (each
// found standing by the run that kept it) forgets what it would not vouch
// for.
func (t *Table) Forget(name string, key Key) {
	<-t.read
	sh := &t.shards[ShardOf(name)]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	delete(sh.added, key)
	if i, ok := sh.find(key); ok && sh.used[i] {
		sh.used[i] = false
		sh.nused--
	}
}

// Put stores rec under key for the record named name. The table keeps
// rec; the caller must not change it afterwards.
func (t *Table) Put(name string, key Key, rec []byte) {
	<-t.read
	sh := &t.shards[ShardOf(name)]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if i, ok := sh.find(key); ok && bytes.Equal(sh.old[i], rec) {
		sh.use(i)
		return
	}
	sh.added[key] = rec
}

// Commit writes the shards whose records changed (a record added, or one
// the last run left not used by this one), a state that lists every shard,
// and the pointer of the table's scope, so that the next run of the scope
// finds what this one used and added. A read-only store writes nothing.
func (t *Table) Commit() {
	<-t.read
	if t.s.mode == ReadOnly {
		return
	}
	ids := make([]ID, Shards)
	changed := false
	par.For(Shards, 0, func(i int) {
		sh := &t.shards[i]
		if len(sh.added) == 0 && sh.nused == len(sh.old) {
			ids[i] = sh.id
			return
		}
		keep := maps.Clone(sh.added)
		for j, k := range sh.keys {
			if _, replaced := keep[k]; sh.used[j] && !replaced {
				keep[k] = sh.old[j]
			}
		}
		ids[i] = t.writeShard(keep)
	})
	for i := range ids {
		changed = changed || ids[i] != t.shards[i].id
	}
	if !changed && t.hasState() {
		return
	}
	t.writeState(ids)
}

// Keep stores rec under key for the record named name and writes at once
// the shard that holds it, with every record that shard held, used or
// not, and a state that lists the other shards as the table read them:
// for a caller that reads records without committing them (a command
// that uses only some, whose Commit would drop the others) and has one
// fact to keep. A read-only store writes nothing.
func (t *Table) Keep(name string, key Key, rec []byte) {
	<-t.read
	if t.s.mode == ReadOnly {
		return
	}
	n := ShardOf(name)
	sh := &t.shards[n]
	sh.mu.Lock()
	keep := make(map[Key][]byte, len(sh.keys)+len(sh.added)+1)
	for j, k := range sh.keys {
		keep[k] = sh.old[j]
	}
	maps.Copy(keep, sh.added)
	keep[key] = rec
	sh.mu.Unlock()
	ids := make([]ID, Shards)
	for i := range ids {
		ids[i] = t.shards[i].id
	}
	ids[n] = t.writeShard(keep)
	t.writeState(ids)
}

// writeShard writes a shard object of the records keep and returns its
// id; none for no record.
func (t *Table) writeShard(keep map[Key][]byte) ID {
	if len(keep) == 0 {
		return ID{}
	}
	w := codec.NewWriter(nil)
	w.String(formatTable)
	w.Uint(uint64(len(keep)))
	for _, k := range slices.SortedFunc(maps.Keys(keep), func(a, b Key) int { return bytes.Compare(a[:], b[:]) }) {
		w.Fixed(k[:])
		w.Raw(keep[k])
	}
	id := idOf([]byte(formatTable), []byte("shard"), w.Bytes())
	t.s.put(id, w.Bytes())
	return id
}

// writeState writes the state that lists the shards ids and points the
// table's scope at it.
func (t *Table) writeState(ids []ID) {
	w := codec.NewWriter(nil)
	w.String(formatTable)
	w.Raw(t.ns)
	w.Uint(Shards)
	for _, id := range ids {
		w.Fixed(id[:])
	}
	state := idOf([]byte(formatTable), []byte("state"), w.Bytes())
	t.s.put(state, w.Bytes())
	t.s.put(t.pointer, state[:])
}

// hasState reports whether the table was read from a state (some shard
// came from one), so that an unchanged table need not write it again.
func (t *Table) hasState() bool {
	for i := range t.shards {
		if t.shards[i].id != (ID{}) {
			return true
		}
	}
	return false
}

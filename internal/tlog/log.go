package tlog

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/r35157/journal-lint/internal/atomicfile"
	"github.com/r35157/journal-lint/internal/gitrepo"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// IsAppend reports whether changes, what git reports changed under the
// log's directory logDir (relative to the top, forward slashes), are what
// an append from size oldN to size newN writes (Plan.Write), all of it and
// nothing else: the checkpoint replaced, every new tile added and the
// partial tiles of size oldN that they replace removed (or renamed, where
// git pairs one with a new tile). A full tile never changes. At one size
// (newN == oldN) only the checkpoint may change: cosignatures added
// (tlog witness).
func IsAppend(changes []gitrepo.Change, logDir string, oldN, newN int64) bool {
	if newN < oldN {
		return false
	}
	written, removed := map[string]bool{}, map[string]bool{}
	places := map[[2]int64]bool{}
	for _, t := range tlog.NewTiles(height, oldN, newN) {
		written[path.Join(logDir, TilePath(t))] = false
		places[[2]int64{int64(t.L), t.N}] = true
	}
	for _, t := range partialTiles(oldN) {
		if places[[2]int64{int64(t.L), t.N}] {
			removed[path.Join(logDir, TilePath(t))] = false
		}
	}
	checkpoint := false
	for _, ch := range changes {
		_, isNew := written[ch.Path]
		_, isOld := removed[ch.Path]
		_, wasOld := removed[ch.OldPath]
		switch {
		case ch.Status == 'M' && ch.Path == path.Join(logDir, CheckpointFile):
			checkpoint = true
		case ch.Status == 'A' && isNew:
			written[ch.Path] = true
		case ch.Status == 'D' && isOld:
			removed[ch.Path] = true
		case ch.Status == 'R' && wasOld && isNew:
			written[ch.Path], removed[ch.OldPath] = true, true
		default:
			return false
		}
	}
	for _, done := range written {
		if !done {
			return false
		}
	}
	for _, done := range removed {
		if !done {
			return false
		}
	}
	return checkpoint
}

// DirName is the name of the log's directory, beside the Journal root
// (outside it, so that the root holds only artifact directories).
const DirName = "journal-log"

// CheckpointFile is the name of the signed checkpoint in the log's
// directory.
const CheckpointFile = "checkpoint"

// LockFile is held while an append writes; it is never committed.
const LockFile = ".lock"

// DirFor returns the log's directory for the Journal root root: DirName
// beside it.
func DirFor(root string) string { return filepath.Join(filepath.Dir(root), DirName) }

// ErrBusy is returned by [Append] when another append holds the log.
var ErrBusy = errors.New("another append is writing the log")

// GenerateKey returns a new Ed25519 note key pair named origin: the
// private key (for the operator's secret) and the public verifier key
// (for the tlog: block of the configuration).
func GenerateKey(origin string) (skey, vkey string, err error) {
	return note.GenerateKey(rand.Reader, origin)
}

// VerifierKey returns the public verifier key of the private note key
// skey. The error says that skey does not parse.
func VerifierKey(skey string) (string, error) {
	s, err := note.NewSigner(skey)
	if err != nil {
		return "", errors.New("the signing key does not parse")
	}
	// note.NewSigner checked the form PRIVATE+KEY+<name>+<hash>+<base64 of
	// the algorithm byte and the Ed25519 seed>; a signer does not give its
	// public key back, so it is derived from the seed.
	parts := strings.SplitN(skey, "+", 5)
	b, err := base64.StdEncoding.DecodeString(parts[len(parts)-1])
	if err != nil || len(b) != 1+ed25519.SeedSize {
		return "", errors.New("the signing key does not parse")
	}
	vkey, err := note.NewEd25519VerifierKey(s.Name(), ed25519.NewKeyFromSeed(b[1:]).Public().(ed25519.PublicKey))
	if err != nil {
		return "", err
	}
	if v, err := note.NewVerifier(vkey); err != nil || v.KeyHash() != s.KeyHash() {
		return "", errors.New("the signing key does not parse")
	}
	return vkey, nil
}

// ReadCheckpoint reads the checkpoint in fsys and verifies it with vkey
// (see [Open]).
func ReadCheckpoint(fsys TileFS, vkey string) (Signed, error) {
	b, err := fsys.ReadFile(CheckpointFile)
	if err != nil {
		return Signed{}, err
	}
	return Open(b, vkey, "")
}

// Init writes the signed size-0 checkpoint of a new log into dir, which
// must not hold one yet.
func Init(dir, skey string) (Signed, error) {
	s, err := note.NewSigner(skey)
	if err != nil {
		return Signed{}, errors.New("the signing key does not parse")
	}
	empty, err := tlog.TreeHash(0, nil)
	if err != nil {
		return Signed{}, err
	}
	c := Checkpoint{Origin: s.Name(), Tree: tlog.Tree{N: 0, Hash: empty}}
	msg, err := c.Sign(skey)
	if err != nil {
		return Signed{}, err
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return Signed{}, err
	}
	f, err := os.OpenFile(filepath.Join(dir, CheckpointFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if errors.Is(err, fs.ErrExist) {
		return Signed{}, fmt.Errorf("%s already holds a log", dir)
	}
	if err != nil {
		return Signed{}, err
	}
	if _, err := f.Write(msg); err != nil {
		f.Close()
		return Signed{}, err
	}
	return Signed{Checkpoint: c, Note: msg}, f.Close()
}

// Plan is what an append adds to a log: computed by [Prepare], written by
// [Plan.Write].
type Plan struct {
	// Old is the log's verified checkpoint before the append.
	Old Signed
	// New is the checkpoint after it.
	New Checkpoint
	// Added are the batch's revisions that were not logged yet, in log
	// order; Skipped counts those already in the log.
	Added   []Revision
	Skipped int
	// Leaves are the leaf hashes of the old log, in log order (for an
	// [Audit] of the batch before the append is written).
	Leaves []tlog.Hash

	hashes tlog.HashReader // the old tree's, then the new stored hashes
}

// Prepare computes the append of batch (every accepted revision of the
// tree; any order) to the log whose verified checkpoint is old and whose
// tiles fsys holds: the revisions not yet logged, in the batch order, and
// the new checkpoint. It writes nothing. Errors are tiles that do not
// match old.
func Prepare(fsys TileFS, old Signed, batch []Revision) (*Plan, error) {
	leaves, err := Leaves(fsys, old.Tree)
	if err != nil {
		return nil, err
	}
	logged := make(map[tlog.Hash]bool, len(leaves))
	for _, h := range leaves {
		logged[h] = true
	}
	batch = append([]Revision(nil), batch...)
	SortBatch(batch)
	p := &Plan{Old: old, Leaves: leaves}
	hashes := hashAll(batch)
	for k, r := range batch {
		h := hashes[k]
		if logged[h] {
			p.Skipped++
			continue
		}
		logged[h] = true
		p.Added = append(p.Added, r)
	}
	oldHashes := Hashes(fsys, old.Tree)
	start := tlog.StoredHashIndex(0, old.N)
	var added []tlog.Hash
	all := tlog.HashReaderFunc(func(idx []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(idx))
		var fromOld []int64
		for i, x := range idx {
			if x >= start {
				if x-start >= int64(len(added)) {
					return nil, fmt.Errorf("hash %d is not in the tree", x)
				}
				out[i] = added[x-start]
			} else {
				fromOld = append(fromOld, x)
			}
		}
		if len(fromOld) > 0 {
			old, err := oldHashes.ReadHashes(fromOld)
			if err != nil {
				return nil, err
			}
			j := 0
			for i, x := range idx {
				if x < start {
					out[i] = old[j]
					j++
				}
			}
		}
		return out, nil
	})
	for i, r := range p.Added {
		hs, err := tlog.StoredHashesForRecordHash(old.N+int64(i), r.Entry.Hash(), all)
		if err != nil {
			return nil, err
		}
		added = append(added, hs...)
	}
	n := old.N + int64(len(p.Added))
	root, err := tlog.TreeHash(n, all)
	if err != nil {
		return nil, err
	}
	p.New = Checkpoint{Origin: old.Origin, Tree: tlog.Tree{N: n, Hash: root}}
	p.hashes = all
	return p, nil
}

// Write signs the plan's new checkpoint with skey and writes it, with the
// new tiles, into dir, the directory the plan's tiles were read from. The
// partial tiles of the old size that the new tiles replace are removed;
// the checkpoint is replaced last, atomically, so that a failure leaves
// the old log readable. A second Write on the same directory at the same
// time fails with ErrBusy.
func (p *Plan) Write(dir, skey string) ([]byte, error) {
	msg, err := p.New.Sign(skey)
	if err != nil {
		return nil, err
	}
	var out []byte
	err = locked(dir, p.Old.Note, func() error {
		out, err = p.write(dir, msg)
		return err
	})
	return out, err
}

// write is Write under the lock.
func (p *Plan) write(dir string, msg []byte) ([]byte, error) {
	if p.New.N == p.Old.N {
		return p.Old.Note, nil
	}
	// A partial tile of the old size goes when a new tile of the same
	// place replaces it.
	replaced := map[[2]int64]bool{}
	for _, t := range tlog.NewTiles(height, p.Old.N, p.New.N) {
		replaced[[2]int64{int64(t.L), t.N}] = true
		data, err := tlog.ReadTileData(t, p.hashes)
		if err != nil {
			return nil, err
		}
		name := TilePath(t)
		if err := writeAtomic(filepath.Join(dir, filepath.FromSlash(name)), data); err != nil {
			return nil, err
		}
	}
	if err := writeAtomic(filepath.Join(dir, CheckpointFile), msg); err != nil {
		return nil, err
	}
	for _, t := range partialTiles(p.Old.N) {
		if name := TilePath(t); replaced[[2]int64{int64(t.L), t.N}] {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			// The .p directory goes when it is empty.
			_ = os.Remove(filepath.Dir(filepath.Join(dir, filepath.FromSlash(name))))
		}
	}
	return msg, nil
}

// locked runs fn while it holds the log's lock in dir and the checkpoint
// there is still old: a second writer fails with ErrBusy.
func locked(dir string, old []byte, fn func() error) error {
	lock := filepath.Join(dir, LockFile)
	l, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%w (%s exists; remove it if no append runs)", ErrBusy, lock)
	}
	if err != nil {
		return err
	}
	l.Close()
	defer os.Remove(lock)
	cur, err := os.ReadFile(filepath.Join(dir, CheckpointFile))
	if err != nil {
		return err
	}
	if string(cur) != string(old) {
		return fmt.Errorf("%w: the checkpoint changed since the append began", ErrBusy)
	}
	return fn()
}

// ReplaceCheckpoint writes msg, the checkpoint old with more signatures
// (witness cosignatures), over old in dir, atomically; ErrBusy when the
// checkpoint in dir is no longer old.
func ReplaceCheckpoint(dir string, old Signed, msg []byte) error {
	return locked(dir, old.Note, func() error { return writeAtomic(filepath.Join(dir, CheckpointFile), msg) })
}

// writeAtomic writes data to name atomically (atomicfile.Write), making
// its directory first.
func writeAtomic(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		return err
	}
	return atomicfile.Write(name, data)
}

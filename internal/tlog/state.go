package tlog

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/sumdb/tlog"
)

// ErrInconsistent is wrapped by the errors that show two checkpoints of
// one log that no append-only log can both have signed: a split view, or
// a rewritten history.
var ErrInconsistent = errors.New("SECURITY ERROR: the log is not append-only")

// Consistent checks that the verified checkpoints a and b (in any order)
// describe one append-only log: the same root at the same size, else a
// consistency proof from the smaller to the larger, built from hashes,
// the stored hashes of the larger tree (see [Hashes]). The error wraps
// ErrInconsistent and shows both notes.
func Consistent(a, b Signed, hashes func(tlog.Tree) tlog.HashReader) error {
	small, large := a, b
	if small.N > large.N {
		small, large = large, small
	}
	var why error
	if small.N == large.N {
		if small.Hash == large.Hash {
			return nil
		}
		why = errors.New("two roots for one size")
	} else if small.N > 0 {
		proof, err := tlog.ProveTree(large.N, small.N, hashes(large.Tree))
		if err != nil {
			return fmt.Errorf("consistency of size %d with size %d: %w", small.N, large.N, err)
		}
		why = tlog.CheckTree(proof, large.N, large.Hash, small.N, small.Hash)
		if why == nil {
			return nil
		}
	} else {
		return nil
	}
	return fmt.Errorf("%w (%v)\n\ncheckpoint of size %d:\n%s\ncheckpoint of size %d:\n%s", ErrInconsistent, why, small.N, small.Note, large.N, large.Note)
}

// StateFile returns the file in the state directory dir that holds the
// newest checkpoint a client has seen of the log named origin (see
// [Remember]); it need not exist.
func StateFile(dir, origin string) string {
	return filepath.Join(dir, url.PathEscape(origin))
}

// stateWait bounds how long Remember waits for another client that
// updates the same state.
const stateWait = 5 * time.Second

// Remember keeps in dir the newest checkpoint a client has seen of cp's
// origin: when dir holds an earlier one (verified with vkey), cp must be
// consistent with it (see [Consistent]); the file is replaced atomically
// only when cp is larger. Clients that share dir take turns to replace it
// (a lock file beside the state, waited for up to 5 s), so the state never
// goes back to a smaller checkpoint; a client whose checkpoint is no
// larger than the one kept writes nothing and waits for no turn. It
// returns the checkpoint it holds afterwards.
func Remember(dir string, cp Signed, vkey string, hashes func(tlog.Tree) tlog.HashReader) (Signed, error) {
	name := StateFile(dir, cp.Origin)
	// The file is only ever replaced whole (by a rename), so this read
	// sees one checkpoint, and a larger one that another client writes
	// meanwhile extends it, and so cp too.
	old, ok, err := stored(name, cp, vkey)
	if err != nil {
		return Signed{}, err
	}
	if ok && cp.N <= old.N {
		if err := Consistent(old, cp, hashes); err != nil {
			if cp.N < old.N && errors.Is(err, fs.ErrNotExist) {
				// The tiles here are of the smaller tree: a mirror rolled
				// back, or a proof of an older checkpoint without the log.
				return Signed{}, fmt.Errorf("the checkpoint (size %d) is older than the one kept in the state (size %d), and the tiles at hand are too few to prove them consistent: %w", cp.N, old.N, err)
			}
			return Signed{}, err
		}
		return old, nil
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return Signed{}, err
	}
	unlock, err := lockState(name + ".lock")
	if err != nil {
		return Signed{}, err
	}
	defer unlock()
	if old, ok, err = stored(name, cp, vkey); err != nil {
		return Signed{}, err
	}
	if ok {
		if err := Consistent(old, cp, hashes); err != nil {
			return Signed{}, err
		}
		if cp.N <= old.N {
			return old, nil
		}
	}
	return cp, writeAtomic(name, cp.Note)
}

// stored returns the checkpoint of cp's origin kept in the state file
// name, verified with vkey; ok is false when there is none. A file that
// holds cp's note itself is cp, whose signatures were verified already.
func stored(name string, cp Signed, vkey string) (old Signed, ok bool, err error) {
	b, err := os.ReadFile(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Signed{}, false, nil
	case err != nil:
		return Signed{}, false, err
	case bytes.Equal(b, cp.Note):
		return cp, true, nil
	}
	if old, err = Open(b, vkey, cp.Origin); err != nil {
		return Signed{}, false, fmt.Errorf("the stored checkpoint %s: %w", name, err)
	}
	return old, true, nil
}

// lockState takes the lock file name, waiting while another client holds
// it, and returns its release.
func lockState(name string) (func(), error) {
	deadline := time.Now().Add(stateWait)
	for {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil {
			f.Close()
			return func() { os.Remove(name) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%w (%s exists; remove it if no client runs)", ErrBusy, name)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Package tlog verifies that a Journal revision is in a repository's
// transparency log (docs/tlog.md), for a program that downloads single
// Journals, such as a package manager: one call checks the revision's
// bytes against a C2SP tlog-proof and a policy of trusted keys, and
// remembers the newest checkpoint seen, so that a log that shows this
// client a history other than the one it saw before is caught.
package tlog

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	sumdb "golang.org/x/mod/sumdb/tlog"

	"github.com/r35157/journal-lint/internal/syntax"
	itlog "github.com/r35157/journal-lint/internal/tlog"
)

// Policy is what the client trusts and remembers.
type Policy struct {
	// VKey is the log's public note key (the tlog: vkey of the
	// repository's configuration, obtained out of band, never from the
	// download itself); its name is the log's origin.
	VKey string
	// Witnesses are the cosignature/v1 keys of trusted witnesses (C2SP
	// tlog-witness); Quorum of them must have cosigned the proof's
	// checkpoint, counted by name (two keys of one name, a witness's
	// rotation, are one witness), and with MaxAge the newest of those
	// cosignatures must be at most that old, so that a frozen log is
	// caught.
	Witnesses []string
	Quorum    int
	MaxAge    time.Duration
	// State, when not "", is a directory where the newest checkpoint seen
	// of each origin is kept between calls.
	State string
	// Log, when not nil, is the log's directory (journal-log/ of a clone or
	// mirror): the tiles that prove a proof's checkpoint consistent with the
	// remembered one when their sizes differ. Without it such a proof is
	// refused.
	Log fs.FS
}

// Checkpoint is the verified checkpoint a proof leads to.
type Checkpoint struct {
	Origin string
	Size   int64
	// Root is the base64 root hash.
	Root string
	// Note is the signed note.
	Note []byte
}

// These errors are wrapped by those of [VerifyRevision].
var (
	// ErrSignature: the proof's checkpoint is not signed by the policy's key.
	ErrSignature = itlog.ErrSignature
	// ErrNotIncluded: the proof does not show this revision in the log.
	ErrNotIncluded = itlog.ErrNotIncluded
	// ErrQuorum: fewer trusted witnesses cosigned than the policy's quorum.
	ErrQuorum = itlog.ErrQuorum
	// ErrStale: the newest trusted cosignature is older than MaxAge.
	ErrStale = itlog.ErrStale
	// ErrInconsistent: the checkpoint and the remembered one cannot both
	// come from one append-only log (a split view or a rewritten history).
	ErrInconsistent = itlog.ErrInconsistent
)

// VerifyRevision checks that text, the exact bytes of a Journal revision,
// is in the log by proof, a C2SP tlog-proof (`journal-lint tlog prove`),
// under policy, and returns the proof's checkpoint. With policy.State it
// then compares the checkpoint with the one remembered, and remembers the
// larger. Errors wrap ErrSignature, ErrQuorum, ErrStale, ErrNotIncluded or
// ErrInconsistent, or
// say why the text is not a valid revision or the proof does not parse.
func VerifyRevision(text, proof []byte, policy Policy) (Checkpoint, error) {
	if len(text) > syntax.MaxSize {
		return Checkpoint{}, fmt.Errorf("the revision is larger than %d bytes", syntax.MaxSize)
	}
	doc, _ := syntax.Parse("", text)
	if !doc.RevisionOK {
		return Checkpoint{}, errors.New("the text is not a valid Journal revision (journal-lint check --file says why)")
	}
	cp, err := itlog.VerifyEntry(itlog.EntryOf(doc.Revision), proof, itlog.Policy{VKey: policy.VKey,
		Witnesses: policy.Witnesses, Quorum: policy.Quorum, MaxAge: policy.MaxAge, Now: time.Now()})
	if err != nil {
		return Checkpoint{}, err
	}
	if policy.State != "" {
		hashes := func(tr sumdb.Tree) sumdb.HashReader {
			if policy.Log == nil {
				return sumdb.HashReaderFunc(func([]int64) ([]sumdb.Hash, error) {
					return nil, errors.New("no log directory given to prove that this checkpoint extends the one remembered in the state (the journal-log directory: verify-proof --log DIR)")
				})
			}
			return itlog.Hashes(fsTiles{policy.Log}, tr)
		}
		if _, err := itlog.Remember(policy.State, cp, policy.VKey, hashes); err != nil {
			return Checkpoint{}, err
		}
	}
	return Checkpoint{Origin: cp.Origin, Size: cp.N, Root: cp.Hash.String(), Note: cp.Note}, nil
}

// fsTiles reads the log's files from an fs.FS.
type fsTiles struct{ fsys fs.FS }

// ReadFile reads name from the file system.
func (f fsTiles) ReadFile(name string) ([]byte, error) { return fs.ReadFile(f.fsys, name) }

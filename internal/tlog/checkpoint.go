package tlog

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// Checkpoint is the body of a C2SP tlog-checkpoint: the log's origin, its
// size and its root hash.
type Checkpoint struct {
	Origin string
	tlog.Tree
}

// Text returns the checkpoint's body: three lines, origin, decimal size,
// base64 root hash.
func (c Checkpoint) Text() string {
	return fmt.Sprintf("%s\n%d\n%s\n", c.Origin, c.N, c.Hash)
}

// String describes the checkpoint in one line for messages.
func (c Checkpoint) String() string {
	return fmt.Sprintf("%s size %d root %s", c.Origin, c.N, c.Hash)
}

// ParseCheckpoint parses a checkpoint's body (C2SP tlog-checkpoint: an
// origin line, the decimal size, the base64 root hash, then optional
// extension lines, which this log never writes and refuses).
func ParseCheckpoint(body string) (Checkpoint, error) {
	lines := strings.SplitAfter(body, "\n")
	if len(lines) != 4 || lines[3] != "" {
		return Checkpoint{}, errors.New("a checkpoint body is three lines: origin, size, root hash")
	}
	origin := strings.TrimSuffix(lines[0], "\n")
	if origin == "" || strings.TrimSpace(origin) != origin {
		return Checkpoint{}, fmt.Errorf("checkpoint origin %q is empty or has surrounding blanks", origin)
	}
	n, err := strconv.ParseInt(strings.TrimSuffix(lines[1], "\n"), 10, 64)
	if err != nil || n < 0 || strconv.FormatInt(n, 10)+"\n" != lines[1] {
		return Checkpoint{}, fmt.Errorf("checkpoint size %q is not a decimal number", strings.TrimSuffix(lines[1], "\n"))
	}
	h, err := tlog.ParseHash(strings.TrimSuffix(lines[2], "\n"))
	if err != nil {
		return Checkpoint{}, fmt.Errorf("checkpoint root hash: %w", err)
	}
	return Checkpoint{Origin: origin, Tree: tlog.Tree{N: n, Hash: h}}, nil
}

// Sign returns the checkpoint as a signed note, signed by the private note
// key skey (note.GenerateKey's format), whose name must be the origin.
func (c Checkpoint) Sign(skey string) ([]byte, error) {
	s, err := note.NewSigner(skey)
	if err != nil {
		return nil, fmt.Errorf("signing key: %w", errors.New(strings.ReplaceAll(err.Error(), skey, "…")))
	}
	if s.Name() != c.Origin {
		return nil, fmt.Errorf("the signing key is for %q, not for the log's origin %q", s.Name(), c.Origin)
	}
	return note.Sign(&note.Note{Text: c.Text()}, s)
}

// CheckSigner returns an error when the private note key skey is not the
// key of the public note key vkey (the log's, as the tlog: block names
// it): a checkpoint it signed would not verify, and the log would stop
// verifying until it is restored. It signs a note with skey and opens it
// with vkey, so that two keys of one name are told apart. The errors name
// neither key's secret.
func CheckSigner(skey, vkey string) error {
	s, err := note.NewSigner(skey)
	if err != nil {
		return fmt.Errorf("signing key: %w", errors.New(strings.ReplaceAll(err.Error(), skey, "…")))
	}
	v, err := note.NewVerifier(vkey)
	if err != nil {
		return fmt.Errorf("log verifier key: %w", err)
	}
	if s.Name() != v.Name() {
		return fmt.Errorf("the signing key is for %q, not for the log's origin %q", s.Name(), v.Name())
	}
	msg, err := note.Sign(&note.Note{Text: "journal-lint key check\n"}, s)
	if err == nil {
		_, err = note.Open(msg, note.VerifierList(v))
	}
	if err != nil {
		return fmt.Errorf("the signing key is not the log's key: it has the origin's name %q, but its checkpoints would not verify with the tlog: block's vkey", s.Name())
	}
	return nil
}

// Signed is a checkpoint read from a signed note, with the note's bytes.
type Signed struct {
	Checkpoint
	// Note is the signed note as read, all signature lines included.
	Note []byte
}

// ErrSignature is wrapped by the errors of [Open] for a note that no
// trusted key signed.
var ErrSignature = errors.New("not signed by the log's key")

// ErrOrigin is wrapped by the errors of [Open] for a checkpoint of another
// log.
var ErrOrigin = errors.New("checkpoint of another log")

// Open verifies msg, a signed checkpoint, with the public note key vkey
// (note.NewVerifier's format) and returns it. The origin must be the key's
// name (and origin, when not ""). Errors wrap ErrSignature or ErrOrigin,
// or say why the key or the note does not parse.
func Open(msg []byte, vkey, origin string) (Signed, error) {
	v, err := note.NewVerifier(vkey)
	if err != nil {
		return Signed{}, fmt.Errorf("log verifier key: %w", err)
	}
	if origin != "" && v.Name() != origin {
		return Signed{}, fmt.Errorf("the verifier key is for %q, not for the origin %q", v.Name(), origin)
	}
	n, err := note.Open(msg, note.VerifierList(v))
	if err != nil {
		return Signed{}, fmt.Errorf("%w %s: %v", ErrSignature, v.Name(), err)
	}
	c, err := ParseCheckpoint(n.Text)
	if err != nil {
		return Signed{}, err
	}
	if c.Origin != v.Name() {
		return Signed{}, fmt.Errorf("%w: its origin is %q, the log's is %q", ErrOrigin, c.Origin, v.Name())
	}
	return Signed{Checkpoint: c, Note: msg}, nil
}

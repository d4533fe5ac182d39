package tlog

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/sumdb/tlog"
)

// proofHeader is the first line of a C2SP tlog-proof.
const proofHeader = "c2sp.org/tlog-proof@v1"

// ProofSuffix is the file name extension of a proof (C2SP tlog-proof).
const ProofSuffix = ".tlog-proof"

// Proof is a C2SP tlog-proof: an entry's index, its inclusion proof and
// the signed checkpoint the proof leads to, and the optional opaque extra
// data of the application that made it.
type Proof struct {
	Index      int64
	Inclusion  tlog.RecordProof
	Checkpoint []byte // the signed note, as the log wrote it
	// Extra is the "extra" line's data; nil without one (this log writes
	// none, and a proof verifies whatever it holds).
	Extra []byte
}

// Text returns the proof in the C2SP tlog-proof format.
func (p Proof) Text() []byte {
	var b bytes.Buffer
	b.WriteString(proofHeader + "\n")
	if p.Extra != nil {
		fmt.Fprintf(&b, "extra %s\n", base64.StdEncoding.EncodeToString(p.Extra))
	}
	fmt.Fprintf(&b, "index %d\n", p.Index)
	for _, h := range p.Inclusion {
		fmt.Fprintf(&b, "%s\n", h)
	}
	b.WriteString("\n")
	b.Write(p.Checkpoint)
	return b.Bytes()
}

// ParseProof parses a C2SP tlog-proof, its optional "extra" line (after
// the header, before the index) included.
func ParseProof(b []byte) (Proof, error) {
	head, cp, ok := bytes.Cut(b, []byte("\n\n"))
	if !ok {
		return Proof{}, errors.New("a tlog-proof has a blank line before its checkpoint")
	}
	lines := strings.Split(string(head), "\n")
	if lines[0] != proofHeader {
		return Proof{}, fmt.Errorf("a tlog-proof starts with %q", proofHeader)
	}
	var extra []byte
	first := 1 // the line of the index, from 0
	if len(lines) > 1 && (lines[1] == "extra" || strings.HasPrefix(lines[1], "extra ")) {
		data, _ := strings.CutPrefix(lines[1], "extra ")
		var err error
		if extra, err = base64.StdEncoding.Strict().DecodeString(data); err != nil || data == "" || data == "extra" {
			return Proof{}, errors.New(`a tlog-proof's "extra" line holds data in standard base64`)
		}
		first = 2
	}
	if len(lines) <= first || !strings.HasPrefix(lines[first], "index ") {
		return Proof{}, fmt.Errorf(`a tlog-proof names the entry's index on line %d ("index N")`, first+1)
	}
	s := strings.TrimPrefix(lines[first], "index ")
	idx, err := strconv.ParseInt(s, 10, 64)
	if err != nil || idx < 0 || strconv.FormatInt(idx, 10) != s {
		return Proof{}, fmt.Errorf("tlog-proof index %q is not a decimal number", s)
	}
	p := Proof{Index: idx, Checkpoint: cp, Extra: extra}
	for i, l := range lines[first+1:] {
		h, err := tlog.ParseHash(l)
		if err != nil {
			return Proof{}, fmt.Errorf("tlog-proof line %d: %w", first+i+2, err)
		}
		p.Inclusion = append(p.Inclusion, h)
	}
	return p, nil
}

// Prove returns the proof that the entry e is in the log whose verified
// checkpoint is cp and whose tiles fsys holds. The error says when it is
// not logged.
func Prove(fsys TileFS, cp Signed, e Entry) (Proof, error) {
	leaves, err := Leaves(fsys, cp.Tree)
	if err != nil {
		return Proof{}, err
	}
	want := e.Hash()
	for i, h := range leaves {
		if h != want {
			continue
		}
		rp, err := tlog.ProveRecord(cp.N, int64(i), Hashes(fsys, cp.Tree))
		if err != nil {
			return Proof{}, err
		}
		return Proof{Index: int64(i), Inclusion: rp, Checkpoint: cp.Note}, nil
	}
	return Proof{}, fmt.Errorf("the log (size %d) has no leaf %q", cp.N, strings.TrimSuffix(string(e.Text()), "\n"))
}

// Policy is what a client trusts: the log's verifier key (the origin is
// the key's name) and, as in C2SP tlog-policy, a quorum of witnesses.
type Policy struct {
	// VKey is the log's public note key (note.NewVerifier's format).
	VKey string
	// Witnesses are the cosignature/v1 vkeys of the trusted witnesses;
	// Quorum of them must have cosigned the checkpoint (0: none need).
	Witnesses []string
	Quorum    int
	// MaxAge, when not 0, is how old the newest trusted cosignature may
	// be at Now: an older one means the client is shown a frozen log.
	MaxAge time.Duration
	Now    time.Time
}

// ErrQuorum is wrapped by the error of [VerifyEntry] for a checkpoint
// without the policy's quorum of witness cosignatures.
var ErrQuorum = errors.New("too few witnesses cosigned the checkpoint")

// ErrStale is wrapped by the error of [VerifyEntry] for a checkpoint whose
// newest trusted cosignature is older than the policy's MaxAge.
var ErrStale = errors.New("the checkpoint is stale")

// WitnessCount returns the number of witnesses that keys (note keys, or
// their KeyIDs) belong to, by name: two keys of one witness (a rotation)
// are one witness, whose cosignatures are one vote of a quorum.
func WitnessCount(keys []string) int {
	seen := map[string]bool{}
	for _, k := range keys {
		name, _, _ := strings.Cut(k, "+")
		seen[name] = true
	}
	return len(seen)
}

// checkWitnesses applies the policy's quorum (WitnessCount) and maximum
// age to cp.
func (pol Policy) checkWitnesses(cp Signed) error {
	if pol.Quorum <= 0 {
		return nil
	}
	cos, err := Cosignatures(cp.Note, pol.Witnesses)
	if err != nil {
		return err
	}
	signed, trusted := WitnessCount(slices.Collect(maps.Keys(cos))), WitnessCount(pol.Witnesses)
	if signed < pol.Quorum {
		return fmt.Errorf("%w: %d of the %d trusted, %d needed", ErrQuorum, signed, trusted, pol.Quorum)
	}
	var newest time.Time
	for _, t := range cos {
		if t.After(newest) {
			newest = t
		}
	}
	if pol.MaxAge > 0 && pol.Now.Sub(newest) > pol.MaxAge {
		return fmt.Errorf("%w: its newest cosignature is from %s, more than %s before %s", ErrStale,
			newest.UTC().Format(time.RFC3339), pol.MaxAge, pol.Now.UTC().Format(time.RFC3339))
	}
	return nil
}

// ErrNotIncluded is wrapped by the error of [VerifyEntry] when the proof
// does not lead from the entry to the checkpoint's root.
var ErrNotIncluded = errors.New("the proof does not show this entry in the log")

// VerifyEntry checks that proof proves e in a checkpoint signed by the
// policy's key and cosigned as it says, and returns that checkpoint.
// Errors wrap ErrSignature, ErrOrigin, ErrQuorum, ErrStale or
// ErrNotIncluded, or say why the proof does not parse.
func VerifyEntry(e Entry, proof []byte, pol Policy) (Signed, error) {
	p, err := ParseProof(proof)
	if err != nil {
		return Signed{}, err
	}
	cp, err := Open(p.Checkpoint, pol.VKey, "")
	if err != nil {
		return Signed{}, err
	}
	if err := pol.checkWitnesses(cp); err != nil {
		return Signed{}, err
	}
	if p.Index >= cp.N {
		return Signed{}, fmt.Errorf("%w: index %d is beyond the log's size %d", ErrNotIncluded, p.Index, cp.N)
	}
	if err := tlog.CheckRecord(p.Inclusion, cp.N, cp.Hash, p.Index, e.Hash()); err != nil {
		return Signed{}, fmt.Errorf("%w at index %d of %s (%v)", ErrNotIncluded, p.Index, cp.Checkpoint, err)
	}
	return cp, nil
}

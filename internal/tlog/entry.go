// Package tlog is the transparency log of accepted revisions
// (docs/tlog.md): the leaf grammar, the batch order, the C2SP
// tlog-checkpoint signed note, the C2SP tlog-tiles layout under
// journal-log/ and the C2SP tlog-proof file. Every hash, tile and proof
// comes from golang.org/x/mod/sumdb/tlog and every signature from
// golang.org/x/mod/sumdb/note: this package only decides which bytes are
// logged, in which order, and where they are stored.
package tlog

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// LeafPrefix starts every entry of a log of this format ("What exactly a
// leaf is" in docs/tlog.md). A new leaf format is a new log.
const LeafPrefix = "journal-leaf/v1"

// genesis stands for the predecessor of a revision that has none.
const genesis = "genesis"

// Entry is one leaf of the log: one accepted revision file.
type Entry struct {
	Coordinate     vt.Coordinate
	JournalVersion vt.JournalVersion
	// Digest is the revision digest of the file's exact bytes.
	Digest vt.Digest
	// Predecessor is the file's PREDECESSOR; the zero Digest for a genesis.
	Predecessor vt.Digest
}

// EntryOf returns the entry of an accepted revision.
func EntryOf(r model.Revision) Entry {
	p, _ := r.Predecessor()
	return Entry{Coordinate: r.Coordinate(), JournalVersion: r.JournalVersion(), Digest: r.Digest(), Predecessor: p}
}

// Text returns the entry's bytes, the one ASCII line that is logged:
// "journal-leaf/v1 <coordinate> <journal-version> sha256:<hex>
// <predecessor or genesis>\n".
func (e Entry) Text() []byte { return e.appendText(make([]byte, 0, 256)) }

// appendText appends the entry's bytes (see Text) to b.
func (e Entry) appendText(b []byte) []byte {
	b = append(b, LeafPrefix...)
	b = append(b, ' ')
	b = append(b, e.Coordinate.String()...)
	b = append(b, ' ')
	b, _ = e.JournalVersion.AppendText(b)
	b = append(b, ' ')
	b, _ = e.Digest.AppendText(b)
	b = append(b, ' ')
	if e.Predecessor.IsZero() {
		b = append(b, genesis...)
	} else {
		b, _ = e.Predecessor.AppendText(b)
	}
	return append(b, '\n')
}

// Hash returns the entry's leaf hash, RFC 6962's SHA-256(0x00 || Text()).
func (e Entry) Hash() tlog.Hash {
	var buf [256]byte
	return tlog.RecordHash(e.appendText(buf[:0]))
}

// ParseEntry parses the bytes of one entry, exactly as Text writes them.
// The error names what is wrong.
func ParseEntry(text []byte) (Entry, error) {
	line, ok := bytes.CutSuffix(text, []byte("\n"))
	if !ok || bytes.ContainsAny(line, "\n\r") {
		return Entry{}, fmt.Errorf("an entry is one line ending in a newline")
	}
	f := strings.Split(string(line), " ")
	if len(f) != 5 || f[0] != LeafPrefix {
		return Entry{}, fmt.Errorf("an entry is %q and four fields separated by single spaces", LeafPrefix)
	}
	var e Entry
	var err error
	if e.Coordinate, err = vt.ParseCoordinate(f[1]); err != nil {
		return Entry{}, fmt.Errorf("coordinate: %w", err)
	}
	if e.JournalVersion, err = vt.ParseJournalVersion(f[2]); err != nil {
		return Entry{}, fmt.Errorf("journal version: %w", err)
	}
	if e.Digest, err = vt.ParseDigest(f[3]); err != nil {
		return Entry{}, fmt.Errorf("digest: %w", err)
	}
	if f[4] != genesis {
		if e.Predecessor, err = vt.ParseDigest(f[4]); err != nil {
			return Entry{}, fmt.Errorf("predecessor: %w", err)
		}
	}
	if !bytes.Equal(e.Text(), text) {
		return Entry{}, fmt.Errorf("the entry is not written in its one canonical form")
	}
	return e, nil
}

// Revision is an accepted revision file waiting to be logged: its
// root-relative path (forward slashes) and its entry.
type Revision struct {
	Path  string
	Entry Entry
}

// SortBatch puts a batch in the log's order ("In what order leaves are
// appended" in docs/tlog.md): bytewise order of the root-relative path,
// so that com.a-b/ sorts before com.a/ and the files of one artifact are in
// chronological order.
func SortBatch(batch []Revision) {
	slices.SortFunc(batch, func(a, b Revision) int { return strings.Compare(a.Path, b.Path) })
}

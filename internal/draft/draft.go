// Package draft builds and writes the next revision of an artifact for
// `journal-lint new`: the successor of the head, whose text is the head's with
// JOURNAL_VERSION and PREDECESSOR set (revisions form a hash chain through
// PREDECESSOR, "Chains" in docs/journal-format.md), or the genesis of a new
// artifact. A draft is checked by the parser before it is written, and writing
// never replaces a file.
package draft

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// Genesis returns the text of the first revision of the artifact co at
// Journal version v: JOURNAL_FORMAT 1, ARTIFACT, JOURNAL_VERSION and
// DESCRIPTION with description as a quoted text, one directive a line, LF
// line endings. It returns an error when description cannot be encoded
// (invalid UTF-8 is replaced, so in practice never); a description the
// format cannot hold (a control character, too long) gives a text that
// [Check] refuses.
func Genesis(co vt.Coordinate, v vt.JournalVersion, description string) ([]byte, error) {
	var q bytes.Buffer
	enc := json.NewEncoder(&q)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(description); err != nil {
		return nil, err
	}
	return []byte(fmt.Sprintf("JOURNAL_FORMAT 1\nARTIFACT %s\nJOURNAL_VERSION %s\nDESCRIPTION %s\n",
		co, v, strings.TrimSuffix(q.String(), "\n"))), nil
}

// NotLaterError reports a Journal version for a successor that is not later
// than the head's.
type NotLaterError struct {
	// Version is the requested Journal version, Head the head's.
	Version, Head vt.JournalVersion
}

// Error returns "the new JOURNAL_VERSION V must be later than the head's H".
func (e *NotLaterError) Error() string {
	return fmt.Sprintf("the new JOURNAL_VERSION %s must be later than the head's %s", e.Version, e.Head)
}

// Successor returns the text of the revision after head at Journal version
// v: head's exact text with the arguments of JOURNAL_VERSION replaced by v
// and those of PREDECESSOR by head's digest. When head is a genesis, a
// PREDECESSOR line is inserted after the JOURNAL_VERSION line, with head's
// line terminator (before it, when JOURNAL_VERSION is the last line and has
// none). Everything else, comments and spacing included, stays as it was,
// except that one marker comment goes before the first comment line (see
// [MarkCopiedComments]). head must be a valid revision (RevisionOK). It returns a
// [*NotLaterError] when v is not later than head's Journal version.
func Successor(head *syntax.Document, v vt.JournalVersion) ([]byte, error) {
	if hv := head.Revision.JournalVersion(); v.Compare(hv) <= 0 {
		return nil, &NotLaterError{Version: v, Head: hv}
	}
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	src := head.Src
	jv := head.Header.JournalVersion
	at := jv.ArgsRange()
	edits = append(edits, edit{at.Start.Offset, at.End.Offset, v.String()})
	if p := head.Header.Predecessor; p != nil && len(p.Args) > 0 {
		at := p.ArgsRange()
		edits = append(edits, edit{at.Start.Offset, at.End.Offset, head.Digest.String()})
	} else {
		at, line := head.PredecessorLine(head.Digest)
		edits = append(edits, edit{at, at, line})
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.start - a.start })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.start:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	return MarkCopiedComments(out, head.JournalVersion), nil
}

// MarkCopiedComments puts one marker comment (rules.DraftNoteMarker) before the first comment line
// of text, saying that the comments were copied from revision from and
// should be updated or deleted. A marker an earlier draft left in text is
// dropped first, so markers never pile up. Text without comments is
// returned unchanged. Line endings stay as they are: the marker takes the
// line ending of the comment it precedes.
func MarkCopiedComments(text []byte, from vt.JournalVersion) []byte {
	var out []byte
	marked := false
	for line := range bytes.Lines(text) {
		trimmed := bytes.TrimLeft(line, " \t")
		if bytes.HasPrefix(trimmed, []byte(rules.DraftNoteMarker)) {
			continue
		}
		if !marked && bytes.HasPrefix(trimmed, []byte("#")) {
			eol := "\n"
			if bytes.HasSuffix(line, []byte("\r\n")) {
				eol = "\r\n"
			}
			out = append(out, fmt.Sprintf("%s the comments below were copied from revision %s; update or delete them%s", rules.DraftNoteMarker, from, eol)...)
			marked = true
		}
		out = append(out, line...)
	}
	return out
}

// Name returns the file name of the revision at Journal version v:
// "<v>.journal", or "<v>.journal.example" when example is true (the
// artifact's head is an example file).
func Name(v vt.JournalVersion, example bool) string {
	if example {
		return v.String() + load.ExampleSuffix
	}
	return v.String() + load.Suffix
}

// InvalidError reports a draft that the parser does not accept as a
// revision.
type InvalidError struct {
	// Diagnostics are the parser's error diagnostics.
	Diagnostics diag.List
}

// Error returns "the draft would not be a valid revision" and each
// diagnostic on an indented line of its own.
func (e *InvalidError) Error() string {
	msg := "the draft would not be a valid revision"
	for _, d := range e.Diagnostics {
		msg += "\n  " + d.String()
	}
	return msg
}

// Check parses text as the file at the root-relative path rel and returns
// an [*InvalidError] with the parser's errors when it is not a valid
// revision, else nil.
func Check(rel string, text []byte) error {
	doc, ds := syntax.Parse(rel, text)
	if doc.RevisionOK {
		return nil
	}
	var errs diag.List
	for _, d := range ds {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	return &InvalidError{Diagnostics: errs}
}

// ExistsError reports a revision file that is already there.
type ExistsError struct {
	// Path is the file's path, under the root as given to [Write].
	Path string
}

// Error returns "refusing to overwrite PATH".
func (e *ExistsError) Error() string { return "refusing to overwrite " + e.Path }

// Write creates the file name (see [Name]) with text in the artifact
// directory root/co, creating the directory when needed, and returns the
// file's path (root joined with co and name). It never replaces a file: it
// returns an [*ExistsError] when the directory holds a revision at the same
// Journal version, as .journal or as .journal.example, or when the file
// appears meanwhile. On a failed write it removes the partial file. Other
// errors come from the file system, naming the path.
func Write(root string, co vt.Coordinate, name string, text []byte) (string, error) {
	dir := filepath.Join(root, co.String())
	base := strings.TrimSuffix(strings.TrimSuffix(name, load.ExampleSuffix), load.Suffix)
	for _, suffix := range []string{load.Suffix, load.ExampleSuffix} {
		p := filepath.Join(dir, base+suffix)
		if _, err := os.Lstat(p); err == nil {
			return "", &ExistsError{Path: p}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("creating %s: %v", dir, err)
	}
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return "", &ExistsError{Path: path}
		}
		return "", err
	}
	if _, err := f.Write(text); err != nil {
		f.Close()
		os.Remove(path)
		return "", fmt.Errorf("writing %s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return "", fmt.Errorf("writing %s: %v", path, err)
	}
	return path, nil
}

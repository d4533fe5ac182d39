package diff

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/fingerprint"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

// Value is one side of a change: a value as one revision states it.
type Value struct {
	// Text is the value as written (a quoted text decoded); "" when absent.
	Text string
	// Present reports whether the revision states the value at all.
	Present bool
	// Path is the path of the revision's file, as given to the engine.
	Path string
	// Range covers the value in the file. When the value is absent it covers
	// the closest element that is there instead: the RELEASE directive of
	// the release, else the JOURNAL_VERSION directive. It is the zero Range
	// only when the document carries no positions.
	Range diag.Range
}

// Change is one semantic difference between two revisions.
type Change struct {
	// Kind is the stable ID of the kind of change.
	Kind Kind
	// Level is diag.Error, diag.Warning or diag.Info: the kind's default
	// level, except that release-license-changed is diag.Info when the two
	// expressions are equivalent.
	Level diag.Severity
	// Dimension is the aspect of the worldview the change touches.
	Dimension Dimension
	// Release is the version of the release the change is about, or "" for
	// a change of the artifact as a whole (header, identity, texts).
	Release string
	// Subject names the part that changed, such as "license",
	// "content quill-1.0.0.tar.gz", "depends net.example.textcore",
	// "description" or "policy".
	Subject string
	// Old and New are the value in the old and in the new revision.
	Old, New Value
	// Message is a short lowercase sentence without a final period.
	Message string
	// Fingerprint identifies the change by what changed (see [Fingerprint]).
	Fingerprint string
}

// Side names one of the two revisions of a [Result].
type Side struct {
	// Path is the file's path as given to the engine.
	Path string
	// Coordinate is the revision's ARTIFACT, as text.
	Coordinate string
	// JournalVersion and Digest are the revision's JOURNAL_VERSION and
	// revision digest (values: a check compares every consecutive pair of
	// a tree and prints none of them).
	JournalVersion vt.JournalVersion
	Digest         vt.Digest
}

// Result is the diff of one pair of revisions.
type Result struct {
	// Old and New name the compared revisions.
	Old, New Side
	// Changes are sorted: artifact-level changes first, then releases in
	// ascending version, each by kind order (errors first) and subject.
	// Empty (non-nil) when the two texts are identical.
	Changes []Change
}

// Options tune [Compare]. The zero value compares the two revisions alone.
type Options struct {
	// History lists the revisions of the chain before the old one, oldest
	// first. A version that one of them holds, that the old revision lacks
	// and that the new revision has is reported as release-resurrected
	// instead of release-added.
	History []model.Revision
	// Drop reports whether the caller drops every change of a kind, so
	// that Compare need not make them; nil drops none. Only a
	// NoSemanticChange, whose message compares the two texts line by line,
	// and a ReleaseAdded, of which a tree's history holds most changes,
	// are then left out; changes of other kinds are made anyway. A change
	// left out is still one: no NoSemanticChange stands in for it.
	Drop func(Kind) bool
}

// InvalidError reports a document that is not a valid Journal, which the
// engine refuses to compare.
type InvalidError struct {
	// Path is the document's path.
	Path string
	// Diagnostics are the parser's diagnostics, when known.
	Diagnostics diag.List
}

// Error returns "PATH is not a valid journal" with the first diagnostic.
func (e *InvalidError) Error() string {
	if len(e.Diagnostics) == 0 {
		return fmt.Sprintf("%s is not a valid journal", e.Path)
	}
	return fmt.Sprintf("%s is not a valid journal: %v", e.Path, e.Diagnostics)
}

// Parse parses src, read from path, and returns the document when it is a
// valid Journal. Otherwise it returns an [*InvalidError] with every
// diagnostic of the parser. It never panics.
func Parse(path string, src []byte) (*syntax.Document, error) {
	doc, ds := syntax.Parse(path, src)
	if !doc.RevisionOK {
		if len(ds) == 0 {
			ds = diag.List{{Code: rules.SyntaxEmpty, Severity: diag.Error, Message: "not a valid journal", Path: path}}
		}
		return nil, &InvalidError{Path: path, Diagnostics: ds}
	}
	return doc, nil
}

// Compare diffs the revision old against its successor new. Both must be
// valid Journals (RevisionOK); otherwise it returns an [*InvalidError] for
// the first invalid one and no result. Comparing a document with itself, or
// with an identical text, yields no change.
func Compare(old, new *syntax.Document, opts Options) (*Result, error) {
	for _, d := range []*syntax.Document{old, new} {
		if d == nil {
			return nil, &InvalidError{Path: "(nil)"}
		}
		if !d.RevisionOK {
			return nil, &InvalidError{Path: d.Path}
		}
	}
	drop := func(k Kind) bool { return opts.Drop != nil && opts.Drop(k) }
	c := &comparer{old: index(old), new: index(new), dropAdded: drop(ReleaseAdded)}
	defer c.old.done()
	defer c.new.done()
	c.header()
	c.releases(opts.History)
	if len(c.out) == 0 && c.left == 0 && old.Digest != new.Digest && !drop(NoSemanticChange) {
		c.noSemanticChange()
	}
	res := &Result{Old: side(old), New: side(new), Changes: c.out}
	if res.Changes == nil {
		res.Changes = []Change{}
	}
	coord := new.Revision.Coordinate().String()
	for i := range res.Changes {
		res.Changes[i].Fingerprint = Fingerprint(coord, res.Changes[i])
	}
	sortChanges(res.Changes)
	return res, nil
}

// CompareChain diffs every consecutive pair of docs, which must be the
// revisions of one chain in ascending Journal version, and returns one
// result per pair, oldest first (none for fewer than two documents). Each
// pair sees the revisions before it as [Options.History]. It stops at the
// first invalid document with an [*InvalidError].
func CompareChain(docs []*syntax.Document) ([]*Result, error) {
	out := []*Result{}
	var history []model.Revision
	for i := 1; i < len(docs); i++ {
		r, err := Compare(docs[i-1], docs[i], Options{History: history})
		if err != nil {
			return nil, err
		}
		out = append(out, r)
		history = append(history, docs[i-1].Revision)
	}
	return out, nil
}

func side(d *syntax.Document) Side {
	return Side{Path: d.Path, Coordinate: d.Revision.Coordinate().String(),
		JournalVersion: d.Revision.JournalVersion(), Digest: d.Digest}
}

// fingerprintDomain names the fingerprint scheme; changing the scheme
// changes it, and so every value.
const fingerprintDomain = "journal-lint/diff/v1"

// Fingerprint returns the stable identifier of c in the chain of artifact
// coordinate, as 64 lowercase hex digits: the SHA-256 over the coordinate,
// the kind, the release, the subject and the old and new texts, each
// length-prefixed. Paths, lines and digests of the files are not part of it,
// so the value survives edits elsewhere, renamed files and unrelated
// revisions.
func Fingerprint(coordinate string, c Change) string {
	return fingerprint.Of(fingerprintDomain, coordinate, string(c.Kind), c.Release, c.Subject,
		presence(c.Old), c.Old.Text, presence(c.New), c.New.Text)
}

func presence(v Value) string {
	if v.Present {
		return "1"
	}
	return "0"
}

// sortChanges puts changes in the order documented on [Result.Changes].
func sortChanges(cs []Change) {
	slices.SortStableFunc(cs, func(a, b Change) int {
		if a.Release != b.Release {
			if a.Release == "" || b.Release == "" {
				return cmp.Compare(a.Release, b.Release) // "" first
			}
			va, erra := vt.ParseVersion(a.Release)
			vb, errb := vt.ParseVersion(b.Release)
			if erra == nil && errb == nil {
				if c := va.Compare(vb); c != 0 {
					return c
				}
			}
			return cmp.Compare(a.Release, b.Release)
		}
		if c := cmp.Compare(order(a.Kind), order(b.Kind)); c != 0 {
			return c
		}
		return cmp.Compare(a.Subject, b.Subject)
	})
}

// Diagnostic returns c as a diagnostic with code "history/<kind>" at c.Level:
// the range is the new file's, and the old file's range, when there is one,
// is the related location.
func (c Change) Diagnostic() diag.Diagnostic {
	d := diag.Diagnostic{
		Code:     c.Kind.Code(),
		Severity: c.Level,
		Message:  c.Message,
		Path:     c.New.Path,
		Range:    c.New.Range,
		Help:     help(c.Kind),
	}
	if c.Old.Path != "" && (c.Old.Range.IsValid() || c.Old.Present) {
		msg := "in the previous revision"
		if c.Old.Present && c.Old.Text != "" {
			msg = "in the previous revision: " + c.Old.Text
		}
		d.Related = []diag.Related{{Path: c.Old.Path, Range: c.Old.Range, Message: msg}}
	}
	return d
}

// help returns the guidance for a change of kind k, or "".
func help(k Kind) string {
	switch k {
	case ReleaseRemoved:
		return "keep the release in every later revision; to withdraw it, give it POLICY deny \"reason\""
	case ReleaseContentChanged:
		return "a published file never changes: publish a new release with the new content instead"
	case ReleaseContentRemoved:
		return "keep every CONTENT entry of a release that was already published"
	case ReleasePublishedChanged:
		return "the publication time of a release is history: keep it as it was"
	case ReleaseDependenciesChanged:
		return "dependencies of a published release are fixed: publish a new release, or express a withdrawal with POLICY"
	case ArtifactChanged:
		return "a revision can only follow a revision of the same artifact"
	case ReleaseBackdated:
		return "a release published before the previous revision should have been in it; check PUBLISHED"
	case ReleaseResurrected:
		return "a removed version should not come back; publish a new version instead"
	case NoSemanticChange:
		return "make the change the revision is for (add a release, change a policy or a description), or leave the revision out"
	}
	return ""
}

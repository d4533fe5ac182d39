package diff

import (
	"errors"
	"fmt"

	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// Selection picks the revisions of one chain to compare, as
// `journal-lint diff COORDINATE` does (docs/diff.md). The zero value
// compares the head with its predecessor.
type Selection struct {
	// From is the Journal version (YYYYMMDDTHHMMSSZ) of the old revision;
	// nil means the revision before the new one.
	From *string
	// To is the Journal version of the new revision; nil means the head.
	To *string
	// All compares every consecutive pair of the chain, oldest first, as
	// [CompareChain] does; From and To must then be nil.
	All bool
}

// SelectionError reports a Journal version of a [Selection] that is no
// Journal version or names no revision of the chain.
type SelectionError struct {
	// Field is "from" or "to": the field of the Selection at fault.
	Field string
	// Err is the error of vt.ParseJournalVersion, or an error that says
	// "no revision V in the chain".
	Err error
}

// Error returns the message of Err; the caller adds the field.
func (e *SelectionError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *SelectionError) Unwrap() error { return e.Err }

// GenesisError reports a selection whose new revision is the genesis of
// its chain and so has no predecessor to compare it with.
type GenesisError struct {
	// Coordinate and JournalVersion name the genesis.
	Coordinate, JournalVersion string
}

// Error returns "revision V of COORDINATE is the genesis and has no
// predecessor".
func (e *GenesisError) Error() string {
	return fmt.Sprintf("revision %s of %s is the genesis and has no predecessor", e.JournalVersion, e.Coordinate)
}

// CompareSelected compares the revisions of one chain that sel picks. docs
// are the chain's revisions in ascending Journal version (the order of
// chain.State.Entries); each must be a valid Journal. It returns the results
// oldest pair first: every consecutive pair for All (none for fewer than two
// revisions), else one result. The old revision may be later than the new
// one; only a forward comparison passes the revisions before the old one as
// [Options.History], so only it can report release-resurrected.
//
// Errors: a [*SelectionError] for a From or To that is no Journal version or
// names no revision (To is resolved first), a [*GenesisError] when the
// default From would be before the genesis, an [*InvalidError] from
// [Compare], and an error for an empty chain or All together with From or
// To.
func CompareSelected(docs []*syntax.Document, sel Selection) ([]*Result, error) {
	if sel.All {
		if sel.From != nil || sel.To != nil {
			return nil, errors.New("diff: a selection of all pairs names no revision")
		}
		return CompareChain(docs)
	}
	if len(docs) == 0 {
		return nil, errors.New("diff: no revision to compare")
	}
	to := len(docs) - 1
	if sel.To != nil {
		i, err := findRevision(docs, *sel.To, "to")
		if err != nil {
			return nil, err
		}
		to = i
	}
	from := to - 1
	if sel.From != nil {
		i, err := findRevision(docs, *sel.From, "from")
		if err != nil {
			return nil, err
		}
		from = i
	}
	if from < 0 {
		rev := docs[to].Revision
		return nil, &GenesisError{Coordinate: rev.Coordinate().String(), JournalVersion: rev.JournalVersion().String()}
	}
	var history []model.Revision
	if from < to {
		for _, d := range docs[:from] {
			history = append(history, d.Revision)
		}
	}
	r, err := Compare(docs[from], docs[to], Options{History: history})
	if err != nil {
		return nil, err
	}
	return []*Result{r}, nil
}

// findRevision returns the index of the document with Journal version v, or
// a [*SelectionError] for field.
func findRevision(docs []*syntax.Document, v, field string) (int, error) {
	jv, err := vt.ParseJournalVersion(v)
	if err != nil {
		return 0, &SelectionError{Field: field, Err: err}
	}
	for i, d := range docs {
		if d.Revision.JournalVersion().Compare(jv) == 0 {
			return i, nil
		}
	}
	return 0, &SelectionError{Field: field, Err: fmt.Errorf("no revision %s in the chain", v)}
}

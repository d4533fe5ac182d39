// Package journalerr holds the errors of the Journal API: sentinels to match
// with errors.Is and error types to inspect with errors.As. It maps the
// requirements' public `.exception` package.
//
// Which error wraps which:
//
//	*InvalidError  – a load, refresh or ingestion found invalid data; carries
//	                 every Diagnostic; matches ErrInvalidJournal, and also
//	                 ErrInvalidRoot, ErrChain or ErrConflict when one of its
//	                 diagnostics has such a code.
//	ErrUnavailable – the operation does not fit the manager's lifecycle
//	                 state: not started, or Start on a started manager.
package journalerr

import (
	"errors"
	"fmt"
	"strings"

	"github.com/r35157/journal-lint/rules"
)

// Sentinel errors, matched with errors.Is.
var (
	// ErrUnavailable: the operation is not available in the manager's
	// current lifecycle state (requirement "Service access follows lifecycle").
	ErrUnavailable = errors.New("journal service unavailable")
	// ErrInvalidRoot: the Journal root is missing, not a directory or unreadable.
	ErrInvalidRoot = errors.New("invalid journal root")
	// ErrInvalidJournal: some Journal text, placement or chain is invalid.
	ErrInvalidJournal = errors.New("invalid journal data")
	// ErrChain: a chain relationship is broken ("Chains" in docs/journal-format.md).
	ErrChain = errors.New("journal chain violation")
	// ErrConflict: different text for an existing coordinate and Journal version.
	ErrConflict = errors.New("journal revision conflict")
)

// Diagnostic is the public view of one finding, as carried by [InvalidError].
// Positions are 1-based lines and columns (columns in Unicode code points)
// and 0-based byte offsets; all zero when unknown.
type Diagnostic struct {
	Code     string // stable "category/name" code, "Diagnostic codes" in docs/journal-format.md
	Severity string // "error", "warning" or "info"
	Message  string
	// Path is the file path relative to the root, with forward slashes; ""
	// for the root itself.
	Path               string
	Line, Column       int
	EndLine, EndColumn int
	Offset, EndOffset  int
}

// String formats d as "path:line:col: severity: message [code]".
func (d Diagnostic) String() string {
	var b strings.Builder
	if d.Path != "" {
		b.WriteString(d.Path)
		if d.Line > 0 {
			fmt.Fprintf(&b, ":%d:%d", d.Line, d.Column)
		}
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%s: %s [%s]", d.Severity, d.Message, d.Code)
	return b.String()
}

// InvalidError reports that loading, refreshing or ingesting failed because
// of invalid data. Diagnostics lists every violation found, sorted by path,
// line, column and code; it is never empty.
type InvalidError struct {
	// Op is the operation that failed: "start" or "refresh".
	Op          string
	Diagnostics []Diagnostic
}

// Error returns the first diagnostic and the number of others.
func (e *InvalidError) Error() string {
	if len(e.Diagnostics) == 0 {
		return e.Op + ": invalid journal data"
	}
	msg := e.Op + ": " + e.Diagnostics[0].String()
	if n := len(e.Diagnostics) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return msg
}

// Is reports whether target is ErrInvalidJournal, or ErrInvalidRoot,
// ErrChain or ErrConflict when a diagnostic has a code of that kind: a
// validity code of scope root or chain (package rules), or chain/conflict.
func (e *InvalidError) Is(target error) bool {
	switch target {
	case ErrInvalidJournal:
		return true
	case ErrInvalidRoot:
		return e.has(func(c string) bool { return scope(c) == rules.ScopeRoot })
	case ErrChain:
		return e.has(func(c string) bool { return scope(c) == rules.ScopeChain })
	case ErrConflict:
		return e.has(func(c string) bool { return c == rules.ChainConflict })
	}
	return false
}

// scope returns the scope of the validity code c, or rules.ScopeNone.
func scope(c string) rules.Scope {
	r, _ := rules.Lookup(c)
	return r.Scope
}

func (e *InvalidError) has(pred func(string) bool) bool {
	for _, d := range e.Diagnostics {
		if pred(d.Code) {
			return true
		}
	}
	return false
}

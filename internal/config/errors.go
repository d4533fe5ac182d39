package config

import (
	"errors"
	"fmt"
	"strings"
)

// Error is one problem in a configuration file, at a line and column of it.
type Error struct {
	// File is the configuration file's path as given to [Load] or [Parse].
	File string
	// Line is 1-based; 0 means the problem is about the whole file.
	Line int
	// Column is 1-based; 0 means unknown (YAML syntax errors report lines only).
	Column int
	// Msg describes the problem: a lowercase sentence without a final period.
	Msg string
	// Err is the underlying cause, such as a file system error; usually nil.
	Err error
}

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// Error returns "file:line:col: msg", leaving out the parts that are unknown.
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(":")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "%d:", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, "%d:", e.Column)
		}
	}
	if b.Len() > 0 {
		b.WriteString(" ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ErrorList is every problem found in one configuration file, in the order
// of the file. [Load], [Parse], [Validate] and [ValidateOptions] return one
// when anything is wrong.
type ErrorList []*Error

// Error returns the problems, one per line.
func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Unwrap returns the problems, so that errors.As finds an [*Error].
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// Err returns l as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Join returns every problem of errs, each an [ErrorList], an [*Error] or
// nil, as one ErrorList in the order of the file (line, column, message),
// each problem once; nil when there is none. Other errors are kept as an
// [*Error] without a line that wraps them.
func Join(errs ...error) error {
	var out ErrorList
	seen := map[string]bool{}
	add := func(e *Error) {
		if k := e.Error(); !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	for _, err := range errs {
		var list ErrorList
		var one *Error
		switch {
		case err == nil:
		case errors.As(err, &list):
			for _, e := range list {
				add(e)
			}
		case errors.As(err, &one):
			add(one)
		default:
			add(&Error{Msg: err.Error(), Err: err})
		}
	}
	sortErrors(out)
	return out.Err()
}

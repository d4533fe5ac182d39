package valuetypes

import (
	"strconv"
)

// Kind values of SyntaxError: the suffixes of the value/… diagnostic codes of
// "Diagnostic codes" in docs/journal-format.md.
const (
	KindCoordinate = "coordinate"
	KindTimestamp  = "timestamp"
	KindDigest     = "digest"
	KindVersion    = "version"
	KindConstraint = "constraint"
	KindLicense    = "license"
	KindURI        = "uri"
	KindName       = "name"
	KindVerdict    = "verdict"
)

// SyntaxError reports a value that breaks its grammar ("Values" in
// docs/journal-format.md). Every
// Parse function of this package returns its failures as a *SyntaxError; use
// errors.As to obtain it.
type SyntaxError struct {
	// Kind names the grammar: "coordinate", "timestamp", "digest", "version",
	// "constraint", "license", "uri", "name" or "verdict" (the suffix of the
	// value/ diagnostic code).
	Kind string
	// Value is the text that was rejected.
	Value string
	// Reason is a short lowercase explanation.
	Reason string
	// Offset is the 0-based byte offset into Value where the problem starts, or -1.
	Offset int
	// Suggestion is a computed correction: the whole value as it should
	// probably be written (it parses as Kind), or "" when none is known.
	// Examples: "Apache-2.0" for "Apache 2.0", "MIT OR Apache-2.0" for
	// "MIT/Apache-2.0", "[1.0.0,)" for ">=1.0.0", "20260215T000000Z" for
	// "2026-02-15".
	Suggestion string
	// Hint says how to fix the value in a few words, usually naming
	// Suggestion (`did you mean "Apache-2.0"?`), or is "".
	Hint string
}

// maxErrorValue bounds how much of Value Error quotes, so that a huge rejected
// value does not produce a huge message.
const maxErrorValue = 200

// Error returns `invalid <kind> "<value>": <reason>`, followed by "; " and
// the Hint when there is one, with the value quoted in Go syntax (so control
// characters are visible) and shortened to its first 200 bytes followed by
// "..." when longer.
func (e *SyntaxError) Error() string {
	v := e.Value
	suffix := ""
	if len(v) > maxErrorValue {
		v = v[:maxErrorValue]
		suffix = "..."
	}
	return "invalid " + e.Kind + " " + strconv.Quote(v) + suffix + ": " + e.ReasonAndHint()
}

// ReasonAndHint returns Reason, followed by "; " and Hint when there is one.
func (e *SyntaxError) ReasonAndHint() string {
	if e.Hint == "" {
		return e.Reason
	}
	return e.Reason + "; " + e.Hint
}

// synErr builds a *SyntaxError.
func synErr(kind, value, reason string, offset int) *SyntaxError {
	return &SyntaxError{Kind: kind, Value: value, Reason: reason, Offset: offset}
}

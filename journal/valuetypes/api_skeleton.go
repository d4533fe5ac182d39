package valuetypes

// THIS FILE IS A TEMPORARY SKELETON: the real implementations replace it.

import (
	"time"
)

// SyntaxError reports a value that breaks its grammar (format spec §4).
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
}

func (e *SyntaxError) Error() string { return "invalid " + e.Kind + " " + e.Value + ": " + e.Reason }

type Coordinate struct{ s string }

func ParseCoordinate(s string) (Coordinate, error) { return Coordinate{s}, nil }
func (c Coordinate) String() string                { return c.s }
func (c Coordinate) IsZero() bool                  { return c.s == "" }
func (c Coordinate) Compare(o Coordinate) int      { return 0 }

type Timestamp struct{ t time.Time }
type JournalVersion = Timestamp

func ParseTimestamp(s string) (Timestamp, error)      { return Timestamp{}, nil }
func ParseJournalVersion(s string) (Timestamp, error) { return ParseTimestamp(s) }
func TimestampOf(t time.Time) Timestamp               { return Timestamp{t} }
func (t Timestamp) String() string                    { return "" }
func (t Timestamp) Time() time.Time                   { return t.t }
func (t Timestamp) IsZero() bool                      { return t.t.IsZero() }
func (t Timestamp) Compare(o Timestamp) int           { return t.t.Compare(o.t) }

type Digest struct{ sum [32]byte }

func ParseDigest(s string) (Digest, error) { return Digest{}, nil }
func DigestOf(b []byte) Digest             { return Digest{} }
func (d Digest) String() string            { return "" }
func (d Digest) IsZero() bool              { return d.sum == [32]byte{} }
func (d Digest) Sum() [32]byte             { return d.sum }

type Version struct{ s string }

func ParseVersion(s string) (Version, error) { return Version{s}, nil }
func (v Version) String() string             { return v.s }
func (v Version) IsZero() bool               { return v.s == "" }
func (v Version) Compare(o Version) int      { return 0 }

type Constraint struct{ s string }

func ParseConstraint(s string) (Constraint, error) { return Constraint{s}, nil }
func (c Constraint) String() string                { return c.s }
func (c Constraint) Contains(v Version) bool       { return true }
func (c Constraint) IsExact() bool                 { return false }

type License struct{ s string }

func ParseLicense(s string) (License, error) { return License{s}, nil }
func (l License) String() string             { return l.s }

type URI struct{ s string }

func ParseURI(s string) (URI, error) { return URI{s}, nil }
func (u URI) String() string         { return u.s }

type Name struct{ s string }

func ParseName(s string) (Name, error) { return Name{s}, nil }
func (n Name) String() string          { return n.s }

type Verdict int

const (
	VerdictInvalid Verdict = iota
	Allow
	Deprecated
	Deny
)

func ParseVerdict(s string) (Verdict, error) { return Allow, nil }
func (v Verdict) String() string             { return "allow" }

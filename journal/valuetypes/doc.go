// Package valuetypes holds the value types of the Nenjim Journal text format,
// version 1 ("Values" in docs/journal-format.md): Coordinate, Timestamp (alias
// JournalVersion), Digest, Version, Constraint, License, URI, Name and
// Verdict. It is the Go form of the requirements' public ".valuetypes"
// package.
//
// Every type is an immutable, comparable value. A value is only obtained from
// its Parse function (or, for Timestamp and Digest, from TimestampOf and
// DigestOf), which validates exactly the grammar of "Values" and reports a
// violation as a *SyntaxError whose Kind is the suffix of the matching value/…
// diagnostic code of "Diagnostic codes" in docs/journal-format.md
// ("coordinate", "timestamp", "digest", "version", "constraint", "license",
// "uri", "name", "verdict").
//
// String returns the canonical text of a value. For every grammar in "Values" the
// canonical text is the accepted input text itself, so for any accepted s,
// Parse(s) returns x with x.String() == s, and Parse(x.String()) == x.
// The zero value of each type is "absent": it is never returned by a
// successful Parse, IsZero (or, for Verdict, IsValid) reports it, and its
// String is "" (for Verdict, "invalid"). MarshalText and UnmarshalText map
// the zero value to and from empty text; non-empty text is parsed strictly.
//
// Types that the format orders have a Compare method returning -1, 0 or +1:
// Coordinate and Name by byte order, Timestamp chronologically, Digest by
// its bytes, Version by SemVer 2.0.0 precedence. Constraint has Contains.
package valuetypes

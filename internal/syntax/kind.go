package syntax

// Kind identifies a directive of the format ("The header" and "Release blocks"
// in docs/journal-format.md). The zero value is KindUnknown.
type Kind uint8

// The directives ("The header" and "Release blocks" in
// docs/journal-format.md). The header kinds KindJournalFormat … KindPolicy are
// declared in their required header order.
const (
	KindUnknown Kind = iota
	KindJournalFormat
	KindArtifact
	KindJournalVersion
	KindPredecessor
	KindDescription
	KindInfo
	KindPolicy
	KindRelease
	KindLicense
	KindContent
	KindPublished
	KindDepends
	KindExcludes
	KindPrefers
)

var kindNames = [...]string{
	KindUnknown:        "",
	KindJournalFormat:  "JOURNAL_FORMAT",
	KindArtifact:       "ARTIFACT",
	KindJournalVersion: "JOURNAL_VERSION",
	KindPredecessor:    "PREDECESSOR",
	KindDescription:    "DESCRIPTION",
	KindInfo:           "INFO",
	KindPolicy:         "POLICY",
	KindRelease:        "RELEASE",
	KindLicense:        "LICENSE",
	KindContent:        "CONTENT",
	KindPublished:      "PUBLISHED",
	KindDepends:        "DEPENDS",
	KindExcludes:       "EXCLUDES",
	KindPrefers:        "PREFERS",
}

// String returns the KEYWORD of k as written in a Journal ("The header" and
// "Release blocks" in docs/journal-format.md), or "" for KindUnknown or an
// out-of-range value.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return ""
}

// KindOf returns the directive kind named by the exact keyword kw, or
// KindUnknown when kw is not one of the keywords of "The header" and
// "Release blocks" in docs/journal-format.md. Keywords are case-sensitive
// ("Directives and arguments" in docs/journal-format.md): KindOf("release") is
// KindUnknown.
func KindOf(kw string) Kind {
	switch kw {
	case "JOURNAL_FORMAT":
		return KindJournalFormat
	case "ARTIFACT":
		return KindArtifact
	case "JOURNAL_VERSION":
		return KindJournalVersion
	case "PREDECESSOR":
		return KindPredecessor
	case "DESCRIPTION":
		return KindDescription
	case "INFO":
		return KindInfo
	case "POLICY":
		return KindPolicy
	case "RELEASE":
		return KindRelease
	case "LICENSE":
		return KindLicense
	case "CONTENT":
		return KindContent
	case "PUBLISHED":
		return KindPublished
	case "DEPENDS":
		return KindDepends
	case "EXCLUDES":
		return KindExcludes
	case "PREFERS":
		return KindPrefers
	}
	return KindUnknown
}

// isHeader reports whether k may appear in the header ("The header" in
// docs/journal-format.md).
func (k Kind) isHeader() bool { return k >= KindJournalFormat && k <= KindPolicy }

// headerOnly reports whether k may appear only in the header.
func (k Kind) headerOnly() bool { return k.isHeader() && k != KindDescription && k != KindPolicy }

// argKind is what one argument position of a directive takes.
type argKind uint8

const (
	argFormat argKind = iota
	argCoordinate
	argTimestamp
	argDigest
	argVersion
	argConstraint
	argLicense
	argURI
	argName
	argVerdict
	argQuoted
)

var argKindNames = [...]string{
	argFormat:     "format number",
	argCoordinate: "coordinate",
	argTimestamp:  "timestamp",
	argDigest:     "digest",
	argVersion:    "version",
	argConstraint: "constraint",
	argLicense:    "license expression",
	argURI:        "uri",
	argName:       "name",
	argVerdict:    "verdict",
	argQuoted:     "quoted string",
}

// argSpec is the argument grammar of one directive ("The header" and
// "Release blocks" in docs/journal-format.md): the kinds of its positions, of
// which the first min are required.
type argSpec struct {
	kinds []argKind
	min   int
	usage string
}

var argSpecs = [...]argSpec{
	KindJournalFormat:  {[]argKind{argFormat}, 1, "JOURNAL_FORMAT 1"},
	KindArtifact:       {[]argKind{argCoordinate}, 1, "ARTIFACT <coordinate>"},
	KindJournalVersion: {[]argKind{argTimestamp}, 1, "JOURNAL_VERSION <timestamp>"},
	KindPredecessor:    {[]argKind{argDigest}, 1, "PREDECESSOR <digest>"},
	KindDescription:    {[]argKind{argQuoted}, 1, `DESCRIPTION "<text>"`},
	KindInfo:           {[]argKind{argURI}, 1, "INFO <uri>"},
	KindPolicy:         {[]argKind{argVerdict, argQuoted}, 1, `POLICY <verdict> ["<reason>"]`},
	KindRelease:        {[]argKind{argVersion}, 1, "RELEASE <version>"},
	KindLicense:        {[]argKind{argLicense}, 1, "LICENSE <spdx-expression>"},
	KindContent:        {[]argKind{argName, argDigest}, 2, "CONTENT <name> <digest>"},
	KindPublished:      {[]argKind{argTimestamp}, 1, "PUBLISHED <timestamp>"},
	KindDepends:        {[]argKind{argCoordinate, argConstraint, argQuoted}, 2, `DEPENDS <coordinate> <constraint> ["<description>"]`},
	KindExcludes:       {[]argKind{argCoordinate, argQuoted}, 1, `EXCLUDES <coordinate> ["<description>"]`},
	KindPrefers:        {[]argKind{argCoordinate, argVersion, argQuoted}, 2, `PREFERS <coordinate> <version> ["<description>"]`},
}

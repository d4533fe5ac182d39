package rules

import "github.com/r35157/journal-lint/internal/diag"

// valueDoc builds the doc of a value/ rule: the grammar in words, a failing
// and a passing example that differ in the value.
func valueDoc(text, failing, passing string) string {
	return text + "\n\nFailing example:\n\n~~~journal\n" + failing + "~~~\n\nPassing example:\n\n~~~journal\n" + passing + "~~~\n"
}

// journalHead is the header of the value/ examples that vary a release.
const journalHead = `JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE MIT
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
`

// valueRules are the validity rules of the value grammars (format spec §4),
// reported by the parser with the range of the offending value.
var valueRules = []Rule{
	validity(diag.ValueCoordinate, "a coordinate breaks its grammar", valueDoc(`A coordinate is lowercase letters and digits in at least two dot-separated
segments, with single "-" or "_" inside a segment, at most 128 bytes; its first
segment is not a Windows device name such as con or lpt1 (format spec §4). It
is used verbatim as a directory name, so nothing else is accepted.`,
		`JOURNAL_FORMAT 1
ARTIFACT Widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
`, `JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
`)),
	validity(diag.ValueTimestamp, "a timestamp breaks its grammar", valueDoc(`A timestamp is the ISO 8601 basic UTC form YYYYMMDDTHHMMSSZ of a real
instant with year 1970–9999 and no leap second (format spec §4). It is used
verbatim as a file name stem and compared byte-wise, so extended forms, other
time zones and impossible dates are rejected.`,
		`JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 2026-01-10T08:00:00Z
DESCRIPTION "A tiny UI toolkit"
`, `JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
`)),
	validity(diag.ValueDigest, "a digest breaks its grammar", valueDoc(`A digest is "sha256:" followed by exactly 64 lowercase hexadecimal digits
(format spec §4), in PREDECESSOR and CONTENT.`,
		`JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE MIT
CONTENT widget-1.0.0.jar sha256:33333333ABCD
`,
		journalHead)),
	validity(diag.ValueVersion, "a version breaks its grammar", valueDoc(`A release version is SemVer 2.0.0 without build metadata:
MAJOR.MINOR.PATCH with an optional -PRERELEASE, no leading "v", no leading
zeros, at most 128 bytes (format spec §4). It is used in RELEASE and PREFERS
and in constraints.`,
		`JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE v1.0
LICENSE MIT
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
`, journalHead)),
	validity(diag.ValueConstraint, "a version constraint breaks its grammar", valueDoc(`A constraint is an exact version or one or more intervals written together
without spaces, such as [1.2.0,2.0.0) or [1.0.0,1.2.0),[1.3.0,2.0.0). Each
interval has at least one bound, a lower bound below its upper bound, and the
intervals are ascending and neither overlap nor touch (format spec §4).`,
		journalHead+"DEPENDS org.example.core [2.0.0,1.0.0)\n",
		journalHead+"DEPENDS org.example.core [1.0.0,2.0.0)\n")),
	validity(diag.ValueLicense, "a license expression breaks its grammar", valueDoc(`LICENSE takes an SPDX 2.3 license expression over identifiers of the SPDX
license list and LicenseRef-… identifiers, or the single word NOASSERTION or
NONE (format spec §4). Unknown identifiers and malformed expressions are
rejected.`,
		`JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE MIT AND
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
`, journalHead)),
	validity(diag.ValueURI, "a URI breaks its grammar", valueDoc(`INFO takes an absolute URI per RFC 3986: a scheme, a colon and the rest, any
scheme, no spaces, at most 2,048 bytes (format spec §4).`,
		`JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
INFO widgets.example.org/widget
`, `JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
INFO https://widgets.example.org/widget
`)),
	validity(diag.ValueName, "a content name breaks its grammar", valueDoc(`A CONTENT name is a plain file name: letters, digits and . _ + -, at most 255
bytes, not "." or ".." and without slashes (format spec §4).`,
		`JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE MIT
CONTENT lib/widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
`, journalHead)),
	validity(diag.ValueVerdict, "a policy verdict breaks its grammar", valueDoc(`POLICY takes one of the verdicts allow, deprecated or deny, in lowercase
(format spec §4), then an optional quoted reason.`,
		journalHead+`POLICY forbidden "CVE-2026-0001"
`, journalHead+`POLICY deny "CVE-2026-0001"
`)),
	validity(diag.ValueFormat, "JOURNAL_FORMAT is not 1", valueDoc(`This is version 1 of the format, and JOURNAL_FORMAT must say 1 (format spec
§3 and rule 5.1). A text that claims another format version is rejected rather
than read with the wrong grammar.`,
		`JOURNAL_FORMAT 2
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
`, `JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
`)),
}

package rules

import (
	"fmt"
	"unicode/utf8"

	"github.com/r35157/journal-lint/internal/diag"
)

// securityBidiControl is security/bidi-control: the text contains a Unicode
// bidirectional control character (the "Trojan Source" attack,
// CVE-2021-42574).
var securityBidiControl = Rule{
	Code:            "security/bidi-control",
	DefaultSeverity: diag.Error,
	Summary:         "the text contains a Unicode bidirectional control character",
	Doc: `Unicode bidirectional control characters change the order in which text is
displayed without changing the bytes. A reviewer can then read one thing while
the file says another, for example a comment that visually swallows the end of
a DEPENDS line or a constraint that looks like a different range (the "Trojan
Source" attack, CVE-2021-42574). The format accepts these characters, so this
rule rejects them anywhere in the file: in values, in quoted strings and in
comments.

The characters are U+202A–U+202E (embeddings and overrides), U+2066–U+2069
(isolates), U+200E and U+200F (left-to-right and right-to-left marks) and
U+061C (Arabic letter mark). Each one is reported with its exact range.

If right-to-left text really belongs in a quoted description, write the control
character as a JSON escape (` + "`\\u202B`" + `): it then shows in the file.

Failing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
# reviewed, safe ⟦U+202E⟧ 0.2.1 deny
` + "```" + `

Passing example:

` + "```journal" + `
JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"
# reviewed, safe
` + "```" + `
`,
	Check: checkBidiControl,
}

// bidiNames names the bidirectional control characters.
var bidiNames = map[rune]string{
	'\u061C': "ARABIC LETTER MARK",
	'\u200E': "LEFT-TO-RIGHT MARK",
	'\u200F': "RIGHT-TO-LEFT MARK",
	'\u202A': "LEFT-TO-RIGHT EMBEDDING",
	'\u202B': "RIGHT-TO-LEFT EMBEDDING",
	'\u202C': "POP DIRECTIONAL FORMATTING",
	'\u202D': "LEFT-TO-RIGHT OVERRIDE",
	'\u202E': "RIGHT-TO-LEFT OVERRIDE",
	'\u2066': "LEFT-TO-RIGHT ISOLATE",
	'\u2067': "RIGHT-TO-LEFT ISOLATE",
	'\u2068': "FIRST STRONG ISOLATE",
	'\u2069': "POP DIRECTIONAL ISOLATE",
}

func checkBidiControl(p *Pass) {
	src := p.Doc.Src
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if name, ok := bidiNames[r]; ok {
			p.Report(diag.Diagnostic{
				Range:   p.Range(i, i+n),
				Message: fmt.Sprintf("bidirectional control character U+%04X %s", r, name),
				Help:    "delete the character: it makes text display differently from its bytes (Trojan Source); if it belongs in a quoted string, write it as a \\u escape",
			})
		}
		i += n
	}
}

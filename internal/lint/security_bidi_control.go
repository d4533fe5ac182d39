package lint

import (
	"fmt"
	"unicode/utf8"

	"github.com/r35157/journal-lint/internal/diag"
)

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

// bidiLead marks the first byte of the UTF-8 encoding of each character
// of bidiNames; only there does checkBidiControl decode.
var bidiLead = func() (lead [256]bool) {
	for r := range bidiNames {
		lead[utf8.AppendRune(nil, r)[0]] = true
	}
	return lead
}()

// checkBidiControl is the check of security/bidi-control: the text contains a Unicode
// bidirectional control character (the "Trojan Source" attack,
// CVE-2021-42574).
func checkBidiControl(p *Pass) {
	src := p.Doc.Src
	for i := 0; i < len(src); {
		if !bidiLead[src[i]] {
			// Not where a bidi control starts. A continuation byte of
			// another character is never a lead byte, so the scan stays
			// on character boundaries as a rune-by-rune decode would.
			i++
			continue
		}
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

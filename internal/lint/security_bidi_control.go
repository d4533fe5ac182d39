package lint

import (
	"bytes"
	"fmt"
	"slices"
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

// bidiLeads are the first bytes of the UTF-8 encodings of the characters
// of bidiNames (0xD8 and 0xE2): only there does checkBidiControl decode.
var bidiLeads = func() []byte {
	var leads []byte
	for r := range bidiNames {
		if b := utf8.AppendRune(nil, r)[0]; !slices.Contains(leads, b) {
			leads = append(leads, b)
		}
	}
	return leads
}()

// checkBidiControl is the check of security/bidi-control: the text contains a Unicode
// bidirectional control character (the "Trojan Source" attack,
// CVE-2021-42574).
func checkBidiControl(p *Pass) {
	src := p.Doc.Src
	// next[k] is the offset of the next bidiLeads[k] at or after i (len(src)
	// when there is none). A lead byte is never a continuation byte of
	// another character, so jumping from one to the next stays on character
	// boundaries as a rune-by-rune decode would; bytes.IndexByte finds them
	// far faster than a look at every byte, and each is looked for again
	// only once passed, which keeps the scan linear whatever the text.
	next := make([]int, len(bidiLeads))
	for k := range next {
		next[k] = -1
	}
	for i := 0; i < len(src); {
		at := len(src)
		for k, b := range bidiLeads {
			if next[k] < i {
				next[k] = len(src)
				if j := bytes.IndexByte(src[i:], b); j >= 0 {
					next[k] = i + j
				}
			}
			at = min(at, next[k])
		}
		if at == len(src) {
			return
		}
		r, n := utf8.DecodeRune(src[at:])
		if name, ok := bidiNames[r]; ok {
			p.Report(diag.Diagnostic{
				Range:   p.Range(at, at+n),
				Message: fmt.Sprintf("bidirectional control character U+%04X %s", r, name),
				Help:    "delete the character: it makes text display differently from its bytes (Trojan Source); if it belongs in a quoted string, write it as a \\u escape",
			})
		}
		i = at + n
	}
}

package lsp

import (
	"testing"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// FuzzPositions feeds the position conversions arbitrary text (invalid
// UTF-8, CRLF, lone CR, astral characters) and positions, as a client may
// send them: they never panic, offsets stay inside the text, and a
// position computed from an offset on a character boundary maps back to
// that offset.
func FuzzPositions(f *testing.F) {
	f.Add([]byte("JOURNAL_FORMAT 1\nARTIFACT a.b\n"), 5, uint32(1), uint32(3))
	f.Add([]byte("a😀b\r\nc\xffd\re"), 4, uint32(0), uint32(9))
	f.Add([]byte(""), 0, uint32(7), uint32(0))
	f.Fuzz(func(t *testing.T, src []byte, off int, line, char uint32) {
		x := newText(src)
		for _, enc := range []posEncoding{utf16, utf8Encoding} {
			got := x.offset(enc, protocol.Position{Line: line, Character: char})
			if got < 0 || got > len(src) {
				t.Fatalf("%s: offset %d outside [0, %d]", enc, got, len(src))
			}
			if off < 0 || off > len(src) {
				continue
			}
			for off > 0 && off < len(src) && !utf8.RuneStart(src[off]) {
				off--
			}
			if off < len(src) && src[off] == '\n' && off > 0 && src[off-1] == '\r' {
				continue // between CR and LF: the position is the line's end
			}
			p := x.position(enc, off)
			if back := x.offset(enc, p); back != off && utf8.Valid(src) {
				t.Fatalf("%s: offset %d → %v → %d", enc, off, p, back)
			}
		}
	})
}

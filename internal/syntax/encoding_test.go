package syntax

import (
	"encoding/binary"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/r35157/journal-lint/rules"
)

// A text in UTF-16 or UTF-32 with its byte-order mark gets one
// syntax/encoding diagnostic that names the encoding, over the mark, and no
// other (issue "hostile input" §7: it gave one error per line before).
func TestForeignEncoding(t *testing.T) {
	t.Parallel()
	text := "\ufeff" + hdr + "\n" + rel + "# é and 😀\n"
	units := utf16.Encode([]rune(text))
	le16, be16 := make([]byte, 2*len(units)), make([]byte, 2*len(units))
	for i, u := range units {
		binary.LittleEndian.PutUint16(le16[2*i:], u)
		binary.BigEndian.PutUint16(be16[2*i:], u)
	}
	var le32, be32 []byte
	for _, r := range text {
		le32 = binary.LittleEndian.AppendUint32(le32, uint32(r))
		be32 = binary.BigEndian.AppendUint32(be32, uint32(r))
	}
	for _, tc := range []struct {
		src       []byte
		name, bom string
		end       int
	}{
		{le16, "UTF-16 little-endian", "FF FE", 2},
		{be16, "UTF-16 big-endian", "FE FF", 2},
		{le32, "UTF-32 little-endian", "FF FE 00 00", 4},
		{be32, "UTF-32 big-endian", "00 00 FE FF", 4},
		{[]byte{0xff, 0xfe}, "UTF-16 little-endian", "FF FE", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ds := Parse("a/b.journal", tc.src)
			if len(ds) != 1 {
				t.Fatalf("%d diagnostics, want 1: %v", len(ds), ds)
			}
			d := ds[0]
			if d.Code != rules.SyntaxEncoding || d.Range.Start.Offset != 0 || d.Range.End.Offset != tc.end || d.Range.Start.Line != 1 || d.Range.Start.Column != 1 {
				t.Errorf("diagnostic %s %+v", d.Code, d.Range)
			}
			for _, want := range []string{tc.name, tc.bom, "not UTF-8"} {
				if !strings.Contains(d.Message, want) {
					t.Errorf("message %q does not say %q", d.Message, want)
				}
			}
			if !strings.Contains(d.Help, "iconv") {
				t.Errorf("help %q", d.Help)
			}
		})
	}
	// A UTF-8 byte-order mark is still one error among the others of the
	// text, which is readable.
	_, ds := Parse("a/b.journal", []byte("\ufeffJOURNAL_FORMAT 1\n"))
	if len(ds) < 2 || ds[0].Code != rules.SyntaxEncoding || !strings.Contains(ds[0].Message, "byte-order mark") {
		t.Errorf("UTF-8 mark: %v", ds)
	}
}

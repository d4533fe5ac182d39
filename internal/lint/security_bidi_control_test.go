package lint_test

import (
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/r35157/journal-lint/internal/lint"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/rules"
)

// TestBidiControlOffsets checks that the rule's lead-byte scan finds the
// same characters at the same offsets as a rune-by-rune decode of the
// whole text, next to multi-byte characters and invalid UTF-8.
func TestBidiControlOffsets(t *testing.T) {
	t.Parallel()
	bidi := []string{"\u061C", "\u200F", "\u202E", "\u2066", "\u2069"}
	pieces := []string{"a", "é", "\u2028", "😀", "\xe2", "\xe2\x80", "\xd8", "\xff", "\n", "# c "}
	cfg := lint.RunConfig{Enabled: func(code string) bool { return code == rules.SecurityBidiControl }}
	for _, b := range bidi {
		for _, before := range pieces {
			for _, after := range pieces {
				src := []byte("FORMAT journal/1\n# " + before + b + after + b + "\n")
				doc, _ := syntax.Parse("x.journal", src)
				var got []int
				for _, d := range lint.Run([]*syntax.Document{doc}, nil, cfg) {
					got = append(got, d.Range.Start.Offset)
				}
				if want := naiveBidi(src); !slices.Equal(got, want) {
					t.Errorf("%q: offsets %v, want %v", src, got, want)
				}
			}
		}
	}
}

// naiveBidi returns the offsets of the bidi controls of src, decoding
// every rune.
func naiveBidi(src []byte) []int {
	var out []int
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		switch r {
		case '\u061C', '\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E',
			'\u2066', '\u2067', '\u2068', '\u2069':
			out = append(out, i)
		}
		i += n
	}
	return out
}

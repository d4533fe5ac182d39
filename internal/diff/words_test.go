package diff_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diff"
)

var wordDiffTests = []struct {
	old, new string
	want     []diff.Segment
}{
	{"A tiny UI toolkit", "A small UI toolkit", []diff.Segment{
		{Op: diff.Equal, Text: "A "}, {Op: diff.Delete, Text: "tiny"}, {Op: diff.Insert, Text: "small"}, {Op: diff.Equal, Text: " UI toolkit"}}},
	{"upgrade to 1.2.0", "upgrade to 1.2.1", []diff.Segment{
		{Op: diff.Equal, Text: "upgrade to "}, {Op: diff.Delete, Text: "1.2.0"}, {Op: diff.Insert, Text: "1.2.1"}}},
	{"", "new text", []diff.Segment{{Op: diff.Insert, Text: "new text"}}},
	{"old text", "", []diff.Segment{{Op: diff.Delete, Text: "old text"}}},
	{"same", "same", []diff.Segment{{Op: diff.Equal, Text: "same"}}},
	{"tables and footnotes", "tables, footnotes and emoji", []diff.Segment{
		{Op: diff.Equal, Text: "tables"}, {Op: diff.Insert, Text: ", footnotes"}, {Op: diff.Equal, Text: " and "},
		{Op: diff.Delete, Text: "footnotes"}, {Op: diff.Insert, Text: "emoji"}}},
}

// WordDiff works on words: a changed word is deleted and inserted whole.
func TestWordDiff(t *testing.T) {
	t.Parallel()
	for _, tt := range wordDiffTests {
		if got := diff.WordDiff(tt.old, tt.new); !slices.Equal(got, tt.want) {
			t.Errorf("WordDiff(%q, %q) = %v, want %v", tt.old, tt.new, got, tt.want)
		}
	}
}

// FuzzWordDiff: WordDiff never panics and its segments rebuild both texts.
func FuzzWordDiff(f *testing.F) {
	for _, tt := range wordDiffTests {
		f.Add(tt.old, tt.new)
	}
	f.Add("\uE000 private \uE001", "\uE001 use")
	f.Fuzz(func(t *testing.T, old, new string) {
		var a, b strings.Builder
		for _, s := range diff.WordDiff(old, new) {
			if s.Op != diff.Insert {
				a.WriteString(s.Text)
			}
			if s.Op != diff.Delete {
				b.WriteString(s.Text)
			}
		}
		if a.String() != strings.ToValidUTF8(old, "\uFFFD") && a.String() != old {
			t.Errorf("old not rebuilt: %q vs %q", a.String(), old)
		}
		if b.String() != strings.ToValidUTF8(new, "\uFFFD") && b.String() != new {
			t.Errorf("new not rebuilt: %q vs %q", b.String(), new)
		}
	})
}

// A long description with one word changed keeps its word diff: the text
// both values start and end with is Equal, whatever its length.
func TestWordDiffLongValueOneWord(t *testing.T) {
	t.Parallel()
	head, tail := strings.Repeat("lorem ipsum ", 300), strings.Repeat(" dolor sit", 300)
	got := diff.WordDiff(head+"tiny"+tail, head+"small"+tail)
	want := []diff.Segment{{Op: diff.Equal, Text: head}, {Op: diff.Delete, Text: "tiny"}, {Op: diff.Insert, Text: "small"}, {Op: diff.Equal, Text: tail}}
	if !slices.Equal(got, want) {
		t.Errorf("got %d segments %.200v", len(got), got)
	}
}

// Past the bound (many words changed, or a long changed middle), the middle
// is one Delete and one Insert between the shared ends (issue 26).
func TestWordDiffBounded(t *testing.T) {
	t.Parallel()
	var a, b []string
	for i := range 40 {
		a = append(a, "a"+strings.Repeat("x", i%3))
		b = append(b, "b"+strings.Repeat("x", i%3))
	}
	old, new := "keep "+strings.Join(a, " ")+" end", "keep "+strings.Join(b, " ")+" end"
	want := []diff.Segment{{Op: diff.Equal, Text: "keep "}, {Op: diff.Delete, Text: strings.Join(a, " ")},
		{Op: diff.Insert, Text: strings.Join(b, " ")}, {Op: diff.Equal, Text: " end"}}
	if got := diff.WordDiff(old, new); !slices.Equal(got, want) {
		t.Errorf("40 words changed: got %v", got)
	}
	long := strings.Repeat("w ", 600)
	got := diff.WordDiff("keep "+long+"x end", "keep "+long+"y end")
	if len(got) != 4 || got[0].Text != "keep "+long || got[1].Text != "x" || got[2].Text != "y" {
		t.Errorf("one word after a long shared run: %.200v", got)
	}
	long = strings.Repeat(" w", 600)
	got = diff.WordDiff("keep x"+long+" end", "keep y"+long+"z end")
	if len(got) != 4 || got[1].Op != diff.Delete || got[1].Text != "x"+long || got[2].Text != "y"+long+"z" {
		t.Errorf("a long changed middle: %.200v", got)
	}
}

package diff_test

import (
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diff"
)

var wordDiffTests = []struct {
	old, new, want string
}{
	{"A tiny UI toolkit", "A small UI toolkit", "A [-tiny-]{+small+} UI toolkit"},
	{"upgrade to 1.2.0", "upgrade to 1.2.1", "upgrade to [-1.2.0-]{+1.2.1+}"},
	{"", "new text", "{+new text+}"},
	{"old text", "", "[-old text-]"},
	{"same", "same", "same"},
	{"tables and footnotes", "tables, footnotes and emoji", "tables{+, footnotes+} and [-footnotes-]{+emoji+}"},
}

func TestWordDiff(t *testing.T) {
	for _, tt := range wordDiffTests {
		if got := diff.InlineDiff(tt.old, tt.new, false); got != tt.want {
			t.Errorf("InlineDiff(%q, %q) = %q, want %q", tt.old, tt.new, got, tt.want)
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

package diff

import (
	"strings"
	"testing"
)

// A no-semantic-change names what it saw (issue "hostile input" §7): each
// kind of invisible change alone, some together, and the one that two kinds
// both explain.
func TestInvisibleChanges(t *testing.T) {
	t.Parallel()
	const (
		head = "JOURNAL_FORMAT 1\nARTIFACT com.example.w\nJOURNAL_VERSION 20260101T000000Z\nDESCRIPTION \"a  b\"\n\n"
		rel1 = "RELEASE 1.0.0\nLICENSE MIT\n"
		rel2 = "RELEASE 1.1.0\nLICENSE MIT\n"
		base = head + rel1 + "\n" + rel2
	)
	for _, tc := range []struct {
		desc, old, new, want string
	}{
		{"line endings", base, strings.ReplaceAll(base, "\n", "\r\n"), "line endings (LF → CRLF)"},
		{"line endings back", strings.ReplaceAll(base, "\n", "\r\n"), base, "line endings (CRLF → LF)"},
		{"final newline removed", base, strings.TrimSuffix(base, "\n"), "the final newline (removed)"},
		{"final newline added", strings.TrimSuffix(base, "\n"), base, "the final newline (added)"},
		{"trailing white space", base, strings.Replace(base, "LICENSE MIT\n", "LICENSE MIT \t\n", 1), "trailing white space"},
		{"comments", base, "# a comment\n" + base, "comments"},
		{"comment edited", "# one\n" + base, "# two\n" + base, "comments"},
		{"blank lines", base, strings.Replace(base, "\n\n", "\n\n\n", 1), "blank lines"},
		{"indentation", base, strings.Replace(base, "LICENSE", "  LICENSE", 1), "indentation"},
		{"spacing between arguments", base, strings.Replace(base, "LICENSE MIT", "LICENSE \t MIT", 1), "spacing between arguments"},
		{"order", base, head + rel2 + "\n" + rel1, "the order of lines"},
		{"order and comments", base, head + rel2 + "\n# moved\n" + rel1, "comments and the order of lines"},
		{"chain metadata", base, strings.Replace(base, "20260101T000000Z", "20260201T000000Z", 1), "the chain metadata (JOURNAL_VERSION, PREDECESSOR)"},
		{"spelling", base, strings.Replace(base, `"a  b"`, `"a \u0020b"`, 1), "the spelling of a value"},
		{"spaces inside a quoted string are not spacing", base, strings.Replace(base, `"a  b"`, `"a b"`, 1), "the spelling of a value"},
		{"indentation and spacing", base, strings.Replace(base, "LICENSE MIT", "\tLICENSE  MIT", 1), "indentation and spacing between arguments"},
		{"several", base, "# c\n" + strings.ReplaceAll(strings.TrimSuffix(base, "\n"), "\n", "\r\n"), "line endings (LF → CRLF), the final newline (removed) and comments"},
		{"trailing white space on a comment", "# c\n" + base, "# c \n" + base, "trailing white space"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if got := andList(invisibleChanges([]byte(tc.old), []byte(tc.new))); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

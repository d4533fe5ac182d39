package cli

import (
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

func mustVersion(t *testing.T, s string) vt.JournalVersion {
	t.Helper()
	v, err := vt.ParseJournalVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The successor keeps the head's bytes: its CRLF line endings, its
// comments, a last line without a terminator.
func TestSuccessorText(t *testing.T) {
	tests := []struct{ name, head, want string }{
		{"crlf genesis",
			"JOURNAL_FORMAT 1\r\nARTIFACT com.example.widget\r\nJOURNAL_VERSION 20260110T080000Z\r\n# kept\r\nDESCRIPTION \"W\"\r\n",
			"JOURNAL_FORMAT 1\r\nARTIFACT com.example.widget\r\nJOURNAL_VERSION 20260201T080000Z\r\nPREDECESSOR @\r\n# kept\r\nDESCRIPTION \"W\"\r\n"},
		{"successor without final newline",
			"JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION  20260110T080000Z\nPREDECESSOR\tsha256:1111111111111111111111111111111111111111111111111111111111111111\nDESCRIPTION \"W\"",
			"JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION  20260201T080000Z\nPREDECESSOR\t@\nDESCRIPTION \"W\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head, ds := syntax.Parse("h.journal", []byte(tt.head))
			if !head.RevisionOK {
				t.Fatalf("head invalid: %v", ds)
			}
			got := string(successorText(head, mustVersion(t, "20260201T080000Z")))
			want := strings.Replace(tt.want, "@", head.Digest.String(), 1)
			if got != want {
				t.Errorf("got  %q\nwant %q", got, want)
			}
			if doc, ds := syntax.Parse("s.journal", []byte(got)); !doc.RevisionOK {
				t.Errorf("successor invalid: %v", ds)
			}
		})
	}
}

// A description the format cannot hold makes an invalid draft, which
// runNew refuses; an ordinary one round-trips.
func TestGenesisText(t *testing.T) {
	co, err := vt.ParseCoordinate("com.example.gadget")
	if err != nil {
		t.Fatal(err)
	}
	v := mustVersion(t, "20260105T120000Z")
	for desc, valid := range map[string]bool{
		"A \"quoted\" <gadget> ü\ttab": true,
		"bell \a":                      false,
		strings.Repeat("x", 8193):      false,
	} {
		text, err := genesisText(co, v, desc)
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := syntax.Parse("g.journal", text)
		if doc.RevisionOK != valid {
			t.Errorf("description %.20q: valid = %v, want %v\n%s", desc, doc.RevisionOK, valid, text)
		}
		if valid && doc.Header.Description.Args[0].Text != desc {
			t.Errorf("description %q came back as %q", desc, doc.Header.Description.Args[0].Text)
		}
	}
}

// new refuses a DESCRIPTION that would hide or forge text where it is shown
// (issue: hostile input §1), and one that is not UTF-8 instead of silently
// writing U+FFFD.
func TestCheckDescription(t *testing.T) {
	tests := []struct{ in, want string }{
		{"A tiny UI toolkit", ""},
		{"名前 ü \"quoted\" <x> ::error::", ""},
		{"evil\u202etxt", `--description holds \u202e at byte 5`},
		{"line\n::error file=x::forged", `--description holds \n at byte 5`},
		{"bell\x07", `--description holds \a at byte 5`}, {"esc\x1b[2J", `--description holds \x1b at byte 4`},
		{"csi\u009b", `--description holds \u009b at byte 4`},
		{"bad\xffutf8", `--description is not valid UTF-8: byte 4 is \xff`},
	}
	for _, tt := range tests {
		err := checkDescription(tt.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if (tt.want == "") != (got == "") || !strings.HasPrefix(got, tt.want) {
			t.Errorf("checkDescription(%q) = %q, want prefix %q", tt.in, got, tt.want)
		}
	}
}

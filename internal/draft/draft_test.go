package draft_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/draft"
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
// comments (behind one marker that says they were copied), a last line
// without a terminator.
func TestSuccessorText(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, head, want string }{
		{"crlf genesis",
			"JOURNAL_FORMAT 1\r\nARTIFACT com.example.widget\r\nJOURNAL_VERSION 20260110T080000Z\r\n# kept\r\nDESCRIPTION \"W\"\r\n",
			"JOURNAL_FORMAT 1\r\nARTIFACT com.example.widget\r\nJOURNAL_VERSION 20260201T080000Z\r\nPREDECESSOR @\r\n" +
				"# journal-lint new: the comments below were copied from revision 20260110T080000Z; update or delete them\r\n# kept\r\nDESCRIPTION \"W\"\r\n"},
		{"an earlier marker is replaced",
			"# journal-lint new: the comments below were copied from revision 20250101T000000Z; update or delete them\n# adds 1.0.0\nJOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"W\"\n  # about the description\n",
			"# journal-lint new: the comments below were copied from revision 20260110T080000Z; update or delete them\n# adds 1.0.0\nJOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260201T080000Z\nPREDECESSOR @\nDESCRIPTION \"W\"\n  # about the description\n"},
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
			b, err := draft.Successor(head, mustVersion(t, "20260201T080000Z"))
			if err != nil {
				t.Fatal(err)
			}
			got := string(b)
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
// Check refuses; an ordinary one round-trips.
func TestGenesisText(t *testing.T) {
	t.Parallel()
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
		text, err := draft.Genesis(co, v, desc)
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := syntax.Parse("g.journal", text)
		if doc.RevisionOK != valid {
			t.Errorf("description %.20q: valid = %v, want %v\n%s", desc, doc.RevisionOK, valid, text)
		}
		var ie *draft.InvalidError
		if err := draft.Check("com.example.gadget/g.journal", text); (err == nil) != valid || (err != nil && !errors.As(err, &ie)) {
			t.Errorf("description %.20q: Check = %v, want valid %v", desc, err, valid)
		} else if err != nil && (len(ie.Diagnostics) == 0 || !strings.HasPrefix(err.Error(), "the draft would not be a valid revision\n  com.example.gadget/g.journal:")) {
			t.Errorf("description %.20q: Check = %q", desc, err)
		}
		if valid && doc.Header.Description.Args[0].Text != desc {
			t.Errorf("description %q came back as %q", desc, doc.Header.Description.Args[0].Text)
		}
	}
}

// A successor must be later than the head: the chain is ordered by Journal
// version.
func TestSuccessorNotLater(t *testing.T) {
	t.Parallel()
	head, ds := syntax.Parse("h.journal", []byte("JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"W\"\n"))
	if !head.RevisionOK {
		t.Fatalf("head invalid: %v", ds)
	}
	for _, v := range []string{"20260110T080000Z", "20250101T000000Z"} {
		_, err := draft.Successor(head, mustVersion(t, v))
		var nl *draft.NotLaterError
		if !errors.As(err, &nl) {
			t.Errorf("Successor at %s: %v, want a NotLaterError", v, err)
			continue
		}
		if want := "the new JOURNAL_VERSION " + v + " must be later than the head's 20260110T080000Z"; err.Error() != want {
			t.Errorf("Successor at %s: %q, want %q", v, err, want)
		}
	}
}

func TestName(t *testing.T) {
	t.Parallel()
	v := mustVersion(t, "20260201T080000Z")
	if got := draft.Name(v, false); got != "20260201T080000Z.journal" {
		t.Errorf("Name = %q", got)
	}
	if got := draft.Name(v, true); got != "20260201T080000Z.journal.example" {
		t.Errorf("Name(example) = %q", got)
	}
}

// Write creates the artifact directory, and never replaces a revision at
// the same Journal version, whatever its suffix.
func TestWrite(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	co, err := vt.ParseCoordinate("com.example.gadget")
	if err != nil {
		t.Fatal(err)
	}
	v := mustVersion(t, "20260105T120000Z")
	path, err := draft.Write(root, co, draft.Name(v, false), []byte("text\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "com.example.gadget", "20260105T120000Z.journal"); path != want {
		t.Errorf("Write = %q, want %q", path, want)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "text\n" {
		t.Errorf("written %q, %v", b, err)
	}
	for _, example := range []bool{false, true} {
		_, err := draft.Write(root, co, draft.Name(v, example), []byte("other\n"))
		var ee *draft.ExistsError
		if !errors.As(err, &ee) || ee.Path != path || err.Error() != "refusing to overwrite "+path {
			t.Errorf("Write over an existing revision (example %v): %v", example, err)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != "text\n" {
		t.Errorf("the existing revision changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(root, "com.example.gadget", "20260105T120000Z.journal.example")); !os.IsNotExist(err) {
		t.Errorf("an example twin was written: %v", err)
	}
}

package tlog_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/r35157/journal-lint/internal/syntax"
	itlog "github.com/r35157/journal-lint/internal/tlog"
	"github.com/r35157/journal-lint/journal/tlog"
)

const widget = "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"Widget\"\n"

// logOf makes a log of the given revision texts and returns its
// directory, its verifier key and a proof for each text.
func logOf(t *testing.T, texts ...string) (dir, vkey string, proofs [][]byte) {
	t.Helper()
	skey, vkey, err := itlog.GenerateKey("journals.example.org/registry")
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(t.TempDir(), itlog.DirName)
	cp, err := itlog.Init(dir, skey)
	if err != nil {
		t.Fatal(err)
	}
	var batch []itlog.Revision
	for _, text := range texts {
		doc, _ := syntax.Parse("", []byte(text))
		if !doc.RevisionOK {
			t.Fatalf("not a revision: %q", text)
		}
		batch = append(batch, itlog.Revision{Path: doc.Revision.Coordinate().String() + "/" + doc.Revision.JournalVersion().String() + ".journal", Entry: itlog.EntryOf(doc.Revision)})
	}
	p, err := itlog.Prepare(itlog.DirFS(dir), cp, batch)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write(dir, skey); err != nil {
		t.Fatal(err)
	}
	now, err := itlog.ReadCheckpoint(itlog.DirFS(dir), vkey)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range batch {
		pr, err := itlog.Prove(itlog.DirFS(dir), now, r.Entry)
		if err != nil {
			t.Fatal(err)
		}
		proofs = append(proofs, pr.Text())
	}
	return dir, vkey, proofs
}

func TestVerifyRevision(t *testing.T) {
	gadget := "JOURNAL_FORMAT 1\nARTIFACT com.example.gadget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"Gadget\"\n"
	dir, vkey, proofs := logOf(t, widget, gadget)
	state := t.TempDir()
	pol := tlog.Policy{VKey: vkey, State: state, Log: os.DirFS(dir)}
	cp, err := tlog.VerifyRevision([]byte(widget), proofs[0], pol)
	if err != nil || cp.Size != 2 || cp.Origin != "journals.example.org/registry" {
		t.Fatalf("VerifyRevision = %+v, %v", cp, err)
	}
	// A file that changed since it was logged.
	changed := widget[:len(widget)-1] + "!\n"
	if _, err := tlog.VerifyRevision([]byte(changed), proofs[0], pol); err == nil {
		t.Error("a changed revision was accepted")
	}
	if _, err := tlog.VerifyRevision([]byte(gadget), proofs[0], pol); !errors.Is(err, tlog.ErrNotIncluded) {
		t.Errorf("another revision's proof: %v", err)
	}
	_, otherKey, _ := itlog.GenerateKey("journals.example.org/registry")
	if _, err := tlog.VerifyRevision([]byte(widget), proofs[0], tlog.Policy{VKey: otherKey}); !errors.Is(err, tlog.ErrSignature) {
		t.Errorf("a proof checked with another key: %v", err)
	}
	if _, err := tlog.VerifyRevision([]byte("not a journal"), proofs[0], pol); err == nil {
		t.Error("an invalid text was accepted")
	}
}

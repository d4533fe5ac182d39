package diag

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/r35157/journal-lint/internal/codec"
)

func TestListRoundTrip(t *testing.T) {
	rng := Range{Start: Pos{Offset: 10, Line: 2, Column: 3}, End: Pos{Offset: 14, Line: 2, Column: 7}}
	l := List{
		{Code: "chain/fork", Severity: Error, Message: "m", Path: "a.b/20260101T000000Z.journal", Range: rng,
			Related: []Related{{Path: "a.b/x.journal", Range: FileStart, Message: "the named revision"}},
			Help:    "h", Fixes: []Fix{{Title: "t", Edits: []Edit{{Range: rng, NewText: "sha256:00"}}}}, Subject: "subj"},
		{Code: "fs/root-missing", Severity: Info, Message: "root"},
	}
	w := codec.NewWriter(nil)
	AppendList(w, l)
	AppendList(w, nil)
	r := codec.NewReader(w.Bytes())
	got := ReadList(r)
	if empty := ReadList(r); empty != nil {
		t.Errorf("empty list read as %v", empty)
	}
	if err := r.Done(); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(l, got); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
	for n := range len(w.Bytes()) {
		r := codec.NewReader(w.Bytes()[:n])
		ReadList(r)
		ReadList(r)
		if r.Done() == nil {
			t.Errorf("a list cut to %d bytes reads without an error", n)
		}
	}
}

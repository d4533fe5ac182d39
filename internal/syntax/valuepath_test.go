package syntax

import (
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/diag"
)

const valuePathGenesis = `JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "Widget"

RELEASE 1.0.0
LICENSE NOASSERTION
CONTENT widget-1.0.0.jar sha256:3333333333333333333333333333333333333333333333333333333333333333
DEPENDS org.example.core [1.0.0,2.0.0)
`

func TestValuePath(t *testing.T) {
	t.Parallel()
	doc, ds := Parse("x.journal", []byte(valuePathGenesis))
	if !doc.RevisionOK {
		t.Fatalf("invalid: %v", ds)
	}
	lines := strings.SplitAfter(valuePathGenesis, "\n")
	at := func(line, col int) diag.Range { // ASCII only: columns are bytes
		off := len(strings.Join(lines[:line-1], "")) + col - 1
		return doc.Lines.Range(off, off+1)
	}
	tests := []struct {
		rng  diag.Range
		want string
	}{
		{diag.Range{}, ""},
		{at(4, 1), "header/DESCRIPTION"},
		{at(4, 13), "header/DESCRIPTION#1"},
		{at(5, 1), "header/line 5"},
		{at(6, 9), "release[1.0.0]/RELEASE#1"},
		{at(7, 9), "release[1.0.0]/LICENSE#1"},
		{at(8, 26), "release[1.0.0]/CONTENT[widget-1.0.0.jar]#2"},
		{at(9, 26), "release[1.0.0]/DEPENDS[org.example.core]#2"},
	}
	var none *Document
	if got := none.ValuePath(at(4, 1)); got != "" {
		t.Errorf("nil document: ValuePath = %q, want \"\"", got)
	}
	for _, tt := range tests {
		if got := doc.ValuePath(tt.rng); got != tt.want {
			t.Errorf("ValuePath(%d:%d) = %q, want %q", tt.rng.Start.Line, tt.rng.Start.Column, got, tt.want)
		}
	}
}

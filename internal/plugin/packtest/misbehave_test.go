package packtest

import (
	"strings"
	"testing"

	"github.com/r35157/journal-lint/plugins/sdk/sdktest"
)

// TestBehave: the pack that behaves reports each document it checked,
// where the want comments of testdata say.
func TestBehave(t *testing.T) {
	sdktest.Run(t, "testdata", packOf("behave", "0.0.1"), nil)
}

// TestEcho: the echo pack reports what its configuration says, as often
// as it says, with its related location; the needless one the same from
// the chain context alone, which is all it gets.
func TestEcho(t *testing.T) {
	files := map[string]string{
		"a.journal": "JOURNAL_FORMAT 1\nARTIFACT com.example.a\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"a\"\n",
		"b.journal": "JOURNAL_FORMAT 1\n",
	}
	for _, mode := range []string{"echo", "needless"} {
		got, err := sdktest.CheckFiles(t, packOf(mode, "0.0.1"), map[string]any{"message": "m", "help": "h", "related": "b.journal", "count": 2}, files)
		if err != nil {
			t.Fatal(err)
		}
		want := "a.journal: warning: m [misbehave/mode]\na.journal: warning: m [misbehave/mode]\nb.journal: warning: m [misbehave/mode]\nb.journal: warning: m [misbehave/mode]"
		if sdktest.Join(got) != want || got[0].Help != "h" {
			t.Errorf("%s:\n%s\nwant\n%s", mode, sdktest.Join(got), want)
		}
		none, err := sdktest.CheckFiles(t, packOf(mode, "0.0.1"), map[string]any{"count": 0}, files)
		if err != nil || len(none) != 0 {
			t.Errorf("%s, count 0: %v, %v", mode, none, err)
		}
	}
	// A related location outside the run fails the pack, as in journal-lint.
	_, err := sdktest.CheckFiles(t, packOf("echo", "0.0.1"), map[string]any{"message": "m", "related": "nowhere.journal"}, files)
	if err == nil || !strings.Contains(err.Error(), `path "nowhere.journal" is not a document of the run`) {
		t.Errorf("related outside the run: %v", err)
	}
}

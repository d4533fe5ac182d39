package load

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/rules"
)

// Overlay: a buffer stands in for its file, a buffer without a file
// is loaded where it would be placed, a misplaced one is reported as it
// would be once saved, and an oversized one is fs/too-large; the disk is
// never written.
func TestOverlay(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "journals")
	const genesis = "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"A tiny UI toolkit\"\n"
	rel := "com.example.widget/20260110T080000Z.journal"
	if err := os.MkdirAll(filepath.Join(root, "com.example.widget"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(genesis), 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(overlay map[string][]byte) *Result {
		t.Helper()
		res, err := Load(context.Background(), root, Options{Source: Overlay(root, nil, overlay)})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	hasCode := func(res *Result, path, code string) bool {
		for _, d := range res.Diagnostics {
			if d.Path == path && d.Code == code {
				return true
			}
		}
		return false
	}

	broken := strings.Replace(genesis, "ARTIFACT com.example.widget", "ARTIFACT Widget", 1)
	if res := load(map[string][]byte{rel: []byte(broken)}); !hasCode(res, rel, rules.ValueCoordinate) {
		t.Errorf("the buffer should stand in for the file: %v", res.Diagnostics)
	}
	newRel := "org.example.core/20260105T090000Z.journal"
	core := strings.NewReplacer("com.example.widget", "org.example.core", "20260110T080000Z", "20260105T090000Z").Replace(genesis)
	res := load(map[string][]byte{newRel: []byte(core), "Not A Coordinate/x.journal": []byte(core)})
	if len(res.Files) != 2 || res.State.RevisionCount() != 2 || len(res.Diagnostics) != 1 || !hasCode(res, "Not A Coordinate", rules.FSUnexpectedEntry) {
		t.Errorf("want the new buffer loaded beside the file and the misplaced one's directory reported as it would be once saved, got %d files, %d revisions, %v",
			len(res.Files), res.State.RevisionCount(), res.Diagnostics)
	}
	if res := load(map[string][]byte{rel: make([]byte, syntax.MaxSize+1)}); !hasCode(res, rel, rules.FSTooLarge) {
		t.Errorf("want fs/too-large for an oversized buffer: %v", res.Diagnostics)
	}
	if data, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel))); string(data) != genesis {
		t.Errorf("the file on disk changed")
	}
	if _, err := os.Stat(filepath.Join(root, "org.example.core")); !os.IsNotExist(err) {
		t.Errorf("the loader created a directory for a buffer: %v", err)
	}
}

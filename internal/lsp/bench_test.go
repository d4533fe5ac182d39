package lsp_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/r35157/journal-lint/internal/lsp"
	"github.com/r35157/journal-lint/internal/lsp/lsptest"
)

// bigBuffer returns a valid genesis of com.example.big with n release
// blocks (n = 1,900 gives about 1 MB) and the line of the last DESCRIPTION.
func bigBuffer(n int) ([]byte, uint32) {
	var b bytes.Buffer
	b.WriteString("JOURNAL_FORMAT 1\nARTIFACT com.example.big\nJOURNAL_VERSION 20260105T090000Z\nDESCRIPTION \"A large artifact\"\n")
	for i := range n {
		fmt.Fprintf(&b, `
RELEASE %d.%d.0
LICENSE MIT OR Apache-2.0
CONTENT big-%d.%d.0.jar sha256:4444444444444444444444444444444444444444444444444444444444444444
CONTENT big-%d.%d.0-sources.jar sha256:5555555555555555555555555555555555555555555555555555555555555555
DESCRIPTION "Release number %d: fixes and \"improvements\""
PUBLISHED 20260101T000000Z
POLICY deprecated "superseded"
DEPENDS org.example.core [1.2.0,1.3.0),[1.4.0,2.0.0) "runtime helpers"
EXCLUDES org.example.legacy-shim "pulled in by core, never used"
PREFERS org.example.core 1.4.2
`, i/100+1, i%100, i/100+1, i%100, i/100+1, i%100, i)
	}
	return b.Bytes(), uint32(bytes.Count(b.Bytes(), []byte("\n"))) - 6
}

// BenchmarkDiagnosticsLatency measures the time from a one-character edit
// of a 1 MB buffer to its published diagnostics: the whole round trip over
// JSON-RPC (incremental didChange, the check of the test tree with the
// buffer, publishDiagnostics), with no debounce delay. The tree is
// testdata/tree with its configuration (four small files besides the
// buffer).
func BenchmarkDiagnosticsLatency(b *testing.B) {
	src, line := bigBuffer(1900)
	root := filepath.Join(lsptest.CopyTree(b, filepath.Join("testdata", "tree")), "journals")
	c := lsptest.Start(b, lsp.Options{})
	u := c.Open(filepath.Join(root, "com.example.big", "20260105T090000Z.journal"), src)
	if ds := c.Diagnostics(u, 1); len(ds) != 0 {
		b.Fatalf("the buffer should be clean, got %v", codes(ds))
	}
	b.SetBytes(int64(len(src)))
	version := int32(1)
	for b.Loop() {
		version++
		// Toggle one letter of the last DESCRIPTION ("Release" ↔ "release").
		letter := "r"
		if version%2 == 1 {
			letter = "R"
		}
		c.Edit(u, version, protocol.Range{Start: protocol.Position{Line: line, Character: 13}, End: protocol.Position{Line: line, Character: 14}}, letter)
		c.Diagnostics(u, version)
	}
	b.ReportMetric(float64(len(src))/1e6, "MB-buffer")
}

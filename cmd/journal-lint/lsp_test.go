package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"

	"github.com/r35157/journal-lint/cmd/journal-lint/internal/cli"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/lsp"
	"github.com/r35157/journal-lint/internal/lsp/lsptest"
)

// finding is what the editor and `check --format json` must agree on for
// one diagnostic of a Journal file.
type finding struct {
	Path, Code, Severity, Message, Help string
	Start, End                          position
	Related                             []related
}

type position struct{ Line, Column int }

type related struct {
	Path       string
	Start, End position
	Message    string
}

// TestLSPDiagnosticsEqualCheck opens every Journal file of a tree (fork,
// history, lint, value errors, a configuration with rules: and ignore:)
// unchanged in the language server and proves that the published
// diagnostics are exactly those of `journal-lint check --format json` for
// the same tree: codes, severities, messages, help, ranges and related
// locations.
func TestLSPDiagnosticsEqualCheck(t *testing.T) {
	dir := lsptest.CopyTree(t, filepath.Join("..", "..", "internal", "lsp", "testdata", "tree"))
	root := filepath.Join(dir, "journals")
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

	var stdout, stderr bytes.Buffer
	code := cli.Main([]string{"journal-lint", "check", "--format", "json", "--config", filepath.Join(dir, ".journal-lint.yaml"), root}, &stdout, &stderr)
	if code != cli.ExitFindings {
		t.Fatalf("check exit %d, want %d; stderr:\n%s", code, cli.ExitFindings, stderr.String())
	}
	var report struct {
		Root        string
		Diagnostics []struct {
			Code, Severity, Message, Path, Help string
			Range                               *struct{ Start, End position }
			Related                             []struct {
				Path    string
				Range   *struct{ Start, End position }
				Message string
			}
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatal(err)
	}
	// check writes output paths (below the root's output path); the
	// language server's buffers are compared by root-relative path.
	rootRel := func(p string) string { return strings.TrimPrefix(p, report.Root+"/") }
	var want []finding
	for _, d := range report.Diagnostics {
		if !strings.HasSuffix(d.Path, ".journal") {
			continue // the configuration's own diagnostics are not a buffer's
		}
		f := finding{Path: rootRel(d.Path), Code: d.Code, Severity: d.Severity, Message: d.Message, Help: d.Help}
		if d.Range != nil {
			f.Start, f.End = d.Range.Start, d.Range.End
		}
		for _, r := range d.Related {
			rel := related{Path: rootRel(r.Path), Message: r.Message}
			if r.Range != nil {
				rel.Start, rel.End = r.Range.Start, r.Range.End
			}
			f.Related = append(f.Related, rel)
		}
		want = append(want, f)
	}
	if len(want) < 6 {
		t.Fatalf("the tree should have many findings, check found %d", len(want))
	}

	c := lsptest.Start(t, lsp.Options{Now: func() time.Time { return now }})
	var got []finding
	for _, path := range lsptest.Journals(t, root) {
		u := c.OpenFile(path)
		ds := c.Diagnostics(u, 1)
		for _, d := range ds {
			got = append(got, fromLSP(t, root, path, d))
		}
	}
	if err := c.Stop(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("LSP diagnostics differ from check --format json (-check +lsp):\n%s", diff)
	}
}

// fromLSP turns a published diagnostic of the file at path back into
// check's terms, reading the files to map UTF-16 positions to lines and
// code-point columns.
func fromLSP(t *testing.T, root, path string, d protocol.Diagnostic) finding {
	t.Helper()
	var data struct{ Help string }
	raw, _ := json.Marshal(d.Data)
	_ = json.Unmarshal(raw, &data)
	msg := d.Message
	if data.Help != "" {
		msg = strings.TrimSuffix(msg, "\nhelp: "+data.Help)
	}
	code, _ := d.Code.(string)
	f := finding{Path: relPath(t, root, path), Code: code, Severity: lspSeverity(d.Severity), Message: msg, Help: data.Help}
	f.Start, f.End = lspRange(t, path, d.Range)
	for _, r := range d.RelatedInformation {
		p := lsptest.Path(r.Location.URI)
		rel := related{Path: relPath(t, root, p), Message: r.Message}
		// A whole file is 1:1 to 1:1 in both (diag.FileStart).
		rel.Start, rel.End = lspRange(t, p, r.Location.Range)
		f.Related = append(f.Related, rel)
	}
	return f
}

func relPath(t *testing.T, root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(rel)
}

func lspSeverity(s protocol.DiagnosticSeverity) string {
	switch s {
	case protocol.DiagnosticSeverityError:
		return "error"
	case protocol.DiagnosticSeverityWarning:
		return "warning"
	}
	return "info"
}

// lspRange converts an LSP range (UTF-16) of the file at path to check's
// 1-based lines and code-point columns.
func lspRange(t *testing.T, path string, r protocol.Range) (start, end position) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	x := diag.NewLineIndex(src)
	conv := func(p protocol.Position) position {
		off := x.LineStart(int(p.Line) + 1)
		for n := 0; n < int(p.Character) && off < len(src) && src[off] != '\n'; {
			r, size := utf8.DecodeRune(src[off:])
			if r >= 0x10000 {
				n += 2
			} else {
				n++
			}
			off += size
		}
		pos := x.Pos(off)
		return position{pos.Line, pos.Column}
	}
	return conv(r.Start), conv(r.End)
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
	"go.lsp.dev/protocol"

	"github.com/r35157/journal-lint/cmd/journal-lint/internal/cli"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/gen"
	"github.com/r35157/journal-lint/internal/lsp"
	"github.com/r35157/journal-lint/internal/lsp/lsptest"
)

// findingsDiff returns "" when want and got are deeply equal, else their
// JSON forms line by line, "-" for want's lines and "+" for got's. (Not
// go-cmp: this test binary runs as journal-lint in the scripts, hundreds
// of times, and go-cmp's package initialisation cost each run 4% of its
// time, 8% under the race detector.)
func findingsDiff(want, got any) string {
	if reflect.DeepEqual(want, got) {
		return ""
	}
	w, _ := json.MarshalIndent(want, "", "  ")
	g, _ := json.MarshalIndent(got, "", "  ")
	dmp := diffmatchpatch.New()
	a, b, lines := dmp.DiffLinesToChars(string(w)+"\n", string(g)+"\n")
	var out strings.Builder
	changed := false
	for _, d := range dmp.DiffCharsToLines(dmp.DiffMain(a, b, false), lines) {
		mark := map[diffmatchpatch.Operation]string{diffmatchpatch.DiffEqual: " ", diffmatchpatch.DiffDelete: "-", diffmatchpatch.DiffInsert: "+"}[d.Type]
		changed = changed || d.Type != diffmatchpatch.DiffEqual
		for line := range strings.Lines(d.Text) {
			out.WriteString(mark + line)
		}
	}
	if !changed { // equal JSON, unequal values: nil and empty
		return fmt.Sprintf("-%#v\n+%#v\n", want, got)
	}
	return out.String()
}

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
	t.Parallel()
	dir := lsptest.CopyTree(t, filepath.Join("..", "..", "internal", "lsp", "testdata", "tree"))
	root := filepath.Join(dir, "journals")
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	want := checkFindings(t, dir, nil)
	if len(want) < 6 {
		t.Fatalf("the tree should have many findings, check found %d", len(want))
	}

	c := lsptest.Start(t, lsp.Options{Now: func() time.Time { return now }})
	var got []finding
	for _, path := range lsptest.Journals(t, root) {
		u := c.OpenFile(path)
		ds := c.Diagnostics(u, 1)
		for _, d := range ds {
			got = append(got, fromLSP(t, root, root, path, d))
		}
	}
	if err := c.Stop(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	if diff := findingsDiff(want, got); diff != "" {
		t.Errorf("LSP diagnostics differ from check --format json (-check +lsp):\n%s", diff)
	}
}

// checkFindings runs `journal-lint check --format json` on the tree of the
// test data copied to dir (configuration dir/.journal-lint.yaml, root
// dir/journals) and returns its findings on Journal files, in check's
// order; keep, when not nil, says which root-relative paths to keep.
func checkFindings(t *testing.T, dir string, keep func(rel string) bool) []finding {
	t.Helper()
	root := filepath.Join(dir, "journals")
	var stdout, stderr bytes.Buffer
	code := cli.Main([]string{"journal-lint", "check", "--format", "json", "--config", filepath.Join(dir, ".journal-lint.yaml"), root}, &stdout, &stderr)
	if code != cli.ExitFindings && code != cli.ExitOK {
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
		if keep != nil && !keep(rootRel(d.Path)) {
			continue
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
	return want
}

// fromLSP turns a published diagnostic of the file at path below root back
// into check's terms, reading the files below textRoot (a tree with the
// same layout whose files hold the texts the server checked: root itself
// when no buffer differs from its file) to map UTF-16 positions to lines
// and code-point columns.
func fromLSP(t *testing.T, root, textRoot, path string, d protocol.Diagnostic) finding {
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
	in := func(p string) string { return filepath.Join(textRoot, relPath(t, root, p)) }
	f.Start, f.End = lspRange(t, in(path), d.Range)
	for _, r := range d.RelatedInformation {
		p := lsptest.Path(r.Location.URI)
		rel := related{Path: relPath(t, root, p), Message: r.Message}
		// A whole file is 1:1 to 1:1 in both (diag.FileStart).
		rel.Start, rel.End = lspRange(t, in(p), r.Location.Range)
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

// TestLSPEditSequenceEqualsCheck edits buffers of a tree in the language
// server step by step (each check taking over the last one's unchanged
// artifacts) and proves after every step that the diagnostics published for
// every open buffer are exactly those of a fresh `journal-lint check
// --format json` of the same tree with the buffers' texts written into it.
// One step changes the core artifact's head only: the open widget buffer,
// whose dependencies on core it breaks, gets new diagnostics too.
func TestLSPEditSequenceEqualsCheck(t *testing.T) {
	t.Parallel()
	dir := lsptest.CopyTree(t, filepath.Join("..", "..", "internal", "lsp", "testdata", "tree"))
	root := filepath.Join(dir, "journals")
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	c := lsptest.Start(t, lsp.Options{Now: func() time.Time { return now }})

	widget := filepath.Join(root, "com.example.widget", "20260201T080000Z.journal")
	core := filepath.Join(root, "org.example.core", "20260105T090000Z.journal")
	draft := filepath.Join(root, "com.example.widget", "20260401T080000Z.journal")
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	coreText, widgetText := read(core), read(widget)

	type buffer struct {
		uri     protocol.DocumentURI
		text    string
		version int32
	}
	open := map[string]*buffer{} // by path
	var last map[string][]finding
	// settle waits for one check round after a step (every open buffer is
	// published once more) and compares it with check.
	settle := func(step string, counts map[string]int) map[string][]finding {
		t.Helper()
		got := map[string][]finding{}
		copyDir := lsptest.CopyTree(t, dir)
		copyRoot := filepath.Join(copyDir, "journals")
		for p, b := range open {
			rel := relPath(t, root, p)
			if err := os.WriteFile(filepath.Join(copyRoot, rel), []byte(b.text), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, d := range c.DiagnosticsAfter(b.uri, counts[p]) {
				got[rel] = append(got[rel], fromLSP(t, root, copyRoot, p, d))
			}
		}
		want := map[string][]finding{}
		for _, f := range checkFindings(t, copyDir, func(rel string) bool { return open[filepath.Join(root, filepath.FromSlash(rel))] != nil }) {
			want[f.Path] = append(want[f.Path], f)
		}
		if diff := findingsDiff(want, got); diff != "" {
			t.Fatalf("%s: LSP diagnostics differ from check --format json of the tree with the buffers (-check +lsp):\n%s", step, diff)
		}
		return got
	}
	counts := func() map[string]int {
		m := map[string]int{}
		for p, b := range open {
			m[p] = c.Published(b.uri)
		}
		return m
	}
	doOpen := func(p, text string) {
		open[p] = &buffer{uri: c.Open(p, []byte(text)), text: text, version: 1}
	}
	change := func(p, text string) {
		b := open[p]
		b.version++
		b.text = text
		c.Change(b.uri, b.version, text)
	}

	before := counts()
	doOpen(widget, widgetText)
	doOpen(core, coreText)
	last = settle("open widget and core", before)
	widgetBefore := last["com.example.widget/20260201T080000Z.journal"]

	// Core keeps one release, 1.3.0, which no longer satisfies widget's
	// DEPENDS org.example.core [1.2.0,1.3.0),[1.4.0,2.0.0).
	before = counts()
	change(core, strings.Replace(coreText[:strings.Index(coreText, "\nRELEASE 1.4.2")+1], "RELEASE 1.2.0", "RELEASE 1.3.0", 1))
	last = settle("core has only 1.3.0", before)
	if reflect.DeepEqual(widgetBefore, last["com.example.widget/20260201T080000Z.journal"]) {
		t.Errorf("the widget buffer's diagnostics did not change when core lost the releases it depends on")
	}

	// A draft successor of widget, then an edit that breaks its license.
	before = counts()
	draftText := strings.Replace(widgetText, "JOURNAL_VERSION 20260201T080000Z", "JOURNAL_VERSION 20260401T080000Z", 1)
	draftText = strings.Replace(draftText, "PREDECESSOR sha256:d84bb2a9f474e3d51b80029d48f91d008f55dab67d8605e071771ec253ea59ed", "PREDECESSOR "+gen.Digest([]byte(widgetText)), 1)
	doOpen(draft, draftText)
	settle("draft successor", before)
	before = counts()
	change(draft, strings.Replace(draftText, "LICENSE Apache-2.0", "LICENSE Apache-2", 1))
	settle("draft license", before)

	// Core back as on disk; then closed.
	before = counts()
	change(core, coreText)
	last = settle("core restored", before)
	if !reflect.DeepEqual(widgetBefore, last["com.example.widget/20260201T080000Z.journal"]) {
		t.Errorf("the widget buffer's diagnostics did not return when core got its release back")
	}
	before = counts()
	if err := c.Server.DidClose(c.Ctx(), &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: open[core].uri}}); err != nil {
		t.Fatal(err)
	}
	delete(open, core)
	delete(before, core)
	settle("core closed", before)

	// Core changes on disk (1.2.0 becomes 1.2.1) and the client says so.
	if err := os.WriteFile(core, []byte(strings.Replace(coreText, "RELEASE 1.2.0", "RELEASE 1.2.1", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	before = counts()
	err := c.Server.DidChangeWatchedFiles(c.Ctx(), &protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{{URI: lsptest.URI(core), Type: protocol.FileChangeTypeChanged}}})
	if err != nil {
		t.Fatal(err)
	}
	settle("core changed on disk", before)
	if err := c.Stop(); err != nil {
		t.Fatalf("serve: %v", err)
	}
}

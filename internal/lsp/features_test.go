package lsp_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/r35157/journal-lint/internal/lsp"
	"github.com/r35157/journal-lint/internal/lsp/lsptest"
)

const widgetFork = "com.example.widget/20260301T080000Z.journal"

func pos(line, char uint32) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{Position: protocol.Position{Line: line, Character: char}}
}

func at(u protocol.DocumentURI, line, char uint32) protocol.TextDocumentPositionParams {
	p := pos(line, char)
	p.TextDocument = protocol.TextDocumentIdentifier{URI: u}
	return p
}

// open opens the root-relative file of the tree and waits for its first
// diagnostics.
func open(t *testing.T, c *lsptest.Client, root, rel string) (protocol.DocumentURI, []protocol.Diagnostic) {
	t.Helper()
	u := c.OpenFile(filepath.Join(root, filepath.FromSlash(rel)))
	return u, c.Diagnostics(u, 1)
}

// Quick fixes are the diagnostics' own fixes: the fork's "name the digest
// of the current head" becomes an edit of PREDECESSOR, which, applied,
// clears the fork; a lowercase keyword gets its upper-case spelling.
func TestCodeActions(t *testing.T) {
	root := tree(t)
	c := lsptest.Start(t, opts())
	u, ds := open(t, c, root, widgetFork)
	if !hasCode(ds, "chain/fork") {
		t.Fatalf("want chain/fork, got %v", codes(ds))
	}
	var fork protocol.Diagnostic
	for _, d := range ds {
		if d.Code == "chain/fork" {
			fork = d
		}
	}
	actions, err := c.Server.CodeAction(c.Ctx(), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Range: fork.Range})
	if err != nil {
		t.Fatal(err)
	}
	var fix *protocol.CodeAction
	for i, a := range actions {
		if strings.HasPrefix(a.Title, "Set PREDECESSOR to the head 20260201T080000Z") {
			fix = &actions[i]
		}
	}
	if fix == nil {
		t.Fatalf("no PREDECESSOR fix among %v", titles(actions))
	}
	edits := fix.Edit.Changes[u]
	head, _ := os.ReadFile(filepath.Join(root, widgetHead))
	if len(edits) != 1 || edits[0].NewText != digest(head) || !strings.Contains(fork.Message, edits[0].NewText) {
		t.Fatalf("the fix should write the head's digest named in the help: %+v (message %q)", edits, fork.Message)
	}
	// Apply it as the client would.
	c.Edit(u, 2, edits[0].Range, edits[0].NewText)
	if ds := c.Diagnostics(u, 2); hasCode(ds, "chain/fork") {
		t.Fatalf("the fix did not clear the fork: %v", codes(ds))
	}

	// A keyword in the wrong case.
	text, _ := os.ReadFile(filepath.Join(root, widgetFork))
	c.Change(u, 3, strings.Replace(string(text), "\nINFO ", "\ninfo ", 1))
	ds = c.Diagnostics(u, 3)
	if !hasCode(ds, "syntax/unknown-directive") {
		t.Fatalf("want syntax/unknown-directive, got %v", codes(ds))
	}
	actions, err = c.Server.CodeAction(c.Ctx(), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: protocol.Range{Start: protocol.Position{Line: 6}, End: protocol.Position{Line: 6, Character: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(titles(actions), "Write INFO") {
		t.Fatalf("want the case fix, got %v", titles(actions))
	}
}

func titles(as []protocol.CodeAction) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Title)
	}
	return out
}

// commitAll makes dir a git work tree and commits everything in it, with
// no automatic git gc (it would go on in the background in a large tree).
func commitAll(tb testing.TB, dir string) {
	tb.Helper()
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "gc.auto=0", "commit", "-q", "-m", "tree"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			tb.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// A revision committed at git HEAD gets no fix: any edit would change its
// digest.
func TestNoFixesForCommittedRevision(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := tree(t)
	commitAll(t, filepath.Dir(root))
	c := lsptest.Start(t, opts())
	u, ds := open(t, c, root, widgetFork)
	if !hasCode(ds, "chain/fork") {
		t.Fatalf("want chain/fork, got %v", codes(ds))
	}
	actions, err := c.Server.CodeAction(c.Ctx(), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: protocol.Range{End: protocol.Position{Line: 100}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(actions) != 0 {
		t.Fatalf("want no fixes for a committed revision, got %v", titles(actions))
	}
}

// A draft without a valid JOURNAL_VERSION is offered now (UTC).
func TestJournalVersionNow(t *testing.T) {
	root := tree(t)
	c := lsptest.Start(t, opts())
	draft := "JOURNAL_FORMAT 1\nARTIFACT net.example.new\nJOURNAL_VERSION 2026-06-01\nDESCRIPTION \"new\"\n"
	u := c.Open(filepath.Join(root, "net.example.new", "20260601T000000Z.journal"), []byte(draft))
	c.Diagnostics(u, 1)
	actions, err := c.Server.CodeAction(c.Ctx(), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: protocol.Range{Start: protocol.Position{Line: 2}, End: protocol.Position{Line: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, a := range actions {
		if a.Title == "Set JOURNAL_VERSION to now (20260601T000000Z)" {
			e := a.Edit.Changes[u]
			found = len(e) == 1 && e[0].NewText == "20260601T000000Z" && e[0].Range.Start == protocol.Position{Line: 2, Character: 16}
		}
	}
	if !found {
		t.Fatalf("want the JOURNAL_VERSION fix, got %v", titles(actions))
	}
}

// Hover and go to definition follow PREDECESSOR and coordinates into the
// tree.
func TestHoverAndDefinition(t *testing.T) {
	root := tree(t)
	c := lsptest.Start(t, opts())
	u, _ := open(t, c, root, widgetHead)
	ctx := c.Ctx()
	hover := func(line, char uint32) string {
		t.Helper()
		h, err := c.Server.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: at(u, line, char)})
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			return ""
		}
		return h.Contents.Value
	}
	// Line 5: PREDECESSOR of the genesis.
	if h := hover(4, 20); !strings.Contains(h, "20260110T080000Z") || !strings.Contains(h, "This buffer is its successor") {
		t.Errorf("PREDECESSOR hover: %q", h)
	}
	// Line 16: DEPENDS org.example.core [1.2.0,2.0.0) "runtime helpers".
	if h := hover(15, 10); !strings.Contains(h, "org.example.core") || !strings.Contains(h, "Satisfying `[1.2.0,2.0.0)`: `1.2.0`, `1.4.2`") {
		t.Errorf("DEPENDS hover: %q", h)
	}
	// Line 20: CONTENT digest.
	if h := hover(19, 40); !strings.Contains(h, "release `1.1.0`") {
		t.Errorf("CONTENT hover: %q", h)
	}
	// Line 11: LICENSE MIT OR Apache-2.0, with the SPDX names.
	if h := hover(10, 10); !strings.Contains(h, "`MIT`: MIT License") || !strings.Contains(h, "`Apache-2.0`: Apache License 2.0") {
		t.Errorf("LICENSE hover: %q", h)
	}
	def := func(line, char uint32) []protocol.Location {
		t.Helper()
		locs, err := c.Server.Definition(ctx, &protocol.DefinitionParams{TextDocumentPositionParams: at(u, line, char)})
		if err != nil {
			t.Fatal(err)
		}
		return locs
	}
	if locs := def(4, 20); len(locs) != 1 || !strings.HasSuffix(string(locs[0].URI), "/com.example.widget/20260110T080000Z.journal") {
		t.Errorf("PREDECESSOR definition: %v", locs)
	}
	// Line 26: PREFERS org.example.core 1.4.2 → the RELEASE 1.4.2 line of core.
	locs := def(25, 27)
	if len(locs) != 1 || !strings.HasSuffix(string(locs[0].URI), "/org.example.core/20260105T090000Z.journal") || locs[0].Range.Start.Line != 11 {
		t.Errorf("PREFERS version definition: %v", locs)
	}
}

// Completion offers what may stand at the cursor.
func TestCompletion(t *testing.T) {
	root := tree(t)
	c := lsptest.Start(t, opts())
	u, _ := open(t, c, root, widgetHead)
	text, _ := os.ReadFile(filepath.Join(root, widgetHead))
	lines := strings.Split(string(text), "\n")
	lines = append(lines[:16], append([]string{"DEPENDS ", "DEPENDS org.example.core ", "POLICY ", "LICENSE MIT "}, lines[16:]...)...)
	c.Change(u, 2, strings.Join(lines, "\n"))
	c.Diagnostics(u, 2)
	labels := func(line, char uint32) []string {
		t.Helper()
		return completionLabels(t, c, u, line, char)
	}
	if got := labels(16, 8); !slices.Contains(got, "org.example.core") || slices.Contains(got, "com.example.widget") {
		t.Errorf("coordinates: %v", got)
	}
	if got := labels(17, 25); !slices.Equal(got, []string{"1.2.0", "1.4.2"}) {
		t.Errorf("versions: %v", got)
	}
	if got := labels(18, 7); !slices.Equal(got, []string{"allow", "deprecated", "deny"}) {
		t.Errorf("verdicts: %v", got)
	}
	if got := labels(19, 12); !slices.Contains(got, "OR") || !slices.Contains(got, "Apache-2.0") {
		t.Errorf("licenses: %d items", len(got))
	}
	if got := labels(20, 0); !slices.Contains(got, "CONTENT") || slices.Contains(got, "ARTIFACT") {
		t.Errorf("release keywords: %v", got)
	}
	// Nothing to offer (after "DEPENDS org.example.core 1.2.0 "): an empty
	// list, never null, which the protocol does not allow for items.
	lines[17] = "DEPENDS org.example.core 1.2.0 "
	c.Change(u, 3, strings.Join(lines, "\n"))
	c.Diagnostics(u, 3)
	l, err := c.Server.Completion(c.Ctx(), &protocol.CompletionParams{TextDocumentPositionParams: at(u, 17, 31)})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(l); !strings.Contains(string(b), `"items":[]`) {
		t.Errorf("nothing to complete gave %s, want an empty list of items", b)
	}
}

// completionLabels returns the labels of the completion at line:char of u.
func completionLabels(t *testing.T, c *lsptest.Client, u protocol.DocumentURI, line, char uint32) []string {
	t.Helper()
	l, err := c.Server.Completion(c.Ctx(), &protocol.CompletionParams{TextDocumentPositionParams: at(u, line, char)})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, it := range l.Items {
		out = append(out, it.Label)
	}
	return out
}

// journal-lint.diffPredecessor returns the semantic diff as Markdown.
func TestDiffPredecessorCommand(t *testing.T) {
	root := tree(t)
	c := lsptest.Start(t, opts())
	u, _ := open(t, c, root, widgetHead)
	res, err := c.Server.ExecuteCommand(c.Ctx(), &protocol.ExecuteCommandParams{Command: lsp.CommandDiffPredecessor, Arguments: []any{u}})
	if err != nil {
		t.Fatal(err)
	}
	md, _ := res.(string)
	if !strings.Contains(md, "policy-tightened") || !strings.Contains(md, "release-added") {
		t.Fatalf("want the changes against the genesis, got:\n%s", md)
	}
	// A genesis has no predecessor: the request is well formed and fails
	// (RequestFailed, -32803), not an invalid request.
	g, _ := open(t, c, root, "com.example.widget/20260110T080000Z.journal")
	_, err = c.Server.ExecuteCommand(c.Ctx(), &protocol.ExecuteCommandParams{Command: lsp.CommandDiffPredecessor, Arguments: []any{g}})
	if !isCode(err, -32803) || !strings.Contains(err.Error(), "no predecessor") {
		t.Errorf("diff of a genesis: want RequestFailed naming the missing predecessor, got %v", err)
	}
}

var licenseLine = regexp.MustCompile(`(?m)^LICENSE .*$`)

// The license rules' replacements are quick fixes: a deprecated SPDX
// identifier becomes its successor, an identifier in the wrong case the
// list's spelling.
func TestLicenseFixes(t *testing.T) {
	root := tree(t)
	c := lsptest.Start(t, opts())
	rel := "org.example.logging/20260106T090000Z.journal"
	u, _ := open(t, c, root, rel)
	text, _ := os.ReadFile(filepath.Join(root, rel))
	for i, tc := range []struct{ license, code, title string }{
		{"MIT OR GPL-2.0+", "license/deprecated-id", "Write MIT OR GPL-2.0-or-later"},
		{"mit", "license/id-case", "Write MIT"},
	} {
		version := int32(i + 2)
		c.Change(u, version, licenseLine.ReplaceAllString(string(text), "LICENSE "+tc.license))
		if ds := c.Diagnostics(u, version); !hasCode(ds, tc.code) {
			t.Fatalf("%s: want %s, got %v", tc.license, tc.code, ds)
		}
		actions, err := c.Server.CodeAction(c.Ctx(), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
			Range: protocol.Range{Start: protocol.Position{Line: 6, Character: 9}, End: protocol.Position{Line: 6, Character: 9}}})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(titles(actions), tc.title) {
			t.Errorf("%s: want %q, got %v", tc.license, tc.title, titles(actions))
		}
	}
}

// A client that lists plain text first for hovers (ALE) gets plain text,
// without Markdown markers.
func TestHoverPlainText(t *testing.T) {
	root := tree(t)
	init := &protocol.InitializeParams{Capabilities: protocol.ClientCapabilities{TextDocument: &protocol.TextDocumentClientCapabilities{
		Hover: &protocol.HoverTextDocumentClientCapabilities{ContentFormat: []protocol.MarkupKind{protocol.PlainText, protocol.Markdown}}}}}
	c := lsptest.StartWith(t, opts(), init)
	u, _ := open(t, c, root, widgetHead)
	for _, p := range []protocol.Position{{Line: 4, Character: 20}, {Line: 10, Character: 10}, {Line: 15, Character: 10}} {
		h, err := c.Server.Hover(c.Ctx(), &protocol.HoverParams{TextDocumentPositionParams: at(u, p.Line, p.Character)})
		if err != nil {
			t.Fatal(err)
		}
		if h == nil || h.Contents.Kind != protocol.PlainText || strings.ContainsAny(h.Contents.Value, "*`") || h.Contents.Value == "" {
			t.Errorf("hover at %v: %+v, want plain text", p, h)
		}
	}
}

// After PREDECESSOR the head's digest is offered also before the buffer
// was checked: before the tree's first check, and when the last check saw
// an earlier version in which the buffer itself was the head.
func TestCompletePredecessorBeforeCheck(t *testing.T) {
	root := tree(t)
	head, err := os.ReadFile(filepath.Join(root, widgetHead))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, widgetFork)); err != nil {
		t.Fatal(err)
	}
	// Checks 1 (the tree's first) and 3 are held until the test ends.
	var mu sync.Mutex
	holding := make(chan int, 2)
	checks := 0
	block := make(chan struct{})
	release := func() {
		mu.Lock()
		defer mu.Unlock()
		close(block)
		block = make(chan struct{})
	}
	lsp.HoldAfterCheck(t, func(ctx context.Context, _ string) {
		mu.Lock()
		checks++
		n, b := checks, block
		mu.Unlock()
		if n == 1 || n == 3 {
			holding <- n
			select {
			case <-b:
			case <-ctx.Done():
			}
		}
	})
	c := lsptest.Start(t, opts())
	t.Cleanup(release) // before the session's shutdown, which waits for the check
	labels := func(u protocol.DocumentURI, line, char uint32) []string {
		t.Helper()
		return completionLabels(t, c, u, line, char)
	}
	successor := successorOf(head, "20260401T080000Z")
	typing := strings.Replace(successor, "PREDECESSOR "+digest(head), "PREDECESSOR ", 1)
	path := filepath.Join(root, "com.example.widget", "20260401T080000Z.journal")
	// Before the first check (held).
	u := c.Open(path, []byte(typing))
	if got := labels(u, 4, 12); !slices.Equal(got, []string{digest(head)}) {
		t.Errorf("before the first check: %v, want the head's digest", got)
	}
	// The buffer is closed once the first check runs (held): closed
	// before, it may never be checked, and nothing would be held.
	<-holding
	_ = c.Server.DidClose(c.Ctx(), &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	release()
	// The successor is checked (check 2) and becomes the head; then the
	// digest is deleted and the edit's check (3) is held.
	u = c.Open(path, []byte(successor))
	c.Diagnostics(u, 1)
	c.Change(u, 2, typing)
	<-holding
	if got := labels(u, 4, 12); !slices.Equal(got, []string{digest(head)}) {
		t.Errorf("after the buffer was the head: %v, want the head's digest", got)
	}
}

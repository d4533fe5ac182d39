package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/diff"
	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/render"
	"github.com/r35157/journal-lint/internal/render/diffrender"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/rules"
)

type codeActionParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
}

// codeAction answers textDocument/codeAction with the quick fixes of the
// diagnostics in the range (diag.Diagnostic.Fixes, made with their help)
// and, for a draft, "set JOURNAL_VERSION to now". It offers nothing for a
// committed revision (see [server.fixable]), and nothing until the buffer's
// current version has been checked, so that no edit lands on moved text.
// When the first diagnostics of the tree came from the cache, it waits for
// the check that follows them (awaitFullCheck).
func (s *server) codeAction(ctx context.Context, params json.RawMessage) (any, error) {
	var p codeActionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.document(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	s.awaitFullCheck(ctx, d)
	c, fresh := s.lastCheck(d)
	if c == nil || !fresh {
		return []protocol.CodeAction{}, nil
	}
	// The text as checked: the bytes on disk when they stood in for the
	// buffer (withDiskBytes), whose offsets the diagnostics count.
	d = c.docs[d.uri]
	if ok, why := s.fixable(ctx, c, d); !ok {
		s.logf("no fixes for %s: %s", d.rel, why)
		return []protocol.CodeAction{}, nil
	}
	from, to := d.offset(s.enc, p.Range.Start), d.offset(s.enc, p.Range.End)
	actions := []protocol.CodeAction{}
	for _, dg := range c.byPath[d.rel] {
		if len(dg.Fixes) == 0 || !touches(dg.Range, from, to) {
			continue
		}
		for _, f := range dg.Fixes {
			actions = append(actions, protocol.CodeAction{
				Title:       f.Title,
				Kind:        protocol.QuickFix,
				Diagnostics: []protocol.Diagnostic{s.toProtocol(c, d, dg)},
				IsPreferred: len(dg.Fixes) == 1,
				Edit:        s.workspaceEdit(d, f.Edits),
			})
		}
	}
	if f := s.journalVersionFix(c, d); f != nil {
		actions = append(actions, protocol.CodeAction{Title: f.Title, Kind: protocol.QuickFix, Edit: s.workspaceEdit(d, f.Edits)})
	}
	return actions, nil
}

// touches reports whether the diagnostic range r meets [from, to]; a
// diagnostic about the whole file meets every range.
func touches(r diag.Range, from, to int) bool {
	if !r.IsValid() {
		return true
	}
	end := max(r.End.Offset, r.Start.Offset)
	return r.Start.Offset <= to && from <= end
}

func (s *server) workspaceEdit(d *document, edits []diag.Edit) *protocol.WorkspaceEdit {
	out := make([]protocol.TextEdit, len(edits))
	for i, e := range edits {
		out[i] = protocol.TextEdit{Range: d.lspRange(s.enc, e.Range.Start.Offset, e.Range.End.Offset), NewText: e.NewText}
	}
	return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{d.uri: out}}
}

// fixable reports whether fixes may be offered for the buffer d: never for
// a committed revision, whose digest a fix would change. In a git work
// tree a file is committed when git HEAD has it; outside one, when its
// bytes on disk are an accepted revision that a later revision names as
// predecessor (everything else is a draft). It says why not.
func (s *server) fixable(ctx context.Context, c *checked, d *document) (bool, string) {
	repo, err := gitrepo.Open(ctx, filepath.Dir(d.path))
	switch {
	case err == nil:
		rel, err := repo.Rel(d.path)
		if err != nil {
			return false, err.Error()
		}
		entries, err := repo.Tree(ctx, "HEAD", rel)
		var re *gitrepo.RevisionError
		switch {
		case errors.As(err, &re):
			return true, "" // no commit yet
		case err != nil:
			return false, err.Error()
		case len(entries) > 0:
			return false, "the file is committed at HEAD; fix it in a successor revision"
		}
		return true, ""
	case errors.Is(err, gitrepo.ErrNotRepository), errors.Is(err, gitrepo.ErrGitNotFound):
		disk, err := readDisk(d.path)
		if err != nil {
			return true, ""
		}
		doc, _ := syntax.Parse(d.rel, disk)
		st := c.state()
		e, ok := st.ByDigest(doc.Digest)
		if !ok {
			return true, ""
		}
		if h, ok := st.Head(e.Revision.Coordinate()); ok && h.Source != e.Source {
			return false, "the revision on disk has a successor"
		}
		return true, ""
	default:
		return false, err.Error()
	}
}

// journalVersionFix is "set JOURNAL_VERSION to now (UTC)" for a buffer
// whose JOURNAL_VERSION is missing, malformed, or not later than its
// predecessor's: what an author of a draft wants before they save it under
// <JOURNAL_VERSION>.journal. Nil otherwise.
func (s *server) journalVersionFix(c *checked, d *document) *diag.Fix {
	doc := d.parsed(d.rel)
	now := vt.TimestampOf(s.now().UTC()).String()
	title := "Set JOURNAL_VERSION to now (" + now + ")"
	jv := doc.Header.JournalVersion
	switch {
	case jv == nil:
		art := doc.Header.Artifact
		if art == nil {
			return nil
		}
		at := art.Range().End
		pos := d.lines.LineStart(at.Line + 1)
		if pos <= at.Offset { // ARTIFACT is the last line, without a terminator
			return &diag.Fix{Title: title, Edits: []diag.Edit{{Range: diag.Range{Start: at, End: at}, NewText: "\nJOURNAL_VERSION " + now}}}
		}
		p := d.lines.Pos(pos)
		return &diag.Fix{Title: title, Edits: []diag.Edit{{Range: diag.Range{Start: p, End: p}, NewText: "JOURNAL_VERSION " + now + "\n"}}}
	case len(jv.Args) == 1 && !doc.JournalVersionOK:
	case len(jv.Args) == 1:
		for _, dg := range c.byPath[d.rel] {
			if dg.Code == rules.ChainNonIncreasingVersion {
				return &diag.Fix{Title: title, Edits: []diag.Edit{{Range: jv.Args[0].Range(), NewText: now}}}
			}
		}
		return nil
	default:
		return nil
	}
	return &diag.Fix{Title: title, Edits: []diag.Edit{{Range: jv.Args[0].Range(), NewText: now}}}
}

type executeCommandParams struct {
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments"`
}

// executeCommand runs [CommandDiffPredecessor]: its one argument is the URI
// of an open buffer (a string, or an object with a "uri"); it returns the
// semantic diff of the buffer against the revision its PREDECESSOR names,
// as Markdown (the format of `journal-lint diff --format markdown`).
func (s *server) executeCommand(ctx context.Context, params json.RawMessage) (any, error) {
	var p executeCommandParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	if p.Command != CommandDiffPredecessor {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q", p.Command)
	}
	if len(p.Arguments) != 1 {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s takes one argument, the document URI", CommandDiffPredecessor)
	}
	var u protocol.DocumentURI
	if err := json.Unmarshal(p.Arguments[0], &u); err != nil {
		var obj struct {
			URI protocol.DocumentURI `json:"uri"`
		}
		if err := json.Unmarshal(p.Arguments[0], &obj); err != nil || obj.URI == "" {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: the argument must be a document URI", CommandDiffPredecessor)
		}
		u = obj.URI
	}
	v, err := s.viewOf(ctx, u, 0)
	if err != nil {
		return nil, err
	}
	return v.diffPredecessor()
}

// requestFailed is LSP 3.17's RequestFailed: a well-formed request that
// cannot be answered (InvalidRequest is for what is not a request).
const requestFailed jsonrpc2.Code = -32803

// diffPredecessor renders the semantic diff of the buffer against its
// predecessor in the tree; a buffer without one is requestFailed.
func (v *view) diffPredecessor() (string, error) {
	if !v.doc.RevisionOK {
		return "", jsonrpc2.NewError(requestFailed, "the buffer is not a valid revision yet; fix its errors first")
	}
	pred, ok := v.doc.Revision.Predecessor()
	if !ok {
		return "", jsonrpc2.NewError(requestFailed, "the buffer is a genesis: it has no predecessor")
	}
	if v.state == nil {
		return "", jsonrpc2.NewError(requestFailed, "the tree has not been checked yet")
	}
	e, ok := v.state.ByDigest(pred)
	if !ok {
		return "", jsonrpc2.Errorf(requestFailed, "PREDECESSOR %s names no revision in the tree", pred)
	}
	old := v.fileDoc(e.Source)
	if old == nil {
		return "", jsonrpc2.Errorf(requestFailed, "the predecessor %s was not loaded", e.Source)
	}
	res, err := diff.Compare(old, v.doc, diff.Options{})
	if err != nil {
		return "", fmt.Errorf("comparing with the predecessor: %w", err)
	}
	var b bytes.Buffer
	if err := diffrender.Write(&b, render.Markdown, []*diff.Result{res}, diffrender.WriteOptions{}); err != nil {
		return "", err
	}
	return strings.TrimRight(b.String(), "\n") + "\n", nil
}

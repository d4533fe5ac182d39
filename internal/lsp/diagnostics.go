package lsp

import (
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/rules"
)

// source is the LSP diagnostic source of every diagnostic.
const source = "journal-lint"

// diagnosticData is the data of a published diagnostic: the parts of
// check's diagnostic that LSP has no field for, so that a client or a test
// can compare them with `check --format json`.
type diagnosticData struct {
	// Help is check's help text (also shown after the message).
	Help string `json:"help,omitempty"`
}

// publishParams are the parameters of textDocument/publishDiagnostics.
// Unlike the library's type, whose version is omitted when it is 0, they
// carry every version a client sent, 0 included (LSP 3.17: a version is
// an integer, and diagnostics name the version they were computed for).
type publishParams struct {
	URI         protocol.DocumentURI  `json:"uri"`
	Version     *int32                `json:"version,omitempty"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics"`
}

// publish sends the diagnostics of c for the buffer d as it was checked,
// if the buffer is still open at that version and the session was not
// shut down: a check that ends after a close (or a change) must not bring
// back what the close cleared (or publish over a later check's
// diagnostics).
func (s *server) publish(c *checked, d *document) {
	s.pub.Lock()
	defer s.pub.Unlock()
	s.mu.Lock()
	cur, state := s.docs[d.uri], s.state
	s.mu.Unlock()
	if cur == nil || cur.serial != d.serial || state != running {
		return
	}
	ds := c.byPath[d.rel]
	// A rule pack that failed reports on no file (plugin/failed, as check
	// does): each buffer shows it at its start, or a broken pack would
	// look like a clean file.
	for _, dg := range c.byPath[""] {
		if dg.Code == rules.PluginFailed {
			ds = append(ds[:len(ds):len(ds)], dg)
		}
	}
	out := make([]protocol.Diagnostic, 0, len(ds)+1)
	for _, dg := range ds {
		out = append(out, s.toProtocol(c, d, dg))
	}
	if d.alone != "" {
		// Why the tree rules are silent: a note, not a finding of check.
		out = append(out, protocol.Diagnostic{Range: d.diagRange(s.enc, diag.Range{}), Severity: protocol.DiagnosticSeverityInformation,
			Source: source, Message: "checked on its own, as journal-lint check --file checks a draft: " + d.alone +
				"; placement, chain, deps/ and history rules need a Journal tree and were skipped"})
	}
	params := publishParams{URI: d.uri, Diagnostics: out}
	if d.version != noVersion {
		params.Version = &d.version
	}
	err := s.conn.Notify(s.ctx, protocol.MethodTextDocumentPublishDiagnostics, params)
	if err != nil {
		s.logf("publishing diagnostics: %v", err)
	}
}

// toProtocol turns one diagnostic of the buffer d into its LSP form: the
// same code, range, severity and related locations as check, the help after
// the message.
func (s *server) toProtocol(c *checked, d *document, dg diag.Diagnostic) protocol.Diagnostic {
	msg := dg.Message
	if dg.Help != "" {
		msg += "\nhelp: " + dg.Help
	}
	out := protocol.Diagnostic{
		Range:    d.diagRange(s.enc, dg.Range),
		Severity: severity(dg.Severity),
		Code:     dg.Code,
		Source:   source,
		Message:  msg,
	}
	if dg.Help != "" {
		out.Data = diagnosticData{Help: dg.Help}
	}
	for _, r := range dg.Related {
		t := s.textOf(c, d, r.Path)
		if t == nil {
			continue
		}
		out.RelatedInformation = append(out.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: c.uriOf(d.root, r.Path), Range: t.relatedRange(s.enc, r.Range)},
			Message:  r.Message,
		})
	}
	return out
}

// textOf returns the text of the root-relative path as the check read it:
// the buffer when it is open, else the bytes loaded from disk; nil when the
// path names no file (such as the root itself).
func (s *server) textOf(c *checked, d *document, rel string) *text {
	if rel == "" {
		return nil
	}
	if rel == d.rel {
		return d.text
	}
	for _, o := range c.docs {
		if o.rel == rel {
			return o.text
		}
	}
	if src := c.res.Source(rel); src != nil {
		return newText(src)
	}
	return newText(nil)
}

// uriOf returns the file: URI of a root-relative path (or of an absolute
// one: a buffer checked alone names itself so).
func (c *checked) uriOf(root, rel string) protocol.DocumentURI {
	p := filepath.FromSlash(rel)
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	return protocol.DocumentURI(uri.File(p))
}

// severity maps check's severities to LSP's.
func severity(s diag.Severity) protocol.DiagnosticSeverity {
	switch s {
	case diag.Error:
		return protocol.DiagnosticSeverityError
	case diag.Warning:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}

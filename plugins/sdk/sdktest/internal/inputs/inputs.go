// Package inputs is the seam through which package sdktest uses
// journal-lint itself: to read its inputs (Journal texts, or a tree with
// its chains) into the documents journal-lint would send a pack, to give
// findings journal-lint's positions, and to read and compare "# want"
// comments the way the built-in rules' tests do (internal/lint/rulestest).
// Everything else sdktest does goes through the public SDK and the
// protocol's package wire, so a pack under test meets the same code as in
// `journal-lint check`.
package inputs

import (
	"context"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/lint/rulestest"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/plugin/protocol"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
	"github.com/r35157/journal-lint/rules"
)

// Doc is one input document: every part journal-lint would send a pack,
// and journal-lint's positions in its text.
type Doc struct {
	wire.Document
	lines *diag.LineIndex
}

// Range returns the range of the byte offsets [start, end) of the text,
// with journal-lint's lines and columns; offsets are clamped to the text.
func (d *Doc) Range(start, end int) wire.Range {
	r := d.lines.Range(start, end)
	return wire.Range{Start: wire.Pos(r.Start), End: wire.Pos(r.End)}
}

// of returns the Doc of a parsed document with chain context cc.
func of(doc *syntax.Document, cc *wire.ChainContext) *Doc {
	var c protocol.Converter
	lines := doc.Lines
	if lines == nil {
		lines = diag.NewLineIndex(doc.Src)
	}
	return &Doc{Document: *c.Document(doc, cc, wire.NeedAll), lines: lines}
}

// Files parses each text on its own, in the order of names, as journal-lint
// parses a file: each valid document is the only revision of its own
// chain, and an invalid one is not accepted.
func Files(names []string, texts [][]byte) []*Doc {
	out := make([]*Doc, len(names))
	for i, name := range names {
		doc, _ := syntax.Parse(name, texts[i])
		cc := &wire.ChainContext{Accepted: doc.RevisionOK}
		if doc.CoordinateOK {
			cc.Coordinate = doc.Coordinate.String()
		}
		if doc.RevisionOK {
			cc.Revisions = wire.EncodeRevisions([]wire.ChainEntry{{Path: doc.Path, JournalVersion: doc.Revision.JournalVersion(), Digest: doc.Digest}})
		}
		out[i] = of(doc, cc)
	}
	return out
}

// Tree loads the Journal tree at root as journal-lint loads it and returns
// the documents of every file it read, in path order, with their chain
// context. The error is the load's: a root that cannot be listed.
func Tree(ctx context.Context, root string) ([]*Doc, error) {
	lr, err := load.Load(ctx, root, load.Options{})
	if err != nil {
		return nil, err
	}
	revs := map[string]wire.Revisions{}
	var out []*Doc
	for _, f := range lr.Files {
		if !f.Summary.Read {
			continue
		}
		cc := protocol.ChainContext(f)
		if f.Summary.CoordinateOK {
			c := f.Summary.Coordinate
			if _, ok := revs[cc.Coordinate]; !ok {
				revs[cc.Coordinate] = protocol.Revisions(lr.State.Entries(c))
			}
			cc.Revisions = revs[cc.Coordinate]
		}
		out = append(out, of(f.Doc, cc))
	}
	return out, nil
}

// Finding is what [Compare] needs of a finding.
type Finding struct {
	// Code is "<pack>/<rule>", Path the document's, Message the finding's.
	Code, Path, Message string
	// Severity is "error", "warning" or "info".
	Severity string
	// Range is the finding's, with journal-lint's positions.
	Range wire.Range
}

// Compare matches the findings on the text src against its want comments
// (rulestest's syntax) and returns one line per problem: an unexpected
// finding or an unmatched expectation; nil means they agree. The error is
// a want comment that does not parse.
func Compare(src []byte, got []Finding) ([]string, error) {
	want, err := rulestest.ParseWants(src)
	if err != nil {
		return nil, err
	}
	ds := make(diag.List, len(got))
	for i, f := range got {
		sev, _ := rules.ParseSeverity(f.Severity)
		ds[i] = diag.Diagnostic{Code: f.Code, Severity: sev, Message: f.Message, Path: f.Path,
			Range: diag.Range{Start: diag.Pos(f.Range.Start), End: diag.Pos(f.Range.End)}}
	}
	return rulestest.Compare(ds, want), nil
}

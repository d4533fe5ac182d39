package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// view is what the navigation features see of one buffer: its current text
// parsed, and the tree as the last check of its root loaded it (nil before
// the first check).
type view struct {
	d     *document
	doc   *syntax.Document
	state *chain.State
	c     *checked
}

// viewOf returns the view of the open buffer u for a request about line
// (1-based; 0 for the whole buffer). It never parses what a check or an
// earlier request parsed: a buffer version that is not parsed yet is
// seen as the last parsed version when line is the same there (the view
// is then of that version), and is parsed only otherwise. Before the
// tree's first check that keeps its state, when its first diagnostics
// came from the cache, it waits for that check until ctx ends.
func (s *server) viewOf(ctx context.Context, u protocol.DocumentURI, line int) (*view, error) {
	d, err := s.document(u)
	if err != nil {
		return nil, err
	}
	v := &view{d: d}
	c, fresh := s.lastCheck(d)
	if c == nil {
		// The tree's first diagnostics came from the cache: its state
		// comes with the check that follows them.
		s.awaitFullCheck(ctx, d)
		c, fresh = s.lastCheck(d)
	}
	if c != nil {
		v.c, v.state = c, c.state()
		if fresh && c.res.Load != nil {
			for _, f := range c.res.Load.Files {
				if f.Path == d.rel && f.Doc != nil && sameBytes(f.Doc.Src, d.src) {
					v.doc = f.Doc
				}
			}
		}
	}
	if v.doc == nil {
		if t, doc := d.reusable(line); doc != nil {
			nd := *d
			nd.text = t
			v.d, v.doc = &nd, doc
		} else {
			v.doc = d.parsed(d.rel)
		}
	}
	return v, nil
}

// at returns the directive on the line of byte offset off, and the index of
// the argument that contains off (-1 for the keyword or the blanks between).
func (v *view) at(off int) (*syntax.Directive, int) {
	line := v.d.lines.Pos(off).Line
	i, found := slices.BinarySearchFunc(v.doc.Directives, line, func(d *syntax.Directive, line int) int { return d.Line - line })
	if !found {
		return nil, -1
	}
	d := v.doc.Directives[i]
	for j, a := range d.Args {
		if off >= a.Range().Start.Offset && off <= a.Range().End.Offset {
			return d, j
		}
	}
	return d, -1
}

// entryFile returns the location of the start of a revision's file.
func (s *server) entryFile(v *view, e chain.Entry) protocol.Location {
	return protocol.Location{URI: v.c.uriOf(v.d.root, e.Source)}
}

// fileDoc parses the file at the root-relative path as the last check saw
// it: the open buffer, else the file on disk (the check keeps no documents
// of its own after it ran). Nil when it cannot be read.
func (v *view) fileDoc(path string) *syntax.Document {
	if v.c == nil {
		return nil
	}
	for _, o := range v.c.docs {
		if o.rel == path {
			doc, _ := syntax.Parse(path, o.src)
			return doc
		}
	}
	src, err := readDisk(filepath.Join(v.d.root, filepath.FromSlash(path)))
	if err != nil {
		return nil
	}
	doc, _ := syntax.Parse(path, src)
	return doc
}

// headOf returns the head of the artifact named by s in the tree.
func (v *view) headOf(s string) (chain.Entry, vt.Coordinate, bool) {
	co, err := vt.ParseCoordinate(s)
	if err != nil || v.state == nil {
		return chain.Entry{}, co, false
	}
	e, ok := v.state.Head(co)
	return e, co, ok
}

type positionParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Position     protocol.Position               `json:"position"`
}

// viewAt decodes the parameters of a request about one position
// (TextDocumentPositionParams) and returns the buffer's view and the byte
// offset of the position.
func (s *server) viewAt(ctx context.Context, params json.RawMessage) (*view, int, error) {
	var p positionParams
	if err := decode(params, &p); err != nil {
		return nil, 0, err
	}
	v, err := s.viewOf(ctx, p.TextDocument.URI, int(p.Position.Line)+1)
	if err != nil {
		return nil, 0, err
	}
	return v, v.d.offset(s.enc, p.Position), nil
}

// hover answers textDocument/hover: on PREDECESSOR the predecessor's path,
// Journal version and whether it is the head; on a DEPENDS, EXCLUDES or
// PREFERS coordinate the artifact's head and the releases that satisfy the
// constraint; on a CONTENT digest its release and name; on a LICENSE the
// full SPDX names of the expression's identifiers.
func (s *server) hover(ctx context.Context, params json.RawMessage) (any, error) {
	v, off, err := s.viewAt(ctx, params)
	if err != nil {
		return nil, err
	}
	d, arg := v.at(off)
	if d == nil {
		return nil, nil
	}
	text := v.hoverText(d, arg)
	if text == "" {
		return nil, nil
	}
	rg := v.d.lspRange(s.enc, d.Range().Start.Offset, d.Range().End.Offset)
	if arg >= 0 {
		rg = v.d.lspRange(s.enc, d.Args[arg].Range().Start.Offset, d.Args[arg].Range().End.Offset)
	}
	s.mu.Lock()
	kind := s.hoverKind
	s.mu.Unlock()
	if kind == protocol.PlainText {
		text = plainText(text)
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: kind, Value: text}, Range: &rg}, nil
}

// plainText returns the hover Markdown as plain text: the texts use only
// strong emphasis and code spans, whose markers are dropped (no value of
// the format holds "**" or a backtick that a hover shows).
func plainText(md string) string {
	return strings.NewReplacer("**", "", "`", "").Replace(md)
}

func (v *view) hoverText(d *syntax.Directive, arg int) string {
	switch d.Kind {
	case syntax.KindPredecessor:
		if len(d.Args) != 1 || v.state == nil {
			return ""
		}
		dg, err := vt.ParseDigest(d.Args[0].Text)
		if err != nil {
			return ""
		}
		e, ok := v.state.ByDigest(dg)
		if !ok {
			return fmt.Sprintf("**PREDECESSOR** `%s`\n\nNo revision in the tree has this digest.", dg)
		}
		out := fmt.Sprintf("**PREDECESSOR**: %s at Journal version `%s`\n\n`%s`", e.Revision.Coordinate(), e.Revision.JournalVersion(), e.Source)
		if h, ok := v.state.Head(e.Revision.Coordinate()); ok && h.Source == e.Source {
			return out + "\n\nThis is the head of its chain."
		} else if ok && h.Source == v.d.rel {
			return out + "\n\nThis buffer is its successor, the head of the chain."
		} else if ok {
			return out + fmt.Sprintf("\n\nNot the head: the head is `%s` (`%s`).", h.Revision.JournalVersion(), h.Revision.Digest())
		}
		return out
	case syntax.KindDepends, syntax.KindExcludes, syntax.KindPrefers:
		if len(d.Args) == 0 || arg > 1 {
			return ""
		}
		e, co, ok := v.headOf(d.Args[0].Text)
		if !ok {
			return fmt.Sprintf("**%s** `%s`\n\nNo Journal of this artifact is in the tree.", d.Keyword, d.Args[0].Text)
		}
		var versions []vt.Version
		for _, r := range e.Revision.ReleasesByVersion() {
			versions = append(versions, r.Version())
		}
		out := fmt.Sprintf("**%s** — head `%s` (`%s`)\n\nReleases: %s", co, e.Revision.JournalVersion(), e.Source, codeList(versions))
		if d.Kind != syntax.KindExcludes && len(d.Args) > 1 {
			if cons, err := vt.ParseConstraint(d.Args[1].Text); err == nil {
				var sat []vt.Version
				for _, ver := range versions {
					if cons.Contains(ver) {
						sat = append(sat, ver)
					}
				}
				out += fmt.Sprintf("\n\nSatisfying `%s`: %s", cons, codeList(sat))
			}
		}
		return out
	case syntax.KindContent:
		if arg != 1 || len(d.Args) < 2 {
			return ""
		}
		if r := v.releaseOf(d); r != nil {
			return fmt.Sprintf("**CONTENT** `%s` of release `%s`", d.Args[0].Text, r.Version)
		}
	case syntax.KindLicense:
		if len(d.Args) == 0 {
			return ""
		}
		if _, err := vt.ParseLicense(d.Args[0].Text); err != nil {
			return ""
		}
		return licenseHover(d.Args[0].Text)
	}
	return ""
}

// releaseOf returns the release block that holds d, or nil.
func (v *view) releaseOf(d *syntax.Directive) *syntax.ReleaseBlock {
	for _, r := range v.doc.Releases {
		if slices.Contains(r.Directives, d) {
			return r
		}
	}
	return nil
}

func codeList[T fmt.Stringer](xs []T) string {
	if len(xs) == 0 {
		return "none"
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = "`" + x.String() + "`"
	}
	return strings.Join(out, ", ")
}

// definition answers textDocument/definition: PREDECESSOR goes to the
// predecessor's file, a DEPENDS, EXCLUDES or PREFERS coordinate to that
// artifact's head revision, and the version of a PREFERS to that release
// block in the head.
func (s *server) definition(ctx context.Context, params json.RawMessage) (any, error) {
	v, off, err := s.viewAt(ctx, params)
	if err != nil {
		return nil, err
	}
	d, arg := v.at(off)
	if d == nil || v.state == nil {
		return nil, nil
	}
	switch d.Kind {
	case syntax.KindPredecessor:
		if len(d.Args) != 1 {
			return nil, nil
		}
		if dg, err := vt.ParseDigest(d.Args[0].Text); err == nil {
			if e, ok := v.state.ByDigest(dg); ok {
				return []protocol.Location{s.entryFile(v, e)}, nil
			}
		}
	case syntax.KindDepends, syntax.KindExcludes, syntax.KindPrefers:
		if len(d.Args) == 0 {
			return nil, nil
		}
		e, _, ok := v.headOf(d.Args[0].Text)
		if !ok {
			return nil, nil
		}
		loc := s.entryFile(v, e)
		if d.Kind == syntax.KindPrefers && arg == 1 && len(d.Args) > 1 {
			if ver, err := vt.ParseVersion(d.Args[1].Text); err == nil {
				if hd := v.fileDoc(e.Source); hd != nil {
					for _, r := range hd.Releases {
						if r.VersionOK && r.Version.Compare(ver) == 0 {
							loc.Range = newText(hd.Src).diagRange(s.enc, r.Release.Range())
						}
					}
				}
			}
		}
		return []protocol.Location{loc}, nil
	}
	return nil, nil
}

// sameBytes reports whether a and b are the same slice of memory (the
// check parsed exactly this buffer version).
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

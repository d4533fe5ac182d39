package protocol

import (
	"github.com/r35157/journal-lint/internal/chain"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// Converter turns parsed documents into wire documents, reusing its
// arrays of directives and arguments from one document to the next. Its
// zero value is ready to use; it is not safe for concurrent use.
type Converter struct {
	doc   wire.Document
	dirs  []wire.Directive
	args  []wire.Arg
	texts [][]byte
}

// Document returns the wire form of doc, with its directives only when
// needs has them, the texts of its release blocks only when it has the
// model (the encoder writes nothing else of them) and chain (nil for
// none). The result and its directives are valid until the next call;
// they share doc's text and strings, which must not change meanwhile. It
// reads of doc only what syntax.Recycle leaves (path, text, digest,
// validity) unless needs has the directives or the model.
func (c *Converter) Document(doc *syntax.Document, chain *wire.ChainContext, needs wire.Needs) *wire.Document {
	c.doc = wire.Document{Path: doc.Path, Text: doc.Src, Digest: doc.Digest, Valid: doc.RevisionOK, Chain: chain}
	if needs.Normal()&wire.NeedRevision != 0 && doc.RevisionOK {
		c.doc.Revision = doc.Revision
		c.doc.ReleaseTexts = c.releaseTexts(doc)
	}
	if needs.Normal()&wire.NeedDirectives != 0 {
		c.doc.Directives = c.directives(doc.Directives)
	}
	return &c.doc
}

// releaseTexts returns the text of each release block of doc, from its
// RELEASE line to the end of its last directive, in file order: the
// order of the model's releases; nil when the parse holds no blocks
// (syntax.Recycle dropped them).
func (c *Converter) releaseTexts(doc *syntax.Document) [][]byte {
	if len(doc.Releases) == 0 {
		return nil
	}
	c.texts = c.texts[:0]
	for _, b := range doc.Releases {
		last := b.Release
		if n := len(b.Directives); n > 0 {
			last = b.Directives[n-1]
		}
		c.texts = append(c.texts, doc.Src[b.Release.Range().Start.Offset:last.Range().End.Offset])
	}
	return c.texts
}

// directives converts dirs into c's arrays.
func (c *Converter) directives(dirs []*syntax.Directive) []wire.Directive {
	nargs := 0
	for _, d := range dirs {
		nargs += len(d.Args)
	}
	c.dirs = append(c.dirs[:0], make([]wire.Directive, len(dirs))...)
	c.args = append(c.args[:0], make([]wire.Arg, nargs)...)
	args := c.args
	for i, d := range dirs {
		r, kw := d.Range(), d.KeywordRange()
		n := len(d.Args)
		out := &c.dirs[i]
		*out = wire.Directive{Start: r.Start.Offset, End: r.End.Offset, KeywordStart: kw.Start.Offset, KeywordEnd: kw.End.Offset, Args: args[:n:n]}
		args = args[n:]
		for j, a := range d.Args {
			ar := a.Range()
			out.Args[j] = wire.Arg{Start: ar.Start.Offset, End: ar.End.Offset, Quoted: a.Quoted}
			if a.Quoted {
				out.Args[j].Text = a.Text
			}
		}
	}
	return c.dirs
}

// Revisions returns the wire form of an artifact's accepted revisions
// (the load's chain entries, genesis first), shared by the chain context
// of each of its documents.
func Revisions(entries []chain.Entry) wire.Revisions {
	list := make([]wire.ChainEntry, len(entries))
	for i, e := range entries {
		list[i] = wire.ChainEntry{Path: e.Source, JournalVersion: e.Revision.JournalVersion(), Digest: e.Revision.Digest()}
	}
	return wire.EncodeRevisions(list)
}

// FileRevisions is [Revisions] of an artifact whose chain a load did not
// build (it took the artifact from a record, load.Artifact.Record): its
// files that the chain accepted, in their order, which is the chain's.
func FileRevisions(files []*load.File) wire.Revisions {
	var list []wire.ChainEntry
	for _, f := range files {
		if f.Outcome == chain.Appended {
			list = append(list, wire.ChainEntry{Path: f.Path, JournalVersion: f.Summary.JournalVersion, Digest: f.Summary.Digest})
		}
	}
	return wire.EncodeRevisions(list)
}

// ChainContext returns the chain context of file f of a load without its
// accepted revisions, which the caller adds once its artifact's are known
// ([Revisions]): the coordinate its header names ("" when it names none)
// and whether the chain accepted it.
func ChainContext(f *load.File) *wire.ChainContext {
	cc := &wire.ChainContext{Accepted: f.Outcome != chain.Rejected}
	if f.Summary.CoordinateOK {
		cc.Coordinate = f.Summary.Coordinate.String()
	}
	return cc
}

package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/github/go-spdx/v2/spdxexp/spdxlicenses"
	"go.lsp.dev/protocol"

	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// spdxOperators are the operators of an SPDX license expression (SPDX 2.3
// annex D), in upper case as the format requires ("Values" in docs/journal-format.md).
var spdxOperators = []string{"AND", "OR", "WITH"}

// headerKeywords are the header directives in the order "The header" in
// docs/journal-format.md gives them; releaseKeywords those of a release block.
var (
	headerKeywords = []syntax.Kind{syntax.KindJournalFormat, syntax.KindArtifact, syntax.KindJournalVersion,
		syntax.KindPredecessor, syntax.KindDescription, syntax.KindInfo, syntax.KindPolicy}
	releaseKeywords = []syntax.Kind{syntax.KindLicense, syntax.KindContent, syntax.KindDescription, syntax.KindPublished,
		syntax.KindPolicy, syntax.KindDepends, syntax.KindExcludes, syntax.KindPrefers}
)

// completion answers textDocument/completion with what may stand at the
// cursor: a directive keyword valid there (the header's missing ones in
// order before the first RELEASE, the release block's after it), SPDX
// identifiers and operators after LICENSE, the tree's coordinates after
// DEPENDS, EXCLUDES and PREFERS, the referenced artifact's versions after
// a coordinate, the verdicts after POLICY, and the head's digest after
// PREDECESSOR.
func (s *server) completion(ctx context.Context, params json.RawMessage) (any, error) {
	v, off, err := s.viewAt(ctx, params)
	if err != nil {
		return nil, err
	}
	line := v.d.lines.Pos(off).Line
	start := v.d.lines.LineStart(line)
	before := string(v.d.src[start:off])
	if strings.HasPrefix(strings.TrimLeft(before, " \t"), "#") {
		return nil, nil
	}
	fields := strings.Fields(before)
	typing := !strings.HasSuffix(before, " ") && !strings.HasSuffix(before, "\t") && len(fields) > 0
	argIndex := len(fields) - 1 // the argument being typed, 0 for the first after the keyword
	if !typing {
		argIndex = len(fields)
	}
	items := []protocol.CompletionItem{} // never null: the protocol wants a list
	add := func(kind protocol.CompletionItemKind, detail string, labels ...string) {
		for _, l := range labels {
			items = append(items, protocol.CompletionItem{Label: l, Kind: kind, Detail: detail})
		}
	}
	if argIndex == 0 {
		for _, k := range v.keywordsAt(line) {
			add(protocol.CompletionItemKindKeyword, "directive", k.String())
		}
		return &protocol.CompletionList{Items: items}, nil
	}
	switch syntax.KindOf(fields[0]) {
	case syntax.KindLicense:
		add(protocol.CompletionItemKindOperator, "SPDX operator", spdxOperators...)
		for _, id := range spdxlicenses.GetLicenses() {
			items = append(items, protocol.CompletionItem{Label: id, Kind: protocol.CompletionItemKindValue,
				Detail: "SPDX license: " + spdxNames()[strings.ToUpper(id)].name})
		}
		add(protocol.CompletionItemKindValue, "NOASSERTION or NONE", vt.NoAssertion, vt.None)
	case syntax.KindPolicy:
		if argIndex == 1 {
			add(protocol.CompletionItemKindEnumMember, "verdict", vt.Allow.String(), vt.Deprecated.String(), vt.Deny.String())
		}
	case syntax.KindPredecessor:
		if argIndex == 1 && v.doc.CoordinateOK {
			if dg, jv, ok := v.otherHead(); ok {
				items = append(items, protocol.CompletionItem{Label: dg.String(), Kind: protocol.CompletionItemKindReference,
					Detail: "the head " + jv.String() + " of " + v.doc.Coordinate.String()})
			}
		}
	case syntax.KindDepends, syntax.KindExcludes, syntax.KindPrefers:
		switch {
		case argIndex == 1 && v.state != nil:
			for _, co := range v.state.Coordinates() {
				if !v.doc.CoordinateOK || co != v.doc.Coordinate {
					add(protocol.CompletionItemKindModule, "artifact", co.String())
				}
			}
		case argIndex == 2 && syntax.KindOf(fields[0]) != syntax.KindExcludes && len(fields) > 1:
			if e, _, ok := v.headOf(fields[1]); ok {
				for _, r := range e.Revision.ReleasesByVersion() {
					add(protocol.CompletionItemKindValue, "release of "+fields[1], r.Version().String())
				}
			}
		}
	}
	return &protocol.CompletionList{Items: items}, nil
}

// keywordsAt returns the keywords that may start the directive at line:
// before the first RELEASE the header's that are still missing, in spec
// order, and RELEASE; after it the release block's and RELEASE.
func (v *view) keywordsAt(line int) []syntax.Kind {
	inRelease := false
	for _, r := range v.doc.Releases {
		if r.Release.Line < line {
			inRelease = true
		}
	}
	if inRelease {
		return append(append([]syntax.Kind{}, releaseKeywords...), syntax.KindRelease)
	}
	present := map[syntax.Kind]bool{}
	for _, d := range v.doc.Directives {
		if d.Line != line {
			present[d.Kind] = true
		}
	}
	var out []syntax.Kind
	for _, k := range headerKeywords {
		if !present[k] {
			out = append(out, k)
		}
	}
	return append(out, syntax.KindRelease)
}

// otherHead returns the digest and Journal version of the newest revision
// of the buffer's artifact other than the buffer itself: what its
// PREDECESSOR names when it is the next revision. It does not wait for a
// check: a check of an earlier version of the buffer may have made the
// buffer the head (the revision before it is then the one), and before
// the first check of the tree the artifact's files on disk are read.
func (v *view) otherHead() (vt.Digest, vt.JournalVersion, bool) {
	if v.state != nil {
		entries := v.state.Entries(v.doc.Coordinate)
		for _, e := range slices.Backward(entries) {
			if e.Source != v.d.rel {
				return e.Revision.Digest(), e.Revision.JournalVersion(), true
			}
		}
		return vt.Digest{}, vt.JournalVersion{}, false
	}
	return diskHead(filepath.Dir(v.d.path), v.d.path)
}

// diskHead returns the head of the chain in the artifact directory dir on
// disk, leaving out the file at skip: the revision no other one names as
// its PREDECESSOR (the newest such when the chain is broken), found
// without a check of the tree ("Chains" in
// docs/journal-format.md).
func diskHead(dir, skip string) (vt.Digest, vt.JournalVersion, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return vt.Digest{}, vt.JournalVersion{}, false
	}
	var docs []*syntax.Document
	named := map[vt.Digest]bool{}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if !e.Type().IsRegular() || p == skip || !strings.HasSuffix(p, load.Suffix) {
			continue
		}
		if fi, err := e.Info(); err != nil || fi.Size() > syntax.MaxSize {
			continue
		}
		src, err := readDisk(p)
		if err != nil {
			continue
		}
		doc, _ := syntax.Parse(e.Name(), src)
		if !doc.JournalVersionOK {
			continue
		}
		docs = append(docs, doc)
		if doc.PredecessorOK {
			named[doc.Predecessor] = true
		}
	}
	var head *syntax.Document
	for _, doc := range docs {
		if !named[doc.Digest] && (head == nil || doc.JournalVersion.Compare(head.JournalVersion) > 0) {
			head = doc
		}
	}
	if head == nil {
		return vt.Digest{}, vt.JournalVersion{}, false
	}
	return head.Digest, head.JournalVersion, true
}

package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/github/go-spdx/v2/spdxexp/spdxlicenses"
	"go.lsp.dev/protocol"

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
func (s *server) completion(_ context.Context, params json.RawMessage) (any, error) {
	v, off, err := s.viewAt(params)
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
	var items []protocol.CompletionItem
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
				Detail: "SPDX license: " + spdxNames[strings.ToUpper(id)].name})
		}
		add(protocol.CompletionItemKindValue, "NOASSERTION or NONE", vt.NoAssertion, vt.None)
	case syntax.KindPolicy:
		if argIndex == 1 {
			add(protocol.CompletionItemKindEnumMember, "verdict", vt.Allow.String(), vt.Deprecated.String(), vt.Deny.String())
		}
	case syntax.KindPredecessor:
		if argIndex == 1 && v.doc.CoordinateOK && v.state != nil {
			if h, ok := v.state.Head(v.doc.Coordinate); ok && h.Source != v.d.rel {
				items = append(items, protocol.CompletionItem{Label: h.Revision.Digest().String(), Kind: protocol.CompletionItemKindReference,
					Detail: "the head " + h.Revision.JournalVersion().String() + " of " + v.doc.Coordinate.String()})
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

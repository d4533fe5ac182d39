package protocol

import (
	"github.com/r35157/journal-lint/internal/syntax"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
)

// Needs is the set of optional Document parts a pack reads (the Needs
// message of DescribeResponse): the host encodes only those. Path and
// digest are always sent.
type Needs uint8

// The parts of a Document a pack may need, and how it wants them.
const (
	NeedText Needs = 1 << iota
	NeedDirectives
	NeedRevision
	NeedChain
	// ParseText is a pack that parses each text itself with the host's
	// own parser (its Needs.parser is [syntax.ParserRevision]): it gets
	// the text and, for a valid text, an empty revision, but neither
	// directives nor model, whatever else it needs (CheckRequest.parse_text).
	ParseText

	// NeedsAll is every part: what a pack that declares nothing gets.
	NeedsAll = NeedText | NeedDirectives | NeedRevision | NeedChain

	// NeedsLimit is one more than the largest normal Needs, the number of
	// distinct encodings of a document.
	NeedsLimit = (NeedsAll | ParseText) + 1
)

// normal adds what the parts in n imply: directives are offsets into the
// text, so they come with it, and a pack that parses the text needs it.
func (n Needs) normal() Needs {
	if n&(NeedDirectives|ParseText) != 0 {
		n |= NeedText
	}
	return n & (NeedsAll | ParseText)
}

// NeedsOf returns what a pack's DescribeResponse.needs asks for: every
// part when absent (a pack built before needs existed), else the parts it
// names plus what they imply, parsed by the pack itself when it parses
// with this host's parser.
func NeedsOf(m *pb.Needs) Needs {
	if m == nil {
		return NeedsAll
	}
	var n Needs
	if m.GetText() {
		n |= NeedText
	}
	if m.GetDirectives() {
		n |= NeedDirectives
	}
	if m.GetRevision() {
		n |= NeedRevision
	}
	if m.GetChain() {
		n |= NeedChain
	}
	if m.GetParser() == syntax.ParserRevision {
		n |= ParseText
	}
	return n.normal()
}

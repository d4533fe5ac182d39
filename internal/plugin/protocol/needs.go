package protocol

import pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"

// Needs is the set of optional Document parts a pack reads (the Needs
// message of DescribeResponse): the host encodes only those. Path and
// digest are always sent.
type Needs uint8

// The parts of a Document a pack may need.
const (
	NeedText Needs = 1 << iota
	NeedDirectives
	NeedRevision
	NeedChain

	// NeedsAll is every part: what a pack that declares nothing gets.
	NeedsAll = NeedText | NeedDirectives | NeedRevision | NeedChain
)

// normal adds what the parts in n imply: directives are offsets into the
// text, so they come with it.
func (n Needs) normal() Needs {
	if n&NeedDirectives != 0 {
		n |= NeedText
	}
	return n & NeedsAll
}

// NeedsOf returns what a pack's DescribeResponse.needs asks for: every
// part when absent (a pack built before needs existed), else the parts it
// names plus what they imply.
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
	return n.normal()
}

// Message returns n as the Needs message of a DescribeResponse.
func (n Needs) Message() *pb.Needs {
	n = n.normal()
	return &pb.Needs{Text: n&NeedText != 0, Directives: n&NeedDirectives != 0, Revision: n&NeedRevision != 0, Chain: n&NeedChain != 0}
}

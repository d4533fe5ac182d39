// Package wire is the one home of the rule-pack protocol beside the code
// generated from rulepack.proto: the go-plugin handshake, the protocol
// version, the message size limit, the lifeline, the Needs bits, the field
// numbers, and both directions of the codec. The host (package
// internal/plugin) encodes documents with [AppendDocument] and calls a pack
// through a [Client]; the SDK (package plugins/sdk) implements [Pack],
// which [PluginSets] serves, and reads the documents [DecodeDocuments]
// gives it. Neither side touches the generated messages or a field
// number: a change of the protocol is a change of this package.
//
// The documents of a Check request, most of the traffic, are encoded and
// decoded by hand (codec.go, decode.go) rather than through the generated
// structs; BenchmarkCodec measures both ways on a generated tree and
// TestCodecMatchesGenerated holds the hand codec to the generated one.
// Describe answers and findings, a few hundred bytes per document at most,
// go through the generated code.
//
// The package imports nothing of the host, only the public library
// (journal/model, journal/valuetypes), so a pack links none of
// journal-lint's internals.
//
// The magic cookie is a UX measure, not security: it lets a pack binary
// started by hand say "this is a journal-lint rule pack" instead of hanging.
// Integrity comes from the sha256 pin the host verifies before it runs a
// pack.
package wire

import (
	goplugin "github.com/hashicorp/go-plugin"
)

// Version is the protocol major version this build speaks; a change to it
// means a new package of plugins/proto (rulepack/v2).
const Version = 1

// Revision is the revision of protocol major version 1 this package
// speaks (the list at the top of rulepack.proto). Every revision reads what
// the others write: hosts and packs of different revisions of one major
// version work together.
const Revision = 2

// PluginName is the name of the one plugin a pack serves in its PluginSet.
const PluginName = "rulepack"

// MaxMessageSize is the gRPC receive and send limit in bytes on both sides.
// A batch carries a document's exact text, its directives (whose raw text
// repeats it) and its model, so a 16 MiB Journal needs several times 16 MiB.
const MaxMessageSize = 256 << 20

// EnvLifelineFD names the environment variable that tells a pack which file
// descriptor is its lifeline: the read end of a pipe whose only write end
// the host holds. When the host exits, however it exits, the pipe reaches
// end of file and the pack exits too.
const EnvLifelineFD = "JOURNAL_LINT_LIFELINE_FD"

// LifelineFD is the descriptor number the host gives the lifeline (the
// first of exec.Cmd.ExtraFiles).
const LifelineFD = 3

// Handshake is the go-plugin handshake. ProtocolVersion is only the default;
// the host offers its versions through VersionedPlugins.
var Handshake = goplugin.HandshakeConfig{
	ProtocolVersion:  Version,
	MagicCookieKey:   "JOURNAL_LINT_RULE_PACK",
	MagicCookieValue: "b3d1c0a6-journal-lint-rule-pack-v1",
}

// Needs is a set of the optional parts of a document that a pack reads (the
// Needs message of DescribeResponse): the host encodes only those. The path,
// the digest and whether the text is valid always travel. The zero value is
// none of the parts.
type Needs uint8

// The parts of a document a pack may need.
const (
	// NeedText is the document's exact text.
	NeedText Needs = 1 << iota
	// NeedDirectives is the positioned directive lines. Their positions are
	// offsets into the text, so they bring the text along.
	NeedDirectives
	// NeedRevision is the model of a valid document.
	NeedRevision
	// NeedChain is the document's place in its artifact's hash chain.
	NeedChain

	// NeedAll is every part: what a pack that declares nothing gets.
	NeedAll = NeedText | NeedDirectives | NeedRevision | NeedChain
)

// Normal returns n with the parts its parts imply (directives bring the
// text) and without bits that name no part.
func (n Needs) Normal() Needs {
	if n&NeedDirectives != 0 {
		n |= NeedText
	}
	return n & NeedAll
}

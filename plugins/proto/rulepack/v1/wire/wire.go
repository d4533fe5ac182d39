// Package wire is the one description of the rule-pack protocol that the
// host (package internal/plugin) and the pack SDK (package plugins/sdk)
// share, beside the generated code of rulepack.proto: the go-plugin
// handshake, the protocol major version, the gRPC message size limit, the
// lifeline, the go-plugin glue for the RulePack gRPC service, and the
// field numbers of the messages that both sides encode and decode by hand
// (fields.go). It imports nothing of the host, so a pack links none of it.
//
// The magic cookie is a UX measure, not security: it lets a pack binary
// started by hand say "this is a journal-lint rule pack" instead of hanging.
// Integrity comes from the sha256 pin the host verifies before it runs a
// pack.
package wire

import (
	"context"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
)

// Version is the protocol major version this build speaks; a change to it
// means a new package of plugins/proto (rulepack/v2).
const Version = 1

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

// GRPCPlugin is the go-plugin glue for the RulePack service. On the pack
// side Impl is the implementation; on the host side it is nil and
// GRPCClient returns a [pb.RulePackClient].
type GRPCPlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	// Impl is the pack's implementation of the service (pack side only).
	Impl pb.RulePackServer
}

// GRPCServer registers the pack's implementation with s. It never fails.
func (p *GRPCPlugin) GRPCServer(_ *goplugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterRulePackServer(s, p.Impl)
	return nil
}

// GRPCClient returns a [pb.RulePackClient] over c. It never fails.
func (p *GRPCPlugin) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return pb.NewRulePackClient(c), nil
}

// PluginSets returns the VersionedPlugins map for protocol [Version] with
// server as the implementation (nil on the host side).
func PluginSets(server pb.RulePackServer) map[int]goplugin.PluginSet {
	return map[int]goplugin.PluginSet{
		Version: {PluginName: &GRPCPlugin{Impl: server}},
	}
}

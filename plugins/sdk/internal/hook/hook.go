// Package hook lets package sdktest reach the SDK's gRPC server without
// making it part of the SDK's public API: package sdk sets [NewServer] when
// it is initialised.
package hook

import (
	"google.golang.org/grpc"

	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
)

// NewServer returns the gRPC implementation of pack (an sdk.Pack), or an
// error when the pack is not well-formed. Package sdk sets it in its init.
var NewServer func(pack any) (pb.RulePackServer, error)

// ServerOptions returns the options of a pack's gRPC server (message
// limits, codec). Package sdk sets it in its init.
var ServerOptions func() []grpc.ServerOption

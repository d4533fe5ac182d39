// Package hook lets package sdktest reach the SDK's implementation of the
// protocol without making it part of the SDK's public API: package sdk
// sets [NewServer] when it is initialised.
package hook

import "github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"

// NewServer returns the protocol's pack side for pack (an sdk.Pack), or an
// error when the pack is not well-formed. Package sdk sets it in its init.
var NewServer func(pack any) (wire.Pack, error)

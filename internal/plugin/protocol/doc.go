// Package protocol is the host's side of the rule-pack wire format: it
// encodes journal-lint's parsed documents as rulepack.v1 Document messages
// (append.go, with the field numbers of package plugins/proto/rulepack/v1/wire)
// and reads the parts a pack needs (needs.go). What the host and the SDK
// must agree on lives in package wire, which the SDK imports instead of
// this package.
package protocol

// Package rulepackv1 is the generated Go code of the rule-pack wire protocol,
// major version 1 (rulepack.proto): the RulePack gRPC service with its
// Describe and Check calls and their messages. Pack authors never use it
// directly: package plugins/sdk hides it. Regenerate with `make generate`.
package rulepackv1

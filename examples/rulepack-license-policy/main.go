// Command rulepack-license-policy is an example journal-lint rule pack
// (docs/plugins.md): it checks each release's SPDX license expression
// against the allowed and denied licenses of its configuration, and that
// every release has a DESCRIPTION. The rules are in package licensepolicy,
// so that tests can run the pack from their own binary.
//
// Configure it in .journal-lint.yaml:
//
//	plugins:
//	  - path: bin/rulepack-license-policy
//	    sha256: <journal-lint plugins checksum bin/rulepack-license-policy>
//	    config:
//	      denied: [GPL-3.0-only, AGPL-3.0-only]
//	      allowed: [MIT, Apache-2.0, BSD-3-Clause]
//
// Its rules are license-policy/denied-license, license-policy/unlisted-license
// and license-policy/missing-description.
package main

import (
	"github.com/r35157/journal-lint/examples/rulepack-license-policy/licensepolicy"
	"github.com/r35157/journal-lint/plugins/sdk"
)

func main() { sdk.Serve(licensepolicy.Pack) }

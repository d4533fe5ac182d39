// Package licensepolicy is the example journal-lint rule pack
// (docs/plugins.md), served by the command in the directory above: it
// checks each release's SPDX license expression against the allowed and
// denied licenses of its configuration, and that every release has a
// DESCRIPTION. Its rules are license-policy/denied-license,
// license-policy/unlisted-license and license-policy/missing-description.
package licensepolicy

import (
	"fmt"
	"strings"
	"unicode"

	vt "github.com/r35157/journal-lint/journal/valuetypes"
	"github.com/r35157/journal-lint/plugins/sdk"
)

// policy is the pack's configuration.
type policy struct {
	// Denied licenses are reported unless the release's effective policy is
	// deny (a denied release may carry any license: nobody will use it).
	Denied []string `json:"denied"`
	// Allowed, when not empty, is the complete list of acceptable licenses:
	// any other identifier (not denied) is reported as unlisted.
	Allowed []string `json:"allowed"`
}

// configure validates the configuration once per run.
func configure(cfg sdk.Config) (any, error) {
	var p policy
	if err := cfg.Decode(&p); err != nil {
		return nil, err
	}
	for _, id := range append(append([]string{}, p.Denied...), p.Allowed...) {
		if _, err := vt.ParseLicense(id); err != nil || strings.ContainsAny(id, " ()") {
			return nil, fmt.Errorf("%q is not an SPDX license identifier", id)
		}
	}
	for _, d := range p.Denied {
		for _, a := range p.Allowed {
			if d == a {
				return nil, fmt.Errorf("%s is both allowed and denied", d)
			}
		}
	}
	return &p, nil
}

// Pack is the license-policy rule pack.
var Pack = sdk.Pack{
	Name:         "license-policy",
	Version:      "1.0.0",
	HostVersions: ">=0.0.0-0",
	// The rules read the model and the release blocks' directives, never
	// the chain: journal-lint need not send it.
	Needs: sdk.NeedRevision | sdk.NeedDirectives,
	// The findings on a document follow from the document and the
	// configuration alone.
	Pure:      true,
	Configure: configure,
	Rules: []sdk.Rule{
		{
			Name:     "denied-license",
			Severity: sdk.Error,
			Summary:  "a release that is not denied uses a denied license",
			Doc: "The release's LICENSE names an identifier from the pack's `denied` list while the\n" +
				"release's effective POLICY is allow or deprecated. Relicense, or write a\n" +
				"successor revision whose POLICY for the release is `deny`.",
			Check: checkDenied,
		},
		{
			Name:     "unlisted-license",
			Severity: sdk.Warning,
			Summary:  "a release uses a license that is neither allowed nor denied",
			Doc: "With an `allowed` list configured, every identifier of a release's LICENSE\n" +
				"must be on it (or on `denied`, which denied-license reports). NONE and\n" +
				"NOASSERTION are left to the built-in license/noassertion rule.",
			Check: checkUnlisted,
		},
		{
			Name:     "missing-description",
			Severity: sdk.Warning,
			Summary:  "a release has no DESCRIPTION",
			Doc:      "Every release should say in a DESCRIPTION line what it is.",
			Check:    checkDescription,
		},
	},
}

// licenseIDs returns the license identifiers of an SPDX expression as
// written: every token that is not an operator, a parenthesis or an
// exception after WITH ("GPL-2.0+" keeps its "+").
func licenseIDs(expr string) []string {
	fields := strings.FieldsFunc(expr, func(r rune) bool { return r == '(' || r == ')' || unicode.IsSpace(r) })
	var out []string
	for i := 0; i < len(fields); i++ {
		switch f := fields[i]; f {
		case "AND", "OR":
		case "WITH":
			i++ // skip the exception
		default:
			out = append(out, f)
		}
	}
	return out
}

// licenseArg returns the range of the LICENSE argument of a release block,
// or of the RELEASE line when it cannot be found.
func licenseArg(doc *sdk.Document, version string) sdk.Range {
	b, ok := doc.ReleaseBlock(version)
	if !ok {
		return sdk.Range{}
	}
	if l, ok := b.Find("LICENSE"); ok && len(l.Args) > 0 {
		return l.Args[0].Range
	}
	return b.Release.Range
}

// contains reports whether list names the license id: exactly (SPDX ids
// are case-insensitive), or, for an "or later" id such as "GPL-2.0+", by
// its base id "GPL-2.0".
func contains(list []string, id string) bool {
	base := strings.TrimSuffix(id, "+")
	for _, x := range list {
		if strings.EqualFold(x, id) || strings.EqualFold(x, base) {
			return true
		}
	}
	return false
}

func checkDenied(p *sdk.Pass) {
	pol := p.Settings.(*policy)
	if !p.Doc.Valid || len(pol.Denied) == 0 {
		return
	}
	for _, r := range p.Doc.Revision().Releases() {
		if r.EffectivePolicy().Verdict() == vt.Deny {
			continue
		}
		for _, id := range licenseIDs(r.License().String()) {
			if contains(pol.Denied, id) {
				p.Report(sdk.Diagnostic{
					Range:   licenseArg(p.Doc, r.Version().String()),
					Message: fmt.Sprintf("release %s uses the denied license %s but its policy is %s", r.Version(), id, r.EffectivePolicy().Verdict()),
					Help:    "relicense the release, or set its POLICY to deny in a successor revision",
				})
			}
		}
	}
}

func checkUnlisted(p *sdk.Pass) {
	pol := p.Settings.(*policy)
	if !p.Doc.Valid || len(pol.Allowed) == 0 {
		return
	}
	for _, r := range p.Doc.Revision().Releases() {
		for _, id := range licenseIDs(r.License().String()) {
			if id == vt.NoAssertion || id == vt.None || contains(pol.Allowed, id) || contains(pol.Denied, id) {
				continue
			}
			p.Reportf(licenseArg(p.Doc, r.Version().String()), "release %s uses %s, which is not on the allowed list", r.Version(), id)
		}
	}
}

func checkDescription(p *sdk.Pass) {
	if !p.Doc.Valid {
		return
	}
	for _, r := range p.Doc.Revision().Releases() {
		if _, ok := r.Description(); ok {
			continue
		}
		rg := sdk.Range{}
		if b, ok := p.Doc.ReleaseBlock(r.Version().String()); ok {
			rg = b.Release.Range
		}
		p.Reportf(rg, "release %s has no DESCRIPTION", r.Version())
	}
}

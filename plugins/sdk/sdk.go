package sdk

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// Version is the version of this SDK, reported to journal-lint by every
// pack built with it (see `journal-lint plugins list`).
const Version = "0.3.0"

// Severity is how much a finding matters. The zero value means "the rule's
// default severity" in a [Diagnostic] and is invalid in a [Rule]. Its
// String method gives "error", "warning", "info", or "default" for the
// zero value.
type Severity = wire.Severity

// The severities, from most to least severe.
const (
	Error   = wire.SeverityError
	Warning = wire.SeverityWarning
	Info    = wire.SeverityInfo
)

// Pack describes a rule pack. Its zero value is not valid: a pack needs a
// Name and at least one rule.
type Pack struct {
	// Name is the pack's name in lowercase kebab-case, such as
	// "license-policy". journal-lint reports the pack's rules as
	// "<name>/<rule>" unless the configuration renames the pack.
	Name string
	// Version is the pack's own version, shown by `journal-lint plugins
	// list`; SemVer is recommended.
	Version string
	// HostVersions is a SemVer constraint on the journal-lint versions the
	// pack supports, such as ">=0.1.0, <2.0.0"; "" means any. journal-lint
	// refuses to use a pack that excludes its version (development builds
	// accept every pack).
	HostVersions string
	// Rules are the pack's rules in documentation order.
	Rules []Rule
	// Needs are the parts of each [Document] the pack's rules read;
	// journal-lint sends only those, which makes large trees cheaper. 0
	// means what the rules declare in [Rule.Needs]: their union when every
	// rule declares its needs, else every part.
	Needs Needs
	// Configure, when set, turns the pack's configuration into the value
	// rules see as [Pass.Settings]. It is called once per distinct
	// configuration, before any document is checked; an error makes
	// journal-lint report the pack as failed with that message. When it is
	// nil, Settings is nil and rules may read [Pass.Config] themselves.
	Configure func(cfg Config) (any, error)
	// Pure declares that the pack's rules are pure: the findings on a
	// document depend only on that document, its chain context the pack
	// asked for (Needs) and the pack's configuration; no files, network or
	// clock. journal-lint may then reuse a pack's findings for the same
	// inputs instead of asking again. It is off by default: a pack that
	// reads anything else must leave it off, or its findings go stale.
	Pure bool
}

// Rule is one check of a pack and the documentation of its code.
type Rule struct {
	// Name is the rule's name in lowercase kebab-case, unique in the pack,
	// such as "denied-license".
	Name string
	// Severity is the default severity of its findings.
	Severity Severity
	// Summary is one lowercase line saying what the rule reports.
	Summary string
	// Doc is Markdown: what triggers the rule, why it matters and how to
	// fix it. `journal-lint plugins list` and SARIF output show it.
	Doc string
	// Needs are the parts of each [Document] the rule reads, when the pack
	// does not declare them in [Pack.Needs]; 0 means every part.
	Needs Needs
	// Check inspects pass.Doc and reports through pass.Report. It is called
	// once per document, possibly concurrently for different documents. A
	// panic fails the whole pack run.
	Check func(pass *Pass)
}

// Needs is a set of the optional parts of a [Document] that a pack's rules
// read. Document.Path, Digest and Valid are always there; a part that is
// not needed is left empty (nil Text, no directives or release blocks, the
// zero Revision, the zero Chain). The zero value means every part.
type Needs uint8

// The parts of a [Document] a pack may need (their bits are the
// protocol's, package wire).
const (
	// NeedText is Document.Text, and positions of ranges computed from it.
	NeedText = Needs(wire.NeedText)
	// NeedDirectives is Document.Directives, ReleaseBlocks and
	// ReleaseBlock; it includes NeedText.
	NeedDirectives = Needs(wire.NeedDirectives)
	// NeedRevision is Document.Revision(), the parsed model.
	NeedRevision = Needs(wire.NeedRevision)
	// NeedChain is Document.Chain, the artifact's hash chain.
	NeedChain = Needs(wire.NeedChain)

	// NeedAll is every part.
	NeedAll = Needs(wire.NeedAll)
)

// Has reports whether n includes every part of part (0, every part, only
// when n is 0 or NeedAll).
func (n Needs) Has(part Needs) bool {
	n = n.normal()
	if part == 0 {
		part = NeedAll
	}
	return n&part == part
}

// normal returns n with 0 as NeedAll and what each part implies added.
func (n Needs) normal() Needs {
	if n == 0 {
		return NeedAll
	}
	return Needs(wire.Needs(n).Normal())
}

// EffectiveNeeds returns the parts of a document the pack asks journal-lint
// for: [Pack.Needs], else the union of its rules' [Rule.Needs] when every
// rule declares them, else NeedAll; with what each part implies.
func (p Pack) EffectiveNeeds() Needs {
	if p.Needs != 0 {
		return p.Needs.normal()
	}
	var n Needs
	for _, r := range p.Rules {
		if r.Needs == 0 {
			return NeedAll
		}
		n |= r.Needs
	}
	return n.normal()
}

// Validate reports every problem of p, joined, or nil: the pack and rule
// names are lowercase kebab-case, rule names are unique, every rule has a
// valid default severity, a one-line summary and a Check, and the needs
// name only known parts. Apart from the Check and the needs, these are
// the rules journal-lint holds a pack's description to
// ([wire.Description.Validate]).
func (p Pack) Validate() error {
	errs := []error{p.description().Validate()}
	if p.Needs&^NeedAll != 0 {
		errs = append(errs, fmt.Errorf("pack needs %#x has unknown parts", uint8(p.Needs)))
	}
	for _, r := range p.Rules {
		if r.Check == nil {
			errs = append(errs, fmt.Errorf("rule %q: no Check", r.Name))
		}
		if r.Needs&^NeedAll != 0 {
			errs = append(errs, fmt.Errorf("rule %q: needs %#x has unknown parts", r.Name, uint8(r.Needs)))
		}
	}
	return errors.Join(errs...)
}

// description returns what the pack tells journal-lint about itself.
func (p Pack) description() wire.Description {
	d := wire.Description{Name: p.Name, Version: p.Version, SDKVersion: Version, HostVersions: p.HostVersions,
		Needs: wire.Needs(p.EffectiveNeeds()), Pure: p.Pure}
	for _, r := range p.Rules {
		d.Rules = append(d.Rules, wire.RuleInfo{Name: r.Name, Severity: r.Severity, Summary: r.Summary, Doc: r.Doc})
	}
	return d
}

// Config is a pack's configuration: the `config:` map of its entry in
// .journal-lint.yaml, as JSON. The zero value is the empty configuration.
type Config struct {
	raw []byte
}

// NewConfig returns the configuration m (nil for none). It fails when m
// cannot be encoded as JSON.
func NewConfig(m map[string]any) (Config, error) {
	if m == nil {
		return Config{}, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return Config{}, fmt.Errorf("pack config: %w", err)
	}
	return Config{raw: b}, nil
}

// JSON returns the configuration as a JSON object ("{}" when empty).
func (c Config) JSON() []byte {
	if len(c.raw) == 0 {
		return []byte("{}")
	}
	return c.raw
}

// Decode decodes the configuration into v, a pointer to a struct or map,
// using encoding/json rules (struct fields match keys by their json tags).
// Keys that v has no field for are an error, so typos in the configuration
// are caught.
func (c Config) Decode(v any) error {
	dec := json.NewDecoder(strings.NewReader(string(c.JSON())))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("pack config: %w", err)
	}
	return nil
}

// Map returns the configuration as a map; never nil. It fails only when
// the configuration is not a JSON object.
func (c Config) Map() (map[string]any, error) {
	m := map[string]any{}
	if err := json.Unmarshal(c.JSON(), &m); err != nil {
		return nil, fmt.Errorf("pack config: %w", err)
	}
	return m, nil
}

// Diagnostic is one finding of a rule.
type Diagnostic struct {
	// Severity is 0 for the rule's default severity.
	Severity Severity
	// Message is a short lowercase sentence fragment without a final
	// period; it must not be empty.
	Message string
	// Range is the exact subject; the zero Range means the whole file.
	Range Range
	// Related are secondary locations, such as another revision's file.
	Related []Related
	// Help is optional longer guidance: how to fix it.
	Help string
}

// Related is a secondary location of a [Diagnostic].
type Related struct {
	// Path is the root-relative path of the file, forward slashes; "" means
	// the document's own path.
	Path    string
	Range   Range
	Message string
}

// Pass is what a rule's Check sees for one document. The SDK makes a new
// Pass per rule and document; Check must not keep it.
type Pass struct {
	// Rule is the rule being run.
	Rule Rule
	// Doc is the document; never nil. Doc.Valid reports whether its model
	// can be trusted.
	Doc *Document
	// Config is the pack's configuration.
	Config Config
	// Settings is what [Pack.Configure] returned for Config, or nil.
	Settings any

	out *[]reported
}

// reported is a diagnostic with the rule that made it.
type reported struct {
	rule string
	d    Diagnostic
}

// Report records d for the document being checked.
func (p *Pass) Report(d Diagnostic) {
	*p.out = append(*p.out, reported{rule: p.Rule.Name, d: d})
}

// Reportf records a finding at r with the rule's default severity and a
// message formatted as by fmt.Sprintf.
func (p *Pass) Reportf(r Range, format string, args ...any) {
	p.Report(Diagnostic{Range: r, Message: fmt.Sprintf(format, args...)})
}

// Pos is one position in a document: a 0-based byte offset, a 1-based
// line and a 1-based column counted in Unicode code points. The zero value
// means "unknown".
type Pos = wire.Pos

// Range is a half-open range [Start, End) of a document. The zero value
// means "no range": the whole file.
type Range = wire.Range

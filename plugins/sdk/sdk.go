package sdk

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
)

// Version is the version of this SDK, reported to journal-lint by every
// pack built with it (see `journal-lint plugins list`).
const Version = "0.2.0"

// Severity is how much a finding matters. The zero value means "the rule's
// default severity" in a [Diagnostic] and is invalid in a [Rule].
type Severity int

// The severities, from most to least severe.
const (
	Error Severity = iota + 1
	Warning
	Info
)

// String returns "error", "warning", "info", or "default" for the zero value.
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "info"
	case 0:
		return "default"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// namePattern is the form of pack and rule names: lowercase kebab-case.
var namePattern = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

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

// The parts of a [Document] a pack may need.
const (
	// NeedText is Document.Text, and positions of ranges computed from it.
	NeedText Needs = 1 << iota
	// NeedDirectives is Document.Directives, ReleaseBlocks and
	// ReleaseBlock; it includes NeedText.
	NeedDirectives
	// NeedRevision is Document.Revision(), the parsed model.
	NeedRevision
	// NeedChain is Document.Chain, the artifact's hash chain.
	NeedChain

	// NeedAll is every part.
	NeedAll = NeedText | NeedDirectives | NeedRevision | NeedChain
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
	if n&NeedDirectives != 0 {
		n |= NeedText
	}
	return n & NeedAll
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
// valid default severity, a one-line summary and a Check.
func (p Pack) Validate() error {
	var errs []error
	if !namePattern.MatchString(p.Name) {
		errs = append(errs, fmt.Errorf("pack name %q is not lowercase kebab-case", p.Name))
	}
	if len(p.Rules) == 0 {
		errs = append(errs, errors.New("pack has no rules"))
	}
	if p.Needs&^NeedAll != 0 {
		errs = append(errs, fmt.Errorf("pack needs %#x has unknown parts", uint8(p.Needs)))
	}
	seen := map[string]bool{}
	for i, r := range p.Rules {
		fail := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("rule %d (%q): %s", i, r.Name, fmt.Sprintf(format, args...)))
		}
		if !namePattern.MatchString(r.Name) {
			fail("name is not lowercase kebab-case")
		}
		if seen[r.Name] {
			fail("duplicate name")
		}
		seen[r.Name] = true
		if r.Severity < Error || r.Severity > Info {
			fail("invalid severity %v", r.Severity)
		}
		if strings.TrimSpace(r.Summary) == "" || strings.ContainsAny(r.Summary, "\r\n") {
			fail("summary must be one non-empty line")
		}
		if r.Check == nil {
			fail("no Check")
		}
		if r.Needs&^NeedAll != 0 {
			fail("needs %#x has unknown parts", uint8(r.Needs))
		}
	}
	return errors.Join(errs...)
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

// Pos is one position in a document. The zero value means "unknown".
type Pos struct {
	// Offset is the 0-based byte offset from the start of the text.
	Offset int
	// Line is the 1-based line number; 0 means unknown.
	Line int
	// Column is the 1-based column counted in Unicode code points; 0 means
	// unknown.
	Column int
}

// IsValid reports whether p names a known position (Line > 0).
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns "line:column", or "-" for an unknown position.
func (p Pos) String() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Column)
}

// Range is a half-open range [Start, End) of a document. The zero value
// means "no range": the whole file.
type Range struct {
	Start, End Pos
}

// IsValid reports whether r has a known start position.
func (r Range) IsValid() bool { return r.Start.IsValid() }

func rangeOf(r diag.Range) Range {
	return Range{Start: Pos(r.Start), End: Pos(r.End)}
}

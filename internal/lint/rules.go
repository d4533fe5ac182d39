package lint

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/rules"
)

// Rule is one lint rule: its catalogue entry (code, kind, default severity,
// options; package rules) and the Check that produces it.
type Rule struct {
	rules.Rule
	// Check inspects pass.Doc and reports through pass.Report. It must not
	// keep the Pass or change the Document.
	Check func(pass *Pass)
}

// checks maps the code of every rule with a check ([rules.Kind.HasCheck])
// to that check; a test keeps the two in step.
var checks = map[string]func(*Pass){
	rules.DepsUnknownArtifact:      checkUnknownArtifact,
	rules.DepsUnsatisfiable:        checkUnsatisfiable,
	rules.LicenseDeprecatedID:      checkDeprecatedID,
	rules.LicenseIDCase:            checkIDCase,
	rules.LicenseNoassertion:       checkNoassertion,
	rules.SecurityBidiControl:      checkBidiControl,
	rules.StyleCRLF:                checkCRLF,
	rules.StyleDraftNote:           checkDraftNote,
	rules.StyleEmptyText:           checkEmptyText,
	rules.StyleMissingFinalNewline: checkMissingFinalNewline,
	rules.StyleReleaseOrder:        checkReleaseOrder,
	rules.StyleTrailingWhitespace:  checkTrailingWhitespace,
	rules.TimeFutureVersion:        checkFutureVersion,
}

// All returns every lint rule, in the order of [rules.All]: each rule of a
// kind with a check, with its Check. The slice is new on each call.
func All() []Rule { return slices.Clone(all()) }

// all is the slice [All] copies, made once; nobody may change it.
var all = sync.OnceValue(func() []Rule {
	var out []Rule
	for _, r := range rules.All() {
		if c := checks[r.Code]; c != nil && r.Kind.HasCheck() {
			out = append(out, Rule{Rule: r, Check: c})
		}
	}
	return out
})

// Lookup returns the lint rule with the given code from [All], and whether
// there is one.
func Lookup(code string) (Rule, bool) {
	r, ok := rules.Lookup(code)
	if c := checks[code]; ok && c != nil && r.Kind.HasCheck() {
		return Rule{Rule: r, Check: c}, true
	}
	return Rule{}, false
}

// Validate checks lint rules and returns every problem found, joined, or
// nil: each catalogue entry is valid ([rules.Validate]), of a kind with a
// check ([rules.Kind.HasCheck]), and has a Check.
func Validate(lint []Rule) error {
	cat := make([]rules.Rule, len(lint))
	var errs []error
	for i, r := range lint {
		cat[i] = r.Rule
		if !r.Kind.HasCheck() {
			errs = append(errs, fmt.Errorf("rule %d (%q): a %s rule has no check (it is reported elsewhere)", i, r.Code, r.Kind))
		}
		if r.Check == nil {
			errs = append(errs, fmt.Errorf("rule %d (%q): lint rule without a Check", i, r.Code))
		}
	}
	return errors.Join(append([]error{rules.Validate(cat)}, errs...)...)
}

// Pass is what a lint rule's Check sees for one document. Run makes a new
// Pass per rule and document.
type Pass struct {
	// Rule is the rule being run.
	Rule Rule
	// Doc is the parsed document; never nil. It may hold errors: a Check
	// must skip the parts it cannot trust (e.g. an Arg missing, VersionOK
	// false).
	Doc *syntax.Document
	// Tree is the loaded tree, or nil when none is known (a rule that needs
	// it then reports nothing).
	Tree Tree
	// Now is the current time used by time-dependent rules.
	Now time.Time
	// Options holds the rule's option values, defaults filled in.
	Options rules.Options

	lines *diag.LineIndex
	out   *diag.List
	limit *diag.Limiter // nil: keep every diagnostic
}

// Report records d. An empty Code becomes the rule's code, an invalid
// Severity the rule's default severity and an empty Path the document's path.
// Past diag.MaxPerFileCode diagnostics of one file and code in a [Run], d
// is only counted; Run reports the count in one last diagnostic.
func (p *Pass) Report(d diag.Diagnostic) {
	if d.Code == "" {
		d.Code = p.Rule.Code
	}
	if d.Severity == diag.SeverityInvalid {
		d.Severity = p.Rule.DefaultSeverity
	}
	if d.Path == "" {
		d.Path = p.Doc.Path
	}
	if p.limit != nil && !p.limit.Keep(d) {
		return
	}
	*p.out = append(*p.out, d)
}

// Range returns the range of the byte offsets [start, end) of the document's
// source.
func (p *Pass) Range(start, end int) diag.Range {
	if p.lines == nil {
		p.lines = p.Doc.Lines
		if p.lines == nil {
			p.lines = diag.NewLineIndex(p.Doc.Src)
		}
	}
	return p.lines.Range(start, end)
}

// RunConfig controls [Run]. Its zero value runs every lint rule of [All]
// with default options at the current time.
type RunConfig struct {
	// Now is the current time; the zero value means time.Now().
	Now time.Time
	// Enabled reports whether the lint rule with the given code runs; nil
	// means every lint rule runs.
	Enabled func(code string) bool
	// Options maps a rule code to its raw option values (name → text, see
	// [Rule.ParseOptions]); a missing rule or option uses the defaults.
	Options map[string]map[string]string
	// Rules is the rule set to run from; nil means [All].
	Rules []Rule

	parsed map[string]rules.Options // by code, set by Prepared
}

// Prepared returns cfg with the options of every rule of its rule set
// parsed once, so that a caller running [Run] many times with one
// configuration (once per artifact of a tree) does not parse them each
// time. A rule whose options do not parse is left out, and Run reports it
// as before.
func (cfg RunConfig) Prepared() RunConfig {
	cfg.parsed = map[string]rules.Options{}
	for _, r := range cfg.rules() {
		if opts, err := r.ParseOptions(cfg.Options[r.Code]); err == nil {
			cfg.parsed[r.Code] = opts
		}
	}
	return cfg
}

// options returns the parsed options of rule r under cfg.
func (cfg RunConfig) options(r Rule) (rules.Options, error) {
	if opts, ok := cfg.parsed[r.Code]; ok {
		return opts, nil
	}
	return r.ParseOptions(cfg.Options[r.Code])
}

// Validate checks that cfg's options name lint rules of the rule set and
// parse, and returns every problem joined, or nil. Run reports the same
// problems as diagnostics; a configuration layer calls Validate first to
// fail early.
func (cfg RunConfig) Validate() error {
	var errs []error
	for _, code := range slices.Sorted(maps.Keys(cfg.Options)) {
		raw := cfg.Options[code]
		r, ok := cfg.lookup(code)
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("options for unknown rule %q", code))
		case r.Kind == rules.Validity:
			errs = append(errs, fmt.Errorf("options for validity rule %q, which has none", code))
		default:
			if _, err := r.ParseOptions(raw); err != nil {
				errs = append(errs, fmt.Errorf("rule %s: %w", code, err))
			}
		}
	}
	return errors.Join(errs...)
}

func (cfg RunConfig) rules() []Rule {
	if cfg.Rules != nil {
		return cfg.Rules
	}
	return all() // read only
}

// lookup returns the catalogue entry of code: from cfg's rule set, and
// without one, from the whole registry (whose rules without a check accept
// no options).
func (cfg RunConfig) lookup(code string) (rules.Rule, bool) {
	for _, r := range cfg.rules() {
		if r.Code == code {
			return r.Rule, true
		}
	}
	if cfg.Rules == nil {
		return rules.Lookup(code)
	}
	return rules.Rule{}, false
}

// Run runs every enabled lint rule of cfg's rule set over every non-nil
// document and returns the diagnostics, sorted. tree may be nil (rules that
// need it then report nothing). A rule whose options do not parse is skipped,
// with one error diagnostic under its code and without a path; a rule that
// panics on a document gets an error diagnostic under its code on that
// document instead of stopping the run.
func Run(docs []*syntax.Document, tree Tree, cfg RunConfig) diag.List {
	now := cfg.Now
	if now.IsZero() {
		now = time.Now()
	}
	var out diag.List
	var limit diag.Limiter // keeps the first diag.MaxPerFileCode of each file and code
	// One Pass serves every rule and document (a Check must not keep it):
	// a new one for each cost an allocation per rule and document.
	p := &Pass{Tree: tree, Now: now, out: &out, limit: &limit}
	for _, r := range cfg.rules() {
		if r.Check == nil || (cfg.Enabled != nil && !cfg.Enabled(r.Code)) {
			continue
		}
		opts, err := cfg.options(r)
		if err != nil {
			out = append(out, diag.Diagnostic{
				Code:     r.Code,
				Severity: diag.Error,
				Message:  fmt.Sprintf("rule not run: %v", err),
				Help:     "fix the rule's options in the configuration",
			})
			continue
		}
		for _, doc := range docs {
			if doc == nil {
				continue
			}
			p.Rule, p.Doc, p.Options, p.lines = r, doc, opts, nil
			runOne(p)
		}
	}
	out = append(out, limit.Overflow()...)
	out.Sort()
	return out
}

// runOne runs p.Rule.Check, turning a panic into a diagnostic.
func runOne(p *Pass) {
	defer func() {
		if v := recover(); v != nil {
			p.Report(diag.Diagnostic{
				Severity: diag.Error,
				Message:  fmt.Sprintf("internal error: rule panicked: %v", v),
				Help:     "report this as a bug in journal-lint",
			})
		}
	}()
	p.Rule.Check(p)
}

package rules

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
)

// codePattern is the form of every rule code: "category/name", both parts
// lowercase kebab-case (format spec §8).
var codePattern = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*/[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// Rule describes one diagnostic code: its documentation and, for a lint
// rule, the check that produces it. A Rule is a plain value; the registry
// ([All]) holds one per code. Codes are stable: a code is never reused for
// another meaning (format spec §8).
type Rule struct {
	// Code is the stable "category/name" ID, e.g. "style/crlf".
	Code string
	// DefaultSeverity is the severity Run reports with; never
	// diag.SeverityInvalid. Configuration may override it by code.
	DefaultSeverity diag.Severity
	// Summary is one lowercase line saying what the rule reports.
	Summary string
	// Doc is Markdown: what triggers the rule and why it matters, then a
	// "Failing example:" and a "Passing example:" line, each followed by a
	// fenced block (see the package doc for the example notation).
	Doc string
	// Validity reports whether the code is a validity code (format spec §8
	// and this project's fs/revision-missing and syntax/empty): produced by
	// the loader, parser or chain, documented here, and without a Check.
	Validity bool
	// CrossRevision reports whether the rule compares consecutive revisions
	// of a chain (category history, one rule per kind of the semantic diff
	// engine, package internal/diff): the check engine produces it across
	// revisions, so it has no Check and its examples are text pairs of a
	// previous and a current revision.
	CrossRevision bool
	// Check inspects pass.Doc and reports through pass.Report. It is nil
	// exactly for validity and cross-revision rules. It must not keep the
	// Pass or change the Document.
	Check func(pass *Pass)
	// Options lists the rule's options, in documentation order; nil when it
	// has none.
	Options []Option
}

// Validate checks rules and returns every problem found, joined, or nil:
// codes are well-formed and unique; severities valid; summaries non-empty
// and one line; docs non-empty with both a failing and a passing example;
// validity rules use a validity category and have no Check or options;
// cross-revision rules use the history category and have no Check or
// options; lint rules have a Check and do not use a validity category;
// options are well-formed with a default that parses.
func Validate(rules []Rule) error {
	var errs []error
	seen := make(map[string]bool, len(rules))
	for i, r := range rules {
		fail := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("rule %d (%q): %s", i, r.Code, fmt.Sprintf(format, args...)))
		}
		if !codePattern.MatchString(r.Code) {
			fail("code is not of the form category/name in lowercase kebab-case")
		}
		if seen[r.Code] {
			fail("duplicate code")
		}
		seen[r.Code] = true
		switch r.DefaultSeverity {
		case diag.Error, diag.Warning, diag.Info:
		default:
			fail("invalid default severity %d", r.DefaultSeverity)
		}
		if strings.TrimSpace(r.Summary) == "" || strings.ContainsAny(r.Summary, "\r\n") {
			fail("summary must be one non-empty line")
		}
		if strings.TrimSpace(r.Doc) == "" {
			fail("empty doc")
		} else if _, err := r.Examples(); err != nil {
			fail("doc: %v", err)
		}
		switch {
		case r.Validity && r.CrossRevision:
			fail("a rule is either a validity or a cross-revision rule, not both")
		case r.CrossRevision:
			if !strings.HasPrefix(r.Code, "history/") {
				fail("cross-revision rule outside the history category")
			}
			if r.Check != nil {
				fail("cross-revision rule has a Check (the check engine produces it across revisions)")
			}
			if len(r.Options) > 0 {
				fail("cross-revision rule has options")
			}
		case r.Validity:
			if !diag.IsValidity(r.Code) {
				fail("validity rule outside the validity categories fs, syntax, value, semantic, chain")
			}
			if r.Check != nil {
				fail("validity rule has a Check (validity codes come from the parser, loader and chain)")
			}
			if len(r.Options) > 0 {
				fail("validity rule has options")
			}
		default:
			if diag.IsValidity(r.Code) {
				fail("lint rule in a validity category (lint rules never change what is valid)")
			}
			if r.Check == nil {
				fail("lint rule without a Check")
			}
		}
		if err := validateOptions(r.Options); err != nil {
			fail("%v", err)
		}
	}
	return errors.Join(errs...)
}

// All returns every rule in a stable order: the validity rules in the order
// of the format spec §8 (project additions after their category), then the
// lint and cross-revision (history/…) rules together, sorted by code. The
// slice is new on each call; changing it does not change the registry.
func All() []Rule {
	out := make([]Rule, 0, len(validityRules)+len(lintRules)+len(historyRules))
	out = append(out, validityRules...)
	rest := append(slices.Clone(lintRules), historyRules...)
	slices.SortStableFunc(rest, func(a, b Rule) int { return strings.Compare(a.Code, b.Code) })
	return append(out, rest...)
}

// Lookup returns the rule with the given code from [All], and whether there
// is one.
func Lookup(code string) (Rule, bool) {
	for _, r := range All() {
		if r.Code == code {
			return r, true
		}
	}
	return Rule{}, false
}

// validityRules lists the validity rules in spec order; each category file
// (fs.go, syntax.go, value.go, semantic.go, chain.go) contributes its part.
var validityRules = concat(fsRules, syntaxRules, valueRules, semanticRules, chainRules)

// lintRules lists the lint rules: those with a Check on one document, one
// file each, then those that other parts of journal-lint report (the git
// gate, rule packs, the check engine), registered here so that they are
// documented, listed, configurable and rendered like every other rule.
var lintRules = concat(documentRules, repoRules, []Rule{pluginFailed, configUnusedIgnore, configPluginsChanged, checkBridgedLink})

// documentRules are the lint rules that inspect one document.
var documentRules = []Rule{
	depsUnknownArtifact,
	depsUnsatisfiable,
	licenseDeprecatedID,
	licenseIDCase,
	licenseNoassertion,
	securityBidiControl,
	styleCRLF,
	styleEmptyText,
	styleMissingFinalNewline,
	styleReleaseOrder,
	styleTrailingWhitespace,
	timeFutureVersion,
}

func concat(parts ...[]Rule) []Rule {
	var out []Rule
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
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
	Options Options

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
}

// Validate checks that cfg's options name lint rules of the rule set and
// parse, and returns every problem joined, or nil. Run reports the same
// problems as diagnostics; a configuration layer calls Validate first to
// fail early.
func (cfg RunConfig) Validate() error {
	byCode := make(map[string]Rule)
	for _, r := range cfg.rules() {
		byCode[r.Code] = r
	}
	var errs []error
	for _, code := range slices.Sorted(maps.Keys(cfg.Options)) {
		raw := cfg.Options[code]
		r, ok := byCode[code]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("options for unknown rule %q", code))
		case r.Validity:
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
	return All()
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
	for _, r := range cfg.rules() {
		if r.Validity || r.Check == nil || (cfg.Enabled != nil && !cfg.Enabled(r.Code)) {
			continue
		}
		opts, err := r.ParseOptions(cfg.Options[r.Code])
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
			runOne(&Pass{Rule: r, Doc: doc, Tree: tree, Now: now, Options: opts, out: &out, limit: &limit})
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

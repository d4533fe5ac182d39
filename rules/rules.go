package rules

import (
	"embed"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Severity is how much a diagnostic matters. The zero value is invalid, so a
// forgotten severity is caught rather than silently meaning "error".
type Severity int

// The severities, from most to least severe.
const (
	SeverityInvalid Severity = iota
	Error
	Warning
	Info
)

// String returns "error", "warning", "info", or "invalid".
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "info"
	}
	return "invalid"
}

// ParseSeverity returns the severity named "error", "warning" or "info", or
// an error naming the three.
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return Error, nil
	case "warning":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return SeverityInvalid, fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

// AtLeast reports whether s is at least as severe as min (Error > Warning > Info).
func (s Severity) AtLeast(min Severity) bool { return s != SeverityInvalid && s <= min }

// Kind says which part of journal-lint reports a code, and so how the check
// engine treats it. The zero value is invalid.
type Kind int

// The kinds of codes.
const (
	KindInvalid Kind = iota
	// Validity: the loader, the parser or the chain reports it, and a tree
	// with one is rejected by the service ("Diagnostic codes" in
	// docs/journal-format.md). Always an error; configuration can neither
	// lower nor ignore it.
	Validity
	// Document: a lint rule run on every parsed document.
	Document
	// ChainHead: a lint rule run on the head of each chain only; it judges
	// the tree's current state (deps/…), which an older, immutable revision
	// need not repeat.
	ChainHead
	// CrossRevision: a history/<kind> rule, one per kind of change of the
	// semantic diff engine, reported on the newer of two consecutive
	// revisions.
	CrossRevision
	// Repository: a code of the git gate (history/revision-*,
	// repo/eol-conversion), about the repository rather than a revision's
	// text; `check --new-only` never drops it.
	Repository
	// Config: a finding about the configuration file itself
	// (config/unused-ignore); `check --new-only` never drops it.
	Config
	// Engine: reported by the check engine about how a revision or a rule
	// pack was checked (check/bridged-link, plugin/failed).
	Engine
)

// String returns the kind in kebab-case: "validity", "document",
// "chain-head", "cross-revision", "repository", "config", "engine", or
// "invalid".
func (k Kind) String() string {
	switch k {
	case Validity:
		return "validity"
	case Document:
		return "document"
	case ChainHead:
		return "chain-head"
	case CrossRevision:
		return "cross-revision"
	case Repository:
		return "repository"
	case Config:
		return "config"
	case Engine:
		return "engine"
	}
	return "invalid"
}

// HasCheck reports whether rules of kind k are lint rules with a check on
// one document (Document and ChainHead); every other kind is reported by
// the part of journal-lint named in its doc.
func (k Kind) HasCheck() bool { return k == Document || k == ChainHead }

// Scope is what a validity code rejects. It is ScopeNone exactly for codes
// of the other kinds.
type Scope int

// The scopes of validity codes.
const (
	ScopeNone Scope = iota
	// ScopeRoot: the root itself cannot be used (fs/root-*).
	ScopeRoot
	// ScopeLayout: a file is where the layout does not allow it, has vanished,
	// or kept changing while it was read ("Filesystem layout" in
	// docs/journal-format.md).
	ScopeLayout
	// ScopeText: the text is not a Journal on its own: it cannot be read,
	// is too large, or breaks the syntax, value or semantic rules.
	ScopeText
	// ScopeChain: the revision does not link into its chain ("Chains" in
	// docs/journal-format.md).
	ScopeChain
)

// Rule describes one diagnostic code: its kind, default severity, summary,
// documentation and options. A Rule is a plain value; the registry ([All])
// holds one per code.
type Rule struct {
	// Code is the stable "category/name" ID, e.g. "style/crlf".
	Code string
	// Kind says which part of journal-lint reports the code.
	Kind Kind
	// Scope is what a validity code rejects; ScopeNone for other kinds.
	Scope Scope
	// DefaultSeverity is the severity the code is reported with; never
	// SeverityInvalid. Configuration may override it by code, except for
	// validity codes.
	DefaultSeverity Severity
	// Summary is one lowercase line saying what the rule reports.
	Summary string
	// Doc is Markdown: what triggers the rule and why it matters, then a
	// "Failing example:" and a "Passing example:" line, each followed by a
	// fenced block (see the package doc for the example notation). It is
	// the file docs/<category>/<name>.md of this package.
	Doc string
	// Options lists the rule's options, in documentation order; nil when it
	// has none. Only rules with a check ([Kind.HasCheck]) have options.
	Options []Option
}

//go:embed docs
var docFiles embed.FS

// docPath returns the path of code's doc in [docFiles].
func docPath(code string) string {
	cat, name, _ := strings.Cut(code, "/")
	return "docs/" + cat + "/" + name + ".md"
}

// all returns the registry with each rule's doc filled in from
// [docFiles]; a rule without a doc file keeps an empty Doc, which
// [Validate] reports. It is built on first use, not when a process starts
// that never asks for a rule (docs/performance.md, "Start-up").
var all = sync.OnceValue(func() []Rule {
	out := slices.Clone(registry)
	for i := range out {
		b, _ := docFiles.ReadFile(docPath(out[i].Code))
		out[i].Doc = string(b)
	}
	return out
})

// docsLink starts a link from a rule doc to a document of the repository's
// docs/ directory. The doc files sit in rules/docs/<category>/, so the link
// is relative to there, as in [Chains](../../../docs/journal-format.md#chains),
// and works where the file itself is read.
const docsLink = "](../../../docs/"

// LinkedDoc returns r.Doc with its links into the repository's docs/
// directory resolved against docs instead: the location of that directory
// as the reader of the result sees it, ending in "/", such as
// "https://github.com/r35157/journal-lint/blob/main/docs/" in SARIF help;
// "" for a document in docs/ itself (docs/rules.md). Other links are kept.
func (r Rule) LinkedDoc(docs string) string {
	return strings.ReplaceAll(r.Doc, docsLink, "]("+docs)
}

// byCode indexes [all] by code, built on first use.
var byCode = sync.OnceValue(func() map[string]int {
	m := make(map[string]int, len(registry))
	for i, r := range registry {
		m[r.Code] = i
	}
	return m
})

// All returns every rule in a stable order: the validity rules in the order of
// "Diagnostic codes" in docs/journal-format.md (project additions after their
// category), then every other rule sorted by code. The slice is new on each
// call; changing it does not change the registry.
func All() []Rule { return slices.Clone(all()) }

// Lookup returns the rule with the given code, and whether there is one.
func Lookup(code string) (Rule, bool) {
	i, ok := byCode()[code]
	if !ok {
		return Rule{}, false
	}
	return all()[i], true
}

// KindOf returns the kind of code: the registered kind of a known code,
// Validity for an unknown code in a validity category (see
// [IsValidityCategory]), and Document for any other code, which is a rule
// pack's ("<pack>/<rule>").
func KindOf(code string) Kind {
	if r, ok := Lookup(code); ok {
		return r.Kind
	}
	if IsValidityCategory(Category(code)) {
		return Validity
	}
	return Document
}

// IsValidity reports whether code is a validity code ([KindOf] is
// Validity): a diagnostic with such a code is exactly what makes loading
// fail.
func IsValidity(code string) bool { return KindOf(code) == Validity }

// Category returns the part of code before its "/", or "" when it has none.
func Category(code string) string {
	cat, _, ok := strings.Cut(code, "/")
	if !ok {
		return ""
	}
	return cat
}

// IsValidityCategory reports whether cat is one of the validity categories of
// "Diagnostic codes" in docs/journal-format.md: fs, syntax, value, semantic,
// chain. Every code in them is a validity code, including codes (or
// configuration globs such as "chain/*") the registry does not list.
func IsValidityCategory(cat string) bool {
	switch cat {
	case "fs", "syntax", "value", "semantic", "chain":
		return true
	}
	return false
}

// codePattern is the form of every rule code: "category/name", both parts
// lowercase kebab-case ("Diagnostic codes" in docs/journal-format.md).
var codePattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*/[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
})

// Validate checks rules and returns every problem found, joined, or nil:
// codes are well-formed and unique; kinds and severities valid; summaries
// non-empty and one line; docs non-empty with both a failing and a passing
// example; a rule is of kind Validity exactly when its code is in a
// validity category, and then it is an error with a scope; cross-revision
// rules use the history category; only rules with a check have options,
// which are well-formed with a default that parses.
func Validate(rules []Rule) error {
	var errs []error
	seen := make(map[string]bool, len(rules))
	for i, r := range rules {
		fail := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("rule %d (%q): %s", i, r.Code, fmt.Sprintf(format, args...)))
		}
		if !codePattern().MatchString(r.Code) {
			fail("code is not of the form category/name in lowercase kebab-case")
		}
		if seen[r.Code] {
			fail("duplicate code")
		}
		seen[r.Code] = true
		switch r.DefaultSeverity {
		case Error, Warning, Info:
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
		if r.Kind.String() == "invalid" {
			fail("invalid kind %d", r.Kind)
		}
		validityCat := IsValidityCategory(Category(r.Code))
		switch {
		case r.Kind == Validity && !validityCat:
			fail("validity rule outside the validity categories fs, syntax, value, semantic, chain")
		case r.Kind != Validity && validityCat:
			fail("%s rule in a validity category (only the loader, parser and chain decide what is valid)", r.Kind)
		case r.Kind == Validity && r.DefaultSeverity != Error:
			fail("validity rule that is not an error")
		case (r.Kind == Validity) != (r.Scope != ScopeNone):
			fail("a rule has a scope exactly when it is a validity rule")
		case r.Kind == CrossRevision && Category(r.Code) != "history":
			fail("cross-revision rule outside the history category")
		case !r.Kind.HasCheck() && len(r.Options) > 0:
			fail("%s rule has options (only rules with a check have them)", r.Kind)
		}
		if err := validateOptions(r.Options); err != nil {
			fail("%v", err)
		}
	}
	return errors.Join(errs...)
}

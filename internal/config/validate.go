package config

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/r35157/journal-lint/suggest"
)

// OptionKind is the type of value a rule option takes.
type OptionKind int

// The option kinds.
const (
	// OptionAny accepts any YAML value.
	OptionAny OptionKind = iota
	// OptionString accepts a string.
	OptionString
	// OptionInt accepts an integer.
	OptionInt
	// OptionBool accepts true or false.
	OptionBool
	// OptionDuration accepts a Go duration string such as "48h".
	OptionDuration
)

// OptionSpec maps the option names of one rule to their kinds.
type OptionSpec map[string]OptionKind

// Registry is what [Validate] needs to know about the rules, which this
// package cannot know itself.
type Registry struct {
	// Known reports whether code exists. Nil means "is listed in Codes".
	Known func(code string) bool
	// Codes lists every known code. Code globs in ignore entries must match
	// at least one of them, and they feed "did you mean" suggestions. When
	// it is empty, code globs are not checked.
	Codes []string
	// Options gives the options each code accepts; a known code absent from
	// it takes no options. A nil Options skips the check of option names and
	// values.
	Options map[string]OptionSpec
	// Namespaces lists the categories of rule packs that are configured but
	// did not list their rules (a pack that failed to start, or one that a
	// pull request proposes and check --against does not run): a code glob
	// whose category matches one of them is accepted although it matches
	// no code in Codes. AnyNamespace does the same for every category but
	// those of Codes (a pack without a configured name). Known decides
	// single codes.
	Namespaces   []string
	AnyNamespace bool
	// CheckValue, when set, checks the value of the option name of the
	// rule code as the rule reads it (text, Option.Text); its error is
	// reported at the value.
	CheckValue func(code, name, text string) error
}

// lenientGlob reports whether the category of the code glob may be that
// of a pack whose codes are not listed (Namespaces, AnyNamespace).
func (r Registry) lenientGlob(glob string) bool {
	cat, _, _ := strings.Cut(glob, "/")
	re, err := compilePathGlob(cat)
	if err != nil {
		return false
	}
	if slices.ContainsFunc(r.Namespaces, re.MatchString) {
		return true
	}
	return r.AnyNamespace && (hasMeta(cat) || !slices.ContainsFunc(r.Codes, func(c string) bool {
		return strings.HasPrefix(c, cat+"/")
	}))
}

// known reports whether code exists in r; this package's own codes always do.
func (r Registry) known(code string) bool {
	if slices.Contains(Codes(), code) {
		return true
	}
	if r.Known != nil {
		return r.Known(code)
	}
	return slices.Contains(r.Codes, code)
}

// Validate checks cfg against the rule registry: every code in rules,
// options and ignore must be known, every code glob in ignore must match at
// least one known code (or the category of a pack that did not list its
// codes, Registry.Namespaces), and (when reg.Options is set) every option must be
// one its rule accepts, with a value of the right kind. It returns an
// [ErrorList] in file order, or nil.
func Validate(cfg *Config, reg Registry) error {
	if cfg == nil {
		return nil
	}
	var errs ErrorList
	all := append(slices.Clone(reg.Codes), Codes()...)
	unknown := func(p Position, where, code string) {
		msg := fmt.Sprintf("%s: unknown rule code %q", where, code)
		if s := suggest.Closest(code, all); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		errs = append(errs, cfg.errorAt(p, "%s", msg))
	}
	for _, r := range cfg.Rules {
		if !reg.known(r.Code) {
			unknown(r.Pos, "rules", r.Code)
		}
	}
	for _, o := range cfg.Options {
		if !reg.known(o.Code) {
			unknown(o.Pos, "options", o.Code)
			continue
		}
		if reg.Options != nil {
			errs = append(errs, checkOptions(cfg, o, reg.Options[o.Code], reg.CheckValue)...)
		}
	}
	for _, e := range cfg.Ignore {
		p := e.CodePos
		if !hasMeta(e.Code) {
			if !reg.known(e.Code) {
				unknown(p, "ignore", e.Code)
			}
			continue
		}
		if len(all) == len(Codes()) {
			continue // no list to check globs against
		}
		re, err := compileCodeGlob(e.Code)
		if err != nil {
			continue // reported by Load
		}
		if !slices.ContainsFunc(all, re.MatchString) && !reg.lenientGlob(e.Code) {
			errs = append(errs, cfg.errorAt(p, "ignore: code glob %q matches no known rule code", e.Code))
		}
	}
	sortErrors(errs)
	return errs.Err()
}

// checkOptions checks the options of one rule against its spec, and each
// value with value when it is not nil (Registry.CheckValue).
func checkOptions(cfg *Config, o RuleOptions, spec OptionSpec, value func(code, name, text string) error) ErrorList {
	var errs ErrorList
	names := make([]string, 0, len(spec))
	for n := range spec {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, v := range o.Values {
		kind, ok := spec[v.Name]
		if !ok {
			msg := fmt.Sprintf("rule %s takes no options", o.Code)
			if len(names) > 0 {
				msg = fmt.Sprintf("unknown option %q of rule %s (allowed: %s)", v.Name, o.Code, strings.Join(names, ", "))
				if s := suggest.Closest(v.Name, names); s != "" {
					msg += fmt.Sprintf("; did you mean %q?", s)
				}
			}
			errs = append(errs, cfg.errorAt(v.NamePos, "%s", msg))
			continue
		}
		var err error
		switch kind {
		case OptionString:
			_, err = v.String()
		case OptionInt:
			_, err = v.Int()
		case OptionBool:
			_, err = v.Bool()
		case OptionDuration:
			var d time.Duration
			if d, err = v.Duration(); err == nil && d <= 0 {
				err = cfg.errorAt(v.Pos, "option %s: must be a positive duration", v.Name)
			}
		}
		if err == nil && value != nil {
			if verr := value(o.Code, v.Name, v.Text()); verr != nil {
				err = cfg.errorAt(v.Pos, "%v", verr)
			}
		}
		if err != nil {
			e := err.(*Error)
			e.Msg = o.Code + ": " + e.Msg
			errs = append(errs, e)
		}
	}
	return errs
}

// sortErrors orders errs by line and column.
func sortErrors(errs ErrorList) {
	slices.SortStableFunc(errs, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), strings.Compare(a.Msg, b.Msg))
	})
}

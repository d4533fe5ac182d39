package wire

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// namePattern is the form of pack and rule names: lowercase kebab-case, so
// that "<pack>/<rule>" is a well-formed diagnostic code.
var namePattern = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// ValidName reports whether s is a valid pack or rule name: lowercase
// kebab-case, such as "license-policy".
func ValidName(s string) bool { return namePattern.MatchString(s) }

// MaxMessage is the longest message, help or related message of a
// finding, in bytes.
const MaxMessage = 4096

// Validate returns every reason, joined, why a host refuses d, or nil: the
// pack's and its rules' names are lowercase kebab-case, it has at least
// one rule, rule names are unique, and every rule has a default severity
// and a one-line summary.
func (d Description) Validate() error {
	var errs []error
	if !ValidName(d.Name) {
		errs = append(errs, fmt.Errorf("pack name %q is not lowercase kebab-case", d.Name))
	}
	if len(d.Rules) == 0 {
		errs = append(errs, errors.New("the pack has no rules"))
	}
	seen := map[string]bool{}
	for _, r := range d.Rules {
		fail := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("rule %q: %s", r.Name, fmt.Sprintf(format, args...)))
		}
		if !ValidName(r.Name) {
			fail("name is not lowercase kebab-case")
		}
		if seen[r.Name] {
			fail("duplicate name")
		}
		seen[r.Name] = true
		if r.Severity < SeverityError || r.Severity > SeverityInfo {
			fail("invalid default severity %v", r.Severity)
		}
		if s := strings.TrimSpace(r.Summary); s == "" || strings.ContainsAny(s, "\r\n") {
			fail("summary must be one non-empty line")
		}
	}
	return errors.Join(errs...)
}

// Validate returns why a host refuses f from the pack described by d, or
// nil: its rule is one of d's, its severity one of the protocol's, and its
// message (not empty), help and related messages are valid UTF-8 of at
// most [MaxMessage] bytes. Whether its paths and ranges lie in the
// documents of the call is the caller's to check.
func (f Finding) Validate(d Description) error {
	if _, ok := d.Rule(f.Rule); !ok {
		return fmt.Errorf("unknown rule %.80q", f.Rule)
	}
	if f.Severity < SeverityDefault || f.Severity > SeverityInfo {
		return fmt.Errorf("rule %s: invalid severity %d", f.Rule, int(f.Severity))
	}
	check := func(what, s string, required bool) error {
		switch {
		case required && s == "":
			return fmt.Errorf("rule %s: empty %s", f.Rule, what)
		case !utf8.ValidString(s):
			return fmt.Errorf("rule %s: %s is not valid UTF-8", f.Rule, what)
		case len(s) > MaxMessage:
			return fmt.Errorf("rule %s: %s longer than %d bytes", f.Rule, what, MaxMessage)
		}
		return nil
	}
	if err := check("message", f.Message, true); err != nil {
		return err
	}
	if err := check("help", f.Help, false); err != nil {
		return err
	}
	for _, r := range f.Related {
		if err := check("related message", r.Message, false); err != nil {
			return err
		}
	}
	return nil
}

// Within returns nil when r lies in a text of size bytes (the document at
// path, named in the error), else why not. A nil Range, the whole file, is
// always within. Only the offsets count: a host recomputes lines and
// columns from them.
func (r *Range) Within(path string, size int) error {
	if r == nil {
		return nil
	}
	if s, e := r.Start.Offset, r.End.Offset; s < 0 || e < s || e > size {
		return fmt.Errorf("range [%d, %d) is outside the %d bytes of %s", s, e, size, path)
	}
	return nil
}

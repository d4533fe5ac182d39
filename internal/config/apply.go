package config

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/rules"
)

// compiledIgnore is an ignore entry with its patterns compiled.
type compiledIgnore struct {
	code, path *regexp.Regexp // path nil: every path
	literal    []string       // the path pattern's literal leading segments
	ok         bool
}

// compile compiles e's patterns; ok is false when one is malformed (only
// possible for entries built in code), and such an entry matches nothing.
func compile(e IgnoreEntry) compiledIgnore {
	code, err := compileCodeGlob(e.Code)
	if err != nil {
		return compiledIgnore{}
	}
	c := compiledIgnore{code: code, ok: true}
	if e.Path != "" {
		if c.path, err = compilePathGlob(e.Path); err != nil {
			return compiledIgnore{}
		}
		c.literal = literalStart(e.Path)
	}
	return c
}

// matches reports whether d is suppressed by c; rootRel is the root's path
// relative to the configuration file's directory ("" for the same).
func (c compiledIgnore) matches(d diag.Diagnostic, rootRel string) bool {
	return c.ok && c.code.MatchString(d.Code) && (c.path == nil || c.path.MatchString(ignorePath(rootRel, d.Path)))
}

// ignorePath is the path an ignore pattern is matched against: the
// root-relative path p as seen from the configuration file's directory,
// where the root is at rootRel; the root itself for an empty p.
func ignorePath(rootRel, p string) string {
	switch {
	case rootRel == "" || rootRel == ".":
		return p
	case p == "":
		return rootRel
	}
	return path.Clean(rootRel + "/" + p)
}

// Matches reports whether the entry suppresses d, whose path is relative to
// a root at rootRel from the configuration file's directory (see [Apply]),
// ignoring that validity codes are never suppressed ([Apply] takes care of
// that).
func (e IgnoreEntry) Matches(d diag.Diagnostic, rootRel string) bool {
	return compile(e).matches(d, rootRel)
}

// Apply applies cfg to ds and returns the diagnostics that remain, in their
// order, and the ignore entries that matched nothing, in file order. The
// diagnostics are filtered in place: out is ds's array (a check's list may
// hold a rule pack's tens of thousands of findings), so the caller must not
// use ds afterwards. The paths of ds are root-relative; rootRel is the root's
// path relative to the configuration file's directory ([Config.RootRel]),
// because ignore path patterns are written relative to that directory:
// with the file at the repository's top level they are the paths the
// output shows.
//
// For a diagnostic whose code is not a validity code: a rule set to off
// drops it; a rule set to a severity changes its severity; otherwise, an
// ignore entry whose code pattern matches its code and whose path pattern
// matches its path drops it. Every matching entry counts as used. A
// diagnostic dropped by off never reaches the ignore entries, so an entry
// that only covers a rule that is off is reported as unused. Diagnostics
// with validity codes pass through untouched. A nil cfg changes nothing.
func Apply(cfg *Config, rootRel string, ds diag.List) (out diag.List, unused []IgnoreEntry) {
	if cfg == nil {
		return ds, nil
	}
	ignores := newIgnoreIndex(cfg.Ignore, rootRel)
	out = ds[:0]
	for _, d := range ds {
		if rules.IsValidity(d.Code) {
			out = append(out, d)
			continue
		}
		sev, on := cfg.Severity(d.Code, d.Severity)
		if !on {
			continue
		}
		d.Severity = sev
		if !ignores.drop(d) {
			out = append(out, d)
		}
	}
	clear(ds[len(out):]) // what was dropped holds no strings in the array
	for i, e := range cfg.Ignore {
		if !ignores.used[i] {
			unused = append(unused, e)
		}
	}
	return out, unused
}

// UnusedIgnoreDiagnostics returns one [rules.ConfigUnusedIgnore] warning per entry of
// unused (as returned by [Apply] with rootRel). Path is the configuration
// file as given to [Load] (cfg.Source) and Range the entry's position; the
// message names the entry's code and path patterns, and the help, for a
// path pattern that does not start where the root lies (rootRel), the
// pattern below the root. A rules override for config/unused-ignore
// applies: off returns nothing.
func UnusedIgnoreDiagnostics(cfg *Config, rootRel string, unused []IgnoreEntry) diag.List {
	sev, on := cfg.Severity(rules.ConfigUnusedIgnore, diag.Warning)
	if !on || len(unused) == 0 {
		return nil
	}
	var src string
	if cfg != nil {
		src = cfg.Source
	}
	out := make(diag.List, 0, len(unused))
	for _, e := range unused {
		where := "any path"
		if e.Path != "" {
			where = fmt.Sprintf("path %q", e.Path)
		}
		out = append(out, diag.Diagnostic{
			Code:     rules.ConfigUnusedIgnore,
			Severity: sev,
			Message:  fmt.Sprintf("ignore entry for code %q and %s matched no diagnostic", e.Code, where),
			Path:     src,
			Range:    e.Pos.Range(),
			Help:     "remove the entry, or fix its code or path pattern" + belowRoot(e.Path, rootRel),
		})
	}
	return out
}

// belowRoot returns, for the ignore path pattern pat that names no path
// where the root lies (rootRel, relative to the configuration file's
// directory), a hint with the pattern below the root; "" otherwise.
func belowRoot(pat, rootRel string) string {
	first := func(p string) string { s, _, _ := strings.Cut(p, "/"); return s }
	if pat == "" || rootRel == "" || strings.HasPrefix(pat, "**") || strings.HasPrefix(rootRel, "../") || first(pat) == first(rootRel) {
		return ""
	}
	return fmt.Sprintf("; path patterns are relative to the directory of the configuration file, where the root is %s: did you mean %q?", rootRel, rootRel+"/"+pat)
}

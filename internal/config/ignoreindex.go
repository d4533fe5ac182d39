package config

import (
	"strings"

	"github.com/r35157/journal-lint/internal/diag"
)

// ignoreIndex finds the ignore entries that match a diagnostic without
// trying each entry on each diagnostic: a check may hold a million
// findings and a configuration hundreds of entries (issue 26: 400 entries
// that matched nothing took a check of 10^6 findings from 8.3 s to 256 s).
// The entries' patterns are compiled once; for each code seen, the
// entries whose code pattern matches it are put in a tree by the literal
// segments their path pattern starts with, so that a path meets only the
// entries whose literal start it has (and those that start with a
// wildcard); and the verdict for a code and path is computed once. The
// work is linear in the diagnostics plus the entries, but for the
// entries a path meets: a pattern that starts with a wildcard ("**/x")
// is tried on each distinct path of the codes it covers.
type ignoreIndex struct {
	entries []compiledIgnore
	rootRel string
	used    []bool
	codes   map[string]*codeIgnores
}

// codeIgnores are the entries whose code pattern matches one code.
type codeIgnores struct {
	tree  ignoreNode      // by the literal start of their path patterns
	drops map[string]bool // verdict by root-relative path
}

// ignoreNode holds the entries whose path pattern's literal segments lead
// to it from the root of the tree.
type ignoreNode struct {
	entries []int
	next    map[string]*ignoreNode
}

// newIgnoreIndex compiles entries for diagnostics whose root is at rootRel
// from the configuration file's directory.
func newIgnoreIndex(entries []IgnoreEntry, rootRel string) *ignoreIndex {
	x := &ignoreIndex{entries: make([]compiledIgnore, len(entries)), rootRel: rootRel,
		used: make([]bool, len(entries)), codes: map[string]*codeIgnores{}}
	for i, e := range entries {
		x.entries[i] = compile(e)
	}
	return x
}

// drop reports whether an entry suppresses d, and marks every entry that
// matches d as used.
func (x *ignoreIndex) drop(d diag.Diagnostic) bool {
	ci := x.forCode(d.Code)
	if ci == nil {
		return false
	}
	if v, ok := ci.drops[d.Path]; ok {
		return v
	}
	p := ignorePath(x.rootRel, d.Path)
	drop := false
	for n, rest := &ci.tree, p; n != nil; {
		for _, i := range n.entries {
			if c := x.entries[i]; c.path == nil || c.path.MatchString(p) {
				x.used[i], drop = true, true
			}
		}
		var seg string
		seg, rest, _ = strings.Cut(rest, "/")
		n = n.next[seg]
	}
	ci.drops[d.Path] = drop
	return drop
}

// forCode returns the entries whose code pattern matches code, nil for
// none.
func (x *ignoreIndex) forCode(code string) *codeIgnores {
	ci, ok := x.codes[code]
	if ok {
		return ci
	}
	for i, c := range x.entries {
		if !c.ok || !c.code.MatchString(code) {
			continue
		}
		if ci == nil {
			ci = &codeIgnores{drops: map[string]bool{}}
		}
		ci.tree.add(i, x.entries[i].literal)
	}
	x.codes[code] = ci
	return ci
}

// add puts entry i under the literal segments lit.
func (n *ignoreNode) add(i int, lit []string) {
	for _, s := range lit {
		if n.next == nil {
			n.next = map[string]*ignoreNode{}
		}
		m := n.next[s]
		if m == nil {
			m = &ignoreNode{}
			n.next[s] = m
		}
		n = m
	}
	n.entries = append(n.entries, i)
}

// literalStart returns the segments a path pattern starts with that hold
// no glob syntax: every path it matches starts with them.
func literalStart(pattern string) []string {
	var lit []string
	for _, s := range strings.Split(pattern, "/") {
		if s == "" || hasMeta(s) {
			break
		}
		lit = append(lit, s)
	}
	return lit
}

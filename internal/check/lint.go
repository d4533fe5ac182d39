package check

import (
	"context"
	"fmt"
	"strings"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/rules"
)

// lintRules runs the lint rules of package rules over every parsed
// document, except the rules about the tree's current state (deps/…), which
// run on chain heads only: an older revision is immutable and describes
// history, so repeating its findings in every revision helps nobody.
func lintRules(_ context.Context, r *run) (diag.List, error) {
	enabled := func(code string) bool {
		_, on := r.cfg.Severity(code, diag.Warning)
		return on
	}
	rc := rules.RunConfig{
		Now:     r.opts.Now,
		Enabled: func(code string) bool { return !headOnly(code) && enabled(code) },
		Options: ruleOptions(r.cfg),
	}
	if err := rc.Validate(); err != nil {
		return nil, fmt.Errorf("rule options: %w", err)
	}
	tree := rules.TreeOf(r.valid)
	out := rules.Run(r.docs, tree, rc)
	rc.Enabled = func(code string) bool { return headOnly(code) && enabled(code) }
	return append(out, rules.Run(heads(r), tree, rc)...), nil
}

// headOnly reports whether the rule with code runs on chain heads only.
func headOnly(code string) bool { return strings.HasPrefix(code, "deps/") }

// heads returns the document of each chain's head: the accepted head of
// every coordinate, and for a coordinate none of whose files was accepted,
// nothing.
func heads(r *run) []*syntax.Document {
	byPath := make(map[string]*syntax.Document, len(r.valid))
	for _, d := range r.valid {
		byPath[d.Path] = d
	}
	var out []*syntax.Document
	st := r.load.State
	for _, c := range st.Coordinates() {
		if h, ok := st.Head(c); ok {
			if d := byPath[h.Source]; d != nil {
				out = append(out, d)
			}
		}
	}
	return out
}

// ruleOptions turns the configuration's options into the rules' raw texts.
func ruleOptions(cfg *config.Config) map[string]map[string]string {
	out := map[string]map[string]string{}
	for code, ro := range cfg.Options {
		m := map[string]string{}
		for name, o := range ro.Values {
			m[name] = fmt.Sprint(o.Value)
		}
		out[code] = m
	}
	return out
}

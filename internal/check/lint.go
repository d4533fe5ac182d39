package check

import (
	"context"
	"fmt"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/rules"
)

// lintRules runs the lint rules of package rules over every parsed document.
func lintRules(_ context.Context, r *run) (diag.List, error) {
	rc := rules.RunConfig{
		Now: r.opts.Now,
		Enabled: func(code string) bool {
			_, on := r.cfg.Severity(code, diag.Warning)
			return on
		},
		Options: ruleOptions(r.cfg),
	}
	if err := rc.Validate(); err != nil {
		return nil, fmt.Errorf("rule options: %w", err)
	}
	return rules.Run(r.docs, rules.TreeOf(r.valid), rc), nil
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

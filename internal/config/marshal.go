package config

import (
	"bytes"
	"maps"
	"slices"

	"gopkg.in/yaml.v3"
)

// Marshal returns the effective configuration as YAML, for check
// --print-config: every key, defaults filled in, in the documented key
// order, rules and options sorted by code, option names sorted, ignore and
// plugins in file order. [Load] reads the result back to an equal
// configuration. An unset root is written as null.
func (c *Config) Marshal() ([]byte, error) {
	if c == nil {
		c = Default()
	}
	top := &yaml.Node{Kind: yaml.MappingNode}
	add := func(m *yaml.Node, key string, v *yaml.Node) {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
	}
	var err error
	val := func(v any) *yaml.Node {
		n := &yaml.Node{}
		if e := n.Encode(v); e != nil && err == nil {
			err = e
		}
		return n
	}

	root := val(nil)
	if c.Root != "" {
		root = val(c.Root)
	} else {
		root.LineComment = "not set: give the root on the command line"
	}
	add(top, "root", root)
	format := c.Format
	if format == "" {
		format = FormatText
	}
	add(top, "format", val(format))
	add(top, "examples", val(c.Examples))

	rules := &yaml.Node{Kind: yaml.MappingNode}
	for _, code := range slices.Sorted(maps.Keys(c.Rules)) {
		add(rules, code, val(string(c.Rules[code].Level)))
	}
	add(top, "rules", flowIfEmpty(rules))

	opts := &yaml.Node{Kind: yaml.MappingNode}
	for _, code := range slices.Sorted(maps.Keys(c.Options)) {
		ro := c.Options[code]
		m := &yaml.Node{Kind: yaml.MappingNode}
		for _, name := range slices.Sorted(maps.Keys(ro.Values)) {
			add(m, name, val(ro.Values[name].Value))
		}
		add(opts, code, flowIfEmpty(m))
	}
	add(top, "options", flowIfEmpty(opts))

	ign := &yaml.Node{Kind: yaml.SequenceNode}
	for _, e := range c.Ignore {
		m := &yaml.Node{Kind: yaml.MappingNode}
		add(m, "code", val(e.Code))
		if e.Path != "" {
			add(m, "path", val(e.Path))
		}
		add(m, "reason", val(e.Reason))
		ign.Content = append(ign.Content, m)
	}
	add(top, "ignore", flowIfEmpty(ign))

	add(top, "max-warnings", val(c.MaxWarnings))

	plugins := &yaml.Node{Kind: yaml.SequenceNode}
	for _, pl := range c.Plugins {
		m := &yaml.Node{Kind: yaml.MappingNode}
		if pl.Name != "" {
			add(m, "name", val(pl.Name))
		}
		add(m, "path", val(pl.Path))
		add(m, "sha256", val(pl.SHA256))
		if pl.Config != nil {
			add(m, "config", flowIfEmpty(val(pl.Config)))
		}
		if pl.Timeout > 0 {
			add(m, "timeout", val(pl.Timeout.String()))
		}
		if pl.NoCache {
			add(m, "cache", val(false))
		}
		plugins.Content = append(plugins.Content, m)
	}
	add(top, "plugins", flowIfEmpty(plugins))
	if c.TLog.VKey != "" {
		m := &yaml.Node{Kind: yaml.MappingNode}
		add(m, "origin", val(c.TLog.Origin))
		add(m, "vkey", val(c.TLog.VKey))
		if len(c.TLog.Witnesses) > 0 {
			ws := &yaml.Node{Kind: yaml.SequenceNode}
			for _, w := range c.TLog.Witnesses {
				e := &yaml.Node{Kind: yaml.MappingNode}
				add(e, "vkey", val(w.VKey))
				add(e, "url", val(w.URL))
				ws.Content = append(ws.Content, e)
			}
			add(m, "witnesses", ws)
			add(m, "quorum", val(c.TLog.Quorum))
		}
		if c.TLog.MaxAge > 0 {
			add(m, "max-age", val(c.TLog.MaxAge.String()))
		}
		add(top, "tlog", m)
	}
	if err != nil {
		return nil, err
	}

	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{top}}
	doc.HeadComment = "effective journal-lint configuration"
	if c.File != "" {
		doc.HeadComment += " (from " + c.File + ")"
	} else {
		doc.HeadComment += " (defaults)"
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// flowIfEmpty writes an empty collection as {} or [].
func flowIfEmpty(n *yaml.Node) *yaml.Node {
	if (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && len(n.Content) == 0 {
		n.Style = yaml.FlowStyle
	}
	return n
}

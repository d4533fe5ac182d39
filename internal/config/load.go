package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/r35157/journal-lint/rules"
	"golang.org/x/mod/sumdb/note"
	"gopkg.in/yaml.v3"

	"github.com/r35157/journal-lint/internal/readfile"
	"github.com/r35157/journal-lint/internal/tlog"
	"github.com/r35157/journal-lint/suggest"
)

// validityMsg explains why validity codes cannot be configured away.
const validityMsg = "validity codes are always errors: they are exactly what makes the service fail to start"

// The keys accepted at each level, in documentation order.
var (
	topKeys     = []string{"root", "format", "examples", "rules", "options", "ignore", "max-warnings", "plugins", "tlog"}
	tlogKeys    = []string{"origin", "vkey", "witnesses", "quorum", "max-age"}
	witnessKeys = []string{"vkey", "url"}
	ignoreKeys  = []string{"code", "path", "reason"}
	pluginKeys  = []string{"name", "path", "sha256", "config", "timeout", "cache"}
)

// sha256RE and yamlSyntaxErr are compiled on first use: a command that
// reads no configuration does not pay for them at start-up.
var (
	sha256RE      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{64}$`) })
	yamlSyntaxErr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })
)

// Load reads and parses the configuration file at path. Every problem is
// reported, as an [ErrorList] of [*Error] values with the line and column in
// the file; on any problem the returned configuration is nil. A file that
// cannot be read yields an [*Error] without a line that wraps the cause:
// only a regular file (after resolving symlinks) of at most
// readfile.MaxConfig bytes (1 MiB) is read, so --config /dev/zero or a FIFO
// fails at once.
func Load(path string) (*Config, error) {
	cfg, err := LoadPartial(path)
	if err != nil {
		return nil, err
	}
	return cfg, nil
}

// LoadPartial is [Load] that also returns what could be read when there are
// problems: the configuration without the entries that had them, so that
// [Validate] can report the problems of the rest (unknown codes) in the same
// round. The configuration is nil only when the file cannot be read or is
// not YAML.
func LoadPartial(path string) (*Config, error) {
	data, err := readfile.Read(path, readfile.Options{Max: readfile.MaxConfig})
	if err != nil {
		return nil, &Error{File: path, Msg: "cannot read the configuration: " + readfile.PathCause(err).Error(), Err: err}
	}
	return parse(path, data)
}

// Parse parses data as the content of the configuration file named file
// (used in messages and, made absolute, as [Config.File]). It is [Load]
// without reading the file. An empty file, or one holding only comments or
// null, is the default configuration.
func Parse(file string, data []byte) (*Config, error) {
	cfg, err := parse(file, data)
	if err != nil {
		return nil, err
	}
	return cfg, nil
}

// parse is Parse returning the partial configuration with the problems
// (nil when data is not YAML).
func parse(file string, data []byte) (*Config, error) {
	cfg := Default()
	cfg.Source = file
	if file != "" {
		if abs, err := filepath.Abs(file); err == nil {
			cfg.File = abs
		} else {
			cfg.File = file
		}
	}
	p := &parser{cfg: cfg, file: file}

	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	switch err := dec.Decode(&doc); {
	case errors.Is(err, io.EOF):
		return cfg, nil
	case err != nil:
		return nil, ErrorList{p.syntaxError(err)}
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case errors.Is(err, io.EOF):
	case err != nil:
		p.errs = append(p.errs, p.syntaxError(err))
	default:
		p.errf(&extra, "only one YAML document is allowed in %s", FileName)
	}
	if len(doc.Content) > 0 {
		p.top(doc.Content[0])
	}
	if len(p.errs) > 0 {
		sortErrors(p.errs)
		return cfg, p.errs
	}
	return cfg, nil
}

// parser walks one YAML document and collects every problem.
type parser struct {
	cfg  *Config
	file string
	errs ErrorList
}

// syntaxError converts a yaml.v3 parse error into an [*Error].
func (p *parser) syntaxError(err error) *Error {
	if m := yamlSyntaxErr().FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Error{File: p.file, Line: line, Msg: "invalid YAML: " + m[2], Err: err}
	}
	return &Error{File: p.file, Msg: "invalid YAML: " + strings.TrimPrefix(err.Error(), "yaml: "), Err: err}
}

// errf records a problem at n.
func (p *parser) errf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Line: n.Line, Column: n.Column, Msg: fmt.Sprintf(format, args...)})
}

// pos returns the position of n.
func pos(n *yaml.Node) Position { return Position{Line: n.Line, Column: n.Column} }

// resolve follows aliases to the node they name.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// isNull reports whether n is an explicit or implicit null.
func isNull(n *yaml.Node) bool {
	n = resolve(n)
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// kindName describes n for "got ..." in messages.
func kindName(n *yaml.Node) string {
	n = resolve(n)
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!bool":
			return n.Value
		case "!!int", "!!float":
			return "the number " + n.Value
		}
		return strconv.Quote(n.Value)
	}
	return "an unsupported YAML node"
}

// keyValue is one key/value pair of a mapping.
type keyValue struct{ k, v *yaml.Node }

// pairs returns the pairs of the mapping n with scalar keys, reporting
// duplicate, merge and non-scalar keys.
func (p *parser) pairs(n *yaml.Node) []keyValue {
	n = resolve(n)
	var out []keyValue
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		rk := resolve(k)
		switch {
		case rk.Kind != yaml.ScalarNode:
			p.errf(k, "keys must be plain strings, got %s", kindName(k))
			continue
		case rk.ShortTag() == "!!merge":
			p.errf(k, "merge keys (<<) are not supported")
			continue
		}
		if first, dup := seen[rk.Value]; dup {
			p.errf(k, "duplicate key %q (first at line %d)", rk.Value, first.Line)
			continue
		}
		seen[rk.Value] = k
		out = append(out, keyValue{rk, v})
	}
	return out
}

// unknownKey reports the key k that is not one of allowed in where.
func (p *parser) unknownKey(k *yaml.Node, where string, allowed []string) {
	msg := fmt.Sprintf("unknown key %q%s (allowed: %s)", k.Value, where, strings.Join(allowed, ", "))
	if s := suggest.Closest(k.Value, allowed); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	p.errf(k, "%s", msg)
}

// str returns the scalar n as a string. Numbers are accepted as their text
// (a digest or a directory may look like one); null, booleans and
// collections are reported.
func (p *parser) str(n *yaml.Node, what string) (string, bool) {
	r := resolve(n)
	if r.Kind == yaml.ScalarNode {
		switch r.ShortTag() {
		case "!!str", "!!int", "!!float":
			return r.Value, true
		}
	}
	p.errf(n, "%s must be a string, got %s", what, kindName(n))
	return "", false
}

// duration returns the scalar n as a positive Go duration.
func (p *parser) duration(n *yaml.Node, what string) (time.Duration, bool) {
	s, ok := p.str(n, what)
	if !ok {
		return 0, false
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		p.errf(n, "%s: %q is not a Go duration such as 30s, 5m or 48h", what, s)
		return 0, false
	}
	if d <= 0 {
		p.errf(n, "%s must be positive, got %s", what, s)
		return 0, false
	}
	return d, true
}

// boolean returns the value of n, which must be true or false; anything
// else is reported as what and gives false, false.
func (p *parser) boolean(n *yaml.Node, what string) (bool, bool) {
	r := resolve(n)
	var b bool
	if r.Kind != yaml.ScalarNode || r.ShortTag() != "!!bool" {
		p.errf(n, "%s must be true or false, got %s", what, kindName(n))
		return false, false
	}
	if err := r.Decode(&b); err != nil {
		p.errf(n, "%s: %v", what, err)
		return false, false
	}
	return b, true
}

// mapping reports whether n is a mapping, reporting it when it is not.
func (p *parser) mapping(n *yaml.Node, what string) bool {
	if resolve(n).Kind == yaml.MappingNode {
		return true
	}
	p.errf(n, "%s must be a mapping, got %s", what, kindName(n))
	return false
}

// sequence reports whether n is a list, reporting it when it is not.
func (p *parser) sequence(n *yaml.Node, what string) bool {
	if resolve(n).Kind == yaml.SequenceNode {
		return true
	}
	p.errf(n, "%s must be a list, got %s", what, kindName(n))
	return false
}

// top parses the document's root node.
func (p *parser) top(n *yaml.Node) {
	if isNull(n) {
		return
	}
	if resolve(n).Kind != yaml.MappingNode {
		p.errf(n, "the configuration must be a mapping with keys such as %s, got %s", strings.Join(topKeys[:4], ", "), kindName(n))
		return
	}
	c := p.cfg
	for _, kv := range p.pairs(n) {
		k, v := kv.k, kv.v
		if !slices.Contains(topKeys, k.Value) {
			p.unknownKey(k, "", topKeys)
			continue
		}
		c.Pos[k.Value] = pos(k)
		if isNull(v) {
			continue // an empty key keeps the default
		}
		switch k.Value {
		case "root":
			if s, ok := p.str(v, "root"); ok {
				if strings.TrimSpace(s) == "" {
					p.errf(v, "root must not be empty (leave the key out for no default root)")
				} else {
					c.Root = s
				}
			}
		case "format":
			if s, ok := p.str(v, "format"); ok {
				if slices.Contains(Formats, s) {
					c.Format = s
				} else {
					msg := fmt.Sprintf("unknown format %q (allowed: %s)", s, strings.Join(Formats, ", "))
					if g := suggest.Closest(s, Formats); g != "" {
						msg += fmt.Sprintf("; did you mean %q?", g)
					}
					p.errf(v, "%s", msg)
				}
			}
		case "examples":
			c.Examples, _ = p.boolean(v, "examples")
		case "max-warnings":
			r := resolve(v)
			var n int
			if r.Kind != yaml.ScalarNode || r.ShortTag() != "!!int" || r.Decode(&n) != nil {
				p.errf(v, "max-warnings must be an integer (-1 for unlimited), got %s", kindName(v))
			} else if n < -1 {
				p.errf(v, "max-warnings must be -1 (unlimited) or a count of 0 or more, got %d", n)
			} else {
				c.MaxWarnings = n
			}
		case "rules":
			p.rules(v)
		case "options":
			p.options(v)
		case "ignore":
			p.ignore(v)
		case "plugins":
			p.plugins(v)
		case "tlog":
			p.tlog(v)
		}
	}
}

// ruleCode checks that the key k is a rule code; in says where ("rules").
func (p *parser) ruleCode(k *yaml.Node, in string) bool {
	if codeRE().MatchString(k.Value) {
		return true
	}
	if hasMeta(k.Value) {
		p.errf(k, "%s takes exact codes, not globs like %q (use ignore for globs)", in, k.Value)
		return false
	}
	p.errf(k, "%q is not a rule code: want category/name in lowercase letters, digits and -, like style/crlf", k.Value)
	return false
}

// rules parses the rules mapping.
func (p *parser) rules(n *yaml.Node) {
	if !p.mapping(n, "rules") {
		return
	}
	levels := make([]string, len(Levels))
	for i, l := range Levels {
		levels[i] = string(l)
	}
	for _, kv := range p.pairs(n) {
		k, v := kv.k, kv.v
		if !p.ruleCode(k, "rules") {
			continue
		}
		r := resolve(v)
		if r.Kind != yaml.ScalarNode || r.ShortTag() != "!!str" || !slices.Contains(levels, r.Value) {
			msg := fmt.Sprintf("rule %s: severity must be one of %s, got %s", k.Value, strings.Join(levels, ", "), kindName(v))
			if r.Kind == yaml.ScalarNode {
				if g := suggest.Closest(r.Value, levels); g != "" {
					msg += fmt.Sprintf("; did you mean %q?", g)
				}
			}
			p.errf(v, "%s", msg)
			continue
		}
		level := Level(r.Value)
		if rules.IsValidity(k.Value) && level != LevelError {
			p.errf(v, "%s cannot be set to %s: %s", k.Value, level, validityMsg)
			continue
		}
		p.cfg.Rules[k.Value] = Rule{Code: k.Value, Level: level, Pos: pos(k)}
	}
}

// options parses the options mapping.
func (p *parser) options(n *yaml.Node) {
	if !p.mapping(n, "options") {
		return
	}
	for _, kv := range p.pairs(n) {
		k, v := kv.k, kv.v
		if !p.ruleCode(k, "options") {
			continue
		}
		ro := RuleOptions{Code: k.Value, Values: map[string]Option{}, Pos: pos(k)}
		if !isNull(v) && p.mapping(v, "options of "+k.Value) {
			for _, okv := range p.pairs(v) {
				var val any
				if err := okv.v.Decode(&val); err != nil {
					p.errf(okv.v, "option %s of %s: %v", okv.k.Value, k.Value, err)
					continue
				}
				ro.Values[okv.k.Value] = Option{Name: okv.k.Value, Value: val, Pos: pos(okv.v), NamePos: pos(okv.k), file: p.file}
			}
		}
		p.cfg.Options[k.Value] = ro
	}
}

// ignore parses the ignore list.
func (p *parser) ignore(n *yaml.Node) {
	if !p.sequence(n, "ignore") {
		return
	}
	for _, item := range resolve(n).Content {
		if !p.mapping(item, "an ignore entry") {
			continue
		}
		e := IgnoreEntry{Pos: pos(item)}
		ok, hasCode, hasReason := true, false, false
		for _, kv := range p.pairs(item) {
			k, v := kv.k, kv.v
			switch k.Value {
			case "code":
				hasCode = true
				s, good := p.str(v, "code")
				if !good {
					ok = false
					continue
				}
				e.Code, e.CodePos = s, pos(v)
				if _, err := compileCodeGlob(s); err != nil {
					p.errf(v, "bad code pattern %q: %v", s, err)
					ok = false
				} else if isValidityPattern(s) {
					p.errf(v, "%s cannot be ignored: %s", s, validityMsg)
					ok = false
				}
			case "path":
				s, good := p.str(v, "path")
				if !good {
					ok = false
					continue
				}
				e.Path, e.PathPos = s, pos(v)
				if _, err := compilePathGlob(s); err != nil {
					p.errf(v, "bad path glob %q: %v", s, err)
					ok = false
				}
			case "reason":
				hasReason = true
				s, good := p.str(v, "reason")
				if !good {
					ok = false
					continue
				}
				if strings.TrimSpace(s) == "" {
					p.errf(v, "reason must not be empty: say why these diagnostics are suppressed")
					ok = false
				}
				e.Reason = s
			default:
				p.unknownKey(k, " in an ignore entry", ignoreKeys)
				ok = false
			}
		}
		if !hasCode {
			p.errf(item, "ignore entry needs a code (a code like style/crlf or a glob like style/*)")
			ok = false
		}
		if !hasReason {
			p.errf(item, "ignore entry needs a reason: say why these diagnostics are suppressed")
			ok = false
		}
		if ok {
			p.cfg.Ignore = append(p.cfg.Ignore, e)
		}
	}
}

// isValidityPattern reports whether the code pattern s can only match
// validity codes: its category is written out and is a validity category.
func isValidityPattern(s string) bool {
	cat, _, _ := strings.Cut(s, "/")
	return !hasMeta(cat) && rules.IsValidityCategory(cat)
}

// plugins parses the plugins list.
func (p *parser) plugins(n *yaml.Node) {
	if !p.sequence(n, "plugins") {
		return
	}
	for _, item := range resolve(n).Content {
		if !p.mapping(item, "a plugin entry") {
			continue
		}
		pl := Plugin{Pos: pos(item)}
		ok, hasPath, hasSum := true, false, false
		for _, kv := range p.pairs(item) {
			k, v := kv.k, kv.v
			if isNull(v) && k.Value != "path" && k.Value != "sha256" {
				if !slices.Contains(pluginKeys, k.Value) {
					p.unknownKey(k, " in a plugin entry", pluginKeys)
					ok = false
				}
				continue
			}
			switch k.Value {
			case "name":
				s, good := p.str(v, "plugin name")
				pl.Name, ok = s, ok && good
			case "path":
				hasPath = true
				s, good := p.str(v, "plugin path")
				if good && strings.TrimSpace(s) == "" {
					p.errf(v, "plugin path must not be empty")
					good = false
				}
				pl.Path, ok = s, ok && good
			case "sha256":
				hasSum = true
				s, good := p.str(v, "plugin sha256")
				if good && !sha256RE().MatchString(s) {
					p.errf(v, "plugin sha256 must be 64 lowercase hexadecimal digits, got %q", s)
					good = false
				}
				pl.SHA256, ok = s, ok && good
			case "config":
				if !p.mapping(v, "plugin config") {
					ok = false
					continue
				}
				if err := v.Decode(&pl.Config); err != nil {
					p.errf(v, "plugin config: %v", err)
					ok = false
				}
			case "timeout":
				d, good := p.duration(v, "plugin timeout")
				pl.Timeout, ok = d, ok && good
			case "cache":
				b, good := p.boolean(v, "plugin cache")
				pl.NoCache, ok = !b, ok && good
			default:
				p.unknownKey(k, " in a plugin entry", pluginKeys)
				ok = false
			}
		}
		if !hasPath {
			p.errf(item, "plugin entry needs a path")
			ok = false
		}
		if !hasSum {
			p.errf(item, "plugin entry needs a sha256 (64 lowercase hexadecimal digits)")
			ok = false
		}
		if ok {
			p.cfg.Plugins = append(p.cfg.Plugins, pl)
		}
	}
}

// witnesses parses tlog: witnesses:, a list of {vkey, url}; every key
// must be a cosignature/v1 key and every URL an http or https URL.
func (p *parser) witnesses(n *yaml.Node) []TLogWitness {
	if !p.sequence(n, "tlog witnesses") {
		return nil
	}
	var out []TLogWitness
	for _, item := range resolve(n).Content {
		if !p.mapping(item, "a witness entry") {
			continue
		}
		var w TLogWitness
		var keyNode, urlNode *yaml.Node
		for _, kv := range p.pairs(item) {
			switch kv.k.Value {
			case "vkey":
				w.VKey, _ = p.str(kv.v, "witness vkey")
				keyNode = kv.v
			case "url":
				w.URL, _ = p.str(kv.v, "witness url")
				urlNode = kv.v
			default:
				p.unknownKey(kv.k, " in a witness entry", witnessKeys)
			}
		}
		if keyNode == nil || urlNode == nil {
			p.errf(item, "a witness entry needs a vkey and a url")
			continue
		}
		if _, err := tlog.NewCosignatureVerifier(w.VKey); err != nil {
			p.errf(keyNode, "%v", err)
			continue
		}
		if slices.ContainsFunc(out, func(o TLogWitness) bool { return tlog.KeyID(o.VKey) == tlog.KeyID(w.VKey) }) {
			p.errf(keyNode, "the witness key %s is listed twice: a checkpoint holds one cosignature of a key", tlog.KeyID(w.VKey))
			continue
		}
		if u, err := url.Parse(w.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			p.errf(urlNode, "witness url %q is not an http or https URL", w.URL)
			continue
		}
		out = append(out, w)
	}
	return out
}

// tlog parses the tlog: block: origin and vkey, both required; the key
// must parse as a note verifier key named origin.
func (p *parser) tlog(n *yaml.Node) {
	if !p.mapping(n, "tlog") {
		return
	}
	t := TLog{Pos: pos(n)}
	var keyNode *yaml.Node
	for _, kv := range p.pairs(n) {
		switch kv.k.Value {
		case "origin":
			t.Origin, _ = p.str(kv.v, "tlog origin")
		case "vkey":
			t.VKey, _ = p.str(kv.v, "tlog vkey")
			keyNode = kv.v
		case "witnesses":
			t.Witnesses = p.witnesses(kv.v)
		case "quorum":
			r := resolve(kv.v)
			if r.Kind != yaml.ScalarNode || r.ShortTag() != "!!int" || r.Decode(&t.Quorum) != nil || t.Quorum < 0 {
				p.errf(kv.v, "tlog quorum must be a count of witnesses (0 or more), got %s", kindName(kv.v))
			}
		case "max-age":
			t.MaxAge, _ = p.duration(kv.v, "tlog max-age")
		default:
			p.unknownKey(kv.k, " in tlog", tlogKeys)
		}
	}
	switch {
	case t.Quorum > tlog.WitnessCount(t.WitnessKeys()):
		p.errf(n, "tlog quorum %d is more than the %d witnesses listed (two keys of one name are one witness)", t.Quorum, tlog.WitnessCount(t.WitnessKeys()))
		return
	case t.MaxAge > 0 && t.Quorum == 0:
		p.errf(n, "tlog max-age needs a quorum of witnesses: their cosignatures carry the time")
		return
	}
	if t.Origin == "" || t.VKey == "" {
		p.errf(n, "tlog needs an origin and a vkey (the log's public key, from journal-lint tlog init)")
		return
	}
	v, err := note.NewVerifier(t.VKey)
	switch {
	case err != nil:
		p.errf(keyNode, "tlog vkey is not a note verifier key (name+hash+key, from journal-lint tlog init): %v", err)
		return
	case v.Name() != t.Origin:
		p.errf(keyNode, "tlog vkey is the key of %q, not of the origin %q", v.Name(), t.Origin)
		return
	}
	p.cfg.TLog = t
}

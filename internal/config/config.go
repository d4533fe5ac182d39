// Package config reads, validates and applies `.journal-lint.yaml`, the
// per-repository configuration of journal-lint: the default root, the output
// format, severity overrides and options by rule code, suppressions with a
// mandatory reason, a warning budget and (reserved) rule packs.
//
// Suppressions live here and never inside Journal files, because any change
// to a Journal's text would change its digest.
//
// Every problem in a file is reported as an [*Error] with the file's line and
// column; [Load] reports all of them at once as an [ErrorList]. Validity codes
// ("Diagnostic codes" in docs/journal-format.md, [rules.IsValidity]) can be
// neither downgraded nor suppressed: they are exactly what makes the service
// fail to start.
package config

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/rules"
)

// FileName is the name of the configuration file that [Find] looks for.
const FileName = ".journal-lint.yaml"

// Codes returns the codes this package itself produces, for rule registries
// that want to list them.
func Codes() []string { return []string{rules.ConfigUnusedIgnore} }

// The output formats accepted by the format key.
const (
	FormatText   = "text"
	FormatJSON   = "json"
	FormatSARIF  = "sarif"
	FormatGitHub = "github"
)

// Formats lists the accepted output formats in documentation order.
var Formats = []string{FormatText, FormatJSON, FormatSARIF, FormatGitHub}

// Level is a severity override for a rule: off, info, warning or error.
type Level string

// The levels accepted in rules.
const (
	LevelOff     Level = "off"
	LevelInfo    Level = "info"
	LevelWarning Level = "warning"
	LevelError   Level = "error"
)

// Levels lists the accepted levels in documentation order.
var Levels = []Level{LevelOff, LevelInfo, LevelWarning, LevelError}

// Severity returns the severity of l and whether the rule is enabled; for
// off it returns (diag.SeverityInvalid, false).
func (l Level) Severity() (diag.Severity, bool) {
	switch l {
	case LevelInfo:
		return diag.Info, true
	case LevelWarning:
		return diag.Warning, true
	case LevelError:
		return diag.Error, true
	}
	return diag.SeverityInvalid, false
}

// Position is a 1-based line and column in the configuration file; the zero
// value means unknown (a default, or a value set by code).
type Position struct {
	Line   int
	Column int
}

// IsValid reports whether p is a known position.
func (p Position) IsValid() bool { return p.Line > 0 }

// Range returns p as a [diag.Range] (without byte offsets, which YAML does
// not report).
func (p Position) Range() diag.Range {
	if !p.IsValid() {
		return diag.Range{}
	}
	pos := diag.Pos{Line: p.Line, Column: p.Column}
	return diag.Range{Start: pos, End: pos}
}

// Rule is one entry of rules: a severity override for one code.
type Rule struct {
	Code  string
	Level Level
	// Pos is where the code (the key) is written.
	Pos Position
}

// Option is one option of one rule, as written under options.
type Option struct {
	// Name is the option's key, such as "skew".
	Name string
	// Value is the YAML value decoded into Go: string, int, float64, bool,
	// nil, []any or map[string]any.
	Value any
	// Pos is where the option's value is written; NamePos is where its
	// name is.
	Pos, NamePos Position

	file string // the configuration file as given, for errors
}

// Duration returns the value as a Go duration ("48h", "90s"). The error is an
// [*Error] naming the option's position when the value is anything else.
func (o Option) Duration() (time.Duration, error) {
	s, ok := o.Value.(string)
	if ok {
		if d, err := time.ParseDuration(s); err == nil {
			return d, nil
		}
	}
	return 0, &Error{File: o.file, Line: o.Pos.Line, Column: o.Pos.Column,
		Msg: fmt.Sprintf("option %s: %s is not a Go duration such as 48h or 90s", o.Name, describe(o.Value))}
}

// Text returns the value as the rules read it: its YAML scalar as written
// in decimal or as text ("24h", "3", "true").
func (o Option) Text() string { return fmt.Sprint(o.Value) }

// String returns the value as a string; the error is an [*Error] when it is
// not a string.
func (o Option) String() (string, error) {
	if s, ok := o.Value.(string); ok {
		return s, nil
	}
	return "", &Error{File: o.file, Line: o.Pos.Line, Column: o.Pos.Column,
		Msg: fmt.Sprintf("option %s: want a string, got %s", o.Name, describe(o.Value))}
}

// Int returns the value as an integer; the error is an [*Error] when it is
// not an integer.
func (o Option) Int() (int, error) {
	if n, ok := o.Value.(int); ok {
		return n, nil
	}
	return 0, &Error{File: o.file, Line: o.Pos.Line, Column: o.Pos.Column,
		Msg: fmt.Sprintf("option %s: want an integer, got %s", o.Name, describe(o.Value))}
}

// Bool returns the value as a boolean; the error is an [*Error] when it is
// not true or false.
func (o Option) Bool() (bool, error) {
	if b, ok := o.Value.(bool); ok {
		return b, nil
	}
	return false, &Error{File: o.file, Line: o.Pos.Line, Column: o.Pos.Column,
		Msg: fmt.Sprintf("option %s: want true or false, got %s", o.Name, describe(o.Value))}
}

// describe renders a decoded YAML value for an error message.
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("%q", v)
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprintf("%v", v)
}

// RuleOptions are the options of one rule code.
type RuleOptions struct {
	Code string
	// Values maps option name to option.
	Values map[string]Option
	// Pos is where the code (the key) is written.
	Pos Position
}

// IgnoreEntry is one suppression: diagnostics whose code matches Code and
// whose path matches Path are dropped, for the stated Reason.
type IgnoreEntry struct {
	// Code is a code ("style/crlf") or a glob over codes ("style/*").
	Code string
	// Path is a glob with ** support over paths relative to the
	// configuration file's directory (with the file at the repository's
	// top level: the repository-relative paths of the output, such as
	// "journals/com.example.legacy/**"); "" matches every path, including
	// the root itself.
	Path string
	// Reason says why the suppression exists; never empty in a loaded file.
	Reason string
	// Pos is where the entry starts; CodePos and PathPos are where its code
	// and path values are written (PathPos is zero when Path is absent).
	Pos, CodePos, PathPos Position
}

// Plugin is one rule-pack entry of plugins: (docs/plugins.md).
type Plugin struct {
	// Name is the namespace of the pack's codes; "" means the pack's own
	// name.
	Name string
	// Path is where the rule pack lives, as written.
	Path string
	// SHA256 is the expected digest of the rule pack: 64 lowercase hex digits.
	SHA256 string
	// Config is handed to the rule pack as is; nil when absent.
	Config map[string]any
	// Timeout is 0 when absent.
	Timeout time.Duration
	// NoCache is set by cache: false: the pack's findings must never be
	// reused from an earlier run, even when the pack declares its rules
	// pure. cache: true, the default, leaves it to the pack's declaration.
	NoCache bool
	// Pos is where the entry starts.
	Pos Position
}

// TLog is the tlog: block of the configuration: which log the
// repository keeps and the public key its checkpoints are signed with.
type TLog struct {
	// VKey is the log's public note key; its name is the log's origin.
	// "" means the repository keeps no log.
	VKey string
	// Origin is the origin line of the log's checkpoints (the key's name).
	Origin string
	// Witnesses are the witnesses `tlog witness` asks for cosignatures and
	// a client's policy trusts; Quorum of them must cosign (0: none), and
	// with MaxAge the newest cosignature must be at most that old.
	Witnesses []TLogWitness
	Quorum    int
	MaxAge    time.Duration
	// Pos is where the block starts.
	Pos Position
}

// WitnessKeys returns the cosignature keys of t's witnesses, in the
// block's order.
func (t TLog) WitnessKeys() []string {
	keys := make([]string, len(t.Witnesses))
	for i, w := range t.Witnesses {
		keys[i] = w.VKey
	}
	return keys
}

// TLogWitness is one entry of tlog: witnesses:.
type TLogWitness struct {
	// VKey is the witness's cosignature/v1 key; URL its submission prefix.
	VKey, URL string
}

// SamePack reports whether q is an entry of the same pack as p: both have
// the same name, or neither has one and both the same path.
func (p Plugin) SamePack(q Plugin) bool {
	return (p.Name != "" && q.Name == p.Name) || (p.Name == "" && q.Name == "" && q.Path == p.Path)
}

// GateChange is one setting that protects accepted revisions in which the
// work tree's configuration file differs from the base revision's (see
// [Config.Base]).
type GateChange struct {
	// Message names the setting and both values; Pos is where the work
	// tree's file writes it (zero when it does not, or for a file the work
	// tree deleted).
	Message string
	Pos     Position
}

// Config is one configuration: defaults overlaid with one file.
type Config struct {
	// File is the absolute path of the file the configuration came from, or
	// "" for [Default].
	File string
	// Source is the file's path as given to [Load] or [Parse], used in
	// messages; "" for [Default].
	Source string

	// Root is the default root for check, as written: relative paths are
	// relative to the configuration file's directory (see [Config.RootDir]).
	// "" means unset.
	Root string
	// Format is the output format, one of [Formats].
	Format string
	// Examples makes *.journal.example files load as Journals.
	Examples bool
	// Rules maps code to severity override.
	Rules map[string]Rule
	// Options maps code to that rule's options.
	Options map[string]RuleOptions
	// Ignore lists the suppressions in file order.
	Ignore []IgnoreEntry
	// MaxWarnings is how many warnings check tolerates before failing;
	// -1 means unlimited.
	MaxWarnings int
	// Plugins lists the rule-pack entries in file order.
	Plugins []Plugin
	// Base, when not "", is the git commit whose version of this file
	// supplied Plugins and the settings that protect accepted revisions
	// (Root, Examples, and the Rules and Ignore entries of the gate's
	// codes): `check --against` runs only the rule packs the base revision
	// approved and is judged by its settings (check.BaseConfig,
	// docs/ci.md). WorkTreePlugins are then the plugins: entries of the
	// file in the work tree, which do not run, and GateChanges where the
	// work tree's file differs from the base's in those settings.
	Base            string
	WorkTreePlugins []Plugin
	GateChanges     []GateChange
	// TLog is the tlog: block, the transparency log of accepted revisions
	// (docs/tlog.md); the zero value when the file has none.
	// `check --against` takes it from the base revision, as it takes
	// Plugins (check.BaseConfig).
	TLog TLog

	// Pos records where each top-level key is written, by key.
	Pos map[string]Position
}

// Default returns the configuration used when there is no file: text
// output, no examples, no overrides, no suppressions, unlimited warnings,
// no root.
func Default() *Config {
	return &Config{
		Format:      FormatText,
		MaxWarnings: -1,
		Rules:       map[string]Rule{},
		Options:     map[string]RuleOptions{},
		Pos:         map[string]Position{},
	}
}

// RootDir returns the root resolved against the configuration file's
// directory, or "" when no root is set. An absolute root is returned as is.
func (c *Config) RootDir() string {
	if c == nil || c.Root == "" {
		return ""
	}
	r := filepath.FromSlash(c.Root)
	if filepath.IsAbs(r) || c.File == "" {
		return r
	}
	return filepath.Join(filepath.Dir(c.File), r)
}

// RootRel returns the absolute Journal root relative to the directory of
// the configuration file, with forward slashes ("" for that directory
// itself), as [Apply] needs it. Without a file (the default configuration)
// it returns "".
func (c *Config) RootRel(root string) string {
	if c == nil || c.File == "" {
		return ""
	}
	dir := filepath.Dir(c.File)
	rel, err := filepath.Rel(dir, root)
	if err != nil {
		return filepath.ToSlash(root)
	}
	if rel == "." {
		return ""
	}
	return filepath.ToSlash(rel)
}

// Severity returns the severity that a diagnostic with code gets, given its
// rule's default severity def, and whether the rule is enabled at all. A
// validity code always keeps def and is always enabled. A nil c is the
// default configuration.
func (c *Config) Severity(code string, def diag.Severity) (diag.Severity, bool) {
	if c == nil || rules.IsValidity(code) {
		return def, true
	}
	r, ok := c.Rules[code]
	if !ok {
		return def, true
	}
	sev, on := r.Level.Severity()
	if !on {
		return def, false
	}
	return sev, true
}

// Option returns the option name of the rule code, if it is set.
func (c *Config) Option(code, name string) (Option, bool) {
	if c == nil {
		return Option{}, false
	}
	o, ok := c.Options[code].Values[name]
	return o, ok
}

// errorAt returns an [*Error] at p in c's file.
func (c *Config) errorAt(p Position, format string, args ...any) *Error {
	return &Error{File: c.Source, Line: p.Line, Column: p.Column, Msg: fmt.Sprintf(format, args...)}
}

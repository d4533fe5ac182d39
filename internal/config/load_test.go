package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/r35157/journal-lint/internal/diag"
)

const fullExample = `root: data/nenjim/journals      # default root for check
format: json
examples: true
rules:
  style/crlf: off
  license/noassertion: error
  history/release-license-changed: info
  syntax/encoding: error
options:
  time/future-version:
    skew: 48h
ignore:
  - code: style/trailing-whitespace
    path: "legacy/**"
    reason: "imported as-is from the old registry"
  - code: "style/*"
    reason: everything
max-warnings: 10
plugins:
  - name: pack
    path: ./rules/pack.so
    sha256: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
    config: {level: 3}
    timeout: 5s
    cache: false
`

func TestParseFull(t *testing.T) {
	t.Parallel()
	c, err := Parse("cfg.yaml", []byte(fullExample))
	if err != nil {
		t.Fatal(err)
	}
	if c.Root != "data/nenjim/journals" || c.Format != FormatJSON || !c.Examples || c.MaxWarnings != 10 {
		t.Errorf("scalars: %+v", c)
	}
	if !filepath.IsAbs(c.File) || c.Source != "cfg.yaml" {
		t.Errorf("File %q Source %q", c.File, c.Source)
	}
	if got := c.Rules["style/crlf"]; got.Level != LevelOff || got.Pos != (Position{5, 3}) {
		t.Errorf("style/crlf rule: %+v", got)
	}
	if got := c.Rules["history/release-license-changed"].Level; got != LevelInfo {
		t.Errorf("history level %q", got)
	}
	o, ok := c.Option("time/future-version", "skew")
	if !ok {
		t.Fatal("skew option missing")
	}
	if d, err := o.Duration(); err != nil || d != 48*time.Hour {
		t.Errorf("skew = %v, %v", d, err)
	}
	if o.Pos != (Position{11, 11}) || o.NamePos != (Position{11, 5}) {
		t.Errorf("skew positions %+v %+v", o.Pos, o.NamePos)
	}
	if len(c.Ignore) != 2 {
		t.Fatalf("ignore: %+v", c.Ignore)
	}
	e := c.Ignore[0]
	if e.Code != "style/trailing-whitespace" || e.Path != "legacy/**" || e.Reason != "imported as-is from the old registry" {
		t.Errorf("ignore[0] = %+v", e)
	}
	if e.Pos != (Position{13, 5}) || e.CodePos != (Position{13, 11}) || e.PathPos != (Position{14, 11}) {
		t.Errorf("ignore[0] positions %+v %+v %+v", e.Pos, e.CodePos, e.PathPos)
	}
	if c.Ignore[1].Path != "" || c.Ignore[1].PathPos.IsValid() {
		t.Errorf("ignore[1] = %+v", c.Ignore[1])
	}
	if len(c.Plugins) != 1 {
		t.Fatalf("plugins %+v", c.Plugins)
	}
	p := c.Plugins[0]
	if p.Name != "pack" || p.Path != "./rules/pack.so" || p.Timeout != 5*time.Second || p.Config["level"] != 3 || !p.NoCache || p.Pos != (Position{20, 5}) {
		t.Errorf("plugin %+v", p)
	}
	if want := filepath.Join(filepath.Dir(c.File), "data", "nenjim", "journals"); c.RootDir() != want {
		t.Errorf("RootDir %q, want %q", c.RootDir(), want)
	}
}

func TestParseEmptyIsDefault(t *testing.T) {
	t.Parallel()
	for _, src := range []string{"", "# only a comment\n", "~\n", "---\n", "rules:\nignore:\nroot:\n"} {
		c, err := Parse("c.yaml", []byte(src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if c.Format != FormatText || c.MaxWarnings != -1 || c.Examples || c.Root != "" || len(c.Rules) != 0 || len(c.Ignore) != 0 {
			t.Errorf("%q: not the defaults: %+v", src, c)
		}
	}
}

// wantErr is one expected problem: position and a part of the message.
type wantErr struct {
	line, col int
	msg       string
}

// testVKey is a note verifier key named a.example/log.
const testVKey = "a.example/log+0c0a7b31+ATli4Ea+73xJd7DvFBHTxPviimvSj2AySW7Jh10az3uk"

// testWitness is a cosignature/v1 verifier key named w.example/w1.
const testWitness = "w.example/w1+1488f5e6+BA3RxKCt54yXJU1L9ACMpVWzXslIvbCHa9xaPiQRln5B"

// testWitnessRotated is another key of testWitness's witness (the same name).
const testWitnessRotated = "w.example/w1+8e1e42da+BOpKbGPinFIKvvVQexMuxfmVR3auvr57kkIe6mkURtIs"

func TestParseTLog(t *testing.T) {
	cfg, err := Parse("cfg.yaml", []byte("tlog:\n  origin: a.example/log\n  vkey: "+testVKey+
		"\n  witnesses:\n    - vkey: "+testWitness+"\n      url: https://w.example/\n  quorum: 1\n  max-age: 720h\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.TLog.Origin != "a.example/log" || cfg.TLog.VKey != testVKey || cfg.TLog.Pos.Line != 2 ||
		len(cfg.TLog.Witnesses) != 1 || cfg.TLog.Quorum != 1 || cfg.TLog.MaxAge != 720*time.Hour {
		t.Errorf("TLog = %+v", cfg.TLog)
	}
	out, err := cfg.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("cfg.yaml", out)
	if err != nil || back.TLog.VKey != testVKey || back.TLog.MaxAge != cfg.TLog.MaxAge || len(back.TLog.Witnesses) != 1 {
		t.Errorf("round trip: %v %+v", err, back.TLog)
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	const sum = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	tests := []struct {
		name string
		src  string
		want []wantErr
	}{
		{"unknown top key with suggestion", "rule:\n  style/crlf: off\n",
			[]wantErr{{1, 1, `unknown key "rule" (allowed: root, format, examples, rules, options, ignore, max-warnings, plugins, tlog); did you mean "rules"?`}}},
		{"unknown top key without suggestion", "colour: red\n",
			[]wantErr{{1, 1, `unknown key "colour" (allowed: root,`}}},
		{"tlog without vkey", "tlog:\n  origin: a.example/log\n", []wantErr{{2, 3, "tlog needs an origin and a vkey"}}},
		{"tlog bad vkey", "tlog:\n  origin: a.example/log\n  vkey: a.example/log+1234+AAAA\n", []wantErr{{3, 9, "tlog vkey is not a note verifier key"}}},
		{"tlog vkey of another origin", "tlog:\n  origin: b.example/log\n  vkey: " + testVKey + "\n", []wantErr{{3, 9, `tlog vkey is the key of "a.example/log", not of the origin "b.example/log"`}}},
		{"tlog unknown key", "tlog:\n  origin: a.example/log\n  vkey: " + testVKey + "\n  witness: []\n", []wantErr{{4, 3, `unknown key "witness" in tlog (allowed: origin, vkey, witnesses, quorum, max-age); did you mean "witnesses"?`}}},
		{"tlog quorum above the witnesses", "tlog:\n  origin: a.example/log\n  vkey: " + testVKey + "\n  quorum: 1\n", []wantErr{{2, 3, "tlog quorum 1 is more than the 0 witnesses listed"}}},
		{"tlog max-age without quorum", "tlog:\n  origin: a.example/log\n  vkey: " + testVKey + "\n  max-age: 24h\n", []wantErr{{2, 3, "tlog max-age needs a quorum of witnesses"}}},
		{"tlog witness log key", "tlog:\n  origin: a.example/log\n  vkey: " + testVKey + "\n  witnesses:\n    - vkey: " + testVKey + "\n      url: http://127.0.0.1:1/\n", []wantErr{{5, 13, "not an Ed25519 cosignature/v1 key"}}},
		{"tlog quorum of one witness's two keys", "tlog:\n  origin: a.example/log\n  vkey: " + testVKey + "\n  witnesses:\n    - vkey: " + testWitness + "\n      url: http://127.0.0.1:1/\n    - vkey: " + testWitnessRotated + "\n      url: http://127.0.0.1:2/\n  quorum: 2\n", []wantErr{{2, 3, "tlog quorum 2 is more than the 1 witnesses listed (two keys of one name are one witness)"}}},
		{"tlog witness twice", "tlog:\n  origin: a.example/log\n  vkey: " + testVKey + "\n  witnesses:\n    - vkey: " + testWitness + "\n      url: http://127.0.0.1:1/\n    - vkey: " + testWitness + "\n      url: http://127.0.0.1:2/\n", []wantErr{{7, 13, "is listed twice: a checkpoint holds one cosignature of a key"}}},
		{"tlog witness bad url", "tlog:\n  origin: a.example/log\n  vkey: " + testVKey + "\n  witnesses:\n    - vkey: " + testWitness + "\n      url: ftp://x/\n", []wantErr{{6, 12, `witness url "ftp://x/" is not an http or https URL`}}},
		{"max-warning typo", "max-warning: 3\n", []wantErr{{1, 1, `did you mean "max-warnings"?`}}},
		{"duplicate key", "format: text\nformat: json\n", []wantErr{{2, 1, `duplicate key "format" (first at line 1)`}}},
		{"not a mapping", "- a\n- b\n", []wantErr{{1, 1, "the configuration must be a mapping"}}},
		{"root wrong type", "root: [a]\n", []wantErr{{1, 7, "root must be a string, got a list"}}},
		{"root bool", "root: true\n", []wantErr{{1, 7, "root must be a string, got true"}}},
		{"root empty", "root: \"\"\n", []wantErr{{1, 7, "root must not be empty"}}},
		{"bad format", "format: jsn\n", []wantErr{{1, 9, `unknown format "jsn" (allowed: text, json, sarif, github); did you mean "json"?`}}},
		{"format wrong type", "format: {a: 1}\n", []wantErr{{1, 9, "format must be a string, got a mapping"}}},
		{"examples quoted", "examples: \"yes\"\n", []wantErr{{1, 11, `examples must be true or false, got "yes"`}}},
		{"examples number", "examples: 1\n", []wantErr{{1, 11, "examples must be true or false, got the number 1"}}},
		{"max-warnings below -1", "max-warnings: -2\n", []wantErr{{1, 15, "max-warnings must be -1 (unlimited) or a count of 0 or more, got -2"}}},
		{"max-warnings word", "max-warnings: many\n", []wantErr{{1, 15, `max-warnings must be an integer (-1 for unlimited), got "many"`}}},
		{"max-warnings float", "max-warnings: 1.5\n", []wantErr{{1, 15, "max-warnings must be an integer"}}},
		{"rules not mapping", "rules: [a]\n", []wantErr{{1, 8, "rules must be a mapping, got a list"}}},
		{"bad severity", "rules:\n  style/crlf: warn\n", []wantErr{{2, 15, `rule style/crlf: severity must be one of off, info, warning, error, got "warn"; did you mean "warning"?`}}},
		{"severity bool", "rules:\n  style/crlf: false\n", []wantErr{{2, 15, "severity must be one of off, info, warning, error, got false"}}},
		{"validity downgraded", "rules:\n  syntax/encoding: warning\n", []wantErr{{2, 20, "syntax/encoding cannot be set to warning: validity codes are always errors: they are exactly what makes the service fail to start"}}},
		{"validity off", "rules:\n  chain/fork: off\n", []wantErr{{2, 15, "chain/fork cannot be set to off: validity codes are always errors"}}},
		{"bad rule code", "rules:\n  Style/CRLF: off\n", []wantErr{{2, 3, `"Style/CRLF" is not a rule code`}}},
		{"glob in rules", "rules:\n  \"style/*\": off\n", []wantErr{{2, 3, "rules takes exact codes, not globs"}}},
		{"options not mapping", "options:\n  time/future-version: 5\n", []wantErr{{2, 24, "options of time/future-version must be a mapping, got the number 5"}}},
		{"options bad code", "options:\n  skew: 48h\n", []wantErr{{2, 3, `"skew" is not a rule code`}}},
		{"ignore not list", "ignore: {}\n", []wantErr{{1, 9, "ignore must be a list, got a mapping"}}},
		{"ignore entry not mapping", "ignore:\n  - style/crlf\n", []wantErr{{2, 5, "an ignore entry must be a mapping"}}},
		{"missing reason", "ignore:\n  - code: style/crlf\n    path: a/**\n", []wantErr{{2, 5, "ignore entry needs a reason"}}},
		{"empty reason", "ignore:\n  - code: style/crlf\n    reason: \"  \"\n", []wantErr{{3, 13, "reason must not be empty"}}},
		{"missing code", "ignore:\n  - path: a/**\n    reason: r\n", []wantErr{{2, 5, "ignore entry needs a code"}}},
		{"bad code", "ignore:\n  - code: style\n    reason: r\n", []wantErr{{2, 11, `bad code pattern "style": not a code`}}},
		{"code glob with **", "ignore:\n  - code: \"style/**\"\n    reason: r\n", []wantErr{{2, 11, "** has no meaning in a code glob"}}},
		{"code glob without category", "ignore:\n  - code: \"*\"\n    reason: r\n", []wantErr{{2, 11, "a code glob has the form category/name"}}},
		{"bad path glob", "ignore:\n  - code: style/crlf\n    path: \"a/**b\"\n    reason: r\n", []wantErr{{3, 11, `bad path glob "a/**b": ** must be a whole path segment`}}},
		{"unclosed bracket", "ignore:\n  - code: style/crlf\n    path: \"a/[bc\"\n    reason: r\n", []wantErr{{3, 11, "unclosed [ in pattern"}}},
		{"leading slash", "ignore:\n  - code: style/crlf\n    path: /abs\n    reason: r\n", []wantErr{{3, 11, "remove the leading /"}}},
		{"ignore validity code", "ignore:\n  - code: fs/unexpected-entry\n    reason: r\n", []wantErr{{2, 11, "fs/unexpected-entry cannot be ignored: validity codes are always errors: they are exactly what makes the service fail to start"}}},
		{"ignore validity glob", "ignore:\n  - code: \"value/*\"\n    reason: r\n", []wantErr{{2, 11, "value/* cannot be ignored: validity codes are always errors"}}},
		{"ignore unknown key", "ignore:\n  - code: style/crlf\n    resaon: r\n", []wantErr{
			{2, 5, "ignore entry needs a reason"},
			{3, 5, `unknown key "resaon" in an ignore entry (allowed: code, path, reason); did you mean "reason"?`},
		}},
		{"plugins not list", "plugins: x\n", []wantErr{{1, 10, `plugins must be a list, got "x"`}}},
		{"plugin missing path and sha", "plugins:\n  - name: a\n", []wantErr{{2, 5, "plugin entry needs a path"}, {2, 5, "plugin entry needs a sha256"}}},
		{"plugin bad sha", "plugins:\n  - path: p\n    sha256: " + strings.ToUpper(sum) + "\n", []wantErr{{3, 13, "plugin sha256 must be 64 lowercase hexadecimal digits"}}},
		{"plugin short sha", "plugins:\n  - path: p\n    sha256: abc\n", []wantErr{{3, 13, "plugin sha256 must be 64 lowercase hexadecimal digits"}}},
		{"plugin bad timeout", "plugins:\n  - path: p\n    sha256: " + sum + "\n    timeout: 30\n", []wantErr{{4, 14, `plugin timeout: "30" is not a Go duration`}}},
		{"plugin negative timeout", "plugins:\n  - path: p\n    sha256: " + sum + "\n    timeout: -1s\n", []wantErr{{4, 14, "plugin timeout must be positive"}}},
		{"plugin config not mapping", "plugins:\n  - path: p\n    sha256: " + sum + "\n    config: [1]\n", []wantErr{{4, 13, "plugin config must be a mapping, got a list"}}},
		{"plugin unknown key", "plugins:\n  - path: p\n    sha256: " + sum + "\n    hash: x\n", []wantErr{{4, 5, `unknown key "hash" in a plugin entry (allowed: name, path, sha256, config, timeout, cache)`}}},
		{"plugin cache not a boolean", "plugins:\n  - path: p\n    sha256: " + sum + "\n    cache: never\n", []wantErr{{4, 12, `plugin cache must be true or false, got "never"`}}},
		{"yaml syntax", "rules:\n  a: b\n c: d\n", []wantErr{{2, 0, "invalid YAML: did not find expected key"}}},
		{"two documents", "format: text\n---\nformat: json\n", []wantErr{{2, 1, "only one YAML document is allowed"}}},
		{"every problem reported", "format: xml\nexamples: 2\nrules:\n  a/b: nope\nignore:\n  - code: a/b\n", []wantErr{
			{1, 9, "unknown format"},
			{2, 11, "examples must be true or false"},
			{4, 8, "severity must be one of"},
			{6, 5, "ignore entry needs a reason"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse("cfg.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error; config %+v", c)
			}
			if c != nil {
				t.Errorf("config returned with errors")
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %T is not an ErrorList: %v", err, err)
			}
			if len(list) != len(tt.want) {
				t.Fatalf("got %d errors, want %d:\n%v", len(list), len(tt.want), err)
			}
			for i, w := range tt.want {
				g := list[i]
				if g.File != "cfg.yaml" || g.Line != w.line || g.Column != w.col || !strings.Contains(g.Msg, w.msg) {
					t.Errorf("error %d = %s:%d:%d: %s\nwant        cfg.yaml:%d:%d: ...%s...", i, g.File, g.Line, g.Column, g.Msg, w.line, w.col, w.msg)
				}
			}
			var one *Error
			if !errors.As(err, &one) {
				t.Errorf("errors.As does not find an *Error")
			}
		})
	}
}

func TestValidityErrorAllowed(t *testing.T) {
	t.Parallel()
	c, err := Parse("c.yaml", []byte("rules:\n  syntax/encoding: error\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Rules["syntax/encoding"].Level != LevelError {
		t.Errorf("rules %+v", c.Rules)
	}
}

func TestErrorString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		e    Error
		want string
	}{
		{Error{File: "a.yaml", Line: 3, Column: 7, Msg: "bad"}, "a.yaml:3:7: bad"},
		{Error{File: "a.yaml", Line: 3, Msg: "bad"}, "a.yaml:3: bad"},
		{Error{File: "a.yaml", Msg: "bad"}, "a.yaml: bad"},
		{Error{Msg: "bad"}, "bad"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.e, got, tt.want)
		}
	}
	l := ErrorList{{File: "f", Line: 1, Column: 2, Msg: "x"}, {File: "f", Line: 2, Column: 1, Msg: "y"}}
	if got := l.Error(); got != "f:1:2: x\nf:2:1: y" {
		t.Errorf("list: %q", got)
	}
	if ErrorList(nil).Err() != nil {
		t.Error("empty list Err is not nil")
	}
}

func TestLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	if err := os.WriteFile(path, []byte("format: sarif\nbogus: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+":2:1: unknown key \"bogus\"") {
		t.Errorf("Load error = %v", err)
	}
	if err := os.WriteFile(path, []byte("format: sarif\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil || c.Format != FormatSARIF || c.File != path || c.Source != path {
		t.Errorf("Load = %+v, %v", c, err)
	}
	_, err = Load(filepath.Join(dir, "missing.yaml"))
	var e *Error
	if !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &e) || e.Line != 0 {
		t.Errorf("missing file: %v", err)
	}
}

func TestSeverityHelper(t *testing.T) {
	t.Parallel()
	c, err := Parse("c.yaml", []byte("rules:\n  style/crlf: off\n  style/tabs: error\n  syntax/encoding: error\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		code string
		def  diag.Severity
		sev  diag.Severity
		on   bool
	}{
		{"style/crlf", diag.Warning, diag.Warning, false},
		{"style/tabs", diag.Info, diag.Error, true},
		{"style/other", diag.Info, diag.Info, true},
		{"syntax/encoding", diag.Error, diag.Error, true},
	}
	for _, tt := range tests {
		sev, on := c.Severity(tt.code, tt.def)
		if sev != tt.sev || on != tt.on {
			t.Errorf("Severity(%s) = %v, %v; want %v, %v", tt.code, sev, on, tt.sev, tt.on)
		}
	}
	// Even a configuration built in code cannot switch a validity code off.
	c.Rules["chain/fork"] = Rule{Code: "chain/fork", Level: LevelOff}
	if sev, on := c.Severity("chain/fork", diag.Error); sev != diag.Error || !on {
		t.Errorf("validity code configured away: %v %v", sev, on)
	}
	var nilCfg *Config
	if sev, on := nilCfg.Severity("style/crlf", diag.Info); sev != diag.Info || !on {
		t.Errorf("nil config: %v %v", sev, on)
	}
}

func TestOptionAccessors(t *testing.T) {
	t.Parallel()
	c, err := Parse("c.yaml", []byte("options:\n  a/b:\n    d: 1h\n    s: text\n    n: 3\n    b: true\n    bad: soon\n"))
	if err != nil {
		t.Fatal(err)
	}
	get := func(n string) Option { o, _ := c.Option("a/b", n); return o }
	if v, err := get("d").Duration(); v != time.Hour || err != nil {
		t.Errorf("d: %v %v", v, err)
	}
	if v, err := get("s").String(); v != "text" || err != nil {
		t.Errorf("s: %v %v", v, err)
	}
	if v, err := get("n").Int(); v != 3 || err != nil {
		t.Errorf("n: %v %v", v, err)
	}
	if v, err := get("b").Bool(); !v || err != nil {
		t.Errorf("b: %v %v", v, err)
	}
	_, err = get("bad").Duration()
	if err == nil || err.Error() != `c.yaml:7:10: option bad: "soon" is not a Go duration such as 48h or 90s` {
		t.Errorf("bad duration: %v", err)
	}
	if _, err := get("n").String(); err == nil {
		t.Error("int as string accepted")
	}
	if _, ok := c.Option("a/b", "missing"); ok {
		t.Error("missing option found")
	}
}

package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// stripPositions clears what legitimately differs between two loads of
// equal configurations: positions and file names.
func stripPositions(c *Config) *Config {
	x := *c
	x.File, x.Source, x.Pos = "", "", nil
	x.Rules = map[string]Rule{}
	for k, r := range c.Rules {
		r.Pos = Position{}
		x.Rules[k] = r
	}
	x.Options = map[string]RuleOptions{}
	for k, o := range c.Options {
		vals := map[string]Option{}
		for n, v := range o.Values {
			vals[n] = Option{Name: v.Name, Value: v.Value}
		}
		x.Options[k] = RuleOptions{Code: o.Code, Values: vals}
	}
	x.Ignore = nil
	for _, e := range c.Ignore {
		x.Ignore = append(x.Ignore, IgnoreEntry{Code: e.Code, Path: e.Path, Reason: e.Reason})
	}
	x.Plugins = nil
	for _, p := range c.Plugins {
		p.Pos = Position{}
		x.Plugins = append(x.Plugins, p)
	}
	return &x
}

func TestMarshalRoundTrip(t *testing.T) {
	t.Parallel()
	for name, src := range map[string]string{
		"full":     fullExample,
		"defaults": "",
		"tricky": `root: "123"
rules:
  a/yes: off
  b/no: warning
options:
  a/b:
    list: [1, "two", {three: 3}]
    "odd key": "*"
    empty: {}
ignore:
  - code: "*/*"
    path: "**/*.example"
    reason: "# not a comment: quotes, colons and hashes survive"
  - code: style/crlf
    reason: |
      several
      lines
plugins:
  - path: "x: y"
    sha256: "0123456789012345678901234567890123456789012345678901234567890123"
    config: {}
  - path: cached
    sha256: "0123456789012345678901234567890123456789012345678901234567890123"
    cache: true
`,
	} {
		t.Run(name, func(t *testing.T) {
			c1, err := Parse("one.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			out1, err := c1.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), FileName)
			if err := os.WriteFile(path, out1, 0o644); err != nil {
				t.Fatal(err)
			}
			c2, err := Load(path)
			if err != nil {
				t.Fatalf("Load(Marshal()): %v\n%s", err, out1)
			}
			if a, b := stripPositions(c1), stripPositions(c2); !reflect.DeepEqual(a, b) {
				t.Errorf("round trip differs:\n%+v\n%+v\n%s", a, b, out1)
			}
			c2.File = c1.File
			out2, err := c2.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if string(out1) != string(out2) {
				t.Errorf("Marshal is not stable:\n%s\n---\n%s", out1, out2)
			}
		})
	}
}

func TestMarshalDefaults(t *testing.T) {
	t.Parallel()
	out, err := Default().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want := `# effective journal-lint configuration (defaults)

root: null # not set: give the root on the command line
format: text
examples: false
rules: {}
options: {}
ignore: []
max-warnings: -1
plugins: []
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	var nilCfg *Config
	if out2, err := nilCfg.Marshal(); err != nil || string(out2) != want {
		t.Errorf("nil config: %s %v", out2, err)
	}
}

func TestMarshalKeyOrder(t *testing.T) {
	t.Parallel()
	c, err := Parse("c.yaml", []byte("plugins: []\nrules:\n  z/z: info\n  a/a: off\nformat: github\n"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	order := []string{"root:", "format: github", "examples:", "rules:", "a/a:", "z/z: info", "options:", "ignore:", "max-warnings:", "plugins:"}
	last := -1
	for _, k := range order {
		i := strings.Index(s, k)
		if i <= last {
			t.Fatalf("%q out of order in\n%s", k, s)
		}
		last = i
	}
}

package config

import (
	"testing"

	"github.com/r35157/journal-lint/internal/safetext"
	"github.com/r35157/journal-lint/internal/safetext/safetexttest"
)

// FuzzParse loads fuzzed configuration text: Parse never panics, returns
// either a configuration or errors, and its error text, as the command
// prints it, holds no control character and forges no workflow command
// (issue "hostile input": configuration loading).
func FuzzParse(f *testing.F) {
	f.Add([]byte("format: github\nrules:\n  style/crlf: off\nignore:\n  - code: style/*\n    path: \"a/**\"\n    reason: x\n"))
	f.Add([]byte("a: &a [*a, *a]\nb: [*a, *a, *a]\n"))
	f.Add([]byte("ignore:\n  - code: \"\\e[31m::error::x\\u202e\"\n"))
	f.Add([]byte("\xff\xfe r\x00o\x00o\x00t\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse("c.yaml", data)
		if (cfg == nil) == (err == nil) {
			t.Fatalf("Parse = %v, %v: want exactly one", cfg, err)
		}
		if err != nil {
			if err := safetexttest.Check([]byte(safetext.Lines(err.Error())), false, false); err != nil {
				t.Fatal(err)
			}
		}
	})
}

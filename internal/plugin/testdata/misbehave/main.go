// Command misbehave is a rule pack for the host's tests that misbehaves in
// the way its executable's name says: garbage (writes to stdout before the
// handshake), crash (a goroutine panics during Check, killing the process),
// panic (a rule panics; the SDK recovers), hang (a rule never returns),
// malformed (reports a range outside the document), introspect (reports
// what its stdin and environment are), or anything else (behaves).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/r35157/journal-lint/plugins/sdk"
)

func main() {
	mode := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	if mode == "garbage" {
		fmt.Println("hello from a careless pack")
	}
	sdk.Serve(sdk.Pack{
		Name:    "misbehave",
		Version: "0.0.1",
		Rules: []sdk.Rule{{
			Name:     "mode",
			Severity: sdk.Warning,
			Summary:  "misbehaves as its name says",
			Check:    func(p *sdk.Pass) { run(mode, p) },
		}},
	})
}

func run(mode string, p *sdk.Pass) {
	switch mode {
	case "crash":
		fmt.Fprintln(os.Stderr, "about to crash while checking", p.Doc.Path)
		go func() { panic("pack crashed on purpose") }()
		time.Sleep(time.Hour)
	case "panic":
		panic("rule panicked on purpose")
	case "hang":
		fmt.Fprintln(os.Stderr, "still working on", p.Doc.Path)
		time.Sleep(time.Hour)
	case "malformed":
		p.Report(sdk.Diagnostic{Message: "out of range", Range: sdk.Range{
			Start: sdk.Pos{Offset: 0, Line: 1, Column: 1},
			End:   sdk.Pos{Offset: len(p.Doc.Text) + 100, Line: 1, Column: 1},
		}})
	case "introspect":
		stdin, _ := os.Readlink("/proc/self/fd/0")
		var names []string
		for _, kv := range os.Environ() {
			name, _, _ := strings.Cut(kv, "=")
			names = append(names, name)
		}
		sort.Strings(names)
		p.Reportf(sdk.Range{}, "stdin=%s env=%s", stdin, strings.Join(names, ","))
	default:
		p.Reportf(p.Doc.Range(0, 0), "checked %s", p.Doc.Path)
	}
}

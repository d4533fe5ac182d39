// Command misbehave is a rule pack for the host's tests that misbehaves in
// the way its executable's name says: garbage (writes to stdout before the
// handshake), crash (a goroutine panics during Check, killing the process),
// panic (a rule panics; the SDK recovers), hang (a rule never returns),
// malformed (reports a range outside the document), introspect (reports
// what its stdin and environment are), pidlog (behaves, but appends its
// process id to <mode>.pids beside its executable when it starts and
// ignores the lifeline, so that only the host closing it ends it), or
// anything else (behaves).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
	"github.com/r35157/journal-lint/plugins/sdk"
)

func main() {
	mode := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	if mode == "garbage" {
		fmt.Println("hello from a careless pack")
	}
	if mode == "pidlog" {
		logPID(mode)
		os.Unsetenv(wire.EnvLifelineFD)
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

// logPID appends the process id to <mode>.pids beside the executable, so
// that a test can count how often the pack was started.
func logPID(mode string) {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	f, err := os.OpenFile(filepath.Join(filepath.Dir(exe), mode+".pids"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err == nil {
		_, err = fmt.Fprintln(f, os.Getpid())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
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

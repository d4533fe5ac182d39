// Command journal-gen writes a large, realistic Journal tree for benchmarks
// and tests, optionally with one injected fault of a validity code.
//
//	journal-gen -out DIR -files N -seed S [-fault CODE]
//
// Run journal-gen --help for the details and the list of fault codes.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/r35157/journal-lint/internal/gen"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("journal-gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "write the tree to `DIR` (must not exist or be empty)")
	files := fs.Int("files", 100, "number of Journal files (revisions) `N`")
	seed := fs.Uint64("seed", 1, "random `SEED`: equal seeds give equal trees")
	fault := fs.String("fault", "", "inject one fault of validity `CODE` (see the list below)")
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: journal-gen -out DIR -files N -seed S [-fault CODE]

Writes a realistic Journal tree: artifacts with chains of several revisions
(real PREDECESSOR digests), releases with licenses from a realistic mix,
several CONTENT lines, satisfiable DEPENDS (exact, range and union
constraints) between artifacts of the tree, EXCLUDES, PREFERS, policies and
descriptions. The same -files and -seed always give the same bytes.

With -fault, one fault of the given validity code is injected into the tree
and the code that journal-lint check must report is printed.

Examples:
   journal-gen -out /tmp/journals -files 10000 -seed 1
   journal-gen -out /tmp/broken -files 8 -seed 7 -fault chain/fork
   journal-lint check /tmp/broken

Flags:
`)
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\nFault codes:\n   %s\n", strings.Join(gen.Codes(), "\n   "))
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 || *out == "" || *files < 1 {
		fmt.Fprintln(stderr, "journal-gen: need -out DIR and -files N ≥ 1, and no arguments")
		fs.Usage()
		return 2
	}
	if entries, err := os.ReadDir(*out); err == nil && len(entries) > 0 {
		fmt.Fprintf(stderr, "journal-gen: %s is not empty\n", *out)
		return 2
	}
	t, err := gen.Write(*out, gen.Options{Files: *files, Seed: *seed})
	if err != nil {
		fmt.Fprintln(stderr, "journal-gen:", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %d files (%d artifacts, %d bytes) to %s\n", len(t.Files), t.Artifacts, t.Bytes(), *out)
	if *fault != "" {
		f, err := gen.Inject(*out, *fault, *seed)
		if err != nil {
			fmt.Fprintln(stderr, "journal-gen:", err)
			return 1
		}
		where := f.Path
		if where == "" {
			where = "(root)"
		}
		fmt.Fprintf(stdout, "injected %s at %s: %s\n", f.Code, where, f.Note)
		if f.Examples {
			fmt.Fprintln(stdout, "the fault shows with --examples")
		}
	}
	return 0
}

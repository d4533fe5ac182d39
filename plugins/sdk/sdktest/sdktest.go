// Package sdktest tests a rule pack in-process, the way journal-lint's
// built-in rules are tested (package internal/lint/rulestest): Journal files carry
// their expected findings in "# want" comments, journal-lint's own parser
// reads them into the documents journal-lint would send (with the parts
// the pack needs, and no others), and the pack runs behind the real gRPC
// service on an in-memory connection, so the protocol's checks of the
// pack's description and findings (package wire) apply exactly as in
// `journal-lint check`. Reading the inputs is the only thing it takes from
// journal-lint itself, through one small internal package.
//
// # Expectations
//
// A want comment is a Journal comment line that applies to the next line
// that is not itself a want comment:
//
//	# want "regexp" ...
//
// or "# want here ..." for a finding on the comment line itself. Each quoted
// string (a Go string literal) is a regular expression that must match the
// message of one finding starting on that line; it may be preceded by the
// 1-based start column in code points ("12") or start and end ("12-15").
// Every finding must match one expectation and every expectation one
// finding.
//
// The in-process connection has journal-lint's message limits (a 16 MiB
// Journal passes) and the pack's own server options.
package sdktest

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"google.golang.org/grpc/status"

	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
	"github.com/r35157/journal-lint/plugins/sdk"
	"github.com/r35157/journal-lint/plugins/sdk/sdktest/internal/inputs"
)

// Finding is one diagnostic of a pack, as journal-lint reports it.
type Finding struct {
	// Code is "<pack>/<rule>".
	Code string
	// Severity is "error", "warning" or "info".
	Severity string
	Message  string
	// Path is the document's path: root-relative for [CheckTree], the file
	// name for [Run] and [CheckFiles].
	Path string
	// Line and Column are 1-based (columns in code points), EndLine and
	// EndColumn likewise for the exclusive end; all 0 for a finding about
	// the whole file.
	Line, Column, EndLine, EndColumn int
	// Help is the finding's longer guidance, if any.
	Help string

	rng wire.Range
}

// String formats f as "path:line:col: severity: message [code]".
func (f Finding) String() string {
	pos := ""
	if f.Line > 0 {
		pos = fmt.Sprintf(":%d:%d", f.Line, f.Column)
	}
	return fmt.Sprintf("%s%s: %s: %s [%s]", f.Path, pos, f.Severity, f.Message, f.Code)
}

// Run checks pack, configured with config (nil for none), against every
// *.journal file in dir, each on its own, and compares the findings with
// the files' want comments in one subtest per file.
func Run(t *testing.T, dir string, pack sdk.Pack, config map[string]any) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.journal"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no .journal files in %s", dir)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got, err := check(t, pack, config, inputs.Files([]string{filepath.Base(file)}, [][]byte{src}))
			if err != nil {
				t.Fatal(err)
			}
			cmp := make([]inputs.Finding, len(got))
			for i, f := range got {
				cmp[i] = inputs.Finding{Code: f.Code, Path: f.Path, Message: f.Message, Severity: f.Severity, Range: f.rng}
			}
			problems, err := inputs.Compare(src, cmp)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			for _, problem := range problems {
				t.Errorf("%s: %s", file, problem)
			}
		})
	}
}

// CheckFiles checks pack, configured with config, against Journal texts by
// file name, each parsed on its own, and returns the findings sorted by
// path and position, as journal-lint sorts them. The error is the pack's failure, as journal-lint
// would report it as plugin/failed.
func CheckFiles(t testing.TB, pack sdk.Pack, config map[string]any, files map[string]string) ([]Finding, error) {
	t.Helper()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	texts := make([][]byte, len(names))
	for i, n := range names {
		texts[i] = []byte(files[n])
	}
	return check(t, pack, config, inputs.Files(names, texts))
}

// CheckTree checks pack, configured with config, against the Journal tree
// at root (<root>/<coordinate>/<timestamp>.journal), loaded as journal-lint
// loads it, so documents carry their chain context.
func CheckTree(t testing.TB, pack sdk.Pack, config map[string]any, root string) ([]Finding, error) {
	t.Helper()
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := inputs.Tree(context.Background(), abs)
	if err != nil {
		t.Fatal(err)
	}
	return check(t, pack, config, docs)
}

// check serves pack in-process, sends it docs with the parts it needs as
// one Check call, and returns its findings as journal-lint would report
// them, sorted; or its failure.
func check(t testing.TB, pack sdk.Pack, config map[string]any, docs []*inputs.Doc) ([]Finding, error) {
	t.Helper()
	srv, err := sdk.Handler(pack)
	if err != nil {
		t.Fatalf("invalid pack: %v", err)
	}
	client, stop, err := wire.Pipe(srv)
	if err != nil {
		t.Fatalf("in-process connection: %v", err)
	}
	defer stop()
	ctx := context.Background()
	desc, err := client.Describe(ctx, "")
	if err == nil {
		err = desc.Validate()
	}
	if err != nil {
		return nil, failed(pack.Name, "describe", err)
	}
	if config == nil {
		config = map[string]any{}
	}
	cfg, err := json.Marshal(config)
	if err != nil {
		t.Fatalf("pack config: %v", err)
	}
	var raw []byte
	byPath := map[string]*inputs.Doc{}
	for _, d := range docs {
		raw = wire.AppendDocument(raw, &d.Document, desc.Needs)
		byPath[d.Path] = d
	}
	found, err := client.Caller().Check(ctx, cfg, raw)
	if err != nil {
		return nil, failed(desc.Name, "check", err)
	}
	out := make([]Finding, len(found))
	for i, f := range found {
		if out[i], err = finding(desc, f, byPath); err != nil {
			return nil, failed(desc.Name, "malformed diagnostic", err)
		}
	}
	// As journal-lint sorts diagnostics: by path, position, code, message.
	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column),
			strings.Compare(a.Code, b.Code), strings.Compare(a.Message, b.Message))
	})
	return out, nil
}

// finding checks f as journal-lint does (its rule, texts, paths and
// ranges) and returns it with journal-lint's positions.
func finding(desc wire.Description, f wire.Finding, docs map[string]*inputs.Doc) (Finding, error) {
	if err := f.Validate(desc); err != nil {
		return Finding{}, err
	}
	rule, _ := desc.Rule(f.Rule)
	sev := rule.Severity
	if f.Severity != wire.SeverityDefault {
		sev = f.Severity
	}
	out := Finding{Code: desc.Name + "/" + f.Rule, Severity: sev.String(), Message: f.Message, Path: f.Path, Help: f.Help}
	in := func(path string, r *wire.Range) (wire.Range, error) {
		d, ok := docs[path]
		if !ok {
			return wire.Range{}, fmt.Errorf("rule %s: path %q is not a document of the run", f.Rule, path)
		}
		if err := r.Within(path, len(d.Text)); err != nil || r == nil {
			return wire.Range{}, err
		}
		return d.Range(r.Start.Offset, r.End.Offset), nil
	}
	var err error
	if out.rng, err = in(f.Path, f.Range); err != nil {
		return out, err
	}
	for _, r := range f.Related {
		if _, err := in(r.Path, r.Range); err != nil {
			return out, fmt.Errorf("related: %w", err)
		}
	}
	out.Line, out.Column, out.EndLine, out.EndColumn = out.rng.Start.Line, out.rng.Start.Column, out.rng.End.Line, out.rng.End.Column
	return out, nil
}

// failed is the error of a pack that failed in call, worded as the
// plugin/failed diagnostic of journal-lint words it.
func failed(pack, call string, err error) error {
	if st, ok := status.FromError(err); ok {
		err = fmt.Errorf("%s", st.Message())
	}
	return fmt.Errorf("rule pack %s failed: %s: %w", pack, call, err)
}

// Strings returns the findings formatted with [Finding.String], one per
// element, for compact comparisons in tests.
func Strings(fs []Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.String()
	}
	return out
}

// Join returns the findings one per line, for test failure messages.
func Join(fs []Finding) string { return strings.Join(Strings(fs), "\n") }

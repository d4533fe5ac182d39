// Package sdktest tests a rule pack in-process, the way journal-lint's
// built-in rules are tested (package internal/lint/rulestest): Journal files carry
// their expected findings in "# want" comments, journal-lint's own parser
// reads them, and the pack runs behind the real gRPC service (on an
// in-memory connection), so the host's checks of the pack's description
// and diagnostics apply exactly as in `journal-lint check`.
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
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/lint/rulestest"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/plugin"
	"github.com/r35157/journal-lint/internal/syntax"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
	"github.com/r35157/journal-lint/plugins/sdk"
	"github.com/r35157/journal-lint/plugins/sdk/internal/hook"
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
			want, err := rulestest.ParseWants(src)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			doc, _ := syntax.Parse(filepath.Base(file), src)
			got, err := check(t, pack, config, plugin.InputOf([]*syntax.Document{doc}))
			if err != nil {
				t.Fatal(err)
			}
			for _, problem := range rulestest.Compare(got, want) {
				t.Errorf("%s: %s", file, problem)
			}
		})
	}
}

// CheckFiles checks pack, configured with config, against Journal texts by
// file name, each parsed on its own, and returns the findings sorted by
// path and position. The error is the pack's failure, exactly as
// journal-lint would report it as plugin/failed.
func CheckFiles(t testing.TB, pack sdk.Pack, config map[string]any, files map[string]string) ([]Finding, error) {
	t.Helper()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	docs := make([]*syntax.Document, len(names))
	for i, n := range names {
		docs[i], _ = syntax.Parse(n, []byte(files[n]))
	}
	ds, err := check(t, pack, config, plugin.InputOf(docs))
	return findings(ds), err
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
	lr, err := load.Load(context.Background(), abs, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := check(t, pack, config, plugin.NewInput(lr))
	return findings(ds), err
}

// check serves pack in-process and runs it over in through the host.
func check(t testing.TB, pack sdk.Pack, config map[string]any, in *plugin.Input) (diag.List, error) {
	t.Helper()
	srv, err := hook.NewServer(pack)
	if err != nil {
		t.Fatalf("invalid pack: %v", err)
	}
	// The pack's own server options (codec, limits) on an in-memory
	// connection with journal-lint's client limits.
	lis := bufconn.Listen(1 << 20)
	server := grpc.NewServer(hook.ServerOptions()...)
	pb.RegisterRulePackServer(server, srv)
	go func() { _ = server.Serve(lis) }()
	defer server.Stop()
	conn, err := grpc.Dial("bufconn",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(wire.MaxMessageSize), grpc.MaxCallSendMsgSize(wire.MaxMessageSize)))
	if err != nil {
		t.Fatalf("in-process connection: %v", err)
	}
	defer conn.Close()
	ctx := context.Background()
	p, err := plugin.Connect(ctx, pb.NewRulePackClient(conn), plugin.Spec{Config: config}, plugin.Options{})
	if err != nil {
		return nil, err
	}
	return p.Check(ctx, in)
}

func findings(ds diag.List) []Finding {
	out := make([]Finding, len(ds))
	for i, d := range ds {
		out[i] = Finding{Code: d.Code, Severity: d.Severity.String(), Message: d.Message, Path: d.Path,
			Line: d.Range.Start.Line, Column: d.Range.Start.Column, EndLine: d.Range.End.Line, EndColumn: d.Range.End.Column, Help: d.Help}
	}
	return out
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

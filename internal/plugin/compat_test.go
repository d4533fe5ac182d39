package plugin_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/r35157/journal-lint/internal/plugin"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// The previous revision of the protocol (r1, see rulepack.proto) as its
// host and its SDK spoke it, recorded in testdata/r1 (README there): the
// example pack's description and its findings, built with the SDK of r1,
// for the host's request over testdata/r1/tree, and what the host of r1
// reported.
const previous = "testdata/r1"

// previousConfig is the configuration the recording used.
var previousConfig = map[string]any{
	"denied":  []any{"GPL-3.0-only", "AGPL-3.0-only"},
	"allowed": []any{"MIT", "Apache-2.0", "BSD-3-Clause"},
}

// readMessage reads the recorded message name of the previous revision into m.
func readMessage(t *testing.T, name string, m proto.Message) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(previous, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := proto.Unmarshal(b, m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// replay is the example pack built with the SDK of r1, as recorded: it
// describes itself as that pack did and answers each document with the
// findings that pack gave on it. It checks that every document this host
// sends is, in every field the pack reads, the one the host of r1 sent.
type replay struct {
	pb.UnimplementedRulePackServer
	t        *testing.T
	describe *pb.DescribeResponse
	docs     map[string]*pb.Document     // the host of r1's, by path
	found    map[string][]*pb.Diagnostic // the pack's, by path

	mu   sync.Mutex
	seen map[string]bool
}

func (r *replay) Describe(context.Context, *pb.DescribeRequest) (*pb.DescribeResponse, error) {
	return r.describe, nil
}

func (r *replay) Check(_ context.Context, req *pb.CheckRequest) (*pb.CheckResponse, error) {
	out := &pb.CheckResponse{}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range req.GetDocuments() {
		want, ok := r.docs[d.GetPath()]
		if !ok || !proto.Equal(d, want) {
			r.t.Errorf("%s: this host sends the pack of r1 another document than the host of r1 did:\n got %v\nwant %v", d.GetPath(), d, want)
		}
		r.seen[d.GetPath()] = true
		out.Diagnostics = append(out.Diagnostics, r.found[d.GetPath()]...)
	}
	return out, nil
}

// TestPreviousRevisionPack: the example pack built with the SDK of the
// previous protocol revision keeps working with this host. The host sends
// it, field for field, the documents the previous host sent (so the pack
// answers as it did), takes its description, and reports its findings
// exactly as the previous host did.
func TestPreviousRevisionPack(t *testing.T) {
	t.Parallel()
	r := &replay{t: t, describe: &pb.DescribeResponse{}, docs: map[string]*pb.Document{}, found: map[string][]*pb.Diagnostic{}, seen: map[string]bool{}}
	readMessage(t, "describe.binpb", r.describe)
	var req pb.CheckRequest
	readMessage(t, "check-request.binpb", &req)
	for _, d := range req.GetDocuments() {
		r.docs[d.GetPath()] = d
	}
	var resp pb.CheckResponse
	readMessage(t, "check-response.binpb", &resp)
	for _, d := range resp.GetDiagnostics() {
		r.found[d.GetPath()] = append(r.found[d.GetPath()], d)
	}
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	pb.RegisterRulePackServer(srv, r)
	go func() { _ = srv.Serve(lis) }()
	defer srv.Stop()
	conn, err := grpc.Dial("bufconn", grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ps, err := plugin.Connected(context.Background(), []*wire.Client{wire.NewClient(conn)}, []string{""}, previousConfig)
	if err != nil {
		t.Fatal(err)
	}
	defer ps.Close()
	ds := checkTree(t, ps, filepath.Join(previous, "tree"))
	want, err := os.ReadFile(filepath.Join(previous, "findings.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got := list(ds) + "\n"; got != string(want) {
		t.Errorf("findings differ from the previous host's:\n%s\nwant:\n%s", got, want)
	}
	if len(r.seen) != len(r.docs) {
		t.Errorf("sent %d of the %d documents", len(r.seen), len(r.docs))
	}
}

// TestPreviousRevisionHost: the example pack, built with this SDK, answers
// the request of a host of the previous protocol revision as the pack of
// that revision did, finding for finding and position for position.
func TestPreviousRevisionHost(t *testing.T) {
	t.Parallel()
	s := spec(t, "license-policy")
	ps, err := plugin.Start(context.Background(), configOf(s), "")
	if err != nil {
		t.Fatal(err)
	}
	defer ps.Close()
	raw, err := os.ReadFile(filepath.Join(previous, "check-request.binpb"))
	if err != nil {
		t.Fatal(err)
	}
	// The request's fields as they are: its configuration, and its
	// documents as the host of r1 encoded them.
	var config, docs []byte
	for b := raw; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if n < 0 || m < 0 {
			t.Fatal("malformed request")
		}
		switch num {
		case 1:
			config, _ = protowire.ConsumeBytes(b[n:])
		case 2:
			docs = append(docs, b[:n+m]...)
		}
		b = b[n+m:]
	}
	found, err := plugin.Client(ps, 0).Caller().Check(context.Background(), config, docs)
	if err != nil {
		t.Fatal(err)
	}
	var resp pb.CheckResponse
	readMessage(t, "check-response.binpb", &resp)
	var got, want []string
	for _, f := range found {
		got = append(got, findingString(f.Rule, int(f.Severity), f.Message, f.Path, f.Range, f.Help))
	}
	for _, d := range resp.GetDiagnostics() {
		var r *wire.Range
		if x := d.GetRange(); x != nil {
			r = &wire.Range{Start: wire.Pos{Offset: int(x.GetStart().GetOffset()), Line: int(x.GetStart().GetLine()), Column: int(x.GetStart().GetColumn())},
				End: wire.Pos{Offset: int(x.GetEnd().GetOffset()), Line: int(x.GetEnd().GetLine()), Column: int(x.GetEnd().GetColumn())}}
		}
		want = append(want, findingString(d.GetRule(), int(d.GetSeverity()), d.GetMessage(), d.GetPath(), r, d.GetHelp()))
	}
	if !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("findings differ from the pack of r1's:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func findingString(rule string, sev int, msg, path string, r *wire.Range, help string) string {
	return fmt.Sprintf("%s %d %q %s %v %q", rule, sev, msg, path, r, help)
}

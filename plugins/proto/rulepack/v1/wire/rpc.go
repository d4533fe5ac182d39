package wire

import (
	"context"
	"fmt"
	"net"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
)

// Pos is one position in a document. The zero value means "unknown".
type Pos struct {
	// Offset is the 0-based byte offset from the start of the text.
	Offset int
	// Line is the 1-based line number; 0 means unknown.
	Line int
	// Column is the 1-based column counted in Unicode code points; 0 means
	// unknown.
	Column int
}

// IsValid reports whether p names a known position (Line > 0).
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns "line:column", or "-" for an unknown position.
func (p Pos) String() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Column)
}

// Range is a half-open range [Start, End) of a document.
type Range struct {
	// Start is the first position of the range, End the one after it.
	Start, End Pos
}

// IsValid reports whether r has a known start position.
func (r Range) IsValid() bool { return r.Start.IsValid() }

// Severity is how much a finding matters, as the protocol spells it. The
// zero value, SeverityDefault, means "the rule's default severity" in a
// finding and is invalid as a rule's default.
type Severity int

// The severities, from most to least severe after the default.
const (
	SeverityDefault Severity = iota
	SeverityError
	SeverityWarning
	SeverityInfo
)

// String returns "error", "warning", "info", or "default" for the zero value.
func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	case SeverityDefault:
		return "default"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// Host is what a pack learns of the host that calls Describe.
type Host struct {
	// Version is journal-lint's version ("devel" for a development build).
	Version string
	// Protocol is the negotiated protocol major version.
	Protocol int
}

// Description is what a pack says about itself (DescribeResponse).
type Description struct {
	// Name is the pack's name, lowercase kebab-case.
	Name string
	// Version and SDKVersion are the pack's and its SDK's versions.
	Version, SDKVersion string
	// HostVersions is a SemVer constraint on journal-lint versions; "" is
	// any.
	HostVersions string
	// Rules are the pack's rules in documentation order.
	Rules []RuleInfo
	// Needs are the parts of each document the pack reads. A pack that
	// does not say (one built before needs existed) is read as NeedAll.
	Needs Needs
	// Pure declares that the findings on a document depend only on that
	// document, the parts of its chain context the pack needs and the
	// pack's configuration: no files, network or clock (r2).
	Pure bool
}

// RuleInfo documents one rule of a pack.
type RuleInfo struct {
	// Name is the rule's name within the pack, lowercase kebab-case.
	Name string
	// Severity is its default severity; never SeverityDefault in a valid
	// description.
	Severity Severity
	// Summary is one lowercase line; Doc is Markdown.
	Summary, Doc string
}

// Rule returns the rule of d named name, if d has it.
func (d Description) Rule(name string) (RuleInfo, bool) {
	for _, r := range d.Rules {
		if r.Name == name {
			return r, true
		}
	}
	return RuleInfo{}, false
}

// Finding is one diagnostic of a pack, in journal-lint's shared diagnostic
// shape (the Diagnostic message).
type Finding struct {
	// Rule is the rule's name within the pack (not namespaced).
	Rule string
	// Severity is SeverityDefault for the rule's default.
	Severity Severity
	// Message is a short lowercase sentence fragment without a final
	// period.
	Message string
	// Path is the path of the document the finding is on.
	Path string
	// Range is the exact subject; nil means the whole file.
	Range *Range
	// Related are secondary locations.
	Related []Related
	// Help is optional longer guidance.
	Help string
}

// Related is a secondary location of a [Finding].
type Related struct {
	// Path is the path of a document of the tree.
	Path string
	// Range is nil for the whole file.
	Range *Range
	// Message says what the location is to the finding.
	Message string
}

// Request is one Check call as a pack receives it.
type Request struct {
	// Config is the pack's configuration as a JSON object ("{}" when
	// absent).
	Config []byte
	// Documents are the call's documents, in path order.
	Documents []*Received
}

// Pack is the pack side of the protocol; package plugins/sdk implements
// it, and [PluginSets] and [Pipe] serve it.
type Pack interface {
	// Describe says who the pack is. It is called once, right after the
	// handshake.
	Describe(ctx context.Context, host Host) (Description, error)
	// Check runs the pack's rules over the request's documents and returns
	// what they found. Calls may run concurrently. An error fails the
	// whole call; the host reports the pack as failed with its message.
	Check(ctx context.Context, req *Request) ([]Finding, error)
}

// server serves a [Pack] as the RulePack gRPC service.
type server struct {
	pb.UnimplementedRulePackServer
	pack Pack
}

// Describe encodes the pack's description.
func (s *server) Describe(ctx context.Context, req *pb.DescribeRequest) (*pb.DescribeResponse, error) {
	d, err := s.pack.Describe(ctx, Host{Version: req.GetHostVersion(), Protocol: int(req.GetProtocolVersion())})
	if err != nil {
		return nil, err
	}
	n := d.Needs
	out := &pb.DescribeResponse{Name: d.Name, Version: d.Version, SdkVersion: d.SDKVersion, HostVersions: d.HostVersions, Pure: d.Pure,
		Needs: &pb.Needs{Text: n&NeedText != 0, Directives: n&NeedDirectives != 0, Revision: n&NeedRevision != 0, Chain: n&NeedChain != 0}}
	for _, r := range d.Rules {
		out.Rules = append(out.Rules, &pb.RuleInfo{Name: r.Name, DefaultSeverity: pb.Severity(r.Severity), Summary: r.Summary, Doc: r.Doc})
	}
	return out, nil
}

// Check decodes the request's documents, runs the pack and encodes its
// findings.
func (s *server) Check(ctx context.Context, req *pb.CheckRequest) (*pb.CheckResponse, error) {
	raw, err := requestDocuments(req)
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "%v", err)
	}
	docs, err := DecodeDocuments(raw)
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "%v", err)
	}
	cfg := req.GetConfigJson()
	if len(cfg) == 0 {
		cfg = []byte("{}")
	}
	found, err := s.pack.Check(ctx, &Request{Config: cfg, Documents: docs})
	if err != nil {
		if _, ok := status.FromError(err); ok {
			return nil, err
		}
		return nil, status.Error(codes.Internal, err.Error())
	}
	resp := &pb.CheckResponse{Diagnostics: make([]*pb.Diagnostic, len(found))}
	for i, f := range found {
		resp.Diagnostics[i] = encodeFinding(f)
	}
	return resp, nil
}

func encodeRange(r *Range) *pb.Range {
	if r == nil {
		return nil
	}
	return &pb.Range{
		Start: &pb.Pos{Offset: int64(r.Start.Offset), Line: int32(r.Start.Line), Column: int32(r.Start.Column)},
		End:   &pb.Pos{Offset: int64(r.End.Offset), Line: int32(r.End.Line), Column: int32(r.End.Column)},
	}
}

func decodeRange(r *pb.Range) *Range {
	if r == nil {
		return nil
	}
	pos := func(p *pb.Pos) Pos {
		return Pos{Offset: int(p.GetOffset()), Line: int(p.GetLine()), Column: int(p.GetColumn())}
	}
	return &Range{Start: pos(r.GetStart()), End: pos(r.GetEnd())}
}

func encodeFinding(f Finding) *pb.Diagnostic {
	out := &pb.Diagnostic{Rule: f.Rule, Severity: pb.Severity(f.Severity), Message: f.Message, Path: f.Path, Range: encodeRange(f.Range), Help: f.Help}
	for _, r := range f.Related {
		out.Related = append(out.Related, &pb.Related{Path: r.Path, Range: encodeRange(r.Range), Message: r.Message})
	}
	return out
}

func decodeFinding(m *pb.Diagnostic) Finding {
	f := Finding{Rule: m.GetRule(), Severity: Severity(m.GetSeverity()), Message: m.GetMessage(), Path: m.GetPath(),
		Range: decodeRange(m.GetRange()), Help: m.GetHelp()}
	if n := len(m.GetRelated()); n > 0 {
		f.Related = make([]Related, n)
		for i, r := range m.GetRelated() {
			f.Related[i] = Related{Path: r.GetPath(), Range: decodeRange(r.GetRange()), Message: r.GetMessage()}
		}
	}
	return f
}

// Client is the host side of one pack's connection.
type Client struct {
	rpc pb.RulePackClient
}

// NewClient returns the host side of a connection to a pack, such as one
// a test serves itself; the host's connections come from [PluginSets].
func NewClient(conn grpc.ClientConnInterface) *Client {
	return &Client{rpc: pb.NewRulePackClient(conn)}
}

// Describe asks the pack who it is. The description is as the pack gave
// it; [Description.Validate] says whether the host may use it. The error
// is the call's (a gRPC status).
func (c *Client) Describe(ctx context.Context, hostVersion string) (Description, error) {
	d, err := c.rpc.Describe(ctx, &pb.DescribeRequest{HostVersion: hostVersion, ProtocolVersion: Version})
	if err != nil {
		return Description{}, err
	}
	out := Description{Name: d.GetName(), Version: d.GetVersion(), SDKVersion: d.GetSdkVersion(), HostVersions: d.GetHostVersions(),
		Pure: d.GetPure(), Needs: NeedAll}
	if n := d.GetNeeds(); n != nil {
		out.Needs = 0
		for _, p := range []struct {
			on   bool
			part Needs
		}{{n.GetText(), NeedText}, {n.GetDirectives(), NeedDirectives}, {n.GetRevision(), NeedRevision}, {n.GetChain(), NeedChain}} {
			if p.on {
				out.Needs |= p.part
			}
		}
	}
	for _, r := range d.GetRules() {
		out.Rules = append(out.Rules, RuleInfo{Name: r.GetName(), Severity: Severity(r.GetDefaultSeverity()), Summary: r.GetSummary(), Doc: r.GetDoc()})
	}
	return out, nil
}

// Caller makes the Check calls of one goroutine of the host: it marshals
// each request into a buffer it keeps from call to call, since a request
// is mostly its documents, megabytes that a fresh buffer per call would
// take from new pages of memory each time. The bytes are those of
// proto.Marshal. A Caller is not safe for concurrent use.
type Caller struct {
	rpc   pb.RulePackClient
	codec requestCodec
}

// Caller returns a new [Caller] on c.
func (c *Client) Caller() *Caller { return &Caller{rpc: c.rpc} }

// Check sends one batch: config, the pack's configuration as a JSON
// object, and documents, the concatenation of [AppendDocument] results,
// and returns the pack's findings as it gave them (the host checks them).
// The error is the call's (a gRPC status).
func (c *Caller) Check(ctx context.Context, config, documents []byte) ([]Finding, error) {
	req := &pb.CheckRequest{ConfigJson: config}
	// The documents are already encoded: they travel as the message's
	// unknown fields, which proto.Marshal copies as they are.
	req.ProtoReflect().SetUnknown(documents)
	resp, err := c.rpc.Check(ctx, req, grpc.ForceCodec(&c.codec))
	if err != nil {
		c.codec.buf = nil // the transport may still hold the request's bytes
		return nil, err
	}
	out := make([]Finding, len(resp.GetDiagnostics()))
	for i, m := range resp.GetDiagnostics() {
		out[i] = decodeFinding(m)
	}
	return out, nil
}

// requestCodec is gRPC's protobuf codec, except that it marshals a
// CheckRequest into buf, kept from call to call.
type requestCodec struct{ buf []byte }

// Name is the content-subtype of gRPC's protobuf codec.
func (c *requestCodec) Name() string { return "proto" }

// Marshal encodes v, a CheckRequest into buf.
func (c *requestCodec) Marshal(v any) ([]byte, error) {
	req, ok := v.(*pb.CheckRequest)
	if !ok {
		return encoding.GetCodec("proto").Marshal(v)
	}
	var err error
	c.buf, err = proto.MarshalOptions{}.MarshalAppend(c.buf[:0], req)
	return c.buf, err
}

// Unmarshal decodes as gRPC's protobuf codec does.
func (c *requestCodec) Unmarshal(data []byte, v any) error {
	return encoding.GetCodec("proto").Unmarshal(data, v)
}

// ServerOptions are the gRPC server options of a pack: the message limits
// and [serverCodec]. The server has no receive buffer pool: each request
// arrives in a buffer of its own, which the codec keeps for the documents
// instead of copying them out of a pooled one.
func ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.MaxRecvMsgSize(MaxMessageSize), grpc.MaxSendMsgSize(MaxMessageSize),
		grpc.ForceServerCodec(serverCodec{}),
		grpc.InitialWindowSize(window), grpc.InitialConnWindowSize(window),
		grpc.ReadBufferSize(ioBuffer), grpc.WriteBufferSize(ioBuffer),
	}
}

// window is the HTTP/2 flow-control window of both sides; ioBuffer the
// size of their read and write buffers.
const (
	window   = 16 << 20
	ioBuffer = 1 << 20
)

// clientOptions are the host's call options on a pack's connection.
func clientOptions() grpc.DialOption {
	return grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(MaxMessageSize), grpc.MaxCallSendMsgSize(MaxMessageSize))
}

// DialOptions are the gRPC dial options the host connects to a pack with
// (go-plugin's ClientConfig.GRPCDialOptions).
func DialOptions() []grpc.DialOption {
	return []grpc.DialOption{clientOptions(), grpc.WithInitialWindowSize(window), grpc.WithInitialConnWindowSize(window),
		grpc.WithReadBufferSize(ioBuffer), grpc.WithWriteBufferSize(ioBuffer)}
}

// serverCodec is gRPC's protobuf codec, except that it leaves the
// documents of a CheckRequest encoded, in the message's unknown fields, for
// [DecodeDocuments].
type serverCodec struct{}

func (serverCodec) Name() string { return "proto" }

func (serverCodec) Marshal(v any) ([]byte, error) {
	return encoding.GetCodec("proto").Marshal(v)
}

// Unmarshal keeps data, which gRPC does not reuse (no receive buffer pool,
// see [ServerOptions]): the documents are a window of it when they follow
// each other (a host sends them after every other field), else a copy.
func (serverCodec) Unmarshal(data []byte, v any) error {
	req, ok := v.(*pb.CheckRequest)
	if !ok {
		return encoding.GetCodec("proto").Unmarshal(data, v)
	}
	// The window [lo, hi) from the first document field to the end of the
	// last, and whether other fields lie within it.
	lo, hi, size, mixed := -1, 0, 0, false
	for i := 0; i < len(data); {
		num, typ, n := protowire.ConsumeTag(data[i:])
		if n < 0 {
			return protowire.ParseError(n)
		}
		m := protowire.ConsumeFieldValue(num, typ, data[i+n:])
		if m < 0 {
			return protowire.ParseError(m)
		}
		if num == checkRequestDocuments && typ == protowire.BytesType {
			if lo < 0 {
				lo = i
			}
			mixed = mixed || hi != 0 && hi != i
			hi, size = i+n+m, size+n+m
		}
		i += n + m
	}
	var docs, rest []byte
	switch {
	case lo < 0:
		rest = data
	case !mixed:
		docs = data[lo:hi:hi]
		rest = append(data[:lo:lo], data[hi:]...)
	default:
		docs = make([]byte, 0, size)
		rest = make([]byte, 0, len(data)-size)
		for b := data; len(b) > 0; {
			num, typ, n := protowire.ConsumeTag(b)
			m := protowire.ConsumeFieldValue(num, typ, b[n:])
			if num == checkRequestDocuments && typ == protowire.BytesType {
				docs = append(docs, b[:n+m]...)
			} else {
				rest = append(rest, b[:n+m]...)
			}
			b = b[n+m:]
		}
	}
	if err := proto.Unmarshal(rest, req); err != nil {
		return err
	}
	if len(docs) > 0 {
		if u := req.ProtoReflect().GetUnknown(); len(u) > 0 {
			docs = append(u, docs...)
		}
		req.ProtoReflect().SetUnknown(docs)
	}
	return nil
}

// requestDocuments returns the encoded documents of req: its unknown
// fields as [serverCodec] left them, followed by the decoded documents
// encoded again (a request that did not come through the codec). The
// result may share req's memory; req must not be used afterwards.
func requestDocuments(req *pb.CheckRequest) ([]byte, error) {
	raw := req.ProtoReflect().GetUnknown()
	if len(req.GetDocuments()) == 0 {
		return raw, nil
	}
	out := append([]byte(nil), raw...)
	for _, d := range req.GetDocuments() {
		b, err := proto.Marshal(d)
		if err != nil {
			return nil, err
		}
		out = protowire.AppendTag(out, checkRequestDocuments, protowire.BytesType)
		out = protowire.AppendBytes(out, b)
	}
	return out, nil
}

// grpcPlugin is the go-plugin glue for the RulePack service. On the pack
// side pack is the implementation; on the host side it is nil and
// GRPCClient returns a [*Client].
type grpcPlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	pack Pack
}

// GRPCServer registers the pack's implementation with s. It never fails.
func (p *grpcPlugin) GRPCServer(_ *goplugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterRulePackServer(s, &server{pack: p.pack})
	return nil
}

// GRPCClient returns a [*Client] over c. It never fails.
func (p *grpcPlugin) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return NewClient(c), nil
}

// PluginSets returns go-plugin's VersionedPlugins for protocol [Version]
// with pack as the implementation; the host passes nil, and dispensing
// [PluginName] then gives a [*Client].
func PluginSets(pack Pack) map[int]goplugin.PluginSet {
	return map[int]goplugin.PluginSet{
		Version: {PluginName: &grpcPlugin{pack: pack}},
	}
}

// Pipe serves pack on an in-memory gRPC connection, with the server options
// of a pack's process and the call options of the host, and returns the
// host's client for it and a function that closes both ends. It is how
// the SDK's test harness runs a pack over the real protocol in-process.
func Pipe(pack Pack) (*Client, func(), error) {
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer(ServerOptions()...)
	pb.RegisterRulePackServer(srv, &server{pack: pack})
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.Dial("bufconn",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()), clientOptions())
	if err != nil {
		srv.Stop()
		return nil, nil, err
	}
	return NewClient(conn), func() { conn.Close(); srv.Stop() }, nil
}

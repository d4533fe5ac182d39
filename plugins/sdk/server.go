package sdk

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/r35157/journal-lint/internal/syntax"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
	"github.com/r35157/journal-lint/plugins/sdk/internal/hook"
)

func init() {
	hook.ServerOptions = serverOptions
	hook.NewServer = func(p any) (pb.RulePackServer, error) {
		pack, ok := p.(Pack)
		if !ok {
			return nil, fmt.Errorf("sdk: want an sdk.Pack, got %T", p)
		}
		return newServer(pack)
	}
}

// server implements the RulePack service for one pack.
type server struct {
	pb.UnimplementedRulePackServer
	pack Pack

	mu       sync.Mutex
	settings map[string]configured // by configuration JSON
}

// configured is the result of Pack.Configure for one configuration.
type configured struct {
	settings any
	err      error
}

func newServer(p Pack) (*server, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &server{pack: p, settings: map[string]configured{}}, nil
}

// Describe returns the pack's name, versions and rules.
func (s *server) Describe(_ context.Context, _ *pb.DescribeRequest) (*pb.DescribeResponse, error) {
	n := s.pack.EffectiveNeeds()
	out := &pb.DescribeResponse{Name: s.pack.Name, Version: s.pack.Version, SdkVersion: Version, HostVersions: s.pack.HostVersions,
		Needs: &pb.Needs{Text: n&NeedText != 0, Directives: n&NeedDirectives != 0, Revision: n&NeedRevision != 0, Chain: n&NeedChain != 0,
			Parser: syntax.ParserRevision}}
	for _, r := range s.pack.Rules {
		out.Rules = append(out.Rules, &pb.RuleInfo{Name: r.Name, DefaultSeverity: encodeSeverity(r.Severity), Summary: r.Summary, Doc: r.Doc})
	}
	return out, nil
}

// Check runs every rule over every document of the batch.
func (s *server) Check(_ context.Context, req *pb.CheckRequest) (*pb.CheckResponse, error) {
	cfg := Config{raw: req.GetConfigJson()}
	if len(cfg.raw) > 0 {
		if _, err := cfg.Map(); err != nil {
			return nil, status.Errorf(codes.InvalidArgument, "%v", err)
		}
	}
	settings, err := s.configure(cfg)
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "%v", err)
	}
	raw, err := requestDocuments(req)
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "%v", err)
	}
	docs, err := decodeBatch(raw, req.GetParseText(), s.pack.EffectiveNeeds())
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "%v", err)
	}
	resp := &pb.CheckResponse{}
	for _, doc := range docs {
		found, err := s.run(doc, cfg, settings)
		doc.done()
		if err != nil {
			return nil, status.Errorf(codes.Internal, "%v", err)
		}
		for _, f := range found {
			resp.Diagnostics = append(resp.Diagnostics, encodeDiagnostic(doc.Path, f))
		}
	}
	return resp, nil
}

// configure returns the settings for cfg, calling Pack.Configure once per
// distinct configuration.
func (s *server) configure(cfg Config) (any, error) {
	if s.pack.Configure == nil {
		return nil, nil
	}
	key := string(cfg.JSON())
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.settings[key]
	if !ok {
		c.settings, c.err = s.pack.Configure(cfg)
		if c.err != nil {
			c.err = fmt.Errorf("pack config: %w", c.err)
		}
		s.settings[key] = c
	}
	return c.settings, c.err
}

// run runs every rule over doc; a panicking rule is an error.
func (s *server) run(doc *Document, cfg Config, settings any) (out []reported, err error) {
	for _, r := range s.pack.Rules {
		func() {
			defer func() {
				if p := recover(); p != nil {
					fmt.Fprintf(os.Stderr, "rule %s panicked on %s: %v\n%s", r.Name, doc.Path, p, debug.Stack())
					err = fmt.Errorf("rule %s panicked on %s: %v", r.Name, doc.Path, p)
				}
			}()
			r.Check(&Pass{Rule: r, Doc: doc, Config: cfg, Settings: settings, out: &out})
		}()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func encodeSeverity(s Severity) pb.Severity {
	switch s {
	case Error:
		return pb.Severity_SEVERITY_ERROR
	case Warning:
		return pb.Severity_SEVERITY_WARNING
	case Info:
		return pb.Severity_SEVERITY_INFO
	case 0:
		return pb.Severity_SEVERITY_UNSPECIFIED
	}
	return pb.Severity(s) // out of range: the host rejects it
}

func encodeRange(r Range) *pb.Range {
	if !r.IsValid() {
		return nil
	}
	return &pb.Range{
		Start: &pb.Pos{Offset: int64(r.Start.Offset), Line: int32(r.Start.Line), Column: int32(r.Start.Column)},
		End:   &pb.Pos{Offset: int64(r.End.Offset), Line: int32(r.End.Line), Column: int32(r.End.Column)},
	}
}

func encodeDiagnostic(path string, f reported) *pb.Diagnostic {
	out := &pb.Diagnostic{Rule: f.rule, Severity: encodeSeverity(f.d.Severity), Message: f.d.Message,
		Path: path, Range: encodeRange(f.d.Range), Help: f.d.Help}
	for _, r := range f.d.Related {
		p := r.Path
		if p == "" {
			p = path
		}
		out.Related = append(out.Related, &pb.Related{Path: p, Range: encodeRange(r.Range), Message: r.Message})
	}
	return out
}

// maxMessageSize is the gRPC message limit the pack serves with.
const maxMessageSize = wire.MaxMessageSize

package sdk

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"sync"

	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// Handler returns p's side of the protocol, what [Serve] serves, for
// running the pack in-process over package wire (package sdktest does).
// The error is [Pack.Validate]'s.
func Handler(p Pack) (wire.Pack, error) { return newServer(p) }

// server is the protocol's pack side ([wire.Pack]) for one pack.
type server struct {
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

// Describe returns the pack's name, versions, rules, needs and purity.
func (s *server) Describe(context.Context, wire.Host) (wire.Description, error) {
	return s.pack.description(), nil
}

// Check runs every rule over every document of the request, one document
// after the other. A configuration that is not a JSON object or that
// Configure rejects, a part of a document that does not decode, and a rule
// that panics fail the whole request.
func (s *server) Check(_ context.Context, req *wire.Request) ([]wire.Finding, error) {
	cfg := Config{raw: req.Config}
	if _, err := cfg.Map(); err != nil {
		return nil, err
	}
	settings, err := s.configure(cfg)
	if err != nil {
		return nil, err
	}
	var out []wire.Finding
	for _, r := range req.Documents {
		doc := newDocument(r)
		found, err := s.run(doc, cfg, settings)
		if err == nil {
			err = doc.decodeErr()
		}
		if err != nil {
			return nil, err
		}
		for _, f := range found {
			out = append(out, finding(doc.Path, f))
		}
	}
	return out, nil
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

// finding returns what a rule reported on the document at path in the
// protocol's shape.
func finding(path string, f reported) wire.Finding {
	out := wire.Finding{Rule: f.rule, Severity: f.d.Severity, Message: f.d.Message, Path: path, Range: rangeOrNil(f.d.Range), Help: f.d.Help}
	for _, r := range f.d.Related {
		p := r.Path
		if p == "" {
			p = path
		}
		out.Related = append(out.Related, wire.Related{Path: p, Range: rangeOrNil(r.Range), Message: r.Message})
	}
	return out
}

// rangeOrNil returns r, or nil for the zero Range (the whole file).
func rangeOrNil(r Range) *Range {
	if !r.IsValid() {
		return nil
	}
	return &r
}

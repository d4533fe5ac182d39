package plugin_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	"github.com/r35157/journal-lint/internal/plugin"
	"github.com/r35157/journal-lint/internal/plugin/packtest"
	"github.com/r35157/journal-lint/internal/syntax"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
)

// recorder is a pack as the host sees it (its RulePackClient): Describe
// answers with the given needs, and Check records the documents of every
// request as the pack would decode them from the wire.
type recorder struct {
	needs *pb.Needs // nil: a pack built before needs existed

	mu    sync.Mutex
	docs  map[string]*pb.Document // by path
	parse bool                    // a request said parse_text
}

func (r *recorder) Describe(context.Context, *pb.DescribeRequest, ...grpc.CallOption) (*pb.DescribeResponse, error) {
	return &pb.DescribeResponse{Name: "recorder", Version: "0.0.1", SdkVersion: "test", Needs: r.needs,
		Rules: []*pb.RuleInfo{{Name: "probe", DefaultSeverity: pb.Severity_SEVERITY_WARNING, Summary: "records what it gets"}}}, nil
}

func (r *recorder) Check(_ context.Context, req *pb.CheckRequest, _ ...grpc.CallOption) (*pb.CheckResponse, error) {
	// The host's documents travel as unknown fields: marshal the request
	// as gRPC would and decode it as the pack does.
	data, err := proto.Marshal(req)
	if err != nil {
		return nil, err
	}
	var got pb.CheckRequest
	if err := proto.Unmarshal(data, &got); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.docs == nil {
		r.docs = map[string]*pb.Document{}
	}
	for _, d := range got.GetDocuments() {
		r.docs[d.GetPath()] = d
	}
	r.parse = r.parse || got.GetParseText()
	return &pb.CheckResponse{}, nil
}

const (
	widgetPath = "com.example.widget/20260110T080000Z.journal"
	brokenPath = "com.example.broken/20260110T080000Z.journal"
)

// needsTree is a valid document and an invalid one (no JOURNAL_VERSION).
var needsTree = map[string]string{
	widgetPath: packtest.Widget,
	brokenPath: "JOURNAL_FORMAT 1\nARTIFACT com.example.broken\nDESCRIPTION \"no version\"\n",
}

// parts describes which optional parts a document carries.
func parts(d *pb.Document) string {
	if d == nil {
		return "missing"
	}
	rev := "none"
	if d.Revision != nil {
		rev = "empty"
		if proto.Size(d.Revision) > 0 {
			rev = "full"
		}
	}
	return fmt.Sprintf("text=%v directives=%v revision=%s chain=%v digest=%v",
		len(d.GetText()) > 0, len(d.GetDirectives().GetArgCounts()) > 0, rev, d.Chain != nil, d.GetDigest() != "")
}

// TestNeeds checks what the host sends to packs by their declared needs,
// all in one Set.Check over one Input, so that packs with different needs
// share the batches' encodings without seeing each other's parts. A pack
// that parses the texts with the host's parser gets text instead of
// directives and model; every other pack, what it got before packs could
// parse.
func TestNeeds(t *testing.T) {
	cases := []struct {
		name          string
		needs         *pb.Needs
		valid, broken string
		parse         bool // the requests say parse_text
	}{{
		name:   "absent (an old pack): everything",
		needs:  nil,
		valid:  "text=true directives=true revision=full chain=true digest=true",
		broken: "text=true directives=true revision=none chain=true digest=true",
	}, {
		name:   "every part",
		needs:  &pb.Needs{Text: true, Directives: true, Revision: true, Chain: true},
		valid:  "text=true directives=true revision=full chain=true digest=true",
		broken: "text=true directives=true revision=none chain=true digest=true",
	}, {
		name:   "revision only",
		needs:  &pb.Needs{Revision: true},
		valid:  "text=false directives=false revision=full chain=false digest=true",
		broken: "text=false directives=false revision=none chain=false digest=true",
	}, {
		name:   "directives (bring the text; an empty revision marks a valid document)",
		needs:  &pb.Needs{Directives: true},
		valid:  "text=true directives=true revision=empty chain=false digest=true",
		broken: "text=true directives=true revision=none chain=false digest=true",
	}, {
		name:   "chain only",
		needs:  &pb.Needs{Chain: true},
		valid:  "text=false directives=false revision=empty chain=true digest=true",
		broken: "text=false directives=false revision=none chain=true digest=true",
	}, {
		name:   "nothing declared but the message present",
		needs:  &pb.Needs{},
		valid:  "text=false directives=false revision=empty chain=false digest=true",
		broken: "text=false directives=false revision=none chain=false digest=true",
	}, {
		name:   "every part, parsed with the host's parser (an SDK pack): text and validity",
		needs:  &pb.Needs{Text: true, Directives: true, Revision: true, Chain: true, Parser: syntax.ParserRevision},
		valid:  "text=true directives=false revision=empty chain=true digest=true",
		broken: "text=true directives=false revision=none chain=true digest=true",
		parse:  true,
	}, {
		name:   "revision, parsed with the host's parser: the text to parse",
		needs:  &pb.Needs{Revision: true, Parser: syntax.ParserRevision},
		valid:  "text=true directives=false revision=empty chain=false digest=true",
		broken: "text=true directives=false revision=none chain=false digest=true",
		parse:  true,
	}, {
		name:   "every part, parsed with another parser (an SDK unlike the host's): every part",
		needs:  &pb.Needs{Text: true, Directives: true, Revision: true, Chain: true, Parser: "journal-lint-syntax/0"},
		valid:  "text=true directives=true revision=full chain=true digest=true",
		broken: "text=true directives=true revision=none chain=true digest=true",
	}}
	ctx := context.Background()
	in := tree(t, needsTree)
	set := &plugin.Set{}
	recs := make([]*recorder, len(cases))
	for i, c := range cases {
		recs[i] = &recorder{needs: c.needs}
		p, err := plugin.Connect(ctx, recs[i], plugin.Spec{Name: fmt.Sprintf("pack-%d", i)}, plugin.Options{})
		if err != nil {
			t.Fatal(err)
		}
		set.Packs = append(set.Packs, p)
	}
	defer set.Close()
	// Twice: the second run encodes the batches again after the first
	// dropped and recycled their buffers.
	for run := 0; run < 2; run++ {
		if ds, err := set.Check(ctx, in); err != nil || len(ds) != 0 {
			t.Fatalf("run %d: %v\n%s", run, err, list(ds))
		}
		for i, c := range cases {
			if recs[i].parse != c.parse {
				t.Errorf("run %d, %s: parse_text %v", run, c.name, recs[i].parse)
			}
			for path, want := range map[string]string{widgetPath: c.valid, brokenPath: c.broken} {
				if got := parts(recs[i].docs[path]); got != want {
					t.Errorf("run %d, %s: %s: %s, want %s", run, c.name, path, got, want)
				}
			}
		}
	}
	// A revision that is sent is the whole model, and the text the exact file.
	full, rev := recs[0].docs[widgetPath], recs[2].docs[widgetPath]
	if !proto.Equal(full.GetRevision(), rev.GetRevision()) || full.GetRevision().GetCoordinate() != "com.example.widget" {
		t.Errorf("revision-only pack got model %v, want %v", rev.GetRevision(), full.GetRevision())
	}
	if string(recs[3].docs[widgetPath].GetText()) != packtest.Widget {
		t.Errorf("directives pack got text %q", recs[3].docs[widgetPath].GetText())
	}
}

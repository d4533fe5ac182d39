package plugin_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/r35157/journal-lint/internal/plugin"
	"github.com/r35157/journal-lint/internal/plugin/packtest"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// recorder is a pack (the protocol's pack side) whose Describe answers with
// the given needs and whose Check records what each document carries.
type recorder struct {
	needs wire.Needs

	mu    sync.Mutex
	parts map[string]string // by path
	texts map[string]string
	coord map[string]string // the model's coordinate, by path
}

func (r *recorder) Describe(context.Context, wire.Host) (wire.Description, error) {
	return wire.Description{Name: "recorder", Version: "0.0.1", SDKVersion: "test", Needs: r.needs,
		Rules: []wire.RuleInfo{{Name: "probe", Severity: wire.SeverityWarning, Summary: "records what it gets"}}}, nil
}

func (r *recorder) Check(_ context.Context, req *wire.Request) ([]wire.Finding, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.parts == nil {
		r.parts, r.texts, r.coord = map[string]string{}, map[string]string{}, map[string]string{}
	}
	for _, d := range req.Documents {
		rev, err := d.Revision()
		if err != nil {
			return nil, err
		}
		dirs, err := d.Directives()
		if err != nil {
			return nil, err
		}
		model := "none"
		if d.Valid {
			model = "empty"
			if !rev.Digest().IsZero() {
				model = "full"
			}
		}
		r.parts[d.Path] = fmt.Sprintf("text=%v directives=%v revision=%s chain=%v digest=%v",
			len(d.Text) > 0, len(dirs) > 0, model, d.Chain.Coordinate != "", !d.Digest.IsZero())
		r.texts[d.Path] = string(d.Text)
		r.coord[d.Path] = rev.Coordinate().String()
	}
	return nil, nil
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

// TestNeeds checks what the host sends to packs by their declared needs,
// all in one stream, so that packs with different needs share the
// batches' encodings without seeing each other's parts.
func TestNeeds(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name          string
		needs         wire.Needs
		valid, broken string
	}{{
		name:   "every part",
		needs:  wire.NeedAll,
		valid:  "text=true directives=true revision=full chain=true digest=true",
		broken: "text=true directives=true revision=none chain=true digest=true",
	}, {
		name:   "revision only",
		needs:  wire.NeedRevision,
		valid:  "text=false directives=false revision=full chain=false digest=true",
		broken: "text=false directives=false revision=none chain=false digest=true",
	}, {
		name:   "directives (bring the text; an empty revision marks a valid document)",
		needs:  wire.NeedDirectives,
		valid:  "text=true directives=true revision=empty chain=false digest=true",
		broken: "text=true directives=true revision=none chain=false digest=true",
	}, {
		name:   "chain only",
		needs:  wire.NeedChain,
		valid:  "text=false directives=false revision=empty chain=true digest=true",
		broken: "text=false directives=false revision=none chain=true digest=true",
	}, {
		name:   "nothing",
		needs:  0,
		valid:  "text=false directives=false revision=empty chain=false digest=true",
		broken: "text=false directives=false revision=none chain=false digest=true",
	}}
	ctx := context.Background()
	recs := make([]*recorder, len(cases))
	var clients []*wire.Client
	var names []string
	for i, c := range cases {
		recs[i] = &recorder{needs: c.needs}
		client, stop, err := wire.Pipe(recs[i])
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		clients = append(clients, client)
		names = append(names, fmt.Sprintf("pack-%d", i))
	}
	ps, err := plugin.Connected(ctx, clients, names, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ps.Close()
	root := tree(t, needsTree)
	// Twice: the second run encodes the batches again after the first
	// dropped and recycled their buffers.
	for run := 0; run < 2; run++ {
		if ds := checkTree(t, ps, root); len(ds) != 0 {
			t.Fatalf("run %d:\n%s", run, list(ds))
		}
		for i, c := range cases {
			for path, want := range map[string]string{widgetPath: c.valid, brokenPath: c.broken} {
				if got := recs[i].parts[path]; got != want {
					t.Errorf("run %d, %s: %s: %s, want %s", run, c.name, path, got, want)
				}
			}
		}
	}
	// A revision that is sent is the whole model, and the text the exact file.
	if recs[1].coord[widgetPath] != "com.example.widget" || recs[0].coord[widgetPath] != "com.example.widget" {
		t.Errorf("models: %q and %q", recs[0].coord[widgetPath], recs[1].coord[widgetPath])
	}
	if recs[2].texts[widgetPath] != packtest.Widget {
		t.Errorf("directives pack got text %q", recs[2].texts[widgetPath])
	}
}

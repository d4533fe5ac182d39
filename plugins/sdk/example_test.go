package sdk_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/plugins/sdk"
	"github.com/r35157/journal-lint/plugins/sdk/sdktest"
)

// A pack with one rule: every release needs a PUBLISHED line. Its main
// would be `func main() { sdk.Serve(published) }`; here sdktest runs it
// in-process over one Journal text.
func Example() {
	published := sdk.Pack{
		Name:    "house",
		Version: "1.0.0",
		Rules: []sdk.Rule{{
			Name:     "unpublished",
			Severity: sdk.Info,
			Summary:  "a release without a PUBLISHED time",
			Check: func(p *sdk.Pass) {
				if !p.Doc.Valid {
					return
				}
				for _, r := range p.Doc.Revision().Releases() {
					if _, ok := r.Published(); !ok {
						b, _ := p.Doc.ReleaseBlock(r.Version().String())
						p.Reportf(b.Release.Range, "release %s has no PUBLISHED time", r.Version())
					}
				}
			},
		}},
	}
	text := `JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE MIT
CONTENT widget.jar sha256:1111111111111111111111111111111111111111111111111111111111111111
`
	found, err := sdktest.CheckFiles(&testing.T{}, published, nil, map[string]string{"widget.journal": text})
	fmt.Println(sdktest.Join(found), err)
	// Output: widget.journal:6:1: info: release 1.0.0 has no PUBLISHED time [house/unpublished] <nil>
}

func TestValidate(t *testing.T) {
	bad := sdk.Pack{Name: "Bad Name", Rules: []sdk.Rule{{Name: "x"}, {Name: "x", Severity: sdk.Error, Summary: "s"}}}
	err := bad.Validate()
	for _, want := range []string{`pack name "Bad Name"`, "invalid default severity", "summary must be one non-empty line", "no Check", "duplicate name"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want it to mention %q", err, want)
		}
	}
}

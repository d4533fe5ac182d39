package sdk_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/plugins/sdk"
	"github.com/r35157/journal-lint/plugins/sdk/sdktest"
)

const needsWidget = `JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE MIT
CONTENT widget-1.0.0.jar sha256:1111111111111111111111111111111111111111111111111111111111111111
`

const needsBroken = "JOURNAL_FORMAT 1\nARTIFACT com.example.broken\nDESCRIPTION \"no version\"\n"

// needsTree writes a tree with a valid document and an invalid one.
func needsTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for path, text := range map[string]string{
		"com.example.widget/20260110T080000Z.journal": needsWidget,
		"com.example.broken/20260110T080000Z.journal": needsBroken,
	} {
		full := filepath.Join(root, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// probe is a rule that reports what its document carries.
func probe(name string, needs sdk.Needs) sdk.Rule {
	return sdk.Rule{Name: name, Severity: sdk.Info, Summary: "reports what it sees", Needs: needs, Check: func(p *sdk.Pass) {
		d := p.Doc
		p.Reportf(sdk.Range{}, "text=%d directives=%d blocks=%d valid=%v coordinate=%q releases=%d chain=%q/%d digest=%v",
			len(d.Text), len(d.Directives()), len(d.ReleaseBlocks()), d.Valid, d.Revision().Coordinate().String(),
			len(d.Revision().Releases()), d.Chain.Coordinate, len(d.Chain.Revisions), !d.Digest.IsZero())
	}}
}

// seen runs pack over the tree and returns what its first rule saw, by
// document directory.
func seen(t *testing.T, pack sdk.Pack) map[string]string {
	t.Helper()
	fs, err := sdktest.CheckTree(t, pack, nil, needsTree(t))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range fs {
		if strings.HasSuffix(f.Code, "/"+pack.Rules[0].Name) {
			dir, _, _ := strings.Cut(f.Path, "/")
			out[dir] = f.Message
		}
	}
	return out
}

func TestNeeds(t *testing.T) {
	w, b := len(needsWidget), len(needsBroken)
	var (
		widgetAll    = fmt.Sprintf(`text=%d directives=7 blocks=1 valid=true coordinate="com.example.widget" releases=1 chain="com.example.widget"/1 digest=true`, w)
		brokenAll    = fmt.Sprintf(`text=%d directives=3 blocks=0 valid=false coordinate="" releases=0 chain="com.example.broken"/0 digest=true`, b)
		widgetRev    = `text=0 directives=0 blocks=0 valid=true coordinate="com.example.widget" releases=1 chain=""/0 digest=true`
		brokenRev    = `text=0 directives=0 blocks=0 valid=false coordinate="" releases=0 chain=""/0 digest=true`
		widgetDirs   = fmt.Sprintf(`text=%d directives=7 blocks=1 valid=true coordinate="" releases=0 chain=""/0 digest=true`, w)
		brokenDirs   = fmt.Sprintf(`text=%d directives=3 blocks=0 valid=false coordinate="" releases=0 chain=""/0 digest=true`, b)
		widgetRevDir = fmt.Sprintf(`text=%d directives=7 blocks=1 valid=true coordinate="com.example.widget" releases=1 chain=""/0 digest=true`, w)
	)
	cases := []struct {
		name           string
		pack           sdk.Pack
		widget, broken string
	}{
		{"nothing declared: everything", pack(0, probe("probe", 0)), widgetAll, brokenAll},
		{"pack: revision only", pack(sdk.NeedRevision, probe("probe", 0)), widgetRev, brokenRev},
		{"pack: directives", pack(sdk.NeedDirectives, probe("probe", 0)), widgetDirs, brokenDirs},
		{"pack needs win over rule needs", pack(sdk.NeedRevision, probe("probe", sdk.NeedAll)), widgetRev, brokenRev},
		{"rule: revision only", pack(0, probe("probe", sdk.NeedRevision)), widgetRev, brokenRev},
		{"rules: the union", pack(0, probe("probe", sdk.NeedRevision), probe("other", sdk.NeedDirectives)), widgetRevDir, brokenDirs},
		{"a rule without needs means everything", pack(0, probe("probe", sdk.NeedRevision), probe("other", 0)), widgetAll, brokenAll},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := seen(t, c.pack)
			if got["com.example.widget"] != c.widget {
				t.Errorf("valid document:\n got %s\nwant %s", got["com.example.widget"], c.widget)
			}
			if got["com.example.broken"] != c.broken {
				t.Errorf("invalid document:\n got %s\nwant %s", got["com.example.broken"], c.broken)
			}
		})
	}
}

func pack(needs sdk.Needs, rules ...sdk.Rule) sdk.Pack {
	return sdk.Pack{Name: "needs", Version: "0.0.1", Needs: needs, Rules: rules}
}

func TestEffectiveNeeds(t *testing.T) {
	rule := func(n sdk.Needs) sdk.Rule { return sdk.Rule{Needs: n} }
	for _, c := range []struct {
		pack sdk.Pack
		want sdk.Needs
	}{
		{sdk.Pack{}, sdk.NeedAll},
		{sdk.Pack{Rules: []sdk.Rule{rule(0)}}, sdk.NeedAll},
		{sdk.Pack{Needs: sdk.NeedRevision, Rules: []sdk.Rule{rule(0)}}, sdk.NeedRevision},
		{sdk.Pack{Needs: sdk.NeedDirectives}, sdk.NeedDirectives | sdk.NeedText},
		{sdk.Pack{Rules: []sdk.Rule{rule(sdk.NeedRevision), rule(sdk.NeedChain)}}, sdk.NeedRevision | sdk.NeedChain},
		{sdk.Pack{Rules: []sdk.Rule{rule(sdk.NeedRevision), rule(sdk.NeedDirectives)}}, sdk.NeedRevision | sdk.NeedDirectives | sdk.NeedText},
		{sdk.Pack{Rules: []sdk.Rule{rule(sdk.NeedRevision), rule(0), rule(sdk.NeedChain)}}, sdk.NeedAll},
	} {
		if got := c.pack.EffectiveNeeds(); got != c.want {
			t.Errorf("%s: EffectiveNeeds = %#x, want %#x", describe(c.pack), got, c.want)
		}
	}
	if !sdk.NeedDirectives.Has(sdk.NeedText) || sdk.NeedRevision.Has(sdk.NeedText) || !sdk.Needs(0).Has(sdk.NeedChain) {
		t.Error("Has: directives must include text, revision must not, 0 must mean every part")
	}
	bad := pack(1<<6, probe("probe", 0))
	bad.Rules = append(bad.Rules, probe("other", 1<<7))
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "pack needs 0x40 has unknown parts") ||
		!strings.Contains(err.Error(), "needs 0x80 has unknown parts") {
		t.Errorf("Validate of unknown needs: %v", err)
	}
}

func describe(p sdk.Pack) string {
	var rs []string
	for _, r := range p.Rules {
		rs = append(rs, fmt.Sprintf("%#x", r.Needs))
	}
	return fmt.Sprintf("pack %#x rules [%s]", p.Needs, strings.Join(rs, " "))
}

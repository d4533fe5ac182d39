package diffrender_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/r35157/journal-lint/internal/diff"
	"github.com/r35157/journal-lint/internal/diff/difftest"
	"github.com/r35157/journal-lint/internal/render"
	"github.com/r35157/journal-lint/internal/render/diffrender"
)

var update = flag.Bool("update", false, "rewrite the golden files in the fixtures of package diff (also JOURNAL_UPDATE=1)")

func updating() bool { return *update || os.Getenv("JOURNAL_UPDATE") != "" }

// fixtureDir returns the directory of a fixture of package diff, such as
// testdata/release-added/noncase; the golden outputs live beside its
// previous/ and current/ revisions.
func fixtureDir(elem ...string) string {
	return filepath.Join(append([]string{"..", "..", "diff", "testdata"}, elem...)...)
}

// golden compares got with the file, or rewrites it when updating.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if updating() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/render/diffrender -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test ./internal/render/diffrender -update to accept):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

var goldenFormats = []struct {
	format render.Format
	ext    string
}{
	{render.Text, "text"}, {render.JSON, "json"}, {render.Markdown, "md"}, {render.GitHub, "github"},
}

// TestGoldens renders the diff of every kind's fixture in every format and
// compares it with the fixture's expected.<ext>.
func TestGoldens(t *testing.T) {
	t.Parallel()
	for _, ki := range diff.Kinds() {
		t.Run(string(ki.Kind), func(t *testing.T) {
			dir := fixtureDir(string(ki.Kind))
			r := difftest.Load(t, dir).Compare(t)
			for _, gf := range goldenFormats {
				var b bytes.Buffer
				if err := diffrender.Write(&b, gf.format, []*diff.Result{r}, diffrender.WriteOptions{}); err != nil {
					t.Fatal(err)
				}
				golden(t, filepath.Join(dir, "expected."+gf.ext), b.Bytes())
			}
		})
	}
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(diffrender.Schema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://github.com/r35157/journal-lint/docs/diff.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// TestJSONValidatesAgainstSchema validates real output of every fixture,
// one by one and all together, and an empty run.
func TestJSONValidatesAgainstSchema(t *testing.T) {
	t.Parallel()
	sch := compileSchema(t)
	var all []*diff.Result
	check := func(name string, rs []*diff.Result) {
		var b bytes.Buffer
		if err := diffrender.Write(&b, render.JSON, rs, diffrender.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(&b)
		if err != nil {
			t.Fatalf("%s: output is not JSON: %v", name, err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: output does not validate: %v", name, err)
		}
	}
	for _, ki := range diff.Kinds() {
		for _, sub := range []string{"", "noncase"} {
			r := difftest.Load(t, fixtureDir(string(ki.Kind), sub)).Compare(t)
			check(string(ki.Kind)+"/"+sub, []*diff.Result{r})
			all = append(all, r)
		}
	}
	check("all", all)
	check("none", nil)
}

func TestParseFormat(t *testing.T) {
	t.Parallel()
	for _, gf := range goldenFormats {
		name := gf.format.String()
		if f, err := render.ParseFormat(" "+strings.ToUpper(name)+" ", render.DiffFormats()); err != nil || f != gf.format {
			t.Errorf("ParseFormat(%q) = %v, %v", name, f, err)
		}
	}
	if _, err := render.ParseFormat("sarif", render.DiffFormats()); err == nil {
		t.Error("sarif accepted")
	}
	for _, f := range []render.Format{render.SARIF, render.Format(42)} {
		if err := diffrender.Write(&bytes.Buffer{}, f, nil, diffrender.WriteOptions{}); err == nil {
			t.Errorf("Write accepted %v", f)
		}
	}
}

func TestColorText(t *testing.T) {
	t.Parallel()
	r := difftest.Load(t, fixtureDir("description-changed")).Compare(t)
	var b bytes.Buffer
	if err := diffrender.Write(&b, render.Text, []*diff.Result{r}, diffrender.WriteOptions{Color: true, PathPrefix: "journals"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"\x1b[31m[-", "\x1b[32m{+", "journals/current/"} {
		if !strings.Contains(out, want) {
			t.Errorf("coloured text lacks %q:\n%s", want, out)
		}
	}
}

var inlineDiffTests = []struct {
	old, new, want string
}{
	{"A tiny UI toolkit", "A small UI toolkit", "A [-tiny-]{+small+} UI toolkit"},
	{"upgrade to 1.2.0", "upgrade to 1.2.1", "upgrade to [-1.2.0-]{+1.2.1+}"},
	{"", "new text", "{+new text+}"},
	{"old text", "", "[-old text-]"},
	{"same", "same", "same"},
	{"tables and footnotes", "tables, footnotes and emoji", "tables{+, footnotes+} and [-footnotes-]{+emoji+}"},
}

func TestInlineDiff(t *testing.T) {
	t.Parallel()
	for _, tt := range inlineDiffTests {
		if got := diffrender.InlineDiff(tt.old, tt.new, false); got != tt.want {
			t.Errorf("InlineDiff(%q, %q) = %q, want %q", tt.old, tt.new, got, tt.want)
		}
	}
}

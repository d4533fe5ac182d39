package render

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchema compiles the official SARIF 2.1.0 schema in testdata, with
// format assertions (uri, uri-reference) switched on.
func sarifSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://json.schemastore.invalid/sarif-schema-2.1.0.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validateSARIF(t *testing.T, sch *jsonschema.Schema, out []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("SARIF output is not JSON: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("SARIF output does not validate against the 2.1.0 schema: %v", err)
	}
}

func TestSARIFValidatesAgainstSchema(t *testing.T) {
	t.Parallel()
	sch := sarifSchema(t)
	odd := fixtureReport()
	odd.Root = `C:\Users\me\journals`
	odd.Rule = nil
	odd.Source = nil
	odd.Tool = ToolInfo{}
	odd.Diagnostics = append(odd.Diagnostics,
		diag.Diagnostic{Code: "x/y", Severity: diag.SeverityInvalid, Message: "", Path: "a b/%c#d?.journal",
			Range: diag.Range{Start: diag.Pos{Offset: 5, Line: 2, Column: 0}}},
		diag.Diagnostic{Code: "x/y", Severity: diag.Warning, Message: "end before start", Path: "z",
			Range: diag.Range{Start: diag.Pos{Offset: 9, Line: 3, Column: 4}, End: diag.Pos{Offset: 2, Line: 1, Column: 3}}},
	)
	reports := map[string]Report{
		"fixture": fixtureReport(),
		"empty":   {},
		"odd":     odd,
	}
	for name, r := range reports {
		t.Run(name, func(t *testing.T) {
			validateSARIF(t, sch, render(t, SARIF, r, Options{}))
		})
	}
	// The schema really checks: these break it.
	for _, bad := range []string{
		`{"version":"2.1.0","runs":[{"tool":{"driver":{}}}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"level":"info"}]}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a"},"region":{"startLine":0}}}]}]}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","informationUri":"not a uri"}}}]}`,
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if sch.Validate(inst) == nil {
			t.Errorf("schema accepts invalid SARIF %s", bad)
		}
	}
}

func TestSARIFContent(t *testing.T) {
	t.Parallel()
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name, Version, InformationURI string
					Rules                         []struct {
						ID                   string
						DefaultConfiguration struct{ Level string }
					}
				}
			}
			ColumnKind         string
			OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
			Results            []struct {
				RuleID              string
				RuleIndex           int
				Level               string
				Locations           []json.RawMessage
				RelatedLocations    []json.RawMessage
				PartialFingerprints map[string]string
			}
		}
	}
	r := fixtureReport()
	if err := json.Unmarshal(render(t, SARIF, r, Options{}), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || log.Schema != SARIFSchemaURI || len(log.Runs) != 1 {
		t.Fatalf("header: version %q schema %q runs %d", log.Version, log.Schema, len(log.Runs))
	}
	run := log.Runs[0]
	if run.ColumnKind != "unicodeCodePoints" {
		t.Errorf("columnKind = %q", run.ColumnKind)
	}
	if base, ok := run.OriginalURIBaseIDs[SARIFRootBaseID]; !ok || base.URI != "" {
		t.Errorf("originalUriBaseIds[%s] = %+v, %v; want a base without a uri (no machine path)", SARIFRootBaseID, base, ok)
	}
	d := run.Tool.Driver
	if d.Name != "journal-lint" || d.Version != "0.1.0" || d.InformationURI == "" {
		t.Errorf("driver = %+v", d)
	}
	fps := Fingerprints(r)
	if len(run.Results) != len(r.Diagnostics) {
		t.Fatalf("%d results for %d diagnostics", len(run.Results), len(r.Diagnostics))
	}
	for i, res := range run.Results {
		dg := r.Diagnostics[i]
		if res.RuleID != dg.Code || d.Rules[res.RuleIndex].ID != dg.Code {
			t.Errorf("result %d: ruleId %q, rules[%d] = %q, want %q", i, res.RuleID, res.RuleIndex, d.Rules[res.RuleIndex].ID, dg.Code)
		}
		if want := map[diag.Severity]string{diag.Error: "error", diag.Warning: "warning", diag.Info: "note"}[dg.Severity]; res.Level != want {
			t.Errorf("result %d: level %q, want %q", i, res.Level, want)
		}
		if len(res.Locations) != 1 {
			t.Errorf("result %d: %d locations; code scanning needs exactly one", i, len(res.Locations))
		} else if dg.Path == "" && !strings.Contains(string(res.Locations[0]), `"./"`) {
			t.Errorf("result %d: a root diagnostic points at %s, want the root \"./\"", i, res.Locations[0])
		}
		if len(res.RelatedLocations) != len(dg.Related) {
			t.Errorf("result %d: %d related locations, want %d", i, len(res.RelatedLocations), len(dg.Related))
		}
		if got := res.PartialFingerprints[SARIFFingerprintKey]; got != fps[i] {
			t.Errorf("result %d: fingerprint %q, want %q", i, got, fps[i])
		}
	}
	for _, rule := range d.Rules {
		if rule.ID == "fs/unexpected-entry" && rule.DefaultConfiguration.Level != "note" {
			t.Errorf("unknown rule takes the level of its first result: got %q", rule.DefaultConfiguration.Level)
		}
		if rule.ID == "chain/fork" && rule.DefaultConfiguration.Level != "error" {
			t.Errorf("chain/fork level %q", rule.DefaultConfiguration.Level)
		}
	}
}

func TestSARIFRegion(t *testing.T) {
	t.Parallel()
	intp := func(n int) *int { return &n }
	tests := []struct {
		name string
		rg   diag.Range
		want *sarifRegion
	}{
		{"none", diag.Range{}, nil},
		{"one line", diag.Range{Start: diag.Pos{Offset: 4, Line: 1, Column: 5}, End: diag.Pos{Offset: 9, Line: 1, Column: 8}},
			&sarifRegion{StartLine: 1, StartColumn: 5, EndLine: 1, EndColumn: 8, ByteOffset: intp(4), ByteLength: intp(5)}},
		{"empty", diag.Range{Start: diag.Pos{Offset: 4, Line: 1, Column: 5}, End: diag.Pos{Offset: 4, Line: 1, Column: 5}},
			&sarifRegion{StartLine: 1, StartColumn: 5, EndLine: 1, EndColumn: 5, ByteOffset: intp(4), ByteLength: intp(0)}},
		{"unknown end", diag.Range{Start: diag.Pos{Offset: 4, Line: 2, Column: 1}},
			&sarifRegion{StartLine: 2, StartColumn: 1, ByteOffset: intp(4)}},
		{"end before start", diag.Range{Start: diag.Pos{Offset: 9, Line: 2, Column: 3}, End: diag.Pos{Offset: 1, Line: 1, Column: 2}},
			&sarifRegion{StartLine: 2, StartColumn: 3, ByteOffset: intp(9)}},
		{"unknown column", diag.Range{Start: diag.Pos{Offset: 4, Line: 2}, End: diag.Pos{Offset: 8, Line: 2, Column: 5}},
			&sarifRegion{StartLine: 2, EndLine: 2, ByteOffset: intp(4), ByteLength: intp(4)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, sarifRegionOf(tt.rg)); diff != "" {
				t.Errorf("region (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJSONShape(t *testing.T) {
	t.Parallel()
	var doc map[string]any
	if err := json.Unmarshal(render(t, JSON, fixtureReport(), Options{}), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["version"] != float64(2) || doc["root"] != "." {
		t.Errorf("version %v root %v", doc["version"], doc["root"])
	}
	diags := doc["diagnostics"].([]any)
	root := diags[0].(map[string]any)
	for _, k := range []string{"path", "range", "related", "help"} {
		if _, ok := root[k]; ok {
			t.Errorf("root diagnostic has %q", k)
		}
	}
	for _, k := range []string{"code", "severity", "message", "fingerprint"} {
		if _, ok := root[k]; !ok {
			t.Errorf("root diagnostic lacks %q", k)
		}
	}
	whole := diags[len(diags)-1].(map[string]any)
	if _, ok := whole["range"]; ok || whole["path"] != "odd,dir/bad:name.journal" {
		t.Errorf("whole-file diagnostic: %v", whole)
	}
	sum := doc["summary"].(map[string]any)
	want := map[string]any{"errors": 4.0, "warnings": 2.0, "infos": 2.0, "files": 4.0, "artifacts": 3.0, "revisions": 1.0}
	if diff := cmp.Diff(want, sum); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}

	empty := render(t, JSON, Report{}, Options{})
	if !bytes.Contains(empty, []byte(`"diagnostics": []`)) || !bytes.HasSuffix(empty, []byte("}\n")) {
		t.Errorf("empty report:\n%s", empty)
	}
}

func TestGitHubEscaping(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, data, prop string
	}{
		{"plain text", "plain text", "plain text"},
		{"100%", "100%25", "100%25"},
		{"a\rb", "a%0Db", "a%0Db"},
		{"a\nb", "a%0Ab", "a%0Ab"},
		{"a:b", "a:b", "a%3Ab"},
		{"a,b", "a,b", "a%2Cb"},
		{"%0A", "%250A", "%250A"},
		{"x:%,\r\n", "x:%25,%0D%0A", "x%3A%25%2C%0D%0A"},
		{"::error::", "::error::", "%3A%3Aerror%3A%3A"},
	}
	for _, tt := range tests {
		if got := EscapeData(tt.in); got != tt.data {
			t.Errorf("EscapeData(%q) = %q, want %q", tt.in, got, tt.data)
		}
		if got := EscapeProperty(tt.in); got != tt.prop {
			t.Errorf("EscapeProperty(%q) = %q, want %q", tt.in, got, tt.prop)
		}
	}
}

func TestGitHubCommands(t *testing.T) {
	t.Parallel()
	pos := func(off, line, col int) diag.Pos { return diag.Pos{Offset: off, Line: line, Column: col} }
	tests := []struct {
		name string
		d    diag.Diagnostic
		opts Options
		want string
	}{
		{"root", diag.Diagnostic{Code: "fs/root-missing", Severity: diag.Error, Message: "no root"}, Options{},
			"::error title=fs/root-missing::no root\n"},
		{"warning one line", diag.Diagnostic{Code: "a/b", Severity: diag.Warning, Message: "m", Path: "x.journal",
			Range: diag.Range{Start: pos(0, 2, 3), End: pos(4, 2, 7)}}, Options{},
			"::warning file=x.journal,line=2,col=3,endLine=2,endColumn=7,title=a/b::m\n"},
		{"info is notice", diag.Diagnostic{Code: "a/b", Severity: diag.Info, Message: "m", Path: "x"}, Options{},
			"::notice file=x,title=a/b::m\n"},
		{"multi-line drops columns", diag.Diagnostic{Code: "a/b", Severity: diag.Error, Message: "m", Path: "x",
			Range: diag.Range{Start: pos(0, 2, 3), End: pos(20, 4, 2)}}, Options{},
			"::error file=x,line=2,endLine=4,title=a/b::m\n"},
		{"ends after a newline", diag.Diagnostic{Code: "a/b", Severity: diag.Error, Message: "m", Path: "x",
			Range: diag.Range{Start: pos(0, 2, 1), End: pos(20, 3, 1)}}, Options{},
			"::error file=x,line=2,col=1,endLine=2,title=a/b::m\n"},
		{"unknown end", diag.Diagnostic{Code: "a/b", Severity: diag.Error, Message: "m", Path: "x",
			Range: diag.Range{Start: pos(0, 2, 5)}}, Options{},
			"::error file=x,line=2,col=5,title=a/b::m\n"},
		{"prefix and escapes", diag.Diagnostic{Code: "a/b", Severity: diag.Error, Message: "50% done\nnext: x, y",
			Path: "d,1/f:2.journal", Help: "fix it"}, Options{PathPrefix: "sub/dir/"},
			"::error file=sub/dir/d%2C1/f%3A2.journal,title=a/b::50%25 done\\nnext: x, y%0Ahelp: fix it\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, _ := strings.Cut(string(render(t, GitHub, Report{Diagnostics: diag.List{tt.d}}, tt.opts)), "\n")
			if got += "\n"; got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestStepSummaryEscapes(t *testing.T) {
	t.Parallel()
	r := Report{Diagnostics: diag.List{{Code: "a`b", Severity: diag.Error,
		Message: "pipe | star * <b>bold</b>\nline", Path: "p|q"}}}
	var buf bytes.Buffer
	if err := WriteStepSummary(&buf, r, Options{}, StepSummaryLimit); err != nil {
		t.Fatal(err)
	}
	if want := `| error | p\|q | a\` + "`" + `b | pipe \| star \* \<b\>bold\</b\><br>line |`; !strings.Contains(buf.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, buf.String())
	}
}

func TestFingerprint(t *testing.T) {
	t.Parallel()
	src1 := []byte("A x\nB bad\n")
	src2 := []byte("new line\nA x\nB bad\n") // same text, moved down a line
	x1 := diag.NewLineIndex(src1)
	x2 := diag.NewLineIndex(src2)
	d1 := diag.Diagnostic{Code: "c/d", Message: "m1", Path: "p", Range: x1.Range(6, 9)}
	d2 := diag.Diagnostic{Code: "c/d", Message: "m2", Path: "p", Range: x2.Range(15, 18)}
	if Fingerprint(d1, src1) != Fingerprint(d2, src2) {
		t.Error("fingerprint changed when the line moved or the message changed")
	}
	if len(Fingerprint(d1, src1)) != 64 {
		t.Error("fingerprint is not 64 hex digits")
	}
	other := d1
	other.Code = "c/e"
	if Fingerprint(other, src1) == Fingerprint(d1, src1) {
		t.Error("fingerprint ignores the code")
	}
	other = d1
	other.Path = "q"
	if Fingerprint(other, src1) == Fingerprint(d1, src1) {
		t.Error("fingerprint ignores the path")
	}
	crlf := []byte("A x\r\nB bad\r\n")
	dc := diag.Diagnostic{Code: "c/d", Path: "p", Range: diag.NewLineIndex(crlf).Range(7, 10)}
	if Fingerprint(dc, crlf) != Fingerprint(d1, src1) {
		t.Error("fingerprint depends on line endings")
	}
	// Without text, the message counts.
	w1 := diag.Diagnostic{Code: "c/d", Message: "m1", Path: "p"}
	w2 := diag.Diagnostic{Code: "c/d", Message: "m2", Path: "p"}
	if Fingerprint(w1, src1) == Fingerprint(w2, src1) {
		t.Error("fingerprint of a range-less diagnostic ignores the message")
	}
	// A subject taken while the text was at hand stands for the text.
	taken := dc
	taken.Subject = string(dc.Covered(crlf))
	if taken.NeedsText() || !dc.NeedsText() || Fingerprint(taken, nil) != Fingerprint(d1, src1) {
		t.Errorf("fingerprint with the subject %q differs from the one with the text", taken.Subject)
	}
	r := Report{Diagnostics: diag.List{taken}, Source: func(string) []byte { t.Error("source read for a diagnostic with its subject"); return nil }}
	if fps := Fingerprints(r); fps[0] != Fingerprint(d1, src1) {
		t.Error("Fingerprints does not use the subject")
	}
	// Field boundaries are unambiguous.
	a := diag.Diagnostic{Code: "ab", Path: "c"}
	b := diag.Diagnostic{Code: "a", Path: "bc"}
	if Fingerprint(a, nil) == Fingerprint(b, nil) {
		t.Error("fields run into each other")
	}
}

func TestFingerprintsDistinctAndOverride(t *testing.T) {
	t.Parallel()
	d := diag.Diagnostic{Code: "c/d", Message: "m", Path: "p"}
	r := Report{Diagnostics: diag.List{d, d, d, d}, Fingerprints: map[int]string{3: "given"}}
	fps := Fingerprints(r)
	if fps[0] != Fingerprint(d, nil) {
		t.Error("first occurrence does not keep the plain fingerprint")
	}
	if fps[3] != "given" {
		t.Errorf("override ignored: %q", fps[3])
	}
	seen := map[string]bool{}
	for _, fp := range fps {
		if seen[fp] {
			t.Errorf("fingerprint %s repeats", fp)
		}
		seen[fp] = true
	}
	if again := Fingerprints(r); !cmp.Equal(fps, again) {
		t.Error("Fingerprints is not deterministic")
	}
	var doc struct {
		Diagnostics []struct{ Fingerprint string }
	}
	if err := json.Unmarshal(render(t, JSON, r, Options{}), &doc); err != nil {
		t.Fatal(err)
	}
	for i, jd := range doc.Diagnostics {
		if jd.Fingerprint != fps[i] {
			t.Errorf("json fingerprint %d = %q, want %q", i, jd.Fingerprint, fps[i])
		}
	}
}

func TestSnippet(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 300) + "XYZ" + strings.Repeat("b", 300)
	tests := []struct {
		name       string
		src        string
		start, end int // byte offsets
		line, car  string
		ok         bool
	}{
		{"simple", "KEY value\n", 4, 9, "KEY value", "    ^~~~~", true},
		{"tab before", "\tKEY v\n", 5, 6, "    KEY v", "        ^", true},
		{"tab inside", "a\tb\n", 0, 3, "a   b", "^~~~~", true},
		{"tab mid-stop", "ab\tc\n", 3, 4, "ab  c", "    ^", true},
		{"wide", "名前 x\n", 0, 6, "名前 x", "^~~~", true},
		{"combining", "e\u0301x\n", 3, 4, "e\u0301x", " ^", true},
		{"empty range", "abc\n", 1, 1, "abc", " ^", true},
		{"at end of line", "abc\n", 3, 3, "abc", "   ^", true},
		{"multi-line", "abc\ndef\n", 1, 6, "abc", " ^~", true},
		{"empty line", "\n", 0, 0, "", "^", true},
		{"crlf", "ab\r\ncd\r\n", 4, 6, "cd", "^~", true},
		{"invalid utf-8", "a\xffb\n", 2, 3, `a\xffb`, "     ^", true},
		{"control", "a\x1bb\n", 1, 2, `a\x1bb`, " ^~~~", true},
		{"bidi override", "a\u202eb\n", 0, 5, `a\u202eb`, "^~~~~~~~", true},
		{"command at line start", "  ::error::x\n", 2, 4, `  \x3a:error::x`, "  ^~~~~", true},
		{"legacy command", "a##[error]b\n", 0, 1, `a##\x5berror]b`, "^", true},
		{"long line", long, 300, 303, "…" + strings.Repeat("a", 40) + "XYZ" + strings.Repeat("b", 117) + "…",
			" " + strings.Repeat(" ", 40) + "^~~", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := diag.NewLineIndex([]byte(tt.src))
			var c linePieces
			line, car, ok := c.snippet(x, x.Range(tt.start, tt.end))
			if ok != tt.ok || line != tt.line || car != tt.car {
				t.Errorf("snippet =\n%q\n%q %v\nwant\n%q\n%q %v", line, car, ok, tt.line, tt.car, tt.ok)
			}
		})
	}
	// Positions that do not fit the source never panic and degrade.
	x := diag.NewLineIndex([]byte("abc\n"))
	for _, rg := range []diag.Range{
		{Start: diag.Pos{Line: 9, Column: 1}},
		{Start: diag.Pos{Line: 1, Column: 99}, End: diag.Pos{Line: 1, Column: 120}},
		{Start: diag.Pos{Line: 1, Column: -5}, End: diag.Pos{Line: -1, Column: -9}},
		{Start: diag.Pos{Line: 1, Column: 3}, End: diag.Pos{Line: 1, Column: 1}},
	} {
		var c linePieces
		line, car, ok := c.snippet(x, rg)
		if ok && (!strings.HasPrefix(strings.TrimLeft(car, " "), "^") || line != "abc") {
			t.Errorf("snippet(%v) = %q %q", rg, line, car)
		}
	}
	// The line kept from one snippet to the next shows as a fresh split
	// does, whichever line of whichever source comes next.
	a, b := diag.NewLineIndex([]byte("abc\ndef\n")), diag.NewLineIndex([]byte("xyz\n\tq\n"))
	var kept linePieces
	for _, at := range []struct {
		x         *diag.LineIndex
		line, col int
	}{{a, 1, 2}, {a, 1, 3}, {a, 2, 1}, {b, 2, 2}, {b, 2, 1}, {a, 2, 3}, {b, 1, 1}, {a, 1, 1}, {a, 9, 1}, {a, 1, 2}} {
		rg := diag.Range{Start: diag.Pos{Line: at.line, Column: at.col}, End: diag.Pos{Line: at.line, Column: at.col + 1}}
		var fresh linePieces
		l1, c1, ok1 := kept.snippet(at.x, rg)
		l2, c2, ok2 := fresh.snippet(at.x, rg)
		if l1 != l2 || c1 != c2 || ok1 != ok2 {
			t.Errorf("line %d column %d: kept %q %q %v, fresh %q %q %v", at.line, at.col, l1, c1, ok1, l2, c2, ok2)
		}
	}
}

// FuzzText renders random sources and ranges in every format; none may
// panic, the JSON and SARIF output must stay valid JSON, and the text
// output must never carry an escape character unless colours are on.
func FuzzText(f *testing.F) {
	f.Add([]byte("KEY value\n\tDIGEST x\n"), 4, 9, 1, 5, 1, 10, "msg", true)
	f.Add([]byte("名前\r\nü\xff\n"), 0, 3, 1, 1, 2, 2, "m\x1b[2J", false)
	f.Add([]byte(""), -3, 99, 0, -1, 7, 0, "", true)
	f.Add([]byte("\n\n\n"), 2, 1, 3, 1, 1, 1, "%\r\n:,", false)
	f.Fuzz(func(t *testing.T, src []byte, off, endOff, line, col, endLine, endCol int, msg string, useIndex bool) {
		var rg diag.Range
		if useIndex {
			rg = diag.NewLineIndex(src).Range(off, endOff)
		} else {
			rg = diag.Range{Start: diag.Pos{Offset: off, Line: line, Column: col},
				End: diag.Pos{Offset: endOff, Line: endLine, Column: endCol}}
		}
		r := Report{
			Root: "/r",
			Diagnostics: diag.List{
				{Code: "f/z", Severity: diag.Severity(line & 3), Message: msg, Path: "f", Range: rg,
					Related: []diag.Related{{Path: "f", Range: rg, Message: msg}}, Help: msg},
				{Code: "f/z", Severity: diag.Error, Message: msg},
			},
			Source: func(string) []byte { return src },
		}
		for _, f := range ReportFormats() {
			for _, color := range []bool{false, true} {
				var buf bytes.Buffer
				if err := Write(&buf, f, r, Options{Color: color}); err != nil {
					t.Fatalf("Write(%v): %v", f, err)
				}
				if (f == JSON || f == SARIF) && !json.Valid(buf.Bytes()) {
					t.Fatalf("%v output is not valid JSON:\n%s", f, buf.Bytes())
				}
				if f == Text && !color && bytes.ContainsRune(buf.Bytes(), 0x1b) {
					t.Fatalf("text output carries ESC:\n%q", buf.Bytes())
				}
				if f == GitHub && bytes.Count(buf.Bytes(), []byte("\n")) != len(r.Diagnostics)+1 {
					t.Fatalf("github output is not one line per diagnostic and one of the totals:\n%q", buf.Bytes())
				}
			}
		}
		var buf bytes.Buffer
		if err := WriteStepSummary(&buf, r, Options{}, StepSummaryLimit); err != nil {
			t.Fatal(err)
		}
	})
}

package syntax

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/rules"
)

// Texts to build cases from. hdr is a complete header, rel a complete
// release block; both end with LF.
const (
	hdr = "JOURNAL_FORMAT 1\n" + // line 1, offsets 0–16
		"ARTIFACT com.example.widget\n" + // line 2, offset 17
		"JOURNAL_VERSION 20260110T080000Z\n" + // line 3, offset 45
		"DESCRIPTION \"d\"\n" // line 4, offset 78; the header ends at 94
	dig = "sha256:3333333333333333333333333333333333333333333333333333333333333333"
	rel = "RELEASE 1.0.0\nLICENSE MIT\nCONTENT a.jar " + dig + "\n"
)

// errorTests pins the exact code and start position (line, column in code
// points, byte offset) of every diagnostic for malformed input of every
// kind in "Lines and encoding" to "Semantic rules" in
// docs/journal-format.md. want lists every diagnostic of the text, in
// sorted order, as "code line:column@offset".
var errorTests = []struct {
	desc string
	in   string
	want []string
}{
	// "Lines and encoding": encoding
	{"invalid utf-8 in a token", "JOURNAL_FORMAT 1\nARTIFACT com.ex\xffample\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"d\"\n",
		[]string{"syntax/encoding 2:16@32"}},
	{"byte-order mark", "\ufeff" + hdr, []string{"syntax/encoding 1:1@0"}},
	{"nul in a comment", "# a\x00b\n" + hdr, []string{"syntax/encoding 1:4@3"}},
	{"c0 control in a description", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"a\x01b\"\n", []string{"syntax/encoding 4:15@92"}},
	{"del", hdr + "# x\x7f\n", []string{"syntax/encoding 5:4@97"}},
	{"vt and ff", hdr + "#\x0b\x0c\n", []string{"syntax/encoding 5:2@95", "syntax/encoding 5:3@96"}},
	{"c1 control", hdr + "# \u0085\n", []string{"syntax/encoding 5:3@96"}},
	{"c1 control after multibyte text", hdr + "# ééé\u009f\n", []string{"syntax/encoding 5:6@102"}},
	{"escape char", hdr + "\x1b[0m\n", []string{"syntax/encoding 5:1@94"}},

	// "Lines and encoding": line endings
	{"one crlf among lf", "JOURNAL_FORMAT 1\r\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"d\"\n", []string{"syntax/line-ending 1:17@16"}},
	{"one lf among crlf", "JOURNAL_FORMAT 1\r\nARTIFACT com.example.widget\r\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"d\"\r\n", []string{"syntax/line-ending 3:33@79"}},
	{"lone cr inside a line", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\rJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"d\"\n", []string{"syntax/line-ending 2:28@44", "syntax/arguments 2:45@61", "syntax/missing-directive 3:1@78"}},
	{"lone cr at the end", hdr + "\r", []string{"syntax/line-ending 5:1@94"}},

	// "Directives and arguments": keywords
	{"lowercase keyword", hdr + "release 1.0.0\n", []string{"syntax/unknown-directive 5:1@94"}},
	{"unknown keyword", hdr + "FOO bar\n", []string{"syntax/unknown-directive 5:1@94"}},
	{"keyword with a digit", hdr + "RELEASE1 1.0.0\n", []string{"syntax/unknown-directive 5:1@94"}},
	{"line starting with a quote", hdr + "\"RELEASE\" 1.0.0\n", []string{"syntax/unknown-directive 5:1@94"}},
	{"indented unknown keyword", hdr + "  \tMixedCase x\n", []string{"syntax/unknown-directive 5:4@97"}},

	// "Directives and arguments": arguments and quoted strings
	{"unterminated quoted string", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"abc\n", []string{"syntax/arguments 4:13@90"}},
	{"backslash before end of line", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"abc\\\n", []string{"syntax/arguments 4:13@90"}},
	{"raw tab in a quoted string", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"a\tb\"\n", []string{"syntax/arguments 4:15@92"}},
	{"invalid escape", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"a\\xb\"\n", []string{"syntax/arguments 4:15@92"}},
	{"bad unicode escape", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"a\\u12G4\"\n", []string{"syntax/arguments 4:15@92"}},
	{"unpaired high surrogate", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"a\\ud800b\"\n", []string{"syntax/arguments 4:15@92"}},
	{"high surrogate then non-low", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"\\ud800\\u0041\"\n", []string{"syntax/arguments 4:14@91"}},
	{"lone low surrogate", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"\\udc00\"\n", []string{"syntax/arguments 4:14@91"}},
	{"decoded nul", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"a\\u0000\"\n", []string{"syntax/arguments 4:15@92"}},
	{"decoded cr", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"a\\r\"\n", []string{"syntax/arguments 4:15@92"}},
	{"decoded c1", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"a\\u0085\"\n", []string{"syntax/arguments 4:15@92"}},
	{"decoded del", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"\\u007F\"\n", []string{"syntax/arguments 4:14@91"}},
	{"quoted string too long", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"" + strings.Repeat("x", 8193) + "\"\n", []string{"syntax/arguments 4:13@90"}},
	{"quoted string too long after decoding", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"" + strings.Repeat("\\u00e9", 4097) + "\"\n", []string{"syntax/arguments 4:13@90"}},
	{"text after the quoted string", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"d\" more\n", []string{"syntax/arguments 4:17@94"}},
	{"quote inside a bare argument", hdr + "INFO https://x\"y\"\n", []string{"syntax/arguments 5:15@108"}},
	{"missing space after the keyword", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION\"d\"\n", []string{"syntax/arguments 4:12@89"}},
	{"quoted where a bare token is expected", hdr + "RELEASE \"1.0.0\"\nLICENSE MIT\nCONTENT a.jar " + dig + "\n", []string{"syntax/arguments 5:9@102"}},
	{"bare where a quoted string is expected", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION d\n", []string{"syntax/arguments 4:13@90"}},
	{"bare description of DEPENDS", hdr + rel + "DEPENDS org.example.core 1.0.0 runtime\n", []string{"syntax/arguments 8:32@237"}},
	{"missing argument", "JOURNAL_FORMAT 1\nARTIFACT\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"d\"\n", []string{"syntax/arguments 2:1@17"}},
	{"missing second argument", hdr + "RELEASE 1.0.0\nLICENSE MIT\nCONTENT a.jar\n", []string{"syntax/arguments 7:1@120"}},
	{"too many arguments", hdr + "RELEASE 1.0.0 extra more\nLICENSE MIT\nCONTENT a.jar " + dig + "\n", []string{"syntax/arguments 5:15@108"}},
	{"empty license", hdr + "RELEASE 1.0.0\nLICENSE   \nCONTENT a.jar " + dig + "\n", []string{"syntax/arguments 6:1@108"}},

	// "Lines and encoding": empty and blank text
	{"empty text", "", []string{"syntax/empty 0:0@0"}},
	{"blank text", "  \n\t\n", []string{"syntax/empty 0:0@0"}},
	{"blank crlf text", "\r\n \r\n", []string{"syntax/empty 0:0@0"}},
	{"only comments", "# nothing\n", []string{"syntax/missing-directive 2:1@10", "syntax/missing-directive 2:1@10", "syntax/missing-directive 2:1@10", "syntax/missing-directive 2:1@10"}},

	// "The header" and "Release blocks": structure
	{"header out of order", "ARTIFACT com.example.widget\nJOURNAL_FORMAT 1\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"d\"\n", []string{"syntax/misplaced-directive 2:1@28"}},
	{"predecessor after description", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"d\"\nPREDECESSOR " + dig + "\n", []string{"syntax/misplaced-directive 5:1@94"}},
	{"duplicate artifact", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"d\"\n", []string{"syntax/duplicate-directive 3:1@45"}},
	{"duplicate info and policy", hdr + "INFO urn:x\nINFO urn:y\nPOLICY allow\nPOLICY deny\n", []string{"syntax/duplicate-directive 6:1@105", "syntax/duplicate-directive 8:1@129"}},
	{"missing journal format", "ARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"d\"\n", []string{"syntax/missing-directive 1:1@0"}},
	{"missing artifact and description", "JOURNAL_FORMAT 1\nJOURNAL_VERSION 20260110T080000Z\n" + rel, []string{"syntax/missing-directive 2:1@17", "syntax/missing-directive 3:1@50"}},
	{"missing everything but a release", rel, []string{"syntax/missing-directive 1:1@0", "syntax/missing-directive 1:1@0", "syntax/missing-directive 1:1@0", "syntax/missing-directive 1:1@0"}},
	{"header directive after release", hdr + rel + "INFO urn:x\n", []string{"syntax/misplaced-directive 8:1@206"}},
	{"release directive before release", hdr + "LICENSE MIT\n" + rel, []string{"syntax/misplaced-directive 5:1@94"}},
	{"release without license and content", hdr + "RELEASE 1.0.0\nPUBLISHED 20260101T000000Z\n", []string{"syntax/missing-directive 5:1@94", "syntax/missing-directive 5:1@94"}},
	{"duplicate release directives", hdr + rel + "LICENSE MIT\nDESCRIPTION \"a\"\nDESCRIPTION \"b\"\nPUBLISHED 20260101T000000Z\nPUBLISHED 20260101T000000Z\nPOLICY allow\nPOLICY deny\n", []string{"syntax/duplicate-directive 8:1@206", "syntax/duplicate-directive 10:1@234", "syntax/duplicate-directive 12:1@277", "syntax/duplicate-directive 14:1@317"}},
	{"journal format 2", "JOURNAL_FORMAT 2\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"d\"\n", []string{"value/format 1:16@15"}},

	// "Values"
	{"bad coordinate", "JOURNAL_FORMAT 1\nARTIFACT com.Example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"d\"\n", []string{"value/coordinate 2:14@30"}},
	{"bad timestamp", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260230T080000Z\nDESCRIPTION \"d\"\n", []string{"value/timestamp 3:23@67"}},
	{"bad digest", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nPREDECESSOR sha256:33X3\nDESCRIPTION \"d\"\n", []string{"value/digest 4:22@99"}},
	{"bad version", hdr + "RELEASE v1.0.0\nLICENSE MIT\nCONTENT a.jar " + dig + "\n", []string{"value/version 5:9@102"}},
	{"bad constraint", hdr + rel + "DEPENDS org.example.core [2.0.0,1.0.0)\n", []string{"value/constraint 8:26@231"}},
	{"bad license", hdr + "RELEASE 1.0.0\nLICENSE MIT OR\nCONTENT a.jar " + dig + "\n", []string{"value/license 6:9@116"}},
	{"bad uri", hdr + "INFO no-scheme\n", []string{"value/uri 5:6@99"}},
	{"bad name", hdr + "RELEASE 1.0.0\nLICENSE MIT\nCONTENT a/b.jar " + dig + "\n", []string{"value/name 7:10@129"}},
	{"bad verdict", hdr + "POLICY maybe\n", []string{"value/verdict 5:8@101"}},
	{"bad published", hdr + rel + "PUBLISHED 2026-01-01\n", []string{"value/timestamp 8:15@220"}},

	// "Semantic rules"
	{"duplicate release", hdr + rel + rel, []string{"semantic/duplicate-release 8:9@214"}},
	{"duplicate content", hdr + rel + "CONTENT a.jar " + dig + "\n", []string{"semantic/duplicate-content 8:9@214"}},
	{"duplicate reference", hdr + rel + "DEPENDS org.example.core 1.0.0\nDEPENDS org.example.core 2.0.0\nEXCLUDES org.example.x\nEXCLUDES org.example.x\nPREFERS org.example.y 1.0.0\nPREFERS org.example.y 1.0.0\n", []string{"semantic/duplicate-reference 9:9@245", "semantic/duplicate-reference 11:10@300", "semantic/duplicate-reference 13:9@350"}},
	{"self reference", hdr + rel + "DEPENDS com.example.widget 1.0.0\nEXCLUDES com.example.widget\nPREFERS com.example.widget 1.0.0\n", []string{"semantic/self-reference 8:9@214", "semantic/reference-conflict 9:10@248", "semantic/self-reference 9:10@248", "semantic/reference-conflict 10:9@275", "semantic/self-reference 10:9@275"}},
	{"depends and excludes", hdr + rel + "EXCLUDES org.example.core\nDEPENDS org.example.core 1.0.0\n", []string{"semantic/reference-conflict 9:9@240"}},
	{"excludes and prefers", hdr + rel + "PREFERS org.example.core 1.0.0\nEXCLUDES org.example.core\n", []string{"semantic/reference-conflict 9:10@246"}},
	{"preference unsatisfied", hdr + rel + "DEPENDS org.example.core [1.2.0,2.0.0)\nPREFERS org.example.core 2.0.0\n", []string{"semantic/preference-unsatisfied 9:26@270"}},
	{"published after journal version", hdr + rel + "PUBLISHED 20260110T080001Z\n", []string{"semantic/published-after-version 8:11@216"}},

	// columns count code points
	{"multibyte text before an error", "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"é€𝄞\\q\"\n", []string{"syntax/arguments 4:17@100"}},
	{"multibyte quoted text, then an error", "# ünïcödé\n" + hdr + rel + "EXCLUDES org.example.core \"Ωmega 🚀\" extra\n", []string{"syntax/arguments 9:37@260"}},
	{"non-breaking space is not a separator", hdr + "\tRELEASE\u00a01.0.0\n", []string{"syntax/unknown-directive 5:2@95"}},
}

func TestErrors(t *testing.T) {
	t.Parallel()
	print := os.Getenv("JOURNAL_PRINT") != ""
	for _, tt := range errorTests {
		t.Run(tt.desc, func(t *testing.T) {
			src := []byte(tt.in)
			doc, ds := Parse("x.journal", src)
			var got []string
			for _, d := range ds {
				got = append(got, fmt.Sprintf("%s %d:%d@%d", d.Code, d.Range.Start.Line, d.Range.Start.Column, d.Range.Start.Offset))
				checkDiag(t, "x.journal", src, d)
			}
			if print {
				fmt.Printf("WANT\t%s\t%s\n", tt.desc, goList(got))
				for _, d := range ds {
					t.Logf("  %s  %q", d, d.Range.Slice(src))
				}
				return
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
			}
			if doc.RevisionOK {
				t.Errorf("RevisionOK for an invalid text")
			}
		})
	}
}

// checkDiag checks the invariants every parser diagnostic keeps: severity,
// path, message style, and a range inside src whose lines and columns agree
// with an independent count of the offsets.
func checkDiag(t *testing.T, path string, src []byte, d diag.Diagnostic) {
	t.Helper()
	if d.Severity != diag.Error || d.Path != path || d.Code == "" {
		t.Errorf("bad diagnostic header: %+v", d)
	}
	if d.Message == "" || strings.HasSuffix(d.Message, ".") || d.Message[0] >= 'A' && d.Message[0] <= 'Z' {
		t.Errorf("message style: %q", d.Message)
	}
	if !d.Range.IsValid() && d.Range != (diag.Range{}) {
		t.Errorf("half-known range: %+v", d.Range)
	}
	if d.Range.IsValid() {
		checkPos(t, src, d.Range.Start)
		checkPos(t, src, d.Range.End)
		if d.Range.End.Offset < d.Range.Start.Offset {
			t.Errorf("range ends before it starts: %+v", d.Range)
		}
	}
	for _, r := range d.Related {
		if r.Path != d.Path || r.Message == "" {
			t.Errorf("bad related: %+v", r)
		}
		checkPos(t, src, r.Range.Start)
		checkPos(t, src, r.Range.End)
	}
}

// checkPos recomputes line and column of p.Offset by walking src.
func checkPos(t *testing.T, src []byte, p diag.Pos) {
	t.Helper()
	if p.Offset < 0 || p.Offset > len(src) {
		t.Errorf("offset %d outside the text (len %d)", p.Offset, len(src))
		return
	}
	line, col := 1, 1
	for i := 0; i < p.Offset; {
		if src[i] == '\n' {
			line, col = line+1, 1
			i++
			continue
		}
		_, n := utf8.DecodeRune(src[i:])
		if i+n > p.Offset {
			break
		}
		i += n
		col++
	}
	if line != p.Line || col != p.Column {
		t.Errorf("offset %d is %d:%d, the diagnostic says %d:%d", p.Offset, line, col, p.Line, p.Column)
	}
}

func goList(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

// TestUnknownKeywordSuggests: a misspelt keyword gets "did you mean" and
// a fix that writes the known one, a wrong case the case-sensitive hint,
// and a word near no keyword the list of known directives.
func TestUnknownKeywordSuggests(t *testing.T) {
	hdr := "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"W\"\n"
	for _, tc := range []struct{ line, help, fix string }{
		{"RELAESE 1.0.0", "did you mean RELEASE?", "RELEASE"},
		{"PREDECESOR sha256:" + strings.Repeat("3", 64), "did you mean PREDECESSOR?", "PREDECESSOR"},
		{"release 1.0.0", "keywords are case-sensitive: write RELEASE", "RELEASE"},
		{"FROBNICATE x", "known directives: JOURNAL_FORMAT, ARTIFACT,", ""},
	} {
		_, ds := Parse("t.journal", []byte(hdr+tc.line+"\n"))
		i := slices.IndexFunc(ds, func(d diag.Diagnostic) bool { return d.Code == rules.SyntaxUnknownDirective })
		if i < 0 {
			t.Errorf("%s: no syntax/unknown-directive in %v", tc.line, ds)
			continue
		}
		d := ds[i]
		if !strings.HasPrefix(d.Help, tc.help) {
			t.Errorf("%s: help %q, want it to start with %q", tc.line, d.Help, tc.help)
		}
		switch {
		case tc.fix == "" && len(d.Fixes) != 0:
			t.Errorf("%s: fixes %v, want none", tc.line, d.Fixes)
		case tc.fix != "" && (len(d.Fixes) != 1 || d.Fixes[0].Edits[0].NewText != tc.fix):
			t.Errorf("%s: fixes %v, want one writing %s", tc.line, d.Fixes, tc.fix)
		}
	}
}

// TestMisplacedHeaderNamesTheLineToPrecede: a header directive out of
// order is told to come before the first line it must precede, so that
// moving it just above that line puts the header in order (a PREDECESSOR
// added after INFO must come before DESCRIPTION, not INFO).
func TestMisplacedHeaderNamesTheLineToPrecede(t *testing.T) {
	head := "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\n"
	for _, tc := range []struct{ name, text, want string }{
		{"after info", head + "DESCRIPTION \"d\"\nINFO urn:x\nPREDECESSOR " + dig + "\n", "header directive PREDECESSOR must come before DESCRIPTION"},
		{"after policy", head + "DESCRIPTION \"d\"\nPOLICY allow\nINFO urn:x\n", "header directive INFO must come before POLICY"},
		{"first line", "ARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nJOURNAL_FORMAT 1\nDESCRIPTION \"d\"\n", "header directive JOURNAL_FORMAT must come before ARTIFACT"},
	} {
		_, ds := Parse("t.journal", []byte(tc.text))
		var got []string
		for _, d := range ds {
			if d.Code == rules.SyntaxMisplacedDirective {
				got = append(got, d.Message)
			}
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: misplaced-directive messages %q, want [%q]", tc.name, got, tc.want)
		}
	}
}

package safetext

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain name-1.2.3", "plain name-1.2.3"},
		{"名前 é e\u0301", "名前 é e\u0301"},
		{"20260101T000000Z\n::error file=Y::INJ.journal", `20260101T000000Z\n::error file=Y::INJ.journal`},
		{"::error::x", `\x3a:error::x`},
		{"  \u00a0::warning::x", "  \u00a0" + `\x3a:warning::x`},
		{"a ::b", "a ::b"},
		{"x ##[error]y", `x ##\x5berror]y`},
		{"\x1b]52;c;aGk=\x07", `\x1b]52;c;aGk=\a`},
		{"evil\u202etxt.journal", `evil\u202etxt.journal`},
		{"c1\u0085\u009b", `c1\u0085\u009b`},
		{"tab\tcr\r", `tab\tcr\r`},
		{"bad\xff\xfe", `bad\xff\xfe`},
		{"rep\ufffd", `rep\ufffd`},
		{"tag\U000E0041", `tag\U000e0041`},
		{"zw\u200bj", `zw\u200bj`},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLines(t *testing.T) {
	t.Parallel()
	got := Lines("first\n::error::x\n  ok\x1b")
	want := "first\n" + `\x3a:error::x` + "\n  ok" + `\x1b`
	if got != want {
		t.Errorf("Lines = %q, want %q", got, want)
	}
}

func TestQuote(t *testing.T) {
	t.Parallel()
	nfc, nfd := Quote("caf\u00e9"), Quote("cafe\u0301")
	if nfc == nfd {
		t.Fatalf("NFC and NFD quote alike: %s", nfc)
	}
	if nfc != `"caf\u00e9"` || nfd != `"cafe\u0301"` {
		t.Errorf("Quote = %s, %s", nfc, nfd)
	}
	if got := Quote("a \"b\"\\ \n\xff"); got != `"a \"b\"\\ \n\xff"` {
		t.Errorf("Quote = %s", got)
	}
}

func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"journals/a.b/x.journal": "journals/a.b/x.journal",
		"":                       "''",
		"a b":                    "'a b'",
		"it's":                   `'it'\''s'`,
		"$HOME":                  "'$HOME'",
		"-n":                     "-n",
	} {
		if got := ShellWord(in); got != want {
			t.Errorf("ShellWord(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestWriteJSON(t *testing.T) {
	t.Parallel()
	in := map[string]string{"m": "a\u202eb ##[error]x \u0085 <&> \x1b \x7f"}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, in); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, bad := range []string{"\u202e", "\u0085", "\x1b", "##[", "\x7f"} {
		if strings.Contains(out, bad) {
			t.Errorf("output holds %q: %s", bad, out)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back["m"] != in["m"] {
		t.Errorf("round trip: %q, %v", back["m"], err)
	}
	if !strings.Contains(out, "<&>") {
		t.Errorf("HTML characters escaped: %s", out)
	}
	if got := string(JSON([]byte("\"\U0001F600 \U000E0041\""))); got != `"😀 \udb40\udc41"` {
		t.Errorf("JSON astral = %s", got)
	}
}

// TestWriteJSONStream: a document written with its array streamed is the
// same bytes as the whole document written by WriteJSON, at depth 1 and
// deeper, with no element, and with elements that need the escapes of JSON.
func TestWriteJSONStream(t *testing.T) {
	t.Parallel()
	type item struct {
		M    string            `json:"m"`
		Tags map[string]string `json:"tags,omitempty"`
	}
	type inner struct {
		Name  string `json:"name"`
		Items []item `json:"items"`
	}
	type doc struct {
		Root  string  `json:"root"`
		Runs  []inner `json:"runs"`
		Items []item  `json:"items"`
	}
	some := []item{
		{M: "a\u202eb ##[error]x \u0085 <&> \x1b \x7f"},
		{M: "plain", Tags: map[string]string{"k": "##[v"}},
		{M: "\"items\": []\n"},
	}
	// Enough elements for several rounds of chunks on every core.
	items := make([]item, 5*streamChunk*runtime.GOMAXPROCS(0)+7)
	for i := range items {
		items[i] = some[i%len(some)]
		items[i].M += strconv.Itoa(i)
	}
	elem := func(i int) any { return items[i] }
	for _, n := range []int{0, 1, len(some), streamChunk, streamChunk + 1, len(items)} {
		whole := doc{Root: "r", Runs: []inner{{Name: "x", Items: []item{}}}, Items: items[:n]}
		var want, got bytes.Buffer
		if err := WriteJSON(&want, whole); err != nil {
			t.Fatal(err)
		}
		// depth 1: the top-level member "items".
		whole.Items = []item{}
		if err := WriteJSONStream(&got, whole, "items", 1, n, elem); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("depth 1, n=%d:\ngot  %s\nwant %s", n, got.String(), want.String())
		}
		// depth 3: "items" of the one element of "runs".
		whole = doc{Root: "r", Runs: []inner{{Name: "x", Items: items[:n]}}, Items: []item{}}
		want.Reset()
		got.Reset()
		if err := WriteJSON(&want, whole); err != nil {
			t.Fatal(err)
		}
		whole.Runs[0].Items = []item{}
		if err := WriteJSONStream(&got, whole, "items", 3, n, elem); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("depth 3, n=%d:\ngot  %s\nwant %s", n, got.String(), want.String())
		}
	}
	var out bytes.Buffer
	if err := WriteJSONStream(&out, doc{Items: []item{}}, "missing", 1, 0, elem); err == nil {
		t.Error("no error for a key the document lacks")
	}
	// An element that cannot be encoded, in a later chunk, is an error.
	bad := func(i int) any {
		if i == 3*streamChunk+1 {
			return func() {}
		}
		return items[i]
	}
	if err := WriteJSONStream(&out, doc{Items: []item{}}, "items", 1, len(items), bad); err == nil {
		t.Error("no error for an element that cannot be encoded")
	}
}

// TestJSONEscapes: JSON changes exactly the bracket of "##[" and the unsafe
// code points, copies everything else (an invalid byte too), and returns
// its argument when nothing needs a change.
func TestJSONEscapes(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`"plain"`:               `"plain"`,
		`"##[x] ###[ #[ [##"`:   `"##\u005bx] ###\u005b #[ [##"`,
		"\"a\u202eb\x7f\"":      `"a\u202eb\u007f"`,
		"\"\xff\u00e9\"":        "\"\xff\u00e9\"",
		"\"\U000E0041 \u0085\"": `"\udb40\udc41 \u0085"`,
	} {
		if got := string(JSON([]byte(in))); got != want {
			t.Errorf("JSON(%q) = %q, want %q", in, got, want)
		}
	}
	plain := []byte(`{"a": "b"}`)
	if got := JSON(plain); &got[0] != &plain[0] {
		t.Error("JSON copied a document that needs no change")
	}
}

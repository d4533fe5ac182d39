package lsp

import (
	"strings"
	"testing"
)

// skim finds the id, method and document of a message whatever the order
// of its members and the escapes in its strings, and keeps no long value.
func TestSkim(t *testing.T) {
	long := strings.Repeat(`\u0000`, 3*skimKeep)
	for _, tc := range []struct {
		msg             string
		id, method, uri string
		version         string
	}{
		{`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:\/\/\/a\/b.journal","languageId":"journal","version":3,"text":"` + long + `"}}}`,
			"", "textDocument/didOpen", "file:///a/b.journal", "3"},
		{`{"params":{"textDocument":{"text":"` + long + `","version":0,"uri":"file:///c.journal"}},"method":"textDocument/didOpen","jsonrpc":"2.0"}`,
			"", "textDocument/didOpen", "file:///c.journal", "0"},
		{`{"jsonrpc":"2.0","id":"x\"y","method":"textDocument/hover","params":{"pad":["` + long + `",{"uri":"file:///not-this"}],"textDocument":{"uri":"file:///d.journal"}}}`,
			`"x\"y"`, "textDocument/hover", "file:///d.journal", ""},
		{`{"jsonrpc":"2.0","id":12,"method":"` + long + `"}`, "12", "", "", ""},
		{`{"jsonrpc":"2.0","id":7,"method":"x","params":{"text":"unterminated`, "7", "x", "", ""},
	} {
		got := skim(strings.NewReader(tc.msg))
		if string(got.ID) != tc.id || got.Method != tc.method || got.URI != tc.uri || string(got.Version) != tc.version {
			t.Errorf("%.80s…: got %+v", tc.msg, got)
		}
	}
}

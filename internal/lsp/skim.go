package lsp

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
)

// skimmed is what [skim] keeps of a message too large to read: the few
// short values that say what it was.
type skimmed struct {
	// ID is the request's id as JSON (a number or a string), nil for a
	// notification.
	ID json.RawMessage
	// Method is the method; URI and Version are params.textDocument's.
	Method, URI string
	Version     json.RawMessage
}

// skimKeep is the longest value skim keeps; longer ones are skipped.
const skimKeep = 8 << 10

// skim reads one JSON value from r to its end without keeping more than
// skimKeep bytes of any string: a message over MaxMessage, of which the
// server learns only what it was (its id, method and document) to answer
// it. Malformed JSON ends the skim with what was found so far.
func skim(r io.Reader) skimmed {
	in := bufio.NewReader(r)
	var out skimmed
	var (
		path      []string // the keys down to the current value; "" in arrays
		objects   []bool   // the open containers: true for an object
		key       string
		expectKey bool
	)
	keep := func(v []byte, isString bool) {
		if len(path) == 0 {
			return // a value outside any object
		}
		// path[0] is the top-level object's, which has no key.
		switch strings.Join(append(path[1:len(path):len(path)], key), ".") {
		case "id":
			if isString {
				v, _ = json.Marshal(string(v))
			}
			out.ID = json.RawMessage(v)
		case "method":
			out.Method = string(v)
		case "params.textDocument.uri":
			out.URI = string(v)
		case "params.textDocument.version":
			out.Version = json.RawMessage(v)
		}
	}
	for {
		c, err := in.ReadByte()
		if err != nil {
			return out
		}
		switch c {
		case ' ', '\t', '\r', '\n':
		case ':':
			expectKey = false
		case ',':
			expectKey = len(objects) > 0 && objects[len(objects)-1]
			if !expectKey {
				key = ""
			}
		case '{', '[':
			path = append(path, key)
			objects = append(objects, c == '{')
			key, expectKey = "", c == '{'
		case '}', ']':
			if len(objects) == 0 {
				return out
			}
			key = path[len(path)-1]
			path, objects = path[:len(path)-1], objects[:len(objects)-1]
			if len(objects) == 0 {
				return out
			}
		case '"':
			s, ok := skimString(in)
			if !ok {
				return out
			}
			if expectKey {
				key = s
			} else {
				keep([]byte(s), true)
			}
		default: // a number, true, false or null
			tok := []byte{c}
			for {
				b, err := in.ReadByte()
				if err != nil {
					break
				}
				if strings.IndexByte(" \t\r\n,:]}", b) >= 0 {
					_ = in.UnreadByte()
					break
				}
				if len(tok) < skimKeep {
					tok = append(tok, b)
				}
			}
			keep(tok, false)
		}
	}
}

// skimString reads a JSON string after its opening quote and returns it
// decoded when it is at most skimKeep bytes long ("" otherwise), and
// whether it ended.
func skimString(in *bufio.Reader) (string, bool) {
	raw := []byte{'"'}
	for {
		c, err := in.ReadByte()
		if err != nil {
			return "", false
		}
		if len(raw) <= skimKeep {
			raw = append(raw, c)
		}
		switch c {
		case '\\':
			e, err := in.ReadByte()
			if err != nil {
				return "", false
			}
			if len(raw) <= skimKeep {
				raw = append(raw, e)
			}
		case '"':
			var s string
			if len(raw) > skimKeep || json.Unmarshal(raw, &s) != nil {
				return "", true
			}
			return s, true
		}
	}
}

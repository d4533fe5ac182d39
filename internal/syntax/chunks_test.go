package syntax

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var expectRx = regexp.MustCompile(`\s*###((?:\s*"(?:[^"\\]|\\.)*")+)\s*$`)
var quotedRx = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// TestChunks runs testdata/errors.journal: each chunk is parsed on its own;
// every diagnostic must be announced by a ### "regexp" on its start line,
// and every announcement must be met (style anchors §11.7).
func TestChunks(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/errors.journal")
	if err != nil {
		t.Fatal(err)
	}
	chunks := strings.Split(string(data), "\n---\n")
	// The file's leading comment block belongs to the first chunk; it is a
	// comment, so it does not change the result.
	for ci, chunk := range chunks {
		lines := strings.Split(chunk, "\n")
		want := map[int][]*regexp.Regexp{}
		for i, l := range lines {
			m := expectRx.FindStringSubmatchIndex(l)
			if m == nil || strings.HasPrefix(strings.TrimSpace(l), "#") {
				continue
			}
			for _, q := range quotedRx.FindAllString(l[m[2]:m[3]], -1) {
				s, err := strconv.Unquote(q)
				if err != nil {
					t.Fatalf("chunk %d line %d: %v", ci, i+1, err)
				}
				want[i+1] = append(want[i+1], regexp.MustCompile(s))
			}
			lines[i] = l[:m[0]] + strings.Repeat(" ", len(l)-m[0])
		}
		src := []byte(strings.Join(lines, "\n") + "\n")
		_, ds := Parse("chunk.journal", src)
		for _, d := range ds {
			checkDiag(t, "chunk.journal", src, d)
			full := d.Code + ": " + d.Message
			rxs := want[d.Range.Start.Line]
			found := -1
			for k, rx := range rxs {
				if rx.MatchString(full) {
					found = k
					break
				}
			}
			if found < 0 {
				t.Errorf("chunk %d line %d: unexpected %s", ci, d.Range.Start.Line, full)
				continue
			}
			want[d.Range.Start.Line] = append(rxs[:found:found], rxs[found+1:]...)
		}
		for line, rxs := range want {
			for _, rx := range rxs {
				t.Errorf("chunk %d line %d: no diagnostic matching %q", ci, line, rx)
			}
		}
	}
}

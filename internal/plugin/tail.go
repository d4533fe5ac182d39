package plugin

import (
	"strings"
	"sync"
)

// tailSize is how many bytes of a pack's output the host keeps.
const tailSize = 4096

// tail keeps the last tailSize bytes written to it. It is safe for
// concurrent use; go-plugin writes the pack's stderr and its synced stdout
// and stderr from different goroutines.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

// Write keeps the end of p; it never fails.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*tailSize {
		t.buf = append(t.buf[:0:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(p), nil
}

// String returns the last lines kept (at most tailSize bytes, starting at a
// line boundary when one is near), without trailing blank lines.
func (t *tail) String() string {
	t.mu.Lock()
	s := string(t.buf)
	t.mu.Unlock()
	if len(s) > tailSize {
		s = s[len(s)-tailSize:]
		if i := strings.IndexByte(s, '\n'); i >= 0 && i < 200 {
			s = s[i+1:]
		}
	}
	return strings.TrimRight(s, " \t\r\n")
}

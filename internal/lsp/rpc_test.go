package lsp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/r35157/journal-lint/internal/lsp"
	"github.com/r35157/journal-lint/internal/lsp/lsptest"
)

// rawSession is a server on one end of a pipe and the test writing framed
// bodies to the other, byte for byte.
type rawSession struct {
	t   *testing.T
	cli net.Conn
	in  *bufio.Reader
}

func startRaw(t *testing.T, opts lsp.Options) *rawSession {
	srv, cli := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- lsp.Serve(context.Background(), srv, opts) }()
	t.Cleanup(func() {
		cli.Close()
		select {
		case <-served:
		case <-time.After(lsptest.Timeout):
			t.Errorf("Serve did not return after the connection closed")
		}
	})
	return &rawSession{t: t, cli: cli, in: bufio.NewReader(cli)}
}

// send writes one framed body.
func (r *rawSession) send(body string) {
	r.t.Helper()
	go func() { _, _ = fmt.Fprintf(r.cli, "Content-Length: %d\r\n\r\n%s", len(body), body) }()
}

// next reads the next framed message into a map.
func (r *rawSession) next() map[string]any {
	r.t.Helper()
	_ = r.cli.SetReadDeadline(time.Now().Add(lsptest.Timeout))
	length := -1
	for {
		line, err := r.in.ReadString('\n')
		if err != nil {
			r.t.Fatalf("reading a header: %v", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			length, _ = strconv.Atoi(v)
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r.in, body); err != nil {
		r.t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		r.t.Fatalf("%s: %v", body, err)
	}
	return m
}

// A body that is not JSON is a parse error (-32700, id null); JSON that is
// not a JSON-RPC 2.0 request is an invalid request (-32600), with the id of
// the request when it has one.
func TestErrorCodes(t *testing.T) {
	r := startRaw(t, lsp.Options{})
	for _, tc := range []struct {
		body string
		code float64
		id   any
	}{
		{`{"jsonrpc":"2.0","id":1,"method":`, -32700, nil},
		{`{"jsonrpc":"2.0","id":2,"method":5}`, -32600, float64(2)},
		{`{"jsonrpc":"1.0","id":"three","method":"initialize","params":{}}`, -32600, "three"},
		{`{"jsonrpc":"2.0","params":{}}`, -32600, nil},
		{`"hello"`, -32600, nil},
		{`[]`, -32600, nil},
		// An id with no method is no request, and with no result or
		// error no response either.
		{`{"jsonrpc":"2.0","id":77}`, -32600, float64(77)},
	} {
		r.send(tc.body)
		m := r.next()
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != tc.code || m["id"] != tc.id {
			t.Errorf("%s: answered %v, want code %v and id %v", tc.body, m, tc.code, tc.id)
		}
	}
}

package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// MaxMessage is the largest message body in bytes that the server reads: a 16
// MiB Journal (the format's limit, "Lines and encoding" in
// docs/journal-format.md) sent as a JSON string with room for escapes. A
// larger body is skimmed for what it was and skipped: a request gets an
// error, a buffer too large is checked from its file on disk
// ([stream.oversized]); the connection stays up.
const MaxMessage = 64 << 20

// stream is the Content-Length framed transport of the base protocol (LSP
// 3.17 "Base Protocol"). Unlike the library's stream it survives a body that
// is not a JSON-RPC message, or is too large: it answers such a message with
// a JSON-RPC error (JSON-RPC 2.0 §5.1, see [stream.writeError]) and reads on. Only a
// broken header or a closed connection ends it.
type stream struct {
	conn io.ReadWriteCloser
	in   *bufio.Reader
	mu   sync.Mutex // serialises writes
	logf func(format string, args ...any)
}

func newStream(conn io.ReadWriteCloser, logf func(string, ...any)) *stream {
	return &stream{conn: conn, in: bufio.NewReaderSize(conn, 64<<10), logf: logf}
}

// Read returns the next JSON-RPC message.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		length, n, err := s.header()
		total += n
		if err != nil {
			return nil, total, err
		}
		if length > MaxMessage {
			body := io.LimitReader(s.in, length)
			sk := skim(body)
			if _, err := io.Copy(io.Discard, body); err != nil {
				return nil, total, fmt.Errorf("skipping an oversized message: %w", err)
			}
			total += length
			if msg := s.oversized(ctx, sk, length); msg != nil {
				return msg, total, nil
			}
			continue
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(s.in, body); err != nil {
			return nil, total, fmt.Errorf("reading a message body: %w", err)
		}
		total += length
		msg, err := jsonrpc2.DecodeMessage(body)
		if _, reply := msg.(*jsonrpc2.Response); err == nil && reply && !isReply(body) {
			err = errors.New("it has an id but no method, result or error")
		}
		if err != nil {
			s.logf("skipped a message that is not JSON-RPC: %v", err)
			if !json.Valid(body) {
				s.writeError(ctx, nil, jsonrpc2.ParseError, "not JSON: "+err.Error())
			} else {
				s.writeError(ctx, requestID(body), jsonrpc2.InvalidRequest, "not a JSON-RPC 2.0 request: "+err.Error())
			}
			continue
		}
		return msg, total, nil
	}
}

// methodTooLarge is the notification that stands for a didOpen or
// didChange too large to read (see [stream.oversized]); it never comes
// from a client.
const methodTooLarge = "$/journal-lint/tooLarge"

// tooLargeParams are its parameters.
type tooLargeParams struct {
	Method  string               `json:"method"`
	URI     protocol.DocumentURI `json:"uri"`
	Version *int32               `json:"version"`
	Bytes   int64                `json:"bytes"`
}

// oversized deals with a message of length bytes, over MaxMessage, of
// which sk was read: a request is answered with an error that names it;
// a didOpen or didChange becomes a methodTooLarge notification, so that
// the server checks the file on disk in place of the buffer (a 17 MB
// Journal padded with NUL bytes, sent as \u0000 escapes, is a message of
// 102 MB: its fs/too-large comes from the disk). Other notifications are
// logged.
func (s *stream) oversized(ctx context.Context, sk skimmed, length int64) jsonrpc2.Message {
	s.logf("skipped a %s message of %d bytes (at most %d are read)", sk.Method, length, MaxMessage)
	switch {
	case sk.ID != nil:
		s.writeError(ctx, sk.ID, jsonrpc2.InvalidRequest, fmt.Sprintf("%s message of %d bytes is larger than %d", sk.Method, length, MaxMessage))
	case (sk.Method == protocol.MethodTextDocumentDidOpen || sk.Method == protocol.MethodTextDocumentDidChange) && sk.URI != "":
		p := tooLargeParams{Method: sk.Method, URI: protocol.DocumentURI(sk.URI), Bytes: length}
		var v int32
		if json.Unmarshal(sk.Version, &v) == nil {
			p.Version = &v
		}
		msg, err := jsonrpc2.NewNotification(methodTooLarge, p)
		if err == nil {
			return msg
		}
	}
	return nil
}

// header reads the header part of one message and returns its
// Content-Length.
func (s *stream) header() (length, n int64, err error) {
	length = -1
	for {
		line, err := s.in.ReadString('\n')
		n += int64(len(line))
		if err != nil {
			return 0, n, err // io.EOF: the client closed the connection
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if length < 0 {
				return 0, n, fmt.Errorf("message header without Content-Length")
			}
			return length, n, nil
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return 0, n, fmt.Errorf("malformed header line %q", line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			v, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || v < 0 {
				return 0, n, fmt.Errorf("malformed Content-Length %q", value)
			}
			length = v
		}
	}
}

// Write sends one message.
func (s *stream) Write(_ context.Context, msg jsonrpc2.Message) (int64, error) {
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("encoding a message: %w", err)
	}
	return s.writeBody(data)
}

func (s *stream) writeBody(data []byte) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := fmt.Fprintf(s.conn, "Content-Length: %d\r\n\r\n", len(data))
	if err != nil {
		return int64(n), err
	}
	m, err := s.conn.Write(data)
	return int64(n + m), err
}

// requestID returns the id of a JSON object that is not a valid request,
// when it has one that is a number or a string; nil otherwise.
func requestID(body []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	var id any
	if json.Unmarshal(m.ID, &id) != nil {
		return nil
	}
	switch id.(type) {
	case float64, string:
		return m.ID
	}
	return nil
}

// isReply reports whether the JSON object body has a result or an error
// member, as a response must (JSON-RPC 2.0 §5); a message with an id and
// neither is no response, and no request without a method.
func isReply(body []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return false
	}
	_, result := m["result"]
	_, failed := m["error"]
	return result || failed
}

// writeError answers a message that could not be read with a JSON-RPC
// error (JSON-RPC 2.0 §5.1): ParseError for a body that is not JSON,
// InvalidRequest for JSON that is not a request. Its id is the request's,
// when it could be read, else null.
func (s *stream) writeError(_ context.Context, id json.RawMessage, code jsonrpc2.Code, message string) {
	var idv any
	if id != nil {
		idv = id
	}
	data, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      idv,
		"error":   map[string]any{"code": code, "message": message},
	})
	if _, err := s.writeBody(data); err != nil {
		s.logf("answering an unreadable message: %v", err)
	}
}

// Close closes the connection.
func (s *stream) Close() error { return s.conn.Close() }

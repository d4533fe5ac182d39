package gitrepo

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
)

// BlobReader reads objects one at a time, as they are asked for, through
// one long-running "git cat-file --batch" that it starts at the first
// [BlobReader.Read]: for reads that come one by one (the text of a
// diagnostic's file, asked for again after a load let it go), where
// [Repo.Blobs] would start a git for each. It is safe for concurrent use;
// reads take turns. Close it when done.
type BlobReader struct {
	repo *Repo
	ctx  context.Context

	mu    sync.Mutex
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
	err   error // the failure that ended the process; later reads return it
}

// NewBlobReader returns a reader of r's objects whose git runs under ctx.
// It starts nothing yet.
func (r *Repo) NewBlobReader(ctx context.Context) *BlobReader {
	return &BlobReader{repo: r, ctx: ctx}
}

// Read returns the contents of object, or only its size (and nil contents)
// when it is larger than max bytes. An object that does not exist, a bad
// object name, and git failing are errors; after git failed, every read
// returns that error.
func (b *BlobReader) Read(object string, max int64) ([]byte, int64, error) {
	_, data, size, err := b.readObject(object, max)
	return data, size, err
}

// readObject is [BlobReader.Read] that also returns the object's type.
func (b *BlobReader) readObject(object string, max int64) (typ string, data []byte, size int64, err error) {
	if object == "" || strings.ContainsAny(object, " \t\n\x00") {
		return "", nil, 0, fmt.Errorf("git cat-file: bad object name %q", object)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.start(); err != nil {
		return "", nil, 0, err
	}
	typ, data, size, err = b.read(object, max)
	if err != nil {
		b.fail(err)
	}
	return typ, data, size, err
}

// start starts git unless it runs or failed.
func (b *BlobReader) start() error {
	if b.err != nil || b.cmd != nil {
		return b.err
	}
	args := []string{"cat-file", "--batch"}
	cmd := b.repo.command(b.ctx, b.repo.top, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.err = err
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.err = err
		return err
	}
	if err := cmd.Start(); err != nil {
		b.err = &CommandError{Args: args, Err: err}
		return b.err
	}
	b.cmd, b.stdin, b.out = cmd, stdin, bufio.NewReader(stdout)
	return nil
}

// read asks git for object and reads its answer.
func (b *BlobReader) read(object string, max int64) (string, []byte, int64, error) {
	if _, err := io.WriteString(b.stdin, object+"\n"); err != nil {
		return "", nil, 0, b.ctxErr(fmt.Errorf("git cat-file: asking for %s: %w", object, err))
	}
	typ, size, err := readBatchHeader(b.out, object)
	if err != nil {
		return "", nil, 0, b.ctxErr(err)
	}
	body := io.LimitReader(b.out, size)
	var data []byte
	if size <= max {
		data = make([]byte, size)
		if _, err := io.ReadFull(body, data); err != nil {
			return "", nil, 0, b.ctxErr(fmt.Errorf("git cat-file: reading %s: %w", object, err))
		}
	}
	if err := readBatchBody(b.out, object, body); err != nil {
		return "", nil, 0, b.ctxErr(err)
	}
	return typ, data, size, nil
}

// ctxErr returns the context's error when it ended git, else err.
func (b *BlobReader) ctxErr(err error) error {
	var missing *missingError
	if errors.As(err, &missing) {
		return err
	}
	if b.ctx.Err() != nil {
		return b.ctx.Err()
	}
	return err
}

// fail ends git after err, unless err was only a missing object.
func (b *BlobReader) fail(err error) {
	var missing *missingError
	if errors.As(err, &missing) {
		return // git goes on after a missing object
	}
	b.err = err
	b.stop()
}

// stop closes git's input and waits for it.
func (b *BlobReader) stop() {
	if b.cmd == nil {
		return
	}
	b.stdin.Close()
	_ = b.cmd.Wait()
	b.cmd = nil
}

// Close ends git, if it was started. Reads after Close start it again.
// It is safe on nil and more than once.
func (b *BlobReader) Close() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stop()
}

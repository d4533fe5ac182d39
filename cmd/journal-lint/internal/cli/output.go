package cli

import (
	"errors"
	"fmt"
	"io"
	"syscall"

	"github.com/r35157/journal-lint/internal/safetext"
)

// exitBrokenPipe is the exit code of a run whose standard output was
// closed by its reader (journal-lint rules | head): 128 plus SIGPIPE, the
// status a shell reports for git log | head, ended quietly by the signal.
const exitBrokenPipe = 128 + int(syscall.SIGPIPE)

// exitInterrupted is the exit code of a run stopped by Ctrl-C: 128 plus
// SIGINT, as a shell reports for a command the signal ended.
const exitInterrupted = 128 + int(syscall.SIGINT)

// checkedWriter is standard output as the commands see it: it keeps the
// first write error (a full disk, a closed pipe), fails every later write
// with it, and [checkedWriter.exit] turns it into the run's exit code, so
// that no command can end with success without its output.
type checkedWriter struct {
	w   io.Writer
	err error
}

// Write writes p to the underlying writer unless a write failed before.
func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		c.err = err
	}
	return n, err
}

// exit returns the exit code of a run that would exit with code: code
// itself when every write succeeded or the run failed already (2, 3);
// else, for a closed pipe, [exitBrokenPipe] without a word, and for any
// other error [ExitInternal] with one line on stderr.
func (c *checkedWriter) exit(code int, stderr io.Writer) int {
	if c.err == nil || code >= ExitUsage {
		return code
	}
	if errors.Is(c.err, syscall.EPIPE) {
		return exitBrokenPipe
	}
	fmt.Fprintf(stderr, "journal-lint: writing the output: %s\n", safetext.Lines(c.err.Error()))
	return ExitInternal
}

// outputFile returns the file under w, for the checks of a terminal
// (colour); nil when w writes to no file.
func outputFile(w any) any {
	if c, ok := w.(*checkedWriter); ok {
		return c.w
	}
	return w
}

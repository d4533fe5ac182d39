package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	ucli "github.com/urfave/cli/v2"

	"github.com/r35157/journal-lint/internal/gitrepo"
	"github.com/r35157/journal-lint/internal/lsp"
)

func lspCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "lsp",
		Usage: "run the language server (LSP 3.17 over stdio) for editors",
		UsageText: "journal-lint lsp\n\n" +
			"Speaks the Language Server Protocol on standard input and output; an editor starts it.\n" +
			"It checks *.journal and *.journal.example buffers as you type, in the context of the tree\n" +
			"on disk and its .journal-lint.yaml, with the same rules as check, and offers hover, go to\n" +
			"definition, completion, quick fixes and the command journal-lint.diffPredecessor.\n" +
			"It never writes a file in the repository; like check, it keeps its findings in the cache.\n" +
			"Logs go to standard error. See docs/editors.md.\n\n" +
			"Example (Neovim):\n" +
			"   vim.lsp.start({ name = 'journal-lint', cmd = { 'journal-lint', 'lsp' } })",
		Flags: []ucli.Flag{
			cacheFlag(),
			&ucli.DurationFlag{Name: "debounce", Value: lsp.DefaultDebounce, Usage: "wait `DURATION` after a change before checking (changes within it are checked together); by default a change is checked at once, and the changes made during a check right after it"},
		},
		Action: runLSP,
	}
}

func runLSP(c *ucli.Context) error {
	if c.NArg() > 0 {
		return usageErrorf("lsp takes no arguments, got %d", c.NArg())
	}
	store, err := openCache(c)
	if err != nil {
		return err
	}
	defer trimCache(c, store)
	// The user commits and checks out while the server runs: git is asked
	// anew each time.
	err = lsp.Serve(gitrepo.WithoutMemo(c.Context), stdio{w: c.App.Writer}, lsp.Options{
		Debounce: c.Duration("debounce"),
		Log:      c.App.ErrWriter,
		Version:  Version(),
		Cache:    store,
	})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, lsp.ErrExitWithoutShutdown), errors.Is(err, lsp.ErrClosedWithoutShutdown), errors.Is(err, lsp.ErrParentExited):
		// LSP 3.17 "exit": exit code 1 when shutdown did not come first.
		return &exitError{code: ExitFindings, err: fmt.Errorf("lsp: %w (exit code 1)", err)}
	}
	return internalErrorf("lsp: %v", err)
}

// stdio is the server's connection: standard input and the app's writer.
type stdio struct{ w io.Writer }

func (stdio) Read(p []byte) (int, error)    { return os.Stdin.Read(p) }
func (s stdio) Write(p []byte) (int, error) { return s.w.Write(p) }
func (stdio) Close() error                  { return os.Stdin.Close() }

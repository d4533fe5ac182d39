package cli

import (
	"bytes"
	"fmt"
	"io"

	ucli "github.com/urfave/cli/v2"

	vt "github.com/r35157/journal-lint/journal/valuetypes"

	"github.com/r35157/journal-lint/internal/readfile"
	"github.com/r35157/journal-lint/internal/safetext"
	"github.com/r35157/journal-lint/internal/syntax"
)

func digestCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "digest",
		Usage: "print the revision digest of each file (SHA-256 over its exact bytes), or verify one",
		UsageText: "journal-lint digest FILE...\n" +
			"journal-lint digest --check DIGEST FILE...\n\n" +
			"Prints `sha256:<hex>  FILE` per file: the value a successor's PREDECESSOR must name.\n" +
			"FILE - reads standard input (shown as -).\n" +
			"With --check, prints `FILE: OK` when the file's digest is DIGEST and `FILE: FAILED …`\n" +
			"otherwise, saying when the file would match with other line endings.\n" +
			"Exit codes: 0 every file matches, 1 a mismatch, 2 usage error or unreadable file.\n\n" +
			"Examples:\n   journal-lint digest data/nenjim/journals/net.example.quill/*.journal.example\n" +
			"   journal-lint digest --check sha256:6f0c…  journals/com.example.widget/20260110T080000Z.journal\n" +
			"   git show HEAD:journals/com.example.widget/20260110T080000Z.journal | journal-lint digest -",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "check", Usage: "verify that every FILE has the revision digest `DIGEST` (sha256:<64 hex>)"},
		},
		Action: func(c *ucli.Context) error {
			if c.NArg() == 0 {
				return usageErrorf("digest needs at least one FILE")
			}
			var want vt.Digest
			checking := c.IsSet("check")
			if checking {
				d, err := vt.ParseDigest(c.String("check"))
				if err != nil {
					return usageErrorf("--check: %v", err)
				}
				want = d
			}
			unreadable, mismatch := false, false
			stdinRead := false
			for _, f := range c.Args().Slice() {
				name := safetext.Text(f)
				var got vt.Digest
				var data []byte // the bytes, when read whole (standard input)
				var err error
				if f == "-" {
					if stdinRead {
						return usageErrorf("standard input (-) can be read only once")
					}
					stdinRead = true
					if data, err = io.ReadAll(io.LimitReader(c.App.Reader, syntax.MaxSize+1)); err == nil && len(data) > syntax.MaxSize {
						err = &readfile.TooLargeError{Size: int64(len(data)), Max: syntax.MaxSize, Grew: true}
					}
					got = vt.DigestOf(data)
				} else {
					// A stream: no file is held in memory whole, and the
					// reader refuses FIFOs, devices and files over 16 MiB.
					var sum [32]byte
					sum, _, err = readfile.Digest(f, readfile.Options{Max: syntax.MaxSize})
					got = vt.DigestFromSum(sum)
				}
				if err != nil {
					fmt.Fprintf(c.App.ErrWriter, "journal-lint: %s: %s\n", name, safetext.Text(err.Error()))
					unreadable = true
					continue
				}
				if !checking {
					fmt.Fprintf(c.App.Writer, "%s  %s\n", got, name)
					continue
				}
				if got == want {
					fmt.Fprintf(c.App.Writer, "%s: OK\n", name)
					continue
				}
				mismatch = true
				if data == nil {
					data, _ = readfile.Read(f, readfile.Options{Max: syntax.MaxSize})
				}
				fmt.Fprintf(c.App.Writer, "%s: FAILED: its digest is %s, not %s%s\n", name, got, want, eolHint(data, want))
			}
			switch {
			case unreadable:
				return &exitError{code: ExitUsage}
			case mismatch:
				return findings()
			}
			return nil
		},
	}
}

// eolHint explains a mismatch that other line endings would resolve: the
// usual cause is a checkout or an editor that converted them.
func eolHint(data []byte, want vt.Digest) string {
	lf := bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	crlf := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
	switch {
	case !bytes.Equal(lf, data) && vt.DigestOf(lf) == want:
		return " (with LF line endings it would match: its line endings were converted, e.g. by git on checkout; see repo/eol-conversion)"
	case !bytes.Equal(crlf, data) && vt.DigestOf(crlf) == want:
		return " (with CRLF line endings it would match: its line endings were converted, e.g. by git on checkout; see repo/eol-conversion)"
	}
	return ""
}

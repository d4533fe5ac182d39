package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	ucli "github.com/urfave/cli/v2"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/syntax"
	vt "github.com/r35157/journal-lint/journal/valuetypes"

	"github.com/r35157/journal-lint/internal/safetext"
)

func newCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "new",
		Usage: "write the draft of the next revision of an artifact (or its genesis)",
		UsageText: "journal-lint new [--root DIR] [--version V] COORDINATE\n" +
			"journal-lint new [--root DIR] [--version V] --genesis --description TEXT COORDINATE\n\n" +
			"Writes <root>/<COORDINATE>/<V>.journal and prints its path. The successor draft is the\n" +
			"head's text with PREDECESSOR set to the head's digest and JOURNAL_VERSION set to V\n" +
			"(default: now, in UTC); edit it before committing. --genesis starts a new artifact.\n" +
			"It never overwrites a file and refuses to draft from an invalid tree.\n" +
			"Exit codes: 0 written, 1 the tree is invalid, 2 usage error, 3 journal-lint failed.\n\n" +
			"Examples:\n" +
			"   journal-lint new --root journals com.example.widget\n" +
			"   journal-lint new --root journals --genesis --description \"A tiny UI toolkit\" com.example.gadget",
		Flags: append(rootFlags(),
			&ucli.StringFlag{Name: "version", Usage: "the new revision's JOURNAL_VERSION `V` (YYYYMMDDTHHMMSSZ; default: now in UTC)"},
			&ucli.BoolFlag{Name: "genesis", Usage: "start a new artifact: write its first revision"},
			&ucli.StringFlag{Name: "description", Usage: "the artifact's DESCRIPTION `TEXT` (with --genesis)"},
		),
		Action: runNew,
	}
}

func runNew(c *ucli.Context) error {
	co, err := parseCoordinateArg(c)
	if err != nil {
		return err
	}
	genesis := c.Bool("genesis")
	switch {
	case genesis && !c.IsSet("description"):
		return usageErrorf("--genesis needs --description TEXT")
	case !genesis && c.IsSet("description"):
		return usageErrorf("--description is only for --genesis (a successor keeps its predecessor's DESCRIPTION)")
	}
	if err := checkDescription(c.String("description")); err != nil {
		return err
	}
	version, err := newVersion(c)
	if err != nil {
		return err
	}
	s, err := loadSettings(c, c.String("root"))
	if err != nil {
		return err
	}
	if err := notInFuture(s, version); err != nil {
		return err
	}
	if _, err := os.Stat(s.root); os.IsNotExist(err) {
		return usageErrorf("the Journal root %s does not exist; create it first (mkdir -p %s)", s.root, s.root)
	}
	lr, err := load.Load(c.Context, s.root, load.Options{Examples: s.examples})
	if err != nil {
		return err
	}
	if !lr.Valid() {
		n := 0
		for _, d := range lr.Diagnostics {
			if d.Severity == diag.Error && diag.IsValidity(d.Code) {
				fmt.Fprintln(c.App.ErrWriter, safetext.Text(d.String()))
				n++
			}
		}
		return &exitError{code: ExitFindings, err: fmt.Errorf("refusing to write a draft: the tree under %s is invalid (%s); run journal-lint check for details", s.root, plural(n, "error"))}
	}

	var text []byte
	suffix := load.Suffix
	entries := lr.State.Entries(co)
	if genesis {
		if len(entries) > 0 {
			return usageErrorf("%s already has %s; leave out --genesis to draft its next revision", co, plural(len(entries), "revision"))
		}
		if text, err = genesisText(co, version, c.String("description")); err != nil {
			return err
		}
	} else {
		if len(entries) == 0 {
			return usageErrorf("no artifact %s in the tree under %s; start one with --genesis --description TEXT", co, s.root)
		}
		head := entries[len(entries)-1]
		if version.Compare(head.Revision.JournalVersion()) <= 0 {
			return usageErrorf("the new JOURNAL_VERSION %s must be later than the head's %s", version, head.Revision.JournalVersion())
		}
		i := slices.IndexFunc(lr.Files, func(f *load.File) bool { return f.Path == head.Source })
		if i < 0 || lr.Files[i].Doc == nil {
			return internalErrorf("the head of %s (%s) was not read", co, head.Source)
		}
		if strings.HasSuffix(head.Source, load.ExampleSuffix) {
			suffix = load.ExampleSuffix
		}
		text = successorText(lr.Files[i].Doc, version)
	}
	name := version.String() + suffix
	rel := co.String() + "/" + name
	doc, ds := syntax.Parse(rel, text)
	if !doc.RevisionOK {
		msg := "the draft would not be a valid revision"
		for _, d := range ds {
			if d.Severity == diag.Error {
				msg += "\n  " + d.String()
			}
		}
		return usageErrorf("%s", msg)
	}

	dir := filepath.Join(s.root, co.String())
	for _, other := range []string{load.Suffix, load.ExampleSuffix} {
		p := filepath.Join(dir, version.String()+other)
		if _, err := os.Lstat(p); err == nil {
			return usageErrorf("refusing to overwrite %s", p)
		}
	}
	if genesis {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return internalErrorf("creating %s: %v", dir, err)
		}
	}
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return usageErrorf("refusing to overwrite %s", path)
		}
		return internalErrorf("%v", err)
	}
	if _, err := f.Write(text); err != nil {
		f.Close()
		os.Remove(path)
		return internalErrorf("writing %s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return internalErrorf("writing %s: %v", path, err)
	}
	shown := rel
	if pre := displayPrefix(s.root); pre != "" {
		shown = pre + "/" + rel
	}
	fmt.Fprintln(c.App.Writer, shown)
	return nil
}

// notInFuture refuses a Journal version that time/future-version would
// reject: later than now plus the rule's skew (default 24h). Such a revision
// would block every honest successor, which must be later still.
func notInFuture(s *settings, v vt.JournalVersion) error {
	skew := 24 * time.Hour
	if o, ok := s.cfg.Option("time/future-version", "skew"); ok {
		if d, err := o.Duration(); err == nil {
			skew = d
		}
	}
	if limit := time.Now().Add(skew); v.Time().After(limit) {
		return usageErrorf("--version %s is more than %s in the future; every successor would have to be later still (time/future-version)", v, skew)
	}
	return nil
}

// newVersion is --version, or the current second in UTC.
func newVersion(c *ucli.Context) (vt.JournalVersion, error) {
	s := c.String("version")
	if s == "" {
		s = time.Now().UTC().Format("20060102T150405Z")
	}
	v, err := vt.ParseJournalVersion(s)
	if err != nil {
		return vt.JournalVersion{}, usageErrorf("--version: %v", err)
	}
	return v, nil
}

// checkDescription refuses a DESCRIPTION that is not valid UTF-8 (the
// format spec: a Journal is UTF-8 text) or that holds a control character,
// a line break or an invisible format character such as a bidirectional
// override: they would be written into the Journal and later shown in
// terminals and CI logs, where they hide or forge text.
func checkDescription(s string) error {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			return usageErrorf("--description is not valid UTF-8: byte %d is %s; a Journal is UTF-8 text", i+1, safetext.EscapeByte(s[i]))
		case safetext.Unsafe(r):
			return usageErrorf("--description holds %s at byte %d: control, line-break and invisible formatting characters (such as bidirectional overrides) are refused, since they hide or forge text where the DESCRIPTION is shown", safetext.Escape(r), i+1)
		}
	}
	return nil
}

// genesisText is the first revision of an artifact.
func genesisText(co vt.Coordinate, v vt.JournalVersion, description string) ([]byte, error) {
	var q bytes.Buffer
	enc := json.NewEncoder(&q)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(description); err != nil {
		return nil, usageErrorf("--description: %v", err)
	}
	return []byte(fmt.Sprintf("JOURNAL_FORMAT 1\nARTIFACT %s\nJOURNAL_VERSION %s\nDESCRIPTION %s\n",
		co, v, strings.TrimSuffix(q.String(), "\n"))), nil
}

// successorText is head's exact text with JOURNAL_VERSION set to v and
// PREDECESSOR set to head's digest (a line inserted after JOURNAL_VERSION,
// with head's line terminator, when head is a genesis). Everything else,
// comments and spacing included, stays as it was.
func successorText(head *syntax.Document, v vt.JournalVersion) []byte {
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	src := head.Src
	jv := head.Header.JournalVersion
	edits = append(edits, edit{jv.Args[0].Range.Start.Offset, jv.Args[len(jv.Args)-1].Range.End.Offset, v.String()})
	if p := head.Header.Predecessor; p != nil && len(p.Args) > 0 {
		edits = append(edits, edit{p.Args[0].Range.Start.Offset, p.Args[len(p.Args)-1].Range.End.Offset, head.Digest.String()})
	} else {
		eol := "\n"
		if head.LineEnding == syntax.CRLF {
			eol = "\r\n"
		}
		at := jv.Range.End.Offset
		line := "PREDECESSOR " + head.Digest.String() + eol
		if i := bytes.IndexByte(src[at:], '\n'); i >= 0 {
			at += i + 1
		} else {
			at = len(src)
			line = eol + strings.TrimSuffix(line, eol)
		}
		edits = append(edits, edit{at, at, line})
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.start - a.start })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.start:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	return out
}

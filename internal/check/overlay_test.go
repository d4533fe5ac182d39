package check_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/gitrepo/gittest"
)

// TestBuffersReportWhatASaveWould: a check with an editor's unsaved buffers
// (Options.Overlay) reports what a check of the tree reports once they are
// saved as an editor saves them (through a symbolic link, making the
// directories it needs, failing where a file stands in the way), wherever
// a buffer lies: over a file, over a link, beside other files under a name
// that is no timestamp, in a new artifact directory, directly in the root,
// in a directory named as no coordinate or inside an artifact's, under a
// root that does not exist yet, or where a file or a link holds the
// directory's name.
func TestBuffersReportWhatASaveWould(t *testing.T) {
	t.Parallel()
	genesis := func(co, ts, extra string) []byte {
		return []byte("JOURNAL_FORMAT 1\nARTIFACT " + co + "\nJOURNAL_VERSION " + ts + "\nDESCRIPTION \"A tiny UI toolkit\"\n" + extra)
	}
	const first = "com.example.widget/20260110T080000Z.journal"
	cases := []struct {
		name    string
		disk    func(t *testing.T, root, outside string)
		buffers map[string][]byte
	}{
		{"over a file", nil, map[string][]byte{first: genesis("com.example.widget", "20260110T080000Z", "LICENSE MTI\n")}},
		{"over a link", func(t *testing.T, root, outside string) {
			gittest.Write(t, outside, "20260111T080000Z.journal", string(genesis("com.example.widget", "20260111T080000Z", "")))
			link(t, filepath.Join(outside, "20260111T080000Z.journal"), filepath.Join(root, "com.example.widget", "20260111T080000Z.journal"))
		}, map[string][]byte{"com.example.widget/20260111T080000Z.journal": genesis("com.example.widget", "20260111T080000Z", "# edited\n")}},
		{"a name that is no timestamp", nil, map[string][]byte{"com.example.widget/2026-01-11.journal": genesis("com.example.widget", "20260111T080000Z", "")}},
		{"a new artifact", nil, map[string][]byte{"org.example.core/20260105T090000Z.journal": genesis("org.example.core", "20260105T090000Z", "")}},
		{"a directory that is a file", func(t *testing.T, root, _ string) {
			gittest.Write(t, root, "org.example.core", "a file\n")
		}, map[string][]byte{"org.example.core/20260105T090000Z.journal": genesis("org.example.core", "20260105T090000Z", "")}},
		{"a directory that is a link", func(t *testing.T, root, outside string) {
			link(t, outside, filepath.Join(root, "org.example.core"))
		}, map[string][]byte{"org.example.core/20260105T090000Z.journal": genesis("org.example.core", "20260105T090000Z", "")}},
		{"the root", nil, map[string][]byte{"20260105T090000Z.journal": genesis("org.example.core", "20260105T090000Z", "")}},
		{"a directory named as no coordinate", nil, map[string][]byte{"widget/20260105T090000Z.journal": genesis("org.example.core", "20260105T090000Z", "")}},
		{"a directory in an artifact's", nil, map[string][]byte{"com.example.widget/old/20260105T090000Z.journal": genesis("com.example.widget", "20260105T090000Z", "")}},
		{"a root not made yet", func(t *testing.T, root, _ string) {
			if err := os.RemoveAll(root); err != nil {
				t.Fatal(err)
			}
		}, map[string][]byte{"org.example.core/20260105T090000Z.journal": genesis("org.example.core", "20260105T090000Z", "")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			base := t.TempDir()
			root, outside := filepath.Join(base, "journals"), filepath.Join(base, "outside")
			gittest.Write(t, root, first, string(genesis("com.example.widget", "20260110T080000Z", "")))
			if err := os.MkdirAll(outside, 0o755); err != nil {
				t.Fatal(err)
			}
			if c.disk != nil {
				c.disk(t, root, outside)
			}
			got := findings(t, check.Options{Root: root, Overlay: c.buffers})
			for rel, b := range c.buffers { // saved as an editor saves
				abs := filepath.Join(root, filepath.FromSlash(rel))
				if os.MkdirAll(filepath.Dir(abs), 0o755) == nil {
					_ = os.WriteFile(abs, b, 0o644)
				}
			}
			if d := cmp.Diff(findings(t, check.Options{Root: root}), got); d != "" {
				t.Errorf("with the buffers (+) against the saved tree (-):\n%s", d)
			}
		})
	}
}

// findings runs a check and lists its diagnostics, a line each, with
// their help.
func findings(t *testing.T, opts check.Options) []string {
	t.Helper()
	res, err := check.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range res.Diagnostics {
		out = append(out, fmt.Sprintf("%s %s %s %d:%d %s (help: %s)", d.Path, d.Code, d.Severity, d.Range.Start.Line, d.Range.Start.Column,
			strings.ReplaceAll(d.Message, opts.Root, "ROOT"), strings.ReplaceAll(d.Help, opts.Root, "ROOT")))
	}
	return out
}

// link makes a symbolic link at path to target.
func link(t *testing.T, target, path string) {
	t.Helper()
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

// TestPriorForgetsClosedBuffersInTheRoot: a check that takes over from one
// whose buffers added to the root's own listing (a file in the root, a
// directory named as no coordinate) and has them no longer, reports what
// a fresh check does: not the entries only those buffers made.
func TestPriorForgetsClosedBuffersInTheRoot(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "journals")
	text := []byte("JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"A tiny UI toolkit\"\n")
	gittest.Write(t, root, "com.example.widget/20260110T080000Z.journal", string(text))
	for _, then := range []string{"20260105T090000Z.journal", "Widget/20260105T090000Z.journal", "org.new.c", ".gitkeep/x"} {
		for _, now := range []map[string][]byte{nil, {"com.example.widget/20260111T080000Z.journal": text}} {
			prior, err := check.Run(context.Background(), check.Options{Root: root, KeepState: true, Overlay: map[string][]byte{then: text}})
			if err != nil {
				t.Fatal(err)
			}
			got := findings(t, check.Options{Root: root, KeepState: true, Overlay: now, Prior: prior})
			if d := cmp.Diff(findings(t, check.Options{Root: root, KeepState: true, Overlay: now}), got); d != "" {
				t.Errorf("%s closed, %d buffers open: with Prior (+) against fresh (-):\n%s", then, len(now), d)
			}
		}
	}
}

// TestBufferOverACommittedLink: a buffer at the path of a link that git
// records, and that is gone from the work tree, is the plain file a save
// makes there, which core.symlinks=false would have checked out: the
// check reports the link, as it does once the buffer is saved.
func TestBufferOverACommittedLink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rel := "com.example.widget/20260112T080000Z.journal"
	text := "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"A tiny UI toolkit\"\n"
	gittest.Write(t, dir, "com.example.widget/20260110T080000Z.journal", text)
	link(t, "20260110T080000Z.journal", filepath.Join(dir, filepath.FromSlash(rel)))
	gittest.Repo(t, dir, nil)
	if err := os.Remove(filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
		t.Fatal(err)
	}
	buffers := map[string][]byte{rel: []byte("20260110T080000Z.journal")}
	got := findings(t, check.Options{Root: dir, Overlay: buffers})
	gittest.Write(t, dir, rel, string(buffers[rel]))
	if d := cmp.Diff(findings(t, check.Options{Root: dir}), got); d != "" {
		t.Errorf("with the buffer (+) against the saved tree (-):\n%s", d)
	}
}

// TestCRLFBufferOverAnLFCommit: a buffer that turns a file committed with
// LF line endings into CRLF gets the help the saved file gets (restore the
// committed bytes), though git, which sees only the disk, reports the file
// unchanged.
func TestCRLFBufferOverAnLFCommit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rel := "com.example.widget/20260110T080000Z.journal"
	text := "JOURNAL_FORMAT 1\nARTIFACT com.example.widget\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"A tiny UI toolkit\"\n"
	gittest.Write(t, dir, ".gitattributes", "*.journal -text\n")
	gittest.Write(t, dir, rel, text)
	gittest.Repo(t, dir, nil)
	buffers := map[string][]byte{rel: []byte(strings.ReplaceAll(text, "\n", "\r\n"))}
	got := findings(t, check.Options{Root: dir, Overlay: buffers})
	gittest.Write(t, dir, rel, string(buffers[rel]))
	want := findings(t, check.Options{Root: dir})
	if d := cmp.Diff(want, got); d != "" || !strings.Contains(strings.Join(want, "\n"), "git checkout HEAD") {
		t.Errorf("with the buffer (+) against the saved tree (-), which must tell to restore the committed bytes:\n%s", d)
	}
}

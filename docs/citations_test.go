// Package docs holds no code: its test checks that the repository cites the
// Journal format only by the section names of docs/journal-format.md, and
// that every cited section exists.
package docs

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/r35157/journal-lint/internal/longtest"
)

// formatDoc is the format guide, relative to the repository's top.
const formatDoc = "docs/journal-format.md"

// maxScanned is the largest file the test reads; only generated test
// inputs (testdata/hostile) are larger.
const maxScanned = 256 << 10

// section is one heading of the format guide.
type section struct {
	// rules are the numbers of the items of the numbered lists directly
	// under the heading ("1. …"), which citations name as "rule N of …".
	rules map[int]bool
}

// anchor returns the anchor GitHub gives a Markdown heading: the text in
// lower case, spaces turned into hyphens, every other character that is not
// a letter, digit, hyphen or underscore dropped.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// sections reads the headings of the format guide by name and by anchor
// (a repeated anchor gets "-1", "-2", … as on GitHub).
func sections(t *testing.T) (byName, byAnchor map[string]*section) {
	t.Helper()
	f, err := os.Open(filepath.FromSlash("../" + formatDoc))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	byName, byAnchor = map[string]*section{}, map[string]*section{}
	heading := regexp.MustCompile(`^#{1,6} (.+)$`)
	item := regexp.MustCompile(`^(\d+)\. `)
	var cur *section
	fence := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		if m := heading.FindStringSubmatch(line); m != nil {
			name := strings.ReplaceAll(m[1], "`", "")
			cur = &section{rules: map[int]bool{}}
			byName[name] = cur
			a := anchor(name)
			for i := 1; byAnchor[a] != nil; i++ {
				a = anchor(name) + "-" + strconv.Itoa(i)
			}
			byAnchor[a] = cur
			continue
		}
		if m := item.FindStringSubmatch(line); m != nil && cur != nil {
			n, _ := strconv.Atoi(m[1])
			cur.rules[n] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(byName) < 10 {
		t.Fatalf("read only %d headings from %s", len(byName), formatDoc)
	}
	return byName, byAnchor
}

var (
	// link is a Markdown link to the format guide, with its target path and
	// optional anchor; inside the guide, a link to one of its own anchors.
	link     = regexp.MustCompile(`\]\(([^()\s#]*journal-format\.md)?(#[^()\s]*)?\)`)
	selfLink = regexp.MustCompile(`\]\((#[^()\s]*)\)`)
	// cited is a plain-text citation: one or more quoted section names
	// before "in docs/journal-format.md", optionally after "rule N of".
	cited  = regexp.MustCompile(`(?:rule (\d+) of )?((?:"[^"]+"(?:, | and | to ))*"[^"]+") in docs/journal-format\.md`)
	quoted = regexp.MustCompile(`"([^"]+)"`)
	// numbered is a citation by section number of a format specification
	// that is not in the repository (the word spec, then a section sign).
	numbered = regexp.MustCompile(`(?i)\bspec(?:ification)?\s+(?:rev(?:ision)?\s+[\d.]+\s+)?\x{00A7}`)
	// joint is a line break with the comment marker and indentation of the
	// next line, so that citations wrapped over lines read as one.
	joint = regexp.MustCompile(`\s*\n\s*(?://|#)?\s*`)
)

// TestFormatCitations checks every text file of the repository: each link
// to docs/journal-format.md resolves from where it stands (Markdown files)
// and names an anchor the guide has, each plain citation (a quoted
// section name before "in docs/journal-format.md") names a heading of it (and "rule N of" a numbered
// rule under that heading), and nothing cites the format by section number.
// A long test (longtest.Whole): one goroutine, whose patterns take seconds
// under the race detector.
func TestFormatCitations(t *testing.T) {
	longtest.Whole(t)
	byName, byAnchor := sections(t)
	links, plain := 0, 0
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(p) {
		case ".go", ".md", ".txtar", ".proto", ".yaml", ".yml":
		default:
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > maxScanned {
			return err // a generated input, not text anyone reads
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		// Every pattern below needs the guide's name or a section sign
		// (neither is ever wrapped); most files have neither, and the
		// patterns are slow under the race detector.
		if !bytes.Contains(b, []byte("journal-format.md")) && !bytes.ContainsRune(b, '\u00A7') {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, ".."+string(filepath.Separator)))
		text := strings.ReplaceAll(joint.ReplaceAllString(string(b), " "), `\"`, `"`)
		if m := numbered.FindString(text); m != "" {
			t.Errorf("%s cites the format by section number (%q): cite a section of %s by name", rel, m, formatDoc)
		}
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target, frag := m[1], strings.TrimPrefix(m[2], "#")
			if target == "" {
				continue // a link within the file; the guide's own are below
			}
			links++
			if strings.HasSuffix(rel, ".md") && !strings.Contains(target, "://") {
				if got := path.Join(path.Dir(rel), target); got != formatDoc {
					t.Errorf("%s: link %q leads to %s, not %s", rel, target, got, formatDoc)
				}
			}
			if frag != "" && byAnchor[frag] == nil {
				t.Errorf("%s: link %q: %s has no heading with anchor #%s", rel, target, formatDoc, frag)
			}
		}
		if rel == formatDoc {
			for _, m := range selfLink.FindAllStringSubmatch(text, -1) {
				links++
				if byAnchor[m[1][1:]] == nil {
					t.Errorf("%s: link to %s: no heading has that anchor", rel, m[1])
				}
			}
		}
		for _, m := range cited.FindAllStringSubmatch(text, -1) {
			names := quoted.FindAllStringSubmatch(m[2], -1)
			for _, n := range names {
				plain++
				if byName[n[1]] == nil {
					t.Errorf("%s: %q: %s has no section %q", rel, m[0], formatDoc, n[1])
				}
			}
			if m[1] != "" {
				n, _ := strconv.Atoi(m[1])
				if s := byName[names[len(names)-1][1]]; s != nil && !s.rules[n] {
					t.Errorf("%s: %q: the section has no rule %d", rel, m[0], n)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The rule docs, the generated reference and the code cite the guide
	// in many places; finding few means the patterns no longer match.
	if links < 40 || plain < 100 {
		t.Errorf("found only %d links to and %d plain citations of %s; have the citation forms changed?", links, plain, formatDoc)
	}
}

func TestAnchor(t *testing.T) {
	for in, want := range map[string]string{
		"Filesystem layout":                "filesystem-layout",
		"A complete example, annotated":    "a-complete-example-annotated",
		"The revision digest: exact bytes": "the-revision-digest-exact-bytes",
		"Writing `journal-lint new`":       "writing-journal-lint-new",
		"7. Values":                        "7-values",
	} {
		if got := anchor(in); got != want {
			t.Errorf("anchor(%q) = %q, want %q", in, got, want)
		}
	}
}

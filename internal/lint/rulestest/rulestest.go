// Package rulestest checks a lint rule against Journal files that carry their
// expected diagnostics in comments, in the manner of x/tools' analysistest
// (style anchors §11.9).
//
// # Expectations
//
// A Journal comment takes a whole line, so an expectation is a comment line
// of its own that applies to the next line that is not itself an
// expectation:
//
//	# want "regexp" ...
//
// or, for a diagnostic on the comment line itself (a comment, a line
// terminator, the end of the file), "# want here ...".
//
// Each quoted string, a Go string literal ("…" or `…`), is a regular
// expression that must match the message of one diagnostic starting on that
// line. A string may be preceded by the 1-based start column in code points, "12", or by
// the start and end column on the same line, "12-15":
//
//	# want 9-24 `names org\.example\.cor,`
//	DEPENDS org.example.cor 1.0.0
//
// Every diagnostic the rule reports must match exactly one expectation and
// every expectation must be matched once. Expectation lines are part of the
// file the rule sees: a diagnostic on one needs a "want here".
package rulestest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/lint"
	"github.com/r35157/journal-lint/internal/syntax"
)

// Config is the environment the rule runs in. Its zero value runs the rule
// without a tree, with default options, at a fixed instant (Now below).
type Config struct {
	// Tree is passed to the rule; nil for none.
	Tree lint.Tree
	// Now is the current time; zero means [Now].
	Now time.Time
	// Options are the rule's raw option values (name → text).
	Options map[string]string
}

// Now is the default current time of a test run: 2026-03-01T00:00:00Z, so
// that results do not depend on the clock.
var Now = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

// Run lints every *.journal file in dir with the rule r under cfg and
// compares the diagnostics with the files' want comments, one subtest per
// file. It fails the test when dir holds no .journal file.
func Run(t *testing.T, dir string, r lint.Rule, cfg Config) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.journal"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no .journal files in %s", dir)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := Check(filepath.Base(file), src, r, cfg)
			want, err := ParseWants(src)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			for _, problem := range Compare(got, want) {
				t.Errorf("%s: %s", file, problem)
			}
		})
	}
}

// Check parses src as the file path and returns what the rule r reports on
// it under cfg.
func Check(path string, src []byte, r lint.Rule, cfg Config) diag.List {
	doc, _ := syntax.Parse(path, src)
	now := cfg.Now
	if now.IsZero() {
		now = Now
	}
	var opts map[string]map[string]string
	if cfg.Options != nil {
		opts = map[string]map[string]string{r.Code: cfg.Options}
	}
	return lint.Run([]*syntax.Document{doc}, cfg.Tree, lint.RunConfig{Now: now, Options: opts, Rules: []lint.Rule{r}})
}

// Want is one expected diagnostic.
type Want struct {
	// Line is the 1-based line the diagnostic starts on.
	Line int
	// Column and EndColumn are the 1-based start and end columns in code
	// points; 0 means not checked. EndColumn is on Line.
	Column, EndColumn int
	// Message must match the diagnostic's message.
	Message *regexp.Regexp
	// Comment is the 1-based line of the want comment, for reports.
	Comment int
}

var (
	wantLine  = regexp.MustCompile(`^\s*#\s*want\b(.*)$`)
	wantToken = regexp.MustCompile("^\\s*(?:(\\d+)(?:-(\\d+))?\\s+)?(\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`)")
)

// ParseWants returns the expectations written in src. It fails on a want
// comment that does not parse or that no line follows.
func ParseWants(src []byte) ([]Want, error) {
	lines := strings.Split(string(src), "\n")
	var out, pending []Want
	for i, line := range lines {
		n := i + 1
		line = strings.TrimSuffix(line, "\r")
		m := wantLine.FindStringSubmatch(line)
		if m == nil {
			if i == len(lines)-1 && line == "" {
				break // the empty text after the final terminator is no line
			}
			for _, w := range pending {
				w.Line = n
				out = append(out, w)
			}
			pending = nil
			continue
		}
		rest := strings.TrimSpace(m[1])
		here := rest == "here" || strings.HasPrefix(rest, "here ")
		if here {
			rest = strings.TrimPrefix(rest, "here")
		}
		if strings.TrimSpace(rest) == "" {
			return nil, fmt.Errorf("line %d: want comment without an expectation", n)
		}
		for strings.TrimSpace(rest) != "" {
			t := wantToken.FindStringSubmatch(rest)
			if t == nil {
				return nil, fmt.Errorf("line %d: bad want comment near %q", n, rest)
			}
			rest = rest[len(t[0]):]
			w := Want{Comment: n}
			w.Column, _ = strconv.Atoi(t[1])
			w.EndColumn, _ = strconv.Atoi(t[2])
			text, err := strconv.Unquote(t[3])
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", n, err)
			}
			if w.Message, err = regexp.Compile(text); err != nil {
				return nil, fmt.Errorf("line %d: %v", n, err)
			}
			if here {
				w.Line = n
				out = append(out, w)
			} else {
				pending = append(pending, w)
			}
		}
	}
	if len(pending) > 0 {
		return nil, fmt.Errorf("line %d: want comment at the end of the file", pending[0].Comment)
	}
	return out, nil
}

// Compare matches the diagnostics got against want and returns one line per
// problem: an unexpected diagnostic or an unmatched expectation. Nil means
// they agree.
func Compare(got diag.List, want []Want) []string {
	used := make([]bool, len(want))
	var problems []string
	for _, d := range got {
		found := false
		for i, w := range want {
			if !used[i] && matches(d, w) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			problems = append(problems, fmt.Sprintf("unexpected diagnostic %s (range %s-%s)", d, d.Range.Start, d.Range.End))
		}
	}
	for i, w := range want {
		if !used[i] {
			problems = append(problems, fmt.Sprintf("line %d: no diagnostic matched %s (want comment on line %d)", w.Line, describe(w), w.Comment))
		}
	}
	return problems
}

func matches(d diag.Diagnostic, w Want) bool {
	s, e := d.Range.Start, d.Range.End
	switch {
	case s.Line != w.Line, !w.Message.MatchString(d.Message):
		return false
	case w.Column != 0 && s.Column != w.Column:
		return false
	case w.EndColumn != 0 && (e.Line != w.Line || e.Column != w.EndColumn):
		return false
	}
	return true
}

func describe(w Want) string {
	s := strconv.Quote(w.Message.String())
	switch {
	case w.EndColumn != 0:
		return fmt.Sprintf("columns %d-%d %s", w.Column, w.EndColumn, s)
	case w.Column != 0:
		return fmt.Sprintf("column %d %s", w.Column, s)
	}
	return s
}

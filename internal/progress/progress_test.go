package progress

import (
	"bytes"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// term is a fake terminal: it records what is written and replays it on a
// screen of lines, understanding the few sequences a progress line uses
// (carriage return, line feed, cursor up, erase to the end of the screen).
type term struct {
	mu  sync.Mutex
	out bytes.Buffer
}

func (t *term) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.Write(p)
}

func (t *term) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.String()
}

var csi = regexp.MustCompile(`^\x1b\[(\d*)([A-Za-z])`)

// screen returns the non-empty lines left on the screen after replaying
// everything written, and fails on a sequence it does not know.
func (t *term) screen(tb testing.TB) []string {
	s := t.String()
	lines := []string{""}
	row, col := 0, 0
	put := func(r rune) {
		line := []rune(lines[row])
		for len(line) < col {
			line = append(line, ' ')
		}
		if col < len(line) {
			line[col] = r
		} else {
			line = append(line, r)
		}
		lines[row] = string(line)
		col++
	}
	for len(s) > 0 {
		if m := csi.FindStringSubmatch(s); m != nil {
			n, _ := strconv.Atoi(m[1])
			switch m[2] {
			case "A":
				row = max(row-max(n, 1), 0)
			case "J":
				lines[row] = string([]rune(lines[row])[:min(col, len([]rune(lines[row])))])
				lines = lines[:row+1]
			case "K":
				lines[row] = string([]rune(lines[row])[:min(col, len([]rune(lines[row])))])
			default:
				tb.Fatalf("unexpected escape sequence %q in %q", m[0], t.String())
			}
			s = s[len(m[0]):]
			continue
		}
		r := []rune(s[:min(len(s), 4)])[0]
		s = s[len(string(r)):]
		switch r {
		case '\r':
			col = 0
		case '\n':
			row, col = row+1, 0
			if row == len(lines) {
				lines = append(lines, "")
			}
		default:
			put(r)
		}
	}
	var shown []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			shown = append(shown, l)
		}
	}
	return shown
}

// waitFor polls the fake terminal until its screen shows a line matching re.
func waitFor(t *testing.T, tm *term, re *regexp.Regexp) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		for _, l := range tm.screen(t) {
			if re.MatchString(l) {
				return l
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the screen never showed %v; written: %q", re, tm.String())
	return ""
}

// TestLineShowsAndClears draws the line on a fake terminal: it shows files
// read out of the total, MB/s and ETA while the run goes, and nothing is
// left on the screen after Stop.
func TestLineShowsAndClears(t *testing.T) {
	t.Parallel()
	tm := &term{}
	l := Start(tm, Options{Delay: -1, ForceTTY: true, Width: 100})
	l.Total(10)
	for range 4 {
		l.Read(250_000)
	}
	line := waitFor(t, tm, regexp.MustCompile(`checking: 4/10 files`))
	if !regexp.MustCompile(`\d+\.\d MB/s`).MatchString(line) || !regexp.MustCompile(`ETA (\d+[hms])+`).MatchString(line) {
		t.Errorf("progress line %q lacks MB/s or ETA", line)
	}
	for range 6 {
		l.Read(250_000)
	}
	waitFor(t, tm, regexp.MustCompile(`checking: 10/10 files .* ETA 0s`))
	l.Stop()
	l.Stop() // a second Stop is harmless
	if left := tm.screen(t); len(left) > 0 {
		t.Errorf("the screen still shows %q after Stop; written: %q", left, tm.String())
	}
	if strings.Contains(tm.String(), "\x1b[") && !strings.HasSuffix(tm.String(), "\x1b[J") {
		t.Errorf("output does not end by erasing the line: %q", tm.String())
	}
}

// TestLineShortRun checks that a run that ends before the delay writes
// nothing at all.
func TestLineShortRun(t *testing.T) {
	t.Parallel()
	tm := &term{}
	l := Start(tm, Options{Delay: time.Hour, ForceTTY: true})
	l.Total(3)
	l.Read(10)
	time.Sleep(3 * refresh)
	l.Stop()
	if s := tm.String(); s != "" {
		t.Errorf("a run shorter than the delay wrote %q", s)
	}
}

// TestLineBeforeTotal shows the count alone while the total is unknown.
func TestLineBeforeTotal(t *testing.T) {
	t.Parallel()
	tm := &term{}
	l := Start(tm, Options{Delay: -1, ForceTTY: true, Width: 100})
	defer l.Stop()
	waitFor(t, tm, regexp.MustCompile(`checking: listing files .*-- MB/s +ETA --`))
}

// TestWanted checks the decision: never on a pipe or a regular file, never
// for a machine-readable format or with --no-progress.
func TestWanted(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	f, err := os.Create(t.TempDir() + "/stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, c := range []struct {
		name      string
		w         any
		text, off bool
	}{
		{"pipe", w, true, false},
		{"file", f, true, false},
		{"buffer", &bytes.Buffer{}, true, false},
		{"pipe json", w, false, false},
		{"pipe no-progress", w, true, true},
	} {
		if Wanted(c.w.(interface{ Write([]byte) (int, error) }), c.text, c.off) {
			t.Errorf("%s: Wanted = true, want false", c.name)
		}
	}
}

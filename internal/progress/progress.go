// Package progress draws the progress line of a long check on a terminal:
// files read out of the total, the reading rate in MB/s and the estimated
// time left, on one line of standard error that is cleared when the run
// ends. It implements load.Progress; the rendering is done by
// github.com/vbauerster/mpb/v8.
//
// Whether a run shows the line at all (a terminal, the text format, no
// --no-progress) is the caller's decision; see [Wanted].
package progress

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/vbauerster/cupwriter"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// Delay is how long a run goes before its progress line appears: shorter
// runs never draw it.
const Delay = time.Second

// refresh is how often the line is redrawn.
const refresh = 150 * time.Millisecond

// defaultWidth is the line width when the terminal does not tell its size.
const defaultWidth = 80

// sizedWriter is the terminal writer of the renderer, with a fallback for
// a terminal that reports no size (a pseudo-terminal nobody sized, as
// under script(1)), where the renderer would otherwise draw nothing.
type sizedWriter struct {
	*cupwriter.Writer
	width int
}

// GetTermSize returns the terminal's columns and rows, or the fallback
// width and one row when it reports none.
func (s sizedWriter) GetTermSize() (width, height int, err error) {
	width, height, err = s.Writer.GetTermSize()
	if err != nil || width <= 0 || height <= 0 {
		return s.width, 1, nil
	}
	return width, height, nil
}

// Options tune a Line; the zero value is what a terminal gets.
type Options struct {
	// Delay overrides [Delay] when positive; a negative value draws at once.
	Delay time.Duration
	// ForceTTY draws on w even when it is not a terminal (tests).
	ForceTTY bool
	// Width is the line width when w is not a terminal or does not tell
	// its size; 0 means 80.
	Width int
}

// Line is the progress line of one run. Total and Read are safe for
// concurrent use; Read only adds to counters (load.Progress runs it on the
// hot path), and a refresh goroutine hands them to the renderer.
type Line struct {
	files, bytes atomic.Int64
	total        atomic.Int64
	start        atomic.Int64 // Unix nanoseconds when reading started, 0 before Total
	end          atomic.Int64 // Unix nanoseconds when the last file was read, 0 before

	p       *mpb.Progress
	bar     *mpb.Bar
	stop    chan struct{}
	done    sync.WaitGroup
	stopped sync.Once
}

// Wanted reports whether a run should show a progress line on w: w is a
// terminal (not a pipe or a file), TERM names one that can redraw a line
// (neither empty nor "dumb"), the run is not in CI (the environment
// variable CI, which GitHub Actions, GitLab CI and most others set, is
// empty, "false" or "0": a CI job may run on a terminal whose output ends
// up in the log), and the caller has neither turned it off (--no-progress)
// nor chosen a machine-readable output format (textFormat false).
func Wanted(w io.Writer, textFormat, off bool) bool {
	if off || !textFormat {
		return false
	}
	if term := os.Getenv("TERM"); term == "" || term == "dumb" {
		return false
	}
	switch ci := strings.ToLower(os.Getenv("CI")); ci {
	case "", "false", "0":
	default:
		return false
	}
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// Start begins a progress line on w, which appears after opts.Delay (by
// default [Delay]) unless [Line.Stop] comes first. The caller must call
// Stop, which clears the line.
func Start(w io.Writer, opts Options) *Line {
	l := &Line{stop: make(chan struct{})}
	delay := opts.Delay
	if delay == 0 {
		delay = Delay
	}
	show := make(chan any)
	if delay < 0 {
		close(show)
	} else {
		t := time.AfterFunc(delay, func() { close(show) })
		l.done.Go(func() {
			<-l.stop
			t.Stop() // a line that never appeared never will
		})
	}
	width := cmp.Or(opts.Width, defaultWidth)
	popts := []mpb.ContainerOption{mpb.WithConsoleWriter(sizedWriter{cupwriter.New(w, opts.ForceTTY), width}),
		mpb.WithRenderDelay(show), mpb.WithRefreshRate(refresh), mpb.WithWidth(width)}
	if opts.ForceTTY {
		popts = append(popts, mpb.WithAutoRefresh())
	}
	l.p = mpb.New(popts...)
	// A bar made with total 0 never completes on its own: it stays, at
	// 100 % if reading is done, until Stop drops it.
	l.bar = l.p.New(0, mpb.BarStyle(),
		mpb.BarWidth(24),
		mpb.PrependDecorators(decor.Any(l.count, decor.WCSyncSpaceR)),
		mpb.AppendDecorators(decor.Any(l.rate, decor.WCSyncSpace), decor.Any(l.eta, decor.WCSyncSpace)))
	l.done.Go(l.feed)
	return l
}

// Total records the number of files the run reads (load.Progress).
func (l *Line) Total(files int) {
	l.total.Store(int64(files))
	l.start.Store(time.Now().UnixNano())
	l.bar.SetTotal(int64(files), false)
}

// Read records one file of n bytes read (load.Progress).
func (l *Line) Read(n int64) {
	l.files.Add(1)
	l.bytes.Add(n)
}

// Stop ends the line and clears it from the terminal. It waits until the
// renderer has written its last output, and may be called more than once.
func (l *Line) Stop() {
	l.stopped.Do(func() {
		close(l.stop)
		l.done.Wait()
		l.bar.Abort(true) // drop the bar: the last frame erases the line
		l.p.Wait()
	})
}

// feed hands the counters to the bar until Stop.
func (l *Line) feed() {
	t := time.NewTicker(refresh / 2)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			n := l.files.Load()
			if l.start.Load() != 0 && n >= l.total.Load() && l.end.Load() == 0 {
				l.end.Store(time.Now().UnixNano()) // the rate stays that of the reading
			}
			l.bar.SetCurrent(n)
		}
	}
}

// elapsed is the reading time so far, or all of it once every file was
// read; 0 before Total.
func (l *Line) elapsed() time.Duration {
	s := l.start.Load()
	switch e := l.end.Load(); {
	case s == 0:
		return 0
	case e != 0:
		return time.Duration(e - s)
	}
	return time.Since(time.Unix(0, s))
}

func (l *Line) count(s decor.Statistics) string {
	if l.start.Load() == 0 {
		return "checking: listing files"
	}
	return fmt.Sprintf("checking: %d/%d files", s.Current, s.Total)
}

func (l *Line) rate(decor.Statistics) string {
	sec := l.elapsed().Seconds()
	if sec <= 0 {
		return "-- MB/s"
	}
	return fmt.Sprintf("%.1f MB/s", float64(l.bytes.Load())/1e6/sec)
}

// eta extrapolates the time left from the average time per file so far.
func (l *Line) eta(s decor.Statistics) string {
	el := l.elapsed()
	switch {
	case s.Total <= 0 || s.Current <= 0 || el <= 0:
		return "ETA --"
	case s.Current >= s.Total:
		return "ETA 0s"
	}
	left := time.Duration(float64(el) * float64(s.Total-s.Current) / float64(s.Current))
	return "ETA " + left.Round(time.Second).String()
}

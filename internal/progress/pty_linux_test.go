package progress

import (
	"os"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal and returns its terminal end, or skips
// the test where there is none.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skipf("naming the pseudo-terminal: %v", err)
	}
	tty, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty
}

// TestWantedOnTerminal checks that a terminal gets the line for the text
// format only, and not with --no-progress, TERM=dumb, TERM empty or in CI
// (a CI job with a terminal writes it to its log).
func TestWantedOnTerminal(t *testing.T) {
	tty := openPTY(t)
	t.Setenv("TERM", "xterm")
	t.Setenv("CI", "")
	if !Wanted(tty, true, false) {
		t.Error("a terminal with the text format: Wanted = false, want true")
	}
	if Wanted(tty, false, false) {
		t.Error("a terminal with a machine-readable format: Wanted = true, want false")
	}
	if Wanted(tty, true, true) {
		t.Error("a terminal with --no-progress: Wanted = true, want false")
	}
	for _, term := range []string{"dumb", ""} {
		t.Setenv("TERM", term)
		if Wanted(tty, true, false) {
			t.Errorf("TERM=%q: Wanted = true, want false", term)
		}
	}
	t.Setenv("TERM", "xterm")
	for ci, want := range map[string]bool{"true": false, "1": false, "woodpecker": false, "false": true, "0": true} {
		t.Setenv("CI", ci)
		if got := Wanted(tty, true, false); got != want {
			t.Errorf("CI=%s: Wanted = %v, want %v", ci, got, want)
		}
	}
}

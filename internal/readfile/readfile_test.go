package readfile

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadRegular(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a")
	write(t, p, "hello\n")
	got, err := Read(p, Options{})
	if err != nil || string(got) != "hello\n" {
		t.Fatalf("Read = %q, %v", got, err)
	}
	sum, n, err := Digest(p, Options{})
	if err != nil || n != 6 || sum != sha256.Sum256([]byte("hello\n")) {
		t.Fatalf("Digest = %x, %d, %v", sum, n, err)
	}
}

func TestSymlinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	write(t, target, "x")
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	if got, err := Read(link, Options{}); err != nil || string(got) != "x" {
		t.Errorf("Read through a symlink = %q, %v", got, err)
	}
	if _, err := Read(link, Options{NoFollow: true}); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Read(NoFollow) of a symlink = %v, want ErrNotRegular", err)
	}
}

func TestSizeLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big")
	fh, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := fh.Truncate(1 << 30); err != nil { // sparse: 1 GiB costs no disk
		t.Skip(err)
	}
	fh.Close()
	var tl *TooLargeError
	if _, err := Read(p, Options{Max: MaxConfig}); !errors.As(err, &tl) || tl.Size != 1<<30 || tl.Max != MaxConfig {
		t.Errorf("Read = %v, want TooLargeError", err)
	}
	if _, _, err := Digest(p, Options{}); !errors.As(err, &tl) || tl.Max != MaxJournal {
		t.Errorf("Digest = %v, want TooLargeError", err)
	}
	if _, err := Read(filepath.Join(t.TempDir(), "missing"), Options{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Read of a missing file = %v", err)
	}
}

// A file rewritten in place (same size) during every read is refused with
// ErrChanged; one rewritten only during the first read is read again.
func TestChangedDuringRead(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a")
	write(t, p, "version 1\n")
	n := 0
	always := Options{Hook: func(point string) {
		if point == "read" {
			n++
			write(t, p, []string{"version 1\n", "version 2\n"}[n%2])
		}
	}}
	if _, err := Read(p, always); !errors.Is(err, ErrChanged) {
		t.Errorf("Read of a file rewritten during every read = %v, want ErrChanged", err)
	}
	if _, _, err := Digest(p, always); !errors.Is(err, ErrChanged) {
		t.Errorf("Digest of a file rewritten during every read = %v, want ErrChanged", err)
	}
	// A caller that verifies the bytes itself gets them once, changed or not.
	always.Verified = true
	if got, err := Read(p, always); err != nil || len(got) == 0 {
		t.Errorf("Verified Read of a file rewritten during every read = %q, %v, want its bytes", got, err)
	}
	once := false
	first := Options{Hook: func(point string) {
		if point == "read" && !once {
			once = true
			write(t, p, "version 3\n")
		}
	}}
	if got, err := Read(p, first); err != nil || string(got) != "version 3\n" {
		t.Errorf("Read of a file rewritten once = %q, %v", got, err)
	}
}

// TestTrust checks that bytes Options.Trust vouches for are taken after
// one read, without a stamp, even when the file changed meanwhile, and that
// other bytes get the checks: a file rewritten during the read is read
// again.
func TestTrust(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a")
	for _, tc := range []struct {
		trust      bool
		want       string
		wantStamp  bool
		wantOpened int
	}{
		{true, "version 1\n", false, 1},
		{false, "version 2\n", true, 2},
	} {
		write(t, p, "version 1\n")
		time.Sleep(3 * racyWindow) // not racy: one attempt unless it changes
		opened, rewritten := 0, false
		opts := Options{
			Trust: func(data []byte) bool { return tc.trust && string(data) == "version 1\n" },
			Hook: func(point string) {
				switch {
				case point == "open":
					opened++
				case point == "read" && !rewritten:
					rewritten = true
					write(t, p, "version 2\n")
					time.Sleep(3 * racyWindow)
				}
			},
		}
		data, stamp, _, err := ReadStamped(p, opts)
		if err != nil || string(data) != tc.want || (stamp != 0) != tc.wantStamp || opened != tc.wantOpened {
			t.Errorf("trust %v: ReadStamped of a file rewritten during the first read = %q, stamp %x, %v, opened %d times; want %q, a stamp %v, opened %d times",
				tc.trust, data, stamp, err, opened, tc.want, tc.wantStamp, tc.wantOpened)
		}
	}
}

// TestReadStamped checks that the stamp of the bytes read is the stamp of
// an Lstat of the file while it is unchanged, not recent once the file's
// times are old enough (a new file is read again until they are, see
// racyWindow), and another after a change of mode.
func TestReadStamped(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a")
	write(t, p, "hello\n")
	lstamp := func() uint64 {
		t.Helper()
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		return Stamp(fi)
	}
	data, stamp, _, err := ReadStamped(p, Options{NoFollow: true})
	if err != nil || string(data) != "hello\n" || stamp != lstamp() {
		t.Errorf("ReadStamped of a new file = %q, %x (lstat %x), %v", data, stamp, lstamp(), err)
	}
	time.Sleep(3 * racyWindow)
	if _, stamp, recent, err := ReadStamped(p, Options{}); err != nil || stamp != lstamp() || recent {
		t.Errorf("ReadStamped of a settled file = %x (lstat %x), recent %v, %v", stamp, lstamp(), recent, err)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, again, _, err := ReadStamped(p, Options{}); err != nil || again == stamp || again != lstamp() {
		t.Errorf("ReadStamped after a change of mode = %x (before %x, lstat %x), %v", again, stamp, lstamp(), err)
	}
}

// BenchmarkRead is the cost of reading a file (the second read that catches
// a writer through a shared mapping included): Read of files of 2 KiB (a
// typical Journal revision), 1 MiB and 16 MiB (the limit), from the page
// cache.
func BenchmarkRead(b *testing.B) {
	for _, size := range []int{2 << 10, 1 << 20, 16 << 20} {
		b.Run(fmt.Sprintf("bytes=%d", size), func(b *testing.B) {
			p := filepath.Join(b.TempDir(), "a")
			if err := os.WriteFile(p, bytes.Repeat([]byte("x\n"), size/2), 0o644); err != nil {
				b.Fatal(err)
			}
			time.Sleep(3 * racyWindow) // not racy: one attempt
			b.SetBytes(int64(size))
			for b.Loop() {
				if _, err := Read(p, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package readfile

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A writer through a shared mapping changes a file's bytes without
// changing its size or, once its page is dirty, its times: only the bytes
// show the change (issue 26: digest and log printed the digest of neither
// version, check accepted a torn read). A change made while a read is in
// progress (here between the read and its checks: Options.Hook) makes Read
// and Digest read again and give the new bytes; a change during every
// read gives ErrChanged.
func TestSharedMappingWriter(t *testing.T) {
	const size = 8192
	p := filepath.Join(t.TempDir(), "a")
	write(t, p, string(bytes.Repeat([]byte("a"), size)))
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Munmap(m)
	fill := func(c byte) {
		for i := range m {
			m[i] = c
		}
	}
	fill('b') // dirties the pages: the times change now, not at the writes below
	time.Sleep(3 * racyWindow)
	settled, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	fill('c')
	if now, err := os.Lstat(p); err != nil || !same(settled, now) {
		t.Skip("this file system stamps every write through a shared mapping")
	}
	for _, c := range []byte{'d', 'e'} {
		hooked := 0
		once := Options{Hook: func(point string) {
			if point == "read" {
				if hooked++; hooked == 1 {
					fill(c)
				}
			}
		}}
		want := bytes.Repeat([]byte{c}, size)
		if c == 'd' {
			if got, err := Read(p, once); err != nil || !bytes.Equal(got, want) || hooked < 2 {
				t.Errorf("Read of a file changed through a mapping during the read = %.20q…, %v after %d reads, want %c…", got, err, hooked, c)
			}
		} else if sum, _, err := Digest(p, once); err != nil || sum != sha256.Sum256(want) || hooked < 2 {
			t.Errorf("Digest of a file changed through a mapping during the read = %x, %v after %d reads, want the digest of %c…", sum, err, hooked, c)
		}
	}
	n := 0
	always := Options{Hook: func(point string) {
		if point == "read" {
			n++
			fill("fg"[n%2])
		}
	}}
	if _, err := Read(p, always); !errors.Is(err, ErrChanged) {
		t.Errorf("Read of a file changed through a mapping during every read = %v, want ErrChanged", err)
	}
	if _, _, err := Digest(p, always); !errors.Is(err, ErrChanged) {
		t.Errorf("Digest of a file changed through a mapping during every read = %v, want ErrChanged", err)
	}
}

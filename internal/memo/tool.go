package memo

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"io"
	"os"
	"sync"
)

// ToolID returns what names the build of the running executable, for the
// namespaces of records (what the code computes is part of every key): the
// Go build ID, which the go command derives from every input of the build
// (read from an ELF note, or from the marker near the start of other
// executables), else the SHA-256 of the executable's bytes. It is computed
// once per process.
var ToolID = sync.OnceValues(func() ([]byte, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if id := buildID(exe); id != nil {
		return append([]byte("go-build-id:"), id...), nil
	}
	f, err := os.Open(exe)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return append([]byte("sha256:"), h.Sum(nil)...), nil
})

// buildMarker precedes the Go build ID near the start of an executable
// that is not ELF; the ID ends at the next quote.
var buildMarker = []byte("\xff Go build ID: \"")

// buildID returns the Go build ID of the executable exe, or nil when it
// has none that can be read.
func buildID(exe string) []byte {
	if f, err := elf.Open(exe); err == nil {
		defer f.Close()
		s := f.Section(".note.go.buildid")
		if s == nil {
			return nil
		}
		data, err := s.Data()
		// The note: name size, description size, type, "Go\x00\x00", ID.
		if err != nil || len(data) < 16 || !bytes.Equal(data[12:16], []byte("Go\x00\x00")) {
			return nil
		}
		n := int(f.ByteOrder.Uint32(data[4:8]))
		if n == 0 || 16+n > len(data) {
			return nil
		}
		return bytes.Clone(data[16 : 16+n])
	}
	f, err := os.Open(exe)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, 32<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	i := bytes.Index(head, buildMarker)
	if i < 0 {
		return nil
	}
	rest := head[i+len(buildMarker):]
	j := bytes.IndexByte(rest, '"')
	if j <= 0 {
		return nil
	}
	return bytes.Clone(rest[:j])
}

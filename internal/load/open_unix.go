//go:build unix

package load

import (
	"os"
	"syscall"
)

// openReadOnly opens path for reading without blocking on a FIFO that took
// the place of a regular file.
func openReadOnly(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

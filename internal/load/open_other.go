//go:build !unix

package load

import "os"

// openReadOnly opens path for reading.
func openReadOnly(path string) (*os.File, error) { return os.Open(path) }

// Package atomicfile writes a file so that readers see either its old
// contents or its new ones, never a part: the one way journal-lint writes
// the files it keeps (the cache's, the transparency log's).
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write writes data to a new file in the directory of name, with a name
// that starts with "." and the base of name, and renames it to name. The
// directory must exist; the file's mode is 0600. On error nothing is left
// behind and name is as it was. Errors are those of creating, writing,
// closing and renaming the file (*fs.PathError, *os.LinkError).
func Write(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

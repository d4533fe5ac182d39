package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Find looks for [FileName] in startDir and then in each parent directory,
// and returns the absolute path of the first one found. The search stops
// after the repository root (a directory that contains .git, as a file or a
// directory) or the file system root; it returns "" and no error when there
// is no configuration file. A [FileName] that is not a regular file (after
// following symbolic links) is an error, as is any failure other than
// "does not exist".
func Find(startDir string) (string, error) {
	dir, err := filepath.Abs(startDir)
	if err != nil {
		return "", err
	}
	for {
		cand := filepath.Join(dir, FileName)
		fi, err := os.Stat(cand)
		switch {
		case err == nil && fi.Mode().IsRegular():
			return cand, nil
		case err == nil:
			return "", fmt.Errorf("%s: not a regular file", cand)
		case !errors.Is(err, fs.ErrNotExist):
			return "", err
		}
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return "", nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

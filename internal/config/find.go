package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Candidates returns the paths where [Find] looks for [FileName], nearest
// first: startDir and each parent up to the repository top (the nearest
// directory that contains .git, as a file or a directory). The search also
// ends below a parent that another user may control ([mayBeShared]: owned
// by a user other than the current one and root, or writable by every
// user, such as /tmp), whose file is never a candidate: outside a
// repository that is what keeps a file planted in a shared directory from
// supplying the configuration. The paths are absolute. Errors are those of
// looking for .git other than "does not exist".
func Candidates(startDir string) ([]string, error) {
	dir, err := filepath.Abs(startDir)
	if err != nil {
		return nil, err
	}
	var out []string
	for d := dir; ; {
		if d != dir && mayBeShared(d) {
			return out, nil
		}
		out = append(out, filepath.Join(d, FileName))
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return out, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		parent := filepath.Dir(d)
		if parent == d {
			return out, nil
		}
		d = parent
	}
}

// Find returns the absolute path of the first of [Candidates] (startDir,
// then its parents up to the repository top) that exists, or "" and no
// error when none does. A [FileName] that is not a regular file (after
// following symbolic links) is an error, as is any failure other than
// "does not exist", and so is a file that another user could have planted
// or can change ([checkOwner]): the caller may name it with --config to
// trust it.
func Find(startDir string) (string, error) {
	cands, err := Candidates(startDir)
	if err != nil {
		return "", err
	}
	for _, cand := range cands {
		fi, err := os.Stat(cand)
		switch {
		case err == nil && fi.Mode().IsRegular():
			if err := checkOwner(cand); err != nil {
				return "", err
			}
			return cand, nil
		case err == nil:
			return "", fmt.Errorf("%s: not a regular file", cand)
		case !errors.Is(err, fs.ErrNotExist):
			return "", err
		}
	}
	return "", nil
}

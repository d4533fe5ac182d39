//go:build unix

package config

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// checkOwner returns an error when the configuration file at path (a file
// found by searching, not one named with --config) may come from another
// user, as git's safe.directory check does for a repository: the file, the
// link that leads to it, or the directory that holds it is owned by
// someone other than the current user and root, or the file is writable
// by every user, or its directory is writable by every user without the
// sticky bit (anyone could replace the file). The error says how to trust
// the file.
func checkOwner(path string) error {
	uid := os.Getuid()
	check := func(fi fs.FileInfo, what string) error {
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return nil
		}
		if owner := int(st.Uid); owner != uid && owner != 0 {
			return fmt.Errorf("refusing the configuration %s: %s owned by another user (uid %d), who may have planted it; "+
				"name it with --config to trust it, or make it yours", path, what, owner)
		}
		return nil
	}
	li, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if err := check(li, "it is"); err != nil {
		return err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if err := check(fi, "the file it links to is"); err != nil {
		return err
	}
	if fi.Mode().Perm()&0o002 != 0 {
		return fmt.Errorf("refusing the configuration %s: every user can write it (mode %04o); remove their write permission (chmod o-w) or name it with --config to trust it", path, fi.Mode().Perm())
	}
	dir := filepath.Dir(path)
	di, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if err := check(di, "its directory is"); err != nil {
		return err
	}
	if di.Mode().Perm()&0o002 != 0 && di.Mode()&fs.ModeSticky == 0 {
		return fmt.Errorf("refusing the configuration %s: every user can write its directory (mode %04o) and so replace it; name it with --config to trust it", path, di.Mode().Perm())
	}
	return nil
}

// mayBeShared reports whether another user may control the directory dir:
// it is owned by a user other than the current one and root, or every
// user can write it. A directory that cannot be examined counts as shared.
func mayBeShared(dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil {
		return true
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	owner := int(st.Uid)
	return (owner != os.Getuid() && owner != 0) || fi.Mode().Perm()&0o002 != 0
}

//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFindRefusesWritableByOthers: a found configuration that every user
// can write, or that sits in a directory every user can write without the
// sticky bit, is refused; with the sticky bit (a shared /tmp) it is not.
func TestFindRefusesWritableByOthers(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, FileName)
	mkfile(t, file, "format: json\n")
	if got, err := Find(dir); err != nil || got != file {
		t.Fatalf("Find = %q, %v", got, err)
	}
	if err := os.Chmod(file, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(dir); err == nil || !strings.Contains(err.Error(), "every user can write it (mode 0666)") {
		t.Errorf("Find of a world-writable file: %v", err)
	}
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(dir); err == nil || !strings.Contains(err.Error(), "every user can write its directory") {
		t.Errorf("Find in a world-writable directory: %v", err)
	}
	if err := os.Chmod(dir, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(dir); err != nil || got != file {
		t.Errorf("Find in a sticky world-writable directory = %q, %v", got, err)
	}
}

// TestFindRefusesAnotherUsersFile: a configuration owned by another user
// (not root) is refused, as git refuses a repository another user owns.
// Changing a file's owner needs root, so this runs only as root.
func TestFindRefusesAnotherUsersFile(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("changing a file's owner needs root")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, FileName)
	mkfile(t, file, "format: json\n")
	if err := os.Chown(file, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(dir); err == nil || !strings.Contains(err.Error(), "owned by another user (uid 4242)") {
		t.Errorf("Find of another user's file: %v", err)
	}
}

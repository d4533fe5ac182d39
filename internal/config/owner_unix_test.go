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

// TestFindStopsBelowSharedDirectory: the search never looks into a parent
// that every user can write (a shared /tmp), where anyone could plant a
// configuration; the start directory itself is still searched.
func TestFindStopsBelowSharedDirectory(t *testing.T) {
	shared := t.TempDir()
	mkfile(t, filepath.Join(shared, FileName), "format: json\n")
	proj := filepath.Join(shared, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(proj); err != nil || got != filepath.Join(shared, FileName) {
		t.Fatalf("Find below a private parent = %q, %v", got, err)
	}
	if err := os.Chmod(shared, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(proj); err != nil || got != "" {
		t.Errorf("Find below a shared parent = %q, %v; want \"\"", got, err)
	}
	if got, err := Find(shared); err != nil || got != filepath.Join(shared, FileName) {
		t.Errorf("Find in the shared directory itself = %q, %v", got, err)
	}
}

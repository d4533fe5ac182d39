package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHelp(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	if code := run([]string{"--help"}, &out, &errOut); code != 0 {
		t.Fatalf("--help exit %d", code)
	}
	for _, want := range []string{"Usage: journal-gen -out DIR -files N -seed S [-fault CODE]", "Examples:", "-files N", "chain/fork", "fs/too-large"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("--help lacks %q:\n%s", want, errOut.String())
		}
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{},
		{"-files", "3"},
		{"-out", t.TempDir(), "-files", "0"},
		{"-out", full, "-files", "3"},
		{"-out", t.TempDir(), "-bogus"},
		{"-out", t.TempDir(), "extra"},
	} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, errOut.String())
		}
	}
}

func TestGenerateAndInject(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "journals")
	var out, errOut bytes.Buffer
	if code := run([]string{"-out", dir, "-files", "6", "-seed", "3", "-fault", "chain/fork"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "wrote 6 files") || !strings.Contains(out.String(), "injected chain/fork at ") {
		t.Errorf("output:\n%s", out.String())
	}
	var n int
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	if n != 7 {
		t.Errorf("%d files, want 6 and the forking revision", n)
	}
	if code := run([]string{"-out", filepath.Join(t.TempDir(), "j"), "-files", "3", "-fault", "no/such"}, &out, &errOut); code != 1 {
		t.Errorf("unknown fault: exit %d, want 1", code)
	}
}

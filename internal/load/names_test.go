package load

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/r35157/journal-lint/rules"
)

// A rejected directory or file name says why, and prints the name escaped,
// so that two spellings that look alike (NFC and NFD) are told apart
// (issue "hostile input" §7).
func TestRejectedNamesSayWhy(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc, rel, code, path string
		want                  []string
	}{
		{"uppercase directory", "com.Example.w/20260101T000000Z.journal", rules.FSUnexpectedEntry, "com.Example.w",
			[]string{`"com.Example.w" is not an artifact coordinate`, `an uppercase letter 'E' at byte 4`}},
		{"NFC directory", "com.caf\u00e9.w/20260101T000000Z.journal", rules.FSUnexpectedEntry, "com.caf\u00e9.w",
			[]string{`"com.caf\u00e9.w"`, "a non-ASCII character U+00E9 at byte 7"}},
		{"NFD directory", "com.cafe\u0301.w/20260101T000000Z.journal", rules.FSUnexpectedEntry, "com.cafe\u0301.w",
			[]string{`"com.cafe\u0301.w"`, "a non-ASCII character U+0301 at byte 8 (a combining mark: the name may be spelled in NFD)"}},
		{"trailing space directory", "com.example.w /20260101T000000Z.journal", rules.FSUnexpectedEntry, "com.example.w ",
			[]string{`"com.example.w "`, ": a trailing space"}},
		{"device name directory", "con.example/20260101T000000Z.journal", rules.FSUnexpectedEntry, "con.example",
			[]string{`its first segment "con" is a Windows device name`}},
		{"hidden directory", ".github/20260101T000000Z.journal", rules.FSUnexpectedEntry, ".github",
			[]string{`".github" is not an artifact coordinate: it starts with a dot`}},
		{"escape in a directory", "com.\x1b[31m.w/20260101T000000Z.journal", rules.FSUnexpectedEntry, "com.\x1b[31m.w",
			[]string{`"com.\x1b[31m.w"`, `a control character "\x1b" at byte 4`}},
		{"lowercase t and z", "com.example.w/20260101t000000z.journal", rules.FSBadFilename, "com.example.w/20260101t000000z.journal",
			[]string{`file name "20260101t000000z.journal"`, "not a strict timestamp", `a lowercase 't' at byte 8: T and Z are uppercase`}},
		{"trailing space in the stem", "com.example.w/20260101T000000Z .journal", rules.FSBadFilename, "com.example.w/20260101T000000Z .journal",
			[]string{`"20260101T000000Z .journal"`, ": a trailing space"}},
		{"device name file", "com.example.w/CON.journal", rules.FSBadFilename, "com.example.w/CON.journal",
			[]string{`"CON" is a Windows device name`}},
		{"NFC file", "com.example.w/caf\u00e9.journal", rules.FSBadFilename, "com.example.w/caf\u00e9.journal",
			[]string{`"caf\u00e9.journal"`}},
		{"NFD file", "com.example.w/cafe\u0301.journal", rules.FSBadFilename, "com.example.w/cafe\u0301.journal",
			[]string{`"cafe\u0301.journal"`}},
		{"non-ASCII digit", "com.example.w/2026010\uff11T000000Z.journal", rules.FSBadFilename, "com.example.w/2026010\uff11T000000Z.journal",
			[]string{"a non-ASCII character U+FF11 at byte 7"}},
		{"space after the suffix", "com.example.w/20260101T000000Z.journal ", rules.FSUnexpectedEntry, "com.example.w/20260101T000000Z.journal ",
			[]string{`"20260101T000000Z.journal " is not a Journal name: white space after the suffix`}},
		{"uppercase suffix", "com.example.w/20260101T000000Z.JOURNAL", rules.FSUnexpectedEntry, "com.example.w/20260101T000000Z.JOURNAL",
			[]string{"the suffix must be written in lowercase"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			p := filepath.Join(root, filepath.FromSlash(tc.rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Skipf("this file system refuses the name: %v", err)
			}
			if err := os.WriteFile(p, []byte("JOURNAL_FORMAT 1\n"), 0o644); err != nil {
				t.Skipf("this file system refuses the name: %v", err)
			}
			res, err := Load(context.Background(), root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			d := wantDiag(t, res, tc.code, tc.path)
			for _, w := range tc.want {
				if !strings.Contains(d.Message, w) {
					t.Errorf("message %q does not say %q", d.Message, w)
				}
			}
		})
	}
}

// The messages for the NFC and NFD spellings of one name differ.
func TestNFCAndNFDMessagesDiffer(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, dir := range []string{"com.caf\u00e9.w", "com.cafe\u0301.w"} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Skip(err)
		}
	}
	res, err := Load(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Diagnostics) != 2 || res.Diagnostics[0].Message == res.Diagnostics[1].Message {
		t.Errorf("diagnostics %v", res.Diagnostics)
	}
}

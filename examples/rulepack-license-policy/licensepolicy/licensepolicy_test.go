package licensepolicy

import (
	"strings"
	"testing"

	"github.com/r35157/journal-lint/plugins/sdk/sdktest"
)

var testConfig = map[string]any{
	"denied":  []any{"GPL-3.0-only", "AGPL-3.0-only"},
	"allowed": []any{"MIT", "Apache-2.0", "BSD-3-Clause"},
}

// TestPack runs the pack in-process over testdata, whose want comments say
// what it must report.
func TestPack(t *testing.T) {
	sdktest.Run(t, "testdata", Pack, testConfig)
}

func TestLicenseIDs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"MIT", "MIT"},
		{"MIT OR Apache-2.0", "MIT Apache-2.0"},
		{"(MIT AND GPL-2.0+) WITH Classpath-exception-2.0", "MIT GPL-2.0+"},
		{"LicenseRef-acme", "LicenseRef-acme"},
	} {
		if got := strings.Join(licenseIDs(tc.in), " "); got != tc.want {
			t.Errorf("licenseIDs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestOrLater checks that an "or later" id is allowed by itself or by its
// base id, and quoted as written.
func TestOrLater(t *testing.T) {
	text := "JOURNAL_FORMAT 1\nARTIFACT com.example.a\nJOURNAL_VERSION 20260110T080000Z\nDESCRIPTION \"a\"\n\n" +
		"RELEASE 1.0.0\nLICENSE GPL-2.0+ OR LGPL-2.1+\nCONTENT a.jar sha256:1111111111111111111111111111111111111111111111111111111111111111\nDESCRIPTION \"d\"\n"
	for _, tc := range []struct {
		allowed []any
		want    string // the message, "" for none
	}{
		{[]any{"GPL-2.0+", "LGPL-2.1+"}, ""},
		{[]any{"GPL-2.0", "LGPL-2.1"}, ""},
		{[]any{"GPL-2.0+"}, "release 1.0.0 uses LGPL-2.1+, which is not on the allowed list"},
	} {
		got, err := sdktest.CheckFiles(t, Pack, map[string]any{"allowed": tc.allowed}, map[string]string{"a.journal": text})
		if err != nil {
			t.Fatal(err)
		}
		msgs := sdktest.Join(got)
		if (tc.want == "") != (msgs == "") || !strings.Contains(msgs, tc.want) {
			t.Errorf("allowed %v: got %q, want %q", tc.allowed, msgs, tc.want)
		}
	}
}

// TestBadConfig checks that a configuration mistake fails the pack with a
// message that names it.
func TestBadConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg  map[string]any
		want string
	}{
		{map[string]any{"denyed": []any{"MIT"}}, `unknown field "denyed"`},
		{map[string]any{"denied": []any{"Not a license"}}, `"Not a license" is not an SPDX license identifier`},
		{map[string]any{"denied": []any{"MIT"}, "allowed": []any{"MIT"}}, "MIT is both allowed and denied"},
	} {
		_, err := sdktest.CheckFiles(t, Pack, tc.cfg, map[string]string{"a.journal": "JOURNAL_FORMAT 1\n"})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("config %v: error %v, want one containing %q", tc.cfg, err, tc.want)
		}
	}
}

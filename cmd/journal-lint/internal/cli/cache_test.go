package cli

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"

	"github.com/r35157/journal-lint/internal/memo"
)

// TestPacksDirFollowsTheFallback: where the user's cache directory cannot
// be made (HOME unusable, as in some CI) and the cache falls back to the
// temporary directory, the rule packs' copies are kept there too, in the
// cache that the command opens; with --cache other than on, nowhere.
func TestPacksDirFollowsTheFallback(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(memo.EnvDir, "")
	os.Unsetenv(memo.EnvDir)
	t.Setenv("XDG_CACHE_HOME", notDir)
	t.Setenv("HOME", notDir)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ctx := func(mode string) *ucli.Context {
		set := flag.NewFlagSet("check", flag.ContinueOnError)
		set.String("cache", mode, "")
		return ucli.NewContext(newApp(io.Discard, io.Discard, nil), set, nil)
	}
	got := packsDir(ctx("on"))
	if got == "" || !strings.HasPrefix(got, tmp) {
		t.Errorf("packsDir with the cache fallen back under %s: %q", tmp, got)
	}
	for _, mode := range []string{"verify", "readonly", "off"} {
		if got := packsDir(ctx(mode)); got != "" {
			t.Errorf("--cache %s: packs kept in %q", mode, got)
		}
	}
}

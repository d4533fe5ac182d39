package check

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/syntax"
	"github.com/r35157/journal-lint/internal/tlog"
	"github.com/r35157/journal-lint/rules"
)

const gateGadget = "JOURNAL_FORMAT 1\nARTIFACT com.example.gadget\nJOURNAL_VERSION 20260105T080000Z\nDESCRIPTION \"Gadget\"\n"

// logRevision is the log's view of a Journal text at a root-relative path.
func logRevision(t *testing.T, path, text string) tlog.Revision {
	t.Helper()
	doc, _ := syntax.Parse(path, []byte(text))
	if !doc.RevisionOK {
		t.Fatalf("%s is not a revision", path)
	}
	return tlog.Revision{Path: path, Entry: tlog.EntryOf(doc.Revision)}
}

// loggedRepo makes a repository whose base commit holds one revision under
// j/ and a log of it in journal-log/, and returns its directory, the
// configuration with the log's key and the base checkpoint. breakTile
// corrupts the committed tile.
func loggedRepo(t *testing.T, breakTile bool) (string, *config.Config, tlog.Signed) {
	t.Helper()
	gitEnv(t)
	dir := t.TempDir()
	skey, vkey, err := tlog.GenerateKey("journals.example.org/registry")
	if err != nil {
		t.Fatal(err)
	}
	logDir := filepath.Join(dir, tlog.DirName)
	cp, err := tlog.Init(logDir, skey)
	if err != nil {
		t.Fatal(err)
	}
	p, err := tlog.Prepare(tlog.DirFS(logDir), cp, []tlog.Revision{logRevision(t, "com.example.widget/20260110T080000Z.journal", gateGenesis)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write(logDir, skey); err != nil {
		t.Fatal(err)
	}
	if breakTile {
		tile := filepath.Join(logDir, "tile", "0", "000.p", "1")
		b, _ := os.ReadFile(tile)
		b[0] ^= 1
		os.WriteFile(tile, b, 0o644)
	}
	gitRepo(t, dir, map[string]string{
		".gitattributes": "*.journal -text\n",
		"j/com.example.widget/20260110T080000Z.journal": gateGenesis,
	})
	base, err := tlog.ReadCheckpoint(tlog.DirFS(logDir), vkey)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.TLog = config.TLog{VKey: vkey, Origin: base.Origin}
	return dir, cfg, base
}

// TestLogGate: the gate previews the checkpoint the operator's append
// writes after merge, and reports a change of the log or a base log that
// does not verify.
func TestLogGate(t *testing.T) {
	t.Parallel()
	codes := func(res *Result) map[string]int {
		out := map[string]int{}
		for _, d := range res.Diagnostics {
			if rules.Category(d.Code) == "tlog" {
				out[d.Code]++
			}
		}
		return out
	}
	t.Run("preview", func(t *testing.T) {
		dir, cfg, base := loggedRepo(t, false)
		gadget := filepath.Join(dir, "j", "com.example.gadget", "20260105T080000Z.journal")
		os.MkdirAll(filepath.Dir(gadget), 0o755)
		os.WriteFile(gadget, []byte(gateGadget), 0o644)
		res, err := Run(context.Background(), Options{Root: filepath.Join(dir, "j"), Against: "HEAD", Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		if len(codes(res)) != 0 || res.Log == nil {
			t.Fatalf("findings %v, preview %v", codes(res), res.Log)
		}
		// What the operator's append of the merged tree writes.
		p, err := tlog.Prepare(tlog.DirFS(filepath.Join(dir, tlog.DirName)), base, []tlog.Revision{
			logRevision(t, "com.example.widget/20260110T080000Z.journal", gateGenesis),
			logRevision(t, "com.example.gadget/20260105T080000Z.journal", gateGadget)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Log.Added != 1 || res.Log.After != p.New || res.Log.Base != base.Checkpoint {
			t.Errorf("preview %+v, want after %v", res.Log, p.New)
		}
	})
	t.Run("modified", func(t *testing.T) {
		dir, cfg, _ := loggedRepo(t, false)
		os.WriteFile(filepath.Join(dir, tlog.DirName, "checkpoint"), []byte("x\n"), 0o644)
		res, err := Run(context.Background(), Options{Root: filepath.Join(dir, "j"), Against: "HEAD", Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		if got := codes(res); got[rules.TLogModified] != 1 || res.Log != nil {
			t.Errorf("findings %v, preview %v", got, res.Log)
		}
	})
	t.Run("bad tiles", func(t *testing.T) {
		dir, cfg, _ := loggedRepo(t, true)
		res, err := Run(context.Background(), Options{Root: filepath.Join(dir, "j"), Against: "HEAD", Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		if got := codes(res); got[rules.TLogBadTiles] != 1 {
			t.Errorf("findings %v", got)
		}
	})
	t.Run("other key", func(t *testing.T) {
		dir, cfg, _ := loggedRepo(t, false)
		_, cfg.TLog.VKey, _ = tlog.GenerateKey("journals.example.org/registry")
		res, err := Run(context.Background(), Options{Root: filepath.Join(dir, "j"), Against: "HEAD", Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		if got := codes(res); got[rules.TLogBadCheckpoint] != 1 {
			t.Errorf("findings %v", got)
		}
	})
	t.Run("no log configured", func(t *testing.T) {
		dir, _, _ := loggedRepo(t, false)
		os.WriteFile(filepath.Join(dir, tlog.DirName, "checkpoint"), []byte("x\n"), 0o644)
		res, err := Run(context.Background(), Options{Root: filepath.Join(dir, "j"), Against: "HEAD"})
		if err != nil {
			t.Fatal(err)
		}
		if got := codes(res); len(got) != 0 || res.Log != nil {
			t.Errorf("findings %v, preview %v", got, res.Log)
		}
	})
}

package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	ucli "github.com/urfave/cli/v2"

	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/load"
	"github.com/r35157/journal-lint/internal/outpath"
	"github.com/r35157/journal-lint/internal/plugin"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// defaultRootDir is the directory name journal-lint looks for when neither
// the command line nor the configuration names the Journal root: journals/
// in the working directory, else at the top of its git work tree.
const defaultRootDir = "journals"

// rootDefaultText describes the default root in help texts.
const rootDefaultText = "the config's root, else ./journals, else journals/ at the repository top"

// settings are the effective choices of one run: flags over configuration
// over defaults.
type settings struct {
	cfg  *config.Config
	root string // absolute, clean; "" when no root was found (see noRoot)
	// noRoot says why there is no root: the usage error of findDefaultRoot.
	// Commands that read a tree return it through requireRoot; others (a
	// diff of two files, --print-config, --file) never need one.
	noRoot error
	// rootFromConfig says that root is the configuration's root: key.
	rootFromConfig bool
	examples       bool
	// packs are the configuration's rule packs, started once to validate
	// the configuration and owned by the command (loadSettingsWithPacks);
	// nil when there are none or after loadSettings.
	packs *plugin.Packs
	// ready waits for packs to start and returns the error of their start
	// or of a configuration that names codes none of them has (see
	// packsReady), the same at every call; never nil.
	ready func() error
}

// close stops the rule packs the settings hold. It is safe on nil and more
// than once.
func (s *settings) close() {
	if s != nil {
		s.packs.Close()
	}
}

// packsFirst returns the error of ready (settings.ready) when there is
// one, else err: an error found while the rule packs started
// (loadSettingsLaunching) gives way to theirs, which loadSettingsWithPacks
// would have returned first.
func packsFirst(ready func() error, err error) error {
	if perr := ready(); perr != nil {
		return perr
	}
	return err
}

// loadSettings finds and validates the configuration (--config, else
// .journal-lint.yaml in the working directory or a parent up to the
// repository root) and resolves the root: rootArg, else the config's root
// (relative to the config file), else journals/ in the working directory or
// at the top of its git work tree (see findDefaultRoot). Problems are usage
// errors that list every configuration error with its line, all at once.
func loadSettings(c *ucli.Context, rootArg string) (*settings, error) {
	s, err := loadSettingsWithPacks(c, rootArg)
	s.close()
	if s != nil {
		s.packs = nil
	}
	return s, err
}

// loadSettingsWithPacks is loadSettings that keeps the rule packs started
// to validate the configuration running in the result's packs (the one
// start of each pack: check.Run and plugins list use them). The caller owns
// them and must close the settings in every path (an interrupt cancels
// c.Context and returns through the same path); on an error nothing runs.
func loadSettingsWithPacks(c *ucli.Context, rootArg string) (*settings, error) {
	s, err := loadSettingsLaunching(c, rootArg)
	if err != nil {
		return nil, err
	}
	if err := s.ready(); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// loadSettingsLaunching is loadSettingsWithPacks that returns while the
// rule packs start (plugin.Launch), so that the command's work begins
// alongside: the result's ready waits for them and returns what
// loadSettingsWithPacks would have returned for them. The caller must call
// ready before it writes anything, let any error of its own give way to
// ready's (packsFirst), and close the settings in every path. Without
// packs the configuration is validated before it returns.
func loadSettingsLaunching(c *ucli.Context, rootArg string) (s *settings, err error) {
	if c.IsSet("against") && strings.TrimSpace(c.String("against")) == "" {
		// A workflow's unset variable: checking without the gate would
		// pass what the gate is there to stop.
		return nil, usageErrorf("--against: the revision is empty: name a commit (a branch, a tag or an object name); in a workflow, check that the variable that holds it is set")
	}
	path := c.String("config")
	var searched []string // where the search looked, for a file the work tree deleted
	if path == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, internalErrorf("working directory: %v", err)
		}
		if searched, err = config.Candidates(wd); err != nil {
			return nil, usageErrorf("%v", err)
		}
		if path, err = config.Find(wd); err != nil {
			return nil, usageErrorf("%v", err)
		}
	}
	cfg := config.Default()
	var packs *plugin.Packs
	ready := func() error { return nil }
	defer func() {
		if err != nil {
			err = packsFirst(ready, err)
			packs.Close()
		}
	}()
	if path != "" {
		var err error
		if cfg, err = config.LoadPartial(path); err != nil {
			// Report the unknown codes of what did parse in the same round
			// as the problems of the file. Rule packs are not started from
			// a configuration with problems, so with packs configured their
			// codes cannot be told from typos and this waits for the next
			// round.
			if cfg != nil && len(cfg.Plugins) == 0 {
				err = config.Join(err, config.Validate(cfg, check.Registry()))
			}
			return nil, configError(err)
		}
	}
	// check --against runs the rule packs of the base revision's
	// configuration, never the work tree's, and is judged by its
	// settings that protect accepted revisions (docs/ci.md).
	if cfg, err = check.BaseConfig(c.Context, cfg, c.String("against"), c.Bool("staged"), searched); err != nil {
		if c.Context.Err() != nil {
			return nil, c.Context.Err()
		}
		return nil, usageErrorf("%v", err)
	}
	if cfg.File != "" {
		packs = plugin.Launch(c.Context, cfg, packsDir(c))
		ready = sync.OnceValue(func() error { return packsReady(c.Context, cfg, packs) })
		if packs == nil {
			if err := ready(); err != nil {
				return nil, err
			}
		}
	}
	root, fromConfig := rootArg, false
	switch {
	case root != "":
	case cfg.Root != "":
		root, fromConfig = cfg.RootDir(), true
	default:
		var noRoot error
		if root, noRoot = findDefaultRoot(c); noRoot != nil {
			return &settings{cfg: cfg, noRoot: noRoot, examples: c.Bool("examples") || cfg.Examples, packs: packs, ready: ready}, nil
		}
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, usageErrorf("root %s: %v", root, err)
	}
	return &settings{cfg: cfg, root: filepath.Clean(abs), rootFromConfig: fromConfig, examples: c.Bool("examples") || cfg.Examples, packs: packs, ready: ready}, nil
}

// packsReady waits for the rule packs of cfg that plugin.Launch started
// and validates cfg against their codes. Its errors are the usage error of
// packs that cannot start (plugin.Packs.Wait: a pack that cannot be
// verified, two packs with one name; ctx's error when ctx was cancelled
// meanwhile) and the configuration error of a code that neither
// journal-lint nor a pack has (configError).
func packsReady(ctx context.Context, cfg *config.Config, packs *plugin.Packs) error {
	if err := packs.Wait(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// The pack's path as every output path is (package outpath): the
		// configuration's directory makes it absolute. Only its directory
		// is resolved: the name may be a link, which the error is about.
		var ve *plugin.VerifyError
		if errors.As(err, &ve) {
			shown := *ve
			shown.Path = path.Join(outpath.Of(ctx, filepath.Dir(ve.Path)), filepath.Base(ve.Path))
			err = &shown
		}
		return usageErrorf("%v", err)
	}
	if err := config.Validate(cfg, packs.Registry(check.Registry())); err != nil {
		return configError(err)
	}
	return nil
}

// configError reports every configuration problem, one per line, with the
// file's path shown as every output path is (package outpath): the file
// found by searching upwards is known by its absolute path.
func configError(err error) error {
	var list config.ErrorList
	if !errors.As(err, &list) {
		var one *config.Error
		if !errors.As(err, &one) {
			return usageErrorf("configuration: %v", err)
		}
		list = config.ErrorList{one}
	}
	shown := make(config.ErrorList, len(list))
	for i, e := range list {
		c := *e
		if c.File != "" {
			c.File = outpath.Of(context.Background(), c.File)
		}
		shown[i] = &c
	}
	if len(shown) > 1 {
		msg := fmt.Sprintf("%d problems in the configuration:", len(shown))
		for _, e := range shown {
			msg += "\n  " + e.Error()
		}
		return usageErrorf("%s", msg)
	}
	return usageErrorf("configuration: %v", shown[0])
}

// requireRoot returns nil when s has a root, else the usage error that says
// how to name one.
func (s *settings) requireRoot() error { return s.noRoot }

// findDefaultRoot returns journals/ in the working directory, else journals/
// at the top of the git work tree that holds it (the nearest parent with a
// .git entry). Without either it fails with a usage error that shows both
// ways to name the root.
func findDefaultRoot(c *ucli.Context) (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", internalErrorf("working directory: %v", err)
	}
	cands := []string{filepath.Join(wd, defaultRootDir)}
	for dir := wd; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			if dir != wd {
				cands = append(cands, filepath.Join(dir, defaultRootDir))
			}
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	for _, cand := range cands {
		if fi, err := os.Stat(cand); err == nil && fi.IsDir() {
			return cand, nil
		}
	}
	how, cmd := "or pass it as ROOT:", "journal-lint "+commandPath(c)+" DIR"
	if c.Command.Name != "check" {
		how, cmd = "or pass it with --root:", "journal-lint "+commandPath(c)+" --root DIR"
	}
	return "", usageErrorf("no Journal root: there is no %s with root: and no journals/ directory here or at the repository top\n"+
		"  %-32s%s\n  %-32s%s", config.FileName, "name it in "+config.FileName+":", "root: DIR", how, cmd)
}

// rootHint says what to pass instead when s.root is not a Journal root
// but one of the usual mistakes: a Journal file, the directory of one
// artifact, or a configuration's root: that names no directory. The
// diagnostics keep their codes (fs/root-not-directory,
// fs/unexpected-entry, fs/root-missing …); this only adds the way out. It
// returns "" when root looks like none.
func rootHint(ctx context.Context, s *settings) string {
	root := s.root
	fi, err := os.Stat(root)
	if errors.Is(err, fs.ErrNotExist) && s.rootFromConfig {
		p := s.cfg.Pos["root"]
		return fmt.Sprintf("; the root is the root: key at %s:%d:%d: correct it there if it names the wrong directory; "+
			"git keeps no empty directory, so a new root is committed with its first artifact (journal-lint new --genesis --description TEXT COORDINATE) or a .gitkeep in it",
			outpath.Of(ctx, s.cfg.File), p.Line, p.Column)
	}
	if err != nil {
		return ""
	}
	parent := filepath.Dir(root)
	if !fi.IsDir() {
		hint := "; ROOT is a file: pass the Journal root, the directory that holds one directory per artifact"
		if _, err := vt.ParseCoordinate(filepath.Base(parent)); err == nil {
			hint += " (here " + shownRoot(ctx, filepath.Dir(parent)) + ")"
		}
		return hint + ", or check the file alone with journal-lint check --file " + shownPath(ctx, parent, filepath.Base(root))
	}
	if _, err := vt.ParseCoordinate(filepath.Base(root)); err != nil {
		return ""
	}
	es, err := os.ReadDir(root)
	if err != nil {
		return ""
	}
	for _, e := range es {
		if strings.HasSuffix(e.Name(), load.Suffix) || strings.HasSuffix(e.Name(), load.ExampleSuffix) {
			return fmt.Sprintf("; ROOT looks like the directory of artifact %s: pass the Journal root that holds it, %s", filepath.Base(root), shownRoot(ctx, parent))
		}
	}
	return ""
}

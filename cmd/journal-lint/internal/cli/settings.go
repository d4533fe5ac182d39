package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	ucli "github.com/urfave/cli/v2"

	"github.com/r35157/journal-lint/internal/check"
	"github.com/r35157/journal-lint/internal/config"
)

// defaultRoot is the Journal root when neither the command line nor the
// configuration names one.
const defaultRoot = "data/nenjim/journals"

// settings are the effective choices of one run: flags over configuration
// over defaults.
type settings struct {
	cfg      *config.Config
	root     string // absolute, clean
	examples bool
	// packs are the configuration's rule packs, started once to validate
	// the configuration and owned by the command (loadSettingsWithPacks);
	// nil when there are none or after loadSettings.
	packs *check.Packs
}

// close stops the rule packs the settings hold. It is safe on nil and more
// than once.
func (s *settings) close() {
	if s != nil {
		s.packs.Close()
	}
}

// loadSettings finds and validates the configuration (--config, else
// .journal-lint.yaml in the working directory or a parent up to the
// repository root) and resolves the root: rootArg, else the config's root
// (relative to the config file), else defaultRoot. Problems are usage errors
// that list every configuration error with its line.
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
func loadSettingsWithPacks(c *ucli.Context, rootArg string) (s *settings, err error) {
	path := c.String("config")
	if path == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, internalErrorf("working directory: %v", err)
		}
		if path, err = config.Find(wd); err != nil {
			return nil, usageErrorf("%v", err)
		}
	}
	cfg := config.Default()
	var packs *check.Packs
	defer func() {
		if err != nil {
			packs.Close()
		}
	}()
	if path != "" {
		var err error
		if cfg, err = config.Load(path); err != nil {
			return nil, configError(err)
		}
		packs, err = check.StartPacks(c.Context, cfg)
		if err != nil {
			if c.Context.Err() != nil {
				return nil, c.Context.Err()
			}
			return nil, usageErrorf("%v", err)
		}
		if err := config.Validate(cfg, packs.Registry()); err != nil {
			return nil, configError(err)
		}
	}
	root := rootArg
	switch {
	case root != "":
	case cfg.Root != "":
		root = cfg.RootDir()
	default:
		root = defaultRoot
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, usageErrorf("root %s: %v", root, err)
	}
	return &settings{cfg: cfg, root: filepath.Clean(abs), examples: c.Bool("examples") || cfg.Examples, packs: packs}, nil
}

// configError reports every configuration problem, one per line.
func configError(err error) error {
	var list config.ErrorList
	if errors.As(err, &list) && len(list) > 1 {
		msg := fmt.Sprintf("%d problems in the configuration:", len(list))
		for _, e := range list {
			msg += "\n  " + e.Error()
		}
		return usageErrorf("%s", msg)
	}
	return usageErrorf("configuration: %v", err)
}

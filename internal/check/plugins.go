package check

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/plugin"
	"github.com/r35157/journal-lint/rules"
)

// Packs owns the rule packs of one command: [StartPacks] starts them (or
// [LaunchPacks], which does not wait for them), the command validates its
// configuration with [Packs.Registry], hands them to [Run] through
// [Options.Packs] (or lists them), and closes them with [Packs.Close] when
// it is done. Nothing else starts or closes a pack, so each pack starts
// once per command and stops when the command returns. A nil *Packs is
// the packs of a configuration that has none.
type Packs struct {
	// started is closed when the start is over; the fields below are set
	// before and never change after.
	started chan struct{}
	// verify is the error that stops the command: a pack whose executable
	// does not match its pin ([Packs.Wait]).
	verify error
	set    *plugin.Set // never nil once started
	// err is a start-up problem that is not a pin mismatch (two packs with
	// one name, a configuration that cannot be encoded, a cancelled start):
	// the run that uses the packs reports it.
	err error
	reg config.Registry
}

// StartPacks verifies every rule pack cfg configures against its pinned
// sha256, starts them in parallel and asks each to describe itself. It
// returns nil when cfg has no packs (neither to run nor proposed by the
// work tree, see [BasePlugins]). A pack whose executable cannot be read
// or does not match its pin is a configuration error: StartPacks returns
// its *plugin.VerifyError and nothing keeps running. Any other start-up
// error of the set is kept in the Packs and returned by [Packs.Set] (and by
// the [Run] that uses them); a pack that failed on its own becomes a
// plugin/failed diagnostic of the run. The caller must Close the result.
func StartPacks(ctx context.Context, cfg *config.Config) (*Packs, error) {
	ps := LaunchPacks(ctx, cfg)
	if err := ps.Wait(); err != nil {
		ps.Close() // as LaunchPacks asks, though nothing runs after a pin mismatch
		return nil, err
	}
	return ps, nil
}

// LaunchPacks starts what [StartPacks] starts in the background and
// returns at once, so that the packs start while the command does other
// work (a check's load: [Run] waits for them at its first visit). Every
// method of the result waits for the start to be over; [Packs.Wait]
// returns the error StartPacks would have returned. It returns nil when
// cfg has no packs. The caller must Close the result, even after an
// error of Wait.
func LaunchPacks(ctx context.Context, cfg *config.Config) *Packs {
	if cfg == nil || len(cfg.Plugins)+len(cfg.WorkTreePlugins) == 0 {
		return nil
	}
	ps := &Packs{started: make(chan struct{})}
	go func() {
		defer close(ps.started)
		set, err := plugin.StartAll(ctx, PluginSpecs(cfg), plugin.Options{HostVersion: plugin.HostVersion})
		if err != nil {
			var ve *plugin.VerifyError
			if errors.As(err, &ve) {
				ps.verify = ve
			}
			set = &plugin.Set{}
		}
		ps.set, ps.err, ps.reg = set, err, registryWith(cfg, set)
	}()
	return ps
}

// Wait waits until the packs have started and returns the
// *plugin.VerifyError of a pack whose executable cannot be read or does
// not match its pin (then nothing runs), as [StartPacks] does; nil on nil.
func (ps *Packs) Wait() error {
	if ps == nil {
		return nil
	}
	<-ps.started
	return ps.verify
}

// Registry returns [Registry] plus the rules of the started packs, so that
// config.Validate knows their "<pack>/<rule>" codes. Until a pack that
// failed to start is fixed, every code in its namespace is accepted (in
// every namespace that is not built in, when the pack has no configured
// name). It waits for the start ([Packs.Wait]); on nil it returns
// Registry().
func (ps *Packs) Registry() config.Registry {
	if ps == nil {
		return Registry()
	}
	<-ps.started
	return ps.reg
}

// Set returns the started packs, or the start-up error the start kept
// (the *plugin.VerifyError of [Packs.Wait] too). It waits for the start.
// The packs stay owned by ps. On nil it returns an empty set.
func (ps *Packs) Set() (*plugin.Set, error) {
	if ps == nil {
		return &plugin.Set{}, nil
	}
	<-ps.started
	return ps.set, ps.err
}

// Close waits for the start and stops every pack. It is safe on nil and
// more than once.
func (ps *Packs) Close() {
	if ps != nil {
		<-ps.started
		ps.set.Close()
	}
}

// errPacksNotStarted is Run's error for a configuration with rule packs
// and no Options.Packs.
var errPacksNotStarted = errors.New("the configuration has rule packs but none were started: pass the result of check.StartPacks in Options.Packs")

// packStream starts running the rule packs of the run (Options.Packs)
// over the documents the load visits; nil when the configuration has none
// or they did not start (rulePacks then reports why).
func packStream(ctx context.Context, r *run) *plugin.Stream {
	if len(r.cfg.Plugins) == 0 {
		return nil
	}
	set, err := r.opts.Packs.Set()
	if err != nil {
		return nil
	}
	return set.Stream(ctx)
}

// rulePacks returns what the rule packs of the run found over every
// parsed document, streamed to them during the load (packStream). A pack
// that fails yields one plugin/failed diagnostic.
func rulePacks(ctx context.Context, r *run) (diag.List, error) {
	if len(r.cfg.Plugins) == 0 {
		return nil, nil
	}
	if _, err := r.opts.Packs.Set(); err != nil {
		return nil, err
	}
	return r.packs().Finish(ctx, r.load)
}

// PluginSpecs returns the rule packs of cfg in configuration order.
func PluginSpecs(cfg *config.Config) []plugin.Spec {
	var out []plugin.Spec
	for _, p := range cfg.Plugins {
		out = append(out, plugin.SpecOf(cfg, p))
	}
	return out
}

// registryWith extends Registry with the rules of the packs of set, and
// leniently with the namespaces of configured packs that are not in it.
func registryWith(cfg *config.Config, set *plugin.Set) config.Registry {
	reg := Registry()
	builtin := map[string]bool{}
	for _, c := range reg.Codes {
		builtin[rules.Category(c)] = true
	}
	exact := slices.Clone(reg.Codes)
	started := map[string]bool{}
	for _, info := range set.Infos() {
		exact = append(exact, info.Codes()...)
		started[info.Path] = true
	}
	var lenient []string // namespaces of packs that did not describe themselves
	anyNamespace := false
	for _, s := range PluginSpecs(cfg) {
		if started[s.Executable()] {
			continue
		}
		if s.Name != "" {
			lenient = append(lenient, s.Name)
		} else {
			anyNamespace = true
		}
	}
	// The packs a pull request proposes (check --against) do not run; codes
	// of theirs in the configuration are accepted as those of a pack that
	// failed to start.
	for _, p := range cfg.WorkTreePlugins {
		if samePack(cfg.Plugins, p) >= 0 {
			continue
		}
		if p.Name != "" {
			lenient = append(lenient, p.Name)
		} else {
			anyNamespace = true
		}
	}
	reg.Codes = exact
	reg.Namespaces, reg.AnyNamespace = lenient, anyNamespace
	reg.Known = func(code string) bool {
		if slices.Contains(exact, code) {
			return true
		}
		cat, name, ok := strings.Cut(code, "/")
		if !ok || name == "" {
			return false
		}
		return slices.Contains(lenient, cat) || (anyNamespace && !builtin[cat])
	}
	return reg
}

package check

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/plugin"
)

// rulePacks runs the rule packs of the configuration (package
// internal/plugin) over every parsed document. A pack that fails yields one
// plugin/failed diagnostic; a pack whose executable does not match its pin
// is an error, and so is a configured code that no pack has.
func rulePacks(ctx context.Context, r *run) (diag.List, error) {
	if len(r.cfg.Plugins) == 0 {
		return nil, nil
	}
	ps := r.packs
	if ps == nil {
		ps = startRulePacks(ctx, r.cfg)
	}
	defer ps.Close()
	set, err := ps.wait()
	if err != nil {
		return nil, err
	}
	if err := config.Validate(r.cfg, registryWith(r.cfg, set)); err != nil {
		return nil, err
	}
	return set.Check(ctx, plugin.NewInput(r.load))
}

// Packs is the rule packs of a run being started (or started) in the
// background. [PrepareRulePacks] starts them for configuration validation
// and [Run] takes them through [Options.Packs], so each pack starts once
// per run; without one, Run starts the packs itself while the tree loads.
// The owner must [Packs.Close] it in every path; Run closes it too.
type Packs struct {
	done chan struct{}
	set  *plugin.Set
	err  error
	once sync.Once
}

// startRulePacks starts the packs of cfg in the background; nil when cfg
// has none. The caller must close the result.
func startRulePacks(ctx context.Context, cfg *config.Config) *Packs {
	if len(cfg.Plugins) == 0 {
		return nil
	}
	ps := &Packs{done: make(chan struct{})}
	go func() {
		defer close(ps.done)
		ps.set, ps.err = plugin.StartAll(ctx, PluginSpecs(cfg), plugin.Options{HostVersion: plugin.HostVersion})
	}()
	return ps
}

// wait returns the started packs, or the error of plugin.StartAll.
func (ps *Packs) wait() (*plugin.Set, error) {
	<-ps.done
	return ps.set, ps.err
}

// Set waits for the packs to start and returns them, or the error that
// kept the set from starting. The packs stay owned by ps.
func (ps *Packs) Set() (*plugin.Set, error) {
	if ps == nil {
		return &plugin.Set{}, nil
	}
	return ps.wait()
}

// Close waits for the start to finish and closes every pack. It is safe
// on nil, more than once and from several goroutines.
func (ps *Packs) Close() {
	if ps == nil {
		return
	}
	ps.once.Do(func() {
		if set, err := ps.wait(); err == nil {
			set.Close()
		}
	})
}

// PluginSpecs returns the rule packs of cfg in configuration order.
func PluginSpecs(cfg *config.Config) []plugin.Spec {
	var out []plugin.Spec
	for _, p := range cfg.Plugins {
		out = append(out, plugin.SpecOf(cfg, p))
	}
	return out
}

// RegistryFor is [Registry] plus the rules of the rule packs cfg configures,
// so that config.Validate knows their "<pack>/<rule>" codes. It starts each
// pack to ask for its rules and closes it again; [PrepareRulePacks] keeps
// them running for [Run]. A pack whose executable does not match its
// pinned sha256 (or cannot be read) is a configuration error: RegistryFor
// returns its *plugin.VerifyError, before any configuration problem that
// follows from it. A pack that fails otherwise is reported when check
// runs; until then every code in its namespace is accepted (in every
// namespace that is not built in, when the pack has no configured name).
func RegistryFor(cfg *config.Config) (config.Registry, error) {
	packs, reg, err := PrepareRulePacks(context.Background(), cfg)
	packs.Close()
	return reg, err
}

// PrepareRulePacks starts the rule packs of cfg (nil when it has none) and
// returns them with the registry of [RegistryFor]. Hand the packs to [Run]
// through [Options.Packs] so that the run reuses these processes instead of
// starting every pack again, and Close them in every path (Run closes them
// too). A *plugin.VerifyError is returned as by RegistryFor, with nil
// Packs; any other start-up error of the set is kept in the Packs and
// returned by the Run that uses them.
func PrepareRulePacks(ctx context.Context, cfg *config.Config) (*Packs, config.Registry, error) {
	if cfg == nil || len(cfg.Plugins) == 0 {
		return nil, Registry(), nil
	}
	set, err := plugin.StartAll(ctx, PluginSpecs(cfg), plugin.Options{HostVersion: plugin.HostVersion})
	ps := &Packs{done: make(chan struct{}), set: set, err: err}
	close(ps.done)
	if err != nil {
		var ve *plugin.VerifyError
		if errors.As(err, &ve) {
			return nil, config.Registry{}, ve
		}
		set = &plugin.Set{}
	}
	return ps, registryWith(cfg, set), nil
}

// registryWith extends Registry with the rules of the packs of set, and
// leniently with the namespaces of configured packs that are not in it.
func registryWith(cfg *config.Config, set *plugin.Set) config.Registry {
	reg := Registry()
	builtin := map[string]bool{"plugin": true, "config": true}
	for _, c := range reg.Codes {
		cat, _, _ := strings.Cut(c, "/")
		builtin[cat] = true
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
	reg.Codes = exact
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

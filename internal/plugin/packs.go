package plugin

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/rules"
)

// Packs is the rule packs of one command, from their start to their stop:
// [Launch] verifies and starts them, [Packs.Wait] says whether they could
// be, [Packs.Registry] knows their codes, [Packs.Stream] runs them over a
// load's documents, and [Packs.Close] stops them. Each pack starts once per
// command. A nil *Packs is the packs of a configuration that has none;
// every method accepts it.
type Packs struct {
	cfg *config.Config
	// started is closed when the start is over; the fields below are set
	// before and never change after.
	started chan struct{}
	// packs are the packs that started and described themselves, in
	// configuration order.
	packs []*pack
	// failures are the plugin/failed diagnostics of the packs that did not.
	failures diag.List
	// err is the start-up error that stops the command ([Packs.Wait]).
	err error
}

// HostVersion is journal-lint's version as packs see it (their
// HostVersions constraint is checked against it); the command sets it at
// start-up. "" (the default) or a version that is not SemVer (such as
// "devel") accepts every pack.
var HostVersion = ""

// Specs returns the rule packs cfg configures, in configuration order.
func Specs(cfg *config.Config) []Spec {
	var out []Spec
	for _, p := range cfg.Plugins {
		out = append(out, SpecOf(cfg, p))
	}
	return out
}

// Launch verifies every rule pack cfg configures against its pinned
// sha256, starts them in parallel and asks each to describe itself, in the
// background, so that the packs start while the command does other work
// (a check's load: [Packs.Stream] waits for them). Every method of the
// result waits for the start to be over. It returns nil when cfg has no
// packs, neither to run nor proposed by the work tree (config.Config's
// WorkTreePlugins). The caller must Close the result, also after an error
// of Wait.
//
// keep is the directory where verified copies of the packs' executables
// are kept from one command to the next (the persistent cache's, see
// memo.PacksDir), so that a pack whose file did not change starts without
// being copied and hashed again; "" copies and verifies every time, and
// so does a keep directory that is not this user's own or that others can
// write to, or where no copy can be made (a full disk).
func Launch(ctx context.Context, cfg *config.Config, keep string) *Packs {
	if cfg == nil || len(cfg.Plugins)+len(cfg.WorkTreePlugins) == 0 {
		return nil
	}
	ps := &Packs{cfg: cfg, started: make(chan struct{})}
	go func() {
		defer close(ps.started)
		ps.start(ctx, Specs(cfg), keep)
	}()
	return ps
}

// Start is [Launch] that waits for the start and returns [Packs.Wait]'s
// error; the packs are then closed already.
func Start(ctx context.Context, cfg *config.Config, keep string) (*Packs, error) {
	ps := Launch(ctx, cfg, keep)
	if err := ps.Wait(); err != nil {
		ps.Close()
		return nil, err
	}
	return ps, nil
}

// start starts every pack of specs in parallel. A pack that fails on its
// own becomes a plugin/failed diagnostic; any other problem (a pack that
// cannot be verified, a configuration that cannot be encoded, two packs
// with one name, a cancelled start) is the start-up error, and then no
// pack keeps running.
func (ps *Packs) start(ctx context.Context, specs []Spec, keep string) {
	packs := make([]*pack, len(specs))
	errs := make([]error, len(specs))
	var wg sync.WaitGroup
	for i, s := range specs {
		wg.Go(func() { packs[i], errs[i] = start(ctx, s, HostVersion, keep) })
	}
	wg.Wait()
	var hard error
	for i := range specs {
		if packs[i] != nil {
			ps.packs = append(ps.packs, packs[i])
			continue
		}
		if pe, ok := errs[i].(*Error); ok {
			ps.failures = append(ps.failures, Failure(pe))
		} else if hard == nil {
			hard = errs[i]
		}
	}
	if hard == nil && ctx.Err() != nil {
		hard = ctx.Err()
	}
	if hard == nil {
		hard = ps.checkNames()
	}
	if hard != nil {
		ps.closeAll()
		ps.packs, ps.err = nil, hard
	}
}

// checkNames rejects two packs with the same namespace.
func (ps *Packs) checkNames() error {
	seen := map[string]string{}
	for _, p := range ps.packs {
		n := p.info.Name
		if other, dup := seen[n]; dup {
			return fmt.Errorf("rule packs %s and %s both use the name %q: give one a different name: in the configuration", other, p.info.Path, n)
		}
		seen[n] = p.info.Path
	}
	return nil
}

// Wait waits until the packs have started and returns the error that stops
// the command: a [*VerifyError] for a pack whose executable cannot be read
// or does not match its pin, or the error of a configuration the packs
// cannot be started with (two packs with one name, a configuration that
// cannot be encoded) or of a cancelled start. Then no pack runs. A pack
// that failed on its own is no error: it is a plugin/failed diagnostic of
// the run ([Packs.Failures]). nil on nil.
func (ps *Packs) Wait() error {
	if ps == nil {
		return nil
	}
	<-ps.started
	return ps.err
}

// Infos returns what every started pack said about itself, in
// configuration order. It waits for the start.
func (ps *Packs) Infos() []Info {
	if ps.Wait(); ps == nil {
		return nil
	}
	out := make([]Info, len(ps.packs))
	for i, p := range ps.packs {
		out[i] = p.info
	}
	return out
}

// Failures returns the plugin/failed diagnostics of the packs that did not
// start. It waits for the start.
func (ps *Packs) Failures() diag.List {
	if ps.Wait(); ps == nil {
		return nil
	}
	return ps.failures
}

// Registry returns builtin (the built-in rules' registry) plus the rules of
// the started packs, so that config.Validate knows their "<pack>/<rule>"
// codes. Until a pack that failed to start is fixed, every code in its
// namespace is accepted (in every namespace that is not built in, when the
// pack has no configured name); so are the codes of the packs a pull
// request proposes (config.Config's WorkTreePlugins), which do not run.
// It waits for the start; on nil it returns builtin.
func (ps *Packs) Registry(builtin config.Registry) config.Registry {
	if ps == nil {
		return builtin
	}
	reg := builtin
	builtinNS := map[string]bool{}
	for _, c := range reg.Codes {
		builtinNS[rules.Category(c)] = true
	}
	exact := slices.Clone(reg.Codes)
	started := map[string]bool{}
	for _, info := range ps.Infos() {
		exact = append(exact, info.Codes()...)
		started[info.Path] = true
	}
	var lenient []string // namespaces of packs that did not describe themselves
	anyNamespace := false
	for _, s := range Specs(ps.cfg) {
		if started[s.Executable()] {
			continue
		}
		if s.Name != "" {
			lenient = append(lenient, s.Name)
		} else {
			anyNamespace = true
		}
	}
	for _, p := range ps.cfg.WorkTreePlugins {
		if slices.ContainsFunc(ps.cfg.Plugins, p.SamePack) {
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
		return slices.Contains(lenient, cat) || (anyNamespace && !builtinNS[cat])
	}
	return reg
}

// Close waits for the start and stops every pack, in parallel. It is safe
// on nil and more than once.
func (ps *Packs) Close() {
	if ps != nil {
		<-ps.started
		ps.closeAll()
	}
}

// closeAll closes every started pack, in parallel.
func (ps *Packs) closeAll() {
	var wg sync.WaitGroup
	for _, p := range ps.packs {
		wg.Go(p.close)
	}
	wg.Wait()
}

// SpecOf returns the Spec of one plugins entry of cfg: its executable's
// path is relative to the configuration file's directory, which is also
// the pack's working directory.
func SpecOf(cfg *config.Config, p config.Plugin) Spec {
	dir := ""
	if cfg != nil && cfg.File != "" {
		dir = filepath.Dir(cfg.File)
	}
	return Spec{Name: p.Name, Path: p.Path, Dir: dir, SHA256: p.SHA256, Config: p.Config, Timeout: p.Timeout}
}

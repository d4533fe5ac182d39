package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/Masterminds/semver/v3"
	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// pack is one running rule pack that has described itself.
type pack struct {
	spec   Spec
	info   Info
	desc   wire.Description
	client *wire.Client
	config []byte     // the configuration as JSON
	needs  wire.Needs // the parts of each document the pack reads

	plugin *goplugin.Client // nil for a pack connected in-process
	proc   *process
	tail   *tail
	dir    string // the private directory of the executable's copy; "" in-process

	closeOnce sync.Once
}

// start copies the executable of spec into a private directory, verifying
// the copied bytes against the pin (or takes the copy that the keep
// directory vouches for, see stage), starts the copy in a process group of
// its own, and asks the pack to describe itself. The errors are a
// [*VerifyError] (nothing ran), a [*Error] (the pack failed; its process
// group is already gone), or an error for a configuration the host cannot
// encode or a private directory it cannot create. A nil error means the
// caller must close the pack.
func start(ctx context.Context, spec Spec, hostVersion, keep string) (*pack, error) {
	cfgJSON, err := configJSON(spec)
	if err != nil {
		return nil, err
	}
	dir, exe, err := stage(ctx, spec, keep)
	if err != nil {
		return nil, err
	}
	p := &pack{spec: spec, tail: &tail{}, config: cfgJSON, dir: dir}
	// A cancelled start (Ctrl-C) must not wait out the pack's start
	// timeout: go-plugin's Start takes no context, so the process is
	// killed under it (or never started), which ends the handshake.
	var mu sync.Mutex
	var procErr error
	cancelled := false
	p.plugin = goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  wire.Handshake,
		VersionedPlugins: wire.PluginSets(nil),
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		SkipHostEnv:      true,
		RunnerFunc: func(_ hclog.Logger, cmd *exec.Cmd, _ string) (runner.Runner, error) {
			mu.Lock()
			defer mu.Unlock()
			if cancelled {
				procErr = ctx.Err()
				return nil, procErr
			}
			proc, err := newProcess(exe, spec.Dir, cmd.Env, p.tail)
			if err != nil {
				procErr = err
				return nil, err
			}
			p.proc = proc
			return proc, nil
		},
		StartTimeout:    spec.timeout(),
		SyncStdout:      p.tail,
		SyncStderr:      p.tail,
		Logger:          hclog.NewNullLogger(),
		GRPCDialOptions: wire.DialOptions(),
	})
	fail := func(err error) (*pack, error) {
		p.close()
		return nil, p.failure(spec.Label(), err)
	}
	started := make(chan error, 1)
	go func() {
		_, err := p.plugin.Start()
		started <- err
	}()
	select {
	case err = <-started:
	case <-ctx.Done():
		mu.Lock()
		cancelled = true
		if p.proc != nil {
			_ = p.proc.Kill(ctx)
		}
		mu.Unlock()
		<-started
		p.close()
		return nil, ctx.Err()
	}
	if err != nil {
		mu.Lock()
		if procErr != nil {
			err = procErr
		}
		mu.Unlock()
		return fail(p.startError(err))
	}
	// The pack is up: an interpreter has opened its script by now, and the
	// copy need not outlive a journal-lint that is killed.
	p.removeCopy()
	if v := p.plugin.NegotiatedVersion(); v != wire.Version {
		return fail(fmt.Errorf("pack speaks protocol version %d, journal-lint speaks %d", v, wire.Version))
	}
	cp, err := p.plugin.Client()
	if err != nil {
		return fail(err)
	}
	raw, err := cp.Dispense(wire.PluginName)
	if err != nil {
		return fail(err)
	}
	client, ok := raw.(*wire.Client)
	if !ok {
		return fail(fmt.Errorf("unexpected plugin type %T", raw))
	}
	if err := p.describe(ctx, client, hostVersion); err != nil {
		return fail(err)
	}
	return p, nil
}

// removeCopy removes the private directory of the pack's executable. Start
// calls it once the handshake is done, not before: an interpreted pack (a
// script with a #! line) is opened by its interpreter through that path.
// It is harmless to call again.
func (p *pack) removeCopy() {
	if p.dir != "" {
		_ = os.RemoveAll(p.dir)
	}
}

// startError rewords go-plugin's start-up errors for users. A pack that
// closed its stdout without a handshake line usually exited (it panicked
// or called os.Exit before sdk.Serve): that is waited for briefly, so that
// the failure says how it ended and quotes its whole stderr, instead of
// an empty "something other than the handshake".
func (p *pack) startError(err error) error {
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "Unrecognized remote plugin message: \n") && strings.Contains(msg, "Failed to read any lines"):
		if p.proc != nil {
			if _, ok := p.proc.waitExit(min(p.spec.timeout(), exitWait)); ok {
				return errors.New("the pack exited before the handshake")
			}
		}
		return errors.New("the pack closed its stdout before the handshake")
	case strings.HasPrefix(msg, "Unrecognized remote plugin message"):
		first, _, _ := strings.Cut(msg, "\n")
		return fmt.Errorf("bad handshake: the pack wrote something other than go-plugin's handshake to stdout (%s)",
			strings.TrimPrefix(first, "Unrecognized remote plugin message: "))
	case strings.Contains(msg, "exited before we could connect"):
		return errors.New("the pack exited before the handshake")
	case strings.Contains(msg, "timeout while waiting for plugin to start"):
		return fmt.Errorf("the pack did not complete the handshake within %s (timeout)", p.spec.timeout())
	case strings.Contains(msg, "Incompatible API version") || strings.Contains(msg, "incompatible API version"):
		return fmt.Errorf("incompatible protocol version: %s", firstLine(msg))
	}
	return errors.New(firstLine(msg))
}

// exitWait bounds how long a failure waits for the pack's process to end,
// to say how it ended.
const exitWait = 2 * time.Second

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// failure wraps err as a pack *Error with the stderr tail and, when the
// process is gone, how it ended.
func (p *pack) failure(name string, err error) *Error {
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	if p.proc != nil {
		// Give the process a moment to be reaped so the exit status is
		// known, and its stderr to be read to the end.
		if how, ok := p.proc.waitExit(100 * time.Millisecond); ok {
			if how != "exit status 0" && !strings.Contains(err.Error(), how) && !strings.Contains(how, "killed") {
				err = fmt.Errorf("%w (process %s)", err, how)
			}
			p.proc.waitStderr(2 * drainTime)
		}
	}
	return &Error{Pack: name, Err: err, Stderr: p.tail.String()}
}

// describe asks the pack who it is and checks the answer.
func (p *pack) describe(ctx context.Context, client *wire.Client, hostVersion string) error {
	ctx, cancel := context.WithTimeout(ctx, p.spec.timeout())
	defer cancel()
	d, err := client.Describe(ctx, hostVersion)
	if err != nil {
		return p.callError(ctx, "describe", err)
	}
	if err := d.Validate(); err != nil {
		return fmt.Errorf("describe: %w", err)
	}
	info := Info{Name: p.spec.Name, PackName: d.Name, Version: d.Version, SDKVersion: d.SDKVersion,
		HostVersions: d.HostVersions, Pure: d.Pure, Path: p.spec.Executable(), SHA256: p.spec.SHA256}
	if info.Name == "" {
		info.Name = d.Name
	}
	if err := hostSupported(info.HostVersions, hostVersion); err != nil {
		return err
	}
	for _, r := range d.Rules {
		info.Rules = append(info.Rules, RuleInfo{Code: info.Name + "/" + r.Name, Name: r.Name, DefaultSeverity: severity(r.Severity),
			Summary: strings.TrimSpace(r.Summary), Doc: r.Doc})
	}
	p.info, p.desc, p.client, p.needs = info, d, client, d.Needs.Normal()
	return nil
}

// hostSupported checks the host version against a pack's constraint.
func hostSupported(constraint, host string) error {
	if strings.TrimSpace(constraint) == "" {
		return nil
	}
	c, err := semver.NewConstraint(constraint)
	if err != nil {
		return fmt.Errorf("describe: host versions %q: %v", constraint, err)
	}
	v, err := semver.NewVersion(strings.TrimPrefix(host, "v"))
	if err != nil {
		return nil // a development build accepts every pack
	}
	if !c.Check(v) {
		return fmt.Errorf("the pack supports journal-lint %s, this is %s", constraint, host)
	}
	return nil
}

// severity returns the diagnostic severity of a valid rule or finding
// severity other than the default.
func severity(s wire.Severity) diag.Severity {
	switch s {
	case wire.SeverityError:
		return diag.Error
	case wire.SeverityWarning:
		return diag.Warning
	case wire.SeverityInfo:
		return diag.Info
	}
	return diag.SeverityInvalid
}

// callError turns a failed call into the reason a pack failed.
func (p *pack) callError(ctx context.Context, call string, err error) error {
	st, _ := status.FromError(err)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || st.Code() == codes.DeadlineExceeded:
		p.kill()
		return fmt.Errorf("%s timed out after %s", call, p.spec.timeout())
	case ctx.Err() != nil:
		return ctx.Err()
	case st.Code() == codes.Unavailable || st.Code() == codes.Canceled:
		if p.proc != nil {
			if how, ok := p.proc.waitExit(500 * time.Millisecond); ok {
				return fmt.Errorf("%s: the pack process died (%s)", call, how)
			}
		}
		return fmt.Errorf("%s: lost the connection to the pack: %s", call, st.Message())
	}
	return fmt.Errorf("%s: %s", call, st.Message())
}

// stderr returns the tail of the pack's stderr so far.
func (p *pack) stderr() string { return p.tail.String() }

// kill ends the process at once (a hung pack gets no graceful shutdown).
func (p *pack) kill() {
	if p.proc != nil {
		_ = p.proc.Kill(context.Background())
	}
}

// close stops the pack: it kills its process group, waits for go-plugin
// to let go of it (bounded: see drainTime), and removes its socket
// directory and the private copy of its executable. It is safe to call
// more than once and never fails.
func (p *pack) close() {
	p.closeOnce.Do(func() {
		p.kill()
		if p.plugin != nil {
			p.plugin.Kill()
		}
		p.removeCopy()
	})
}

// configJSON encodes the pack's configuration for the wire.
func configJSON(s Spec) ([]byte, error) {
	cfg := s.Config
	if cfg == nil {
		cfg = map[string]any{}
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("rule pack %s: config cannot be handed to the pack: %v", s.Label(), err)
	}
	return b, nil
}

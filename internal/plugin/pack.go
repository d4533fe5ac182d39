package plugin

import (
	"context"
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
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/plugin/protocol"
	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// Options are the host's side of a pack run.
type Options struct {
	// HostVersion is journal-lint's version, checked against each pack's
	// supported host versions; "" or a version that is not SemVer (such as
	// "devel") accepts every pack.
	HostVersion string
}

// Pack is one running rule pack that has described itself.
type Pack struct {
	spec   Spec
	info   Info
	rpc    pb.RulePackClient
	rules  map[string]RuleInfo // by rule name
	config []byte              // the configuration as JSON
	needs  protocol.Needs      // the parts of each document the pack reads

	client *goplugin.Client // nil for a pack connected in-process
	proc   *process
	tail   *tail
	dir    string // the private directory of the executable's copy; "" in-process

	closeOnce sync.Once
}

// Start copies the executable of spec into a private directory, verifying
// the copied bytes against the pin, starts the copy in a process group of
// its own, and asks the pack to describe itself. The errors are a
// [*VerifyError] (nothing ran), a [*Error] (the pack failed; its process
// group is already gone), or an error for a configuration the host cannot
// encode or a private directory it cannot create. A nil error means the
// caller must [Pack.Close] the pack.
func Start(ctx context.Context, spec Spec, opts Options) (*Pack, error) {
	cfgJSON, err := configJSON(spec)
	if err != nil {
		return nil, err
	}
	dir, exe, err := stage(spec)
	if err != nil {
		return nil, err
	}
	p := &Pack{spec: spec, tail: &tail{}, config: cfgJSON, dir: dir}
	var procErr error
	p.client = goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  wire.Handshake,
		VersionedPlugins: wire.PluginSets(nil),
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		SkipHostEnv:      true,
		RunnerFunc: func(_ hclog.Logger, cmd *exec.Cmd, _ string) (runner.Runner, error) {
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
		GRPCDialOptions: []grpc.DialOption{grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(wire.MaxMessageSize), grpc.MaxCallSendMsgSize(wire.MaxMessageSize))},
	})
	fail := func(err error) (*Pack, error) {
		p.Close()
		return nil, p.failure(spec.Label(), err)
	}
	if _, err := p.client.Start(); err != nil {
		if procErr != nil {
			err = procErr
		}
		return fail(p.startError(err))
	}
	// The pack is up: an interpreter has opened its script by now, and the
	// copy need not outlive a journal-lint that is killed.
	p.removeCopy()
	if v := p.client.NegotiatedVersion(); v != wire.Version {
		return fail(fmt.Errorf("pack speaks protocol version %d, journal-lint speaks %d", v, wire.Version))
	}
	cp, err := p.client.Client()
	if err != nil {
		return fail(err)
	}
	raw, err := cp.Dispense(wire.PluginName)
	if err != nil {
		return fail(err)
	}
	rpc, ok := raw.(pb.RulePackClient)
	if !ok {
		return fail(fmt.Errorf("unexpected plugin type %T", raw))
	}
	if err := p.describe(ctx, rpc, opts); err != nil {
		return fail(err)
	}
	return p, nil
}

// removeCopy removes the private directory of the pack's executable. Start
// calls it once the handshake is done, not before: an interpreted pack (a
// script with a #! line) is opened by its interpreter through that path.
// It is harmless to call again.
func (p *Pack) removeCopy() {
	if p.dir != "" {
		_ = os.RemoveAll(p.dir)
	}
}

// Connect describes a pack that is already served on rpc without starting
// or verifying anything. It is the host's test-only entry point: package
// plugins/sdk/sdktest serves a pack in-process and runs it through the
// real host with Connect, [Pack.Check] and [InputOf] or [NewInput];
// journal-lint itself always uses [Start]. Close does not close rpc's
// connection.
func Connect(ctx context.Context, rpc pb.RulePackClient, spec Spec, opts Options) (*Pack, error) {
	cfgJSON, err := configJSON(spec)
	if err != nil {
		return nil, err
	}
	p := &Pack{spec: spec, tail: &tail{}, config: cfgJSON}
	if err := p.describe(ctx, rpc, opts); err != nil {
		return nil, p.failure(spec.Label(), err)
	}
	return p, nil
}

// startError rewords go-plugin's start-up errors for users. A pack that
// closed its stdout without a handshake line usually exited (it panicked
// or called os.Exit before sdk.Serve): that is waited for briefly, so that
// the failure says how it ended and quotes its whole stderr, instead of
// an empty "something other than the handshake".
func (p *Pack) startError(err error) error {
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
		return errors.New("the pack did not complete the handshake in time")
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
func (p *Pack) failure(name string, err error) *Error {
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
func (p *Pack) describe(ctx context.Context, rpc pb.RulePackClient, opts Options) error {
	ctx, cancel := context.WithTimeout(ctx, p.spec.timeout())
	defer cancel()
	d, err := rpc.Describe(ctx, &pb.DescribeRequest{HostVersion: opts.HostVersion, ProtocolVersion: wire.Version})
	if err != nil {
		return p.callError(ctx, "describe", err)
	}
	if !namePattern.MatchString(d.GetName()) {
		return fmt.Errorf("describe: pack name %q is not lowercase kebab-case", d.GetName())
	}
	info := Info{Name: p.spec.Name, PackName: d.GetName(), Version: d.GetVersion(), SDKVersion: d.GetSdkVersion(),
		HostVersions: d.GetHostVersions(), Path: p.spec.Executable(), SHA256: p.spec.SHA256}
	if info.Name == "" {
		info.Name = d.GetName()
	}
	if err := hostSupported(info.HostVersions, opts.HostVersion); err != nil {
		return err
	}
	if len(d.GetRules()) == 0 {
		return errors.New("describe: the pack has no rules")
	}
	p.rules = map[string]RuleInfo{}
	for _, r := range d.GetRules() {
		if !namePattern.MatchString(r.GetName()) {
			return fmt.Errorf("describe: rule name %q is not lowercase kebab-case", r.GetName())
		}
		if _, dup := p.rules[r.GetName()]; dup {
			return fmt.Errorf("describe: duplicate rule %q", r.GetName())
		}
		sev, ok := severity(r.GetDefaultSeverity())
		if !ok {
			return fmt.Errorf("describe: rule %s has no valid default severity", r.GetName())
		}
		summary := strings.TrimSpace(r.GetSummary())
		if summary == "" || strings.ContainsAny(summary, "\r\n") {
			return fmt.Errorf("describe: rule %s needs a one-line summary", r.GetName())
		}
		ri := RuleInfo{Code: info.Name + "/" + r.GetName(), Name: r.GetName(), DefaultSeverity: sev, Summary: summary, Doc: r.GetDoc()}
		p.rules[ri.Name] = ri
		info.Rules = append(info.Rules, ri)
	}
	p.info, p.rpc, p.needs = info, rpc, protocol.NeedsOf(d.GetNeeds())
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

func severity(s pb.Severity) (diag.Severity, bool) {
	switch s {
	case pb.Severity_SEVERITY_ERROR:
		return diag.Error, true
	case pb.Severity_SEVERITY_WARNING:
		return diag.Warning, true
	case pb.Severity_SEVERITY_INFO:
		return diag.Info, true
	}
	return diag.SeverityInvalid, false
}

// callError turns a failed call into the reason a pack failed.
func (p *Pack) callError(ctx context.Context, call string, err error) error {
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

// Info returns what the pack said about itself.
func (p *Pack) Info() Info { return p.info }

// Stderr returns the tail of the pack's stderr so far.
func (p *Pack) Stderr() string { return p.tail.String() }

// kill ends the process at once (a hung pack gets no graceful shutdown).
func (p *Pack) kill() {
	if p.proc != nil {
		_ = p.proc.Kill(context.Background())
	}
}

// Close stops the pack: it kills its process group, waits for go-plugin
// to let go of it (bounded: see drainTime), and removes its socket
// directory and the private copy of its executable. It is safe to call
// more than once and never fails.
func (p *Pack) Close() {
	p.closeOnce.Do(func() {
		p.kill()
		if p.client != nil {
			p.client.Kill()
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
	b, err := jsonMarshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("rule pack %s: config cannot be handed to the pack: %v", s.Label(), err)
	}
	return b, nil
}

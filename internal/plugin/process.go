package plugin

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-plugin/runner"

	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// drainTime is how long the host keeps reading a pack's stdout and stderr
// after the pack exited: enough for what is already in the pipes, never
// long enough for a grandchild that keeps them open to stall the host.
const drainTime = 250 * time.Millisecond

// process runs one pack executable for go-plugin (a runner.Runner). Unlike
// go-plugin's own runner it gives the pack no stdin, starts it in its own
// process group, hands it the read end of the lifeline pipe, and reaps it
// itself: go-plugin waits for the pack's stdout and stderr to reach end of
// file before it waits for the process, and a grandchild holding them
// would make that wait last as long as the grandchild.
type process struct {
	cmd      *exec.Cmd
	stdout   *os.File  // read end, read by go-plugin (the handshake)
	stderr   *os.File  // read end, copied to errOut here
	errOut   io.Writer // where the pack's stderr goes
	lifeline *os.File  // the host's write end; closed by Kill and on exit
	child    []*os.File

	done       chan struct{} // closed when the process is reaped
	stderrDone chan struct{} // closed when its stderr is read to the end (or given up)
	mu         sync.Mutex
	result     error       // what Wait returned, once done
	started    *os.Process // the process once Start started it
	killed     bool        // Kill was called: Start kills what it starts after it
}

var _ runner.Runner = (*process)(nil)

// newProcess prepares path to run in dir with env (go-plugin's handshake
// variables) and a lifeline; the pack's stderr is copied to errOut.
func newProcess(path, dir string, env []string, errOut io.Writer) (*process, error) {
	cmd := exec.Command(path)
	cmd.Dir = dir
	cmd.Stdin = nil // the null device: never the host's stdin
	cmd.Env = append(env, fmt.Sprintf("%s=%d", wire.EnvLifelineFD, wire.LifelineFD))
	setGroup(cmd)
	p := &process{cmd: cmd, errOut: errOut, done: make(chan struct{}), stderrDone: make(chan struct{})}
	var files []*os.File // every end, closed on failure
	pipe := func() (r, w *os.File, err error) {
		if r, w, err = os.Pipe(); err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	lr, lw, err := pipe()
	if err == nil {
		p.stdout, cmd.Stdout, err = pipe()
	}
	if err == nil {
		p.stderr, cmd.Stderr, err = pipe()
	}
	if err != nil {
		for _, f := range files {
			f.Close()
		}
		return nil, err
	}
	p.lifeline = lw
	cmd.ExtraFiles = []*os.File{lr} // fd 3 in the pack
	p.child = []*os.File{lr, cmd.Stdout.(*os.File), cmd.Stderr.(*os.File)}
	return p, nil
}

// Start starts the process, drops the host's copies of the pack's ends of
// the pipes, and starts reaping and reading stderr in the background. A
// Kill that came while the process was being started (a cancelled start,
// on another goroutine than go-plugin's Start) kills it now.
func (p *process) Start(context.Context) error {
	err := p.cmd.Start()
	for _, f := range p.child {
		f.Close()
	}
	if err != nil {
		p.lifeline.Close()
		p.stdout.Close()
		p.stderr.Close()
		return err
	}
	go func() {
		defer close(p.stderrDone)
		_, _ = io.Copy(p.errOut, p.stderr)
		p.stderr.Close()
	}()
	go p.reap()
	p.mu.Lock()
	p.started = p.cmd.Process
	killed := p.killed
	p.mu.Unlock()
	if killed {
		return p.kill(p.started)
	}
	return nil
}

// reap waits for the process to exit, kills what is left of its group,
// closes the lifeline, and limits how much longer its pipes are read.
func (p *process) reap() {
	err := p.cmd.Wait()
	killGroup(p.cmd.Process.Pid)
	p.lifeline.Close()
	p.mu.Lock()
	p.result = err
	p.mu.Unlock()
	close(p.done)
	deadline := time.Now().Add(drainTime)
	_ = p.stdout.SetReadDeadline(deadline)
	_ = p.stderr.SetReadDeadline(deadline)
}

// Wait waits for the process to exit and returns how it ended. go-plugin
// calls it once it stopped reading stdout, which is then closed.
func (p *process) Wait(context.Context) error {
	<-p.done
	p.stdout.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.result
}

// waitExit waits up to d for the process to exit and says how it ended
// ("exit status 2", "signal: killed"); false while it runs.
func (p *process) waitExit(d time.Duration) (string, bool) {
	select {
	case <-p.done:
	case <-time.After(d):
		return "", false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.result == nil {
		return "exit status 0", true
	}
	return p.result.Error(), true
}

// waitStderr waits up to d for the pack's stderr to be read to its end.
func (p *process) waitStderr(d time.Duration) {
	select {
	case <-p.stderrDone:
	case <-time.After(d):
	}
}

// Kill kills the process group; calling it again, or after the process
// exited (when reap killed the group), is harmless. Called before Start
// has started the process (from another goroutine), it leaves the killing
// to Start.
func (p *process) Kill(context.Context) error {
	p.lifeline.Close()
	p.mu.Lock()
	p.killed = true
	started := p.started
	p.mu.Unlock()
	if started == nil {
		return nil
	}
	return p.kill(started)
}

// kill kills the started process and its group, unless it was reaped.
func (p *process) kill(started *os.Process) error {
	select {
	case <-p.done:
		return nil
	default:
	}
	killGroup(started.Pid)
	if err := started.Kill(); err != nil && err != os.ErrProcessDone {
		return err
	}
	return nil
}

// Stdout returns the pack's stdout, where go-plugin reads the handshake.
func (p *process) Stdout() io.ReadCloser { return p.stdout }

// Stderr returns nothing: the process copies the pack's stderr itself.
func (p *process) Stderr() io.ReadCloser { return io.NopCloser(strings.NewReader("")) }

func (p *process) Name() string { return p.cmd.Path }
func (p *process) Diagnose(context.Context) string {
	return "a journal-lint rule pack must call sdk.Serve and print nothing to stdout before it"
}

// ID returns the process id, "" before Start.
func (p *process) ID() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started == nil {
		return ""
	}
	return strconv.Itoa(p.started.Pid)
}

// PluginToHost and HostToPlugin translate nothing: the pack runs on this host.
func (p *process) PluginToHost(n, a string) (string, string, error) { return n, a, nil }
func (p *process) HostToPlugin(n, a string) (string, string, error) { return n, a, nil }

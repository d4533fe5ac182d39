package plugin

import (
	"context"
	"errors"
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
	// cg holds every process the pack starts, where the machine offers a
	// cgroup (cgroup_linux.go); nil elsewhere, where the process group is
	// all there is.
	cg *cgroup

	done       chan struct{} // closed when the process is reaped
	stderrDone chan struct{} // closed when its stderr is read to the end (or given up)
	mu         sync.Mutex
	result     error // what Wait returned, once done
	// startMu orders Start and Kill, which a cancelled start calls while
	// go-plugin may be starting the process; killed says Kill came first.
	startMu sync.Mutex
	killed  bool
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
	p := &process{cmd: cmd, errOut: errOut, done: make(chan struct{}), stderrDone: make(chan struct{}), cg: newCgroup()}
	p.cg.apply(cmd)
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
		p.cg.remove()
		return nil, err
	}
	p.lifeline = lw
	cmd.ExtraFiles = []*os.File{lr} // fd 3 in the pack
	p.child = []*os.File{lr, cmd.Stdout.(*os.File), cmd.Stderr.(*os.File)}
	return p, nil
}

// Start starts the process, drops the host's copies of the pack's ends of
// the pipes, and starts reaping and reading stderr in the background.
func (p *process) Start(context.Context) error {
	p.startMu.Lock()
	defer p.startMu.Unlock()
	err := errors.New("the start was cancelled")
	if !p.killed {
		err = p.cmd.Start()
		if err != nil && p.cg != nil {
			// The kernel cannot start a process into a cgroup (before
			// Linux 5.7): the process group alone, on a fresh command.
			p.cg.remove()
			p.cg, p.cmd = nil, restart(p.cmd)
			err = p.cmd.Start()
		}
	}
	for _, f := range p.child {
		f.Close()
	}
	if err != nil {
		p.cg.remove()
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
	return nil
}

// restart returns a command that starts what cmd would, without a cgroup.
func restart(cmd *exec.Cmd) *exec.Cmd {
	c := exec.Command(cmd.Path)
	c.Args, c.Dir, c.Env = cmd.Args, cmd.Dir, cmd.Env
	c.Stdin, c.Stdout, c.Stderr, c.ExtraFiles = cmd.Stdin, cmd.Stdout, cmd.Stderr, cmd.ExtraFiles
	setGroup(c)
	return c
}

// reap waits for the process to exit, kills what is left of its group and
// its cgroup, closes the lifeline, and limits how much longer its pipes
// are read.
func (p *process) reap() {
	err := p.cmd.Wait()
	killGroup(p.cmd.Process.Pid)
	p.cg.remove()
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

// Kill kills the process group and the cgroup; calling it again, or after
// the process exited (when reap killed both), is harmless.
func (p *process) Kill(context.Context) error {
	p.startMu.Lock()
	p.killed = true
	started := p.cmd.Process != nil
	p.startMu.Unlock()
	p.lifeline.Close()
	if !started {
		p.cg.remove()
		return nil
	}
	select {
	case <-p.done:
		return nil
	default:
	}
	killGroup(p.cmd.Process.Pid)
	p.cg.kill()
	if err := p.cmd.Process.Kill(); err != nil && err != os.ErrProcessDone {
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
	if p.cmd.Process == nil {
		return ""
	}
	return strconv.Itoa(p.cmd.Process.Pid)
}

// PluginToHost and HostToPlugin translate nothing: the pack runs on this host.
func (p *process) PluginToHost(n, a string) (string, string, error) { return n, a, nil }
func (p *process) HostToPlugin(n, a string) (string, string, error) { return n, a, nil }

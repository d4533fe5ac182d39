package plugin

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"

	"github.com/hashicorp/go-plugin/runner"

	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// process runs one pack executable for go-plugin (a runner.Runner). Unlike
// go-plugin's own runner it gives the pack no stdin, and it hands the pack
// the read end of the lifeline pipe.
type process struct {
	cmd            *exec.Cmd
	stdout, stderr io.ReadCloser
	lifeline       *os.File // the host's write end; closed by kill/wait

	mu     sync.Mutex
	done   bool
	result error // what Wait returned
}

var _ runner.Runner = (*process)(nil)

// newProcess prepares path to run in dir with env (go-plugin's handshake
// variables) and a lifeline.
func newProcess(path, dir string, env []string) (*process, *os.File, error) {
	cmd := exec.Command(path)
	cmd.Dir = dir
	cmd.Stdin = nil // the null device: never the host's stdin
	cmd.Env = append(env, fmt.Sprintf("%s=%d", wire.EnvLifelineFD, wire.LifelineFD))
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	cmd.ExtraFiles = []*os.File{r} // fd 3 in the pack
	p := &process{cmd: cmd, lifeline: w}
	if p.stdout, err = cmd.StdoutPipe(); err != nil {
		r.Close()
		w.Close()
		return nil, nil, err
	}
	if p.stderr, err = cmd.StderrPipe(); err != nil {
		r.Close()
		w.Close()
		return nil, nil, err
	}
	return p, r, nil
}

// Start starts the process and drops the host's copy of the lifeline's read end.
func (p *process) Start(context.Context) error {
	err := p.cmd.Start()
	p.cmd.ExtraFiles[0].Close()
	if err != nil {
		p.lifeline.Close()
	}
	return err
}

// Wait waits for the process to exit and records how it ended.
func (p *process) Wait(context.Context) error {
	err := p.cmd.Wait()
	p.mu.Lock()
	p.done, p.result = true, err
	p.mu.Unlock()
	p.lifeline.Close()
	return err
}

// exited returns how the process ended, and false while it runs.
func (p *process) exited() (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.done {
		return "", false
	}
	if p.result == nil {
		return "exit status 0", true
	}
	return p.result.Error(), true
}

// Kill kills the process; calling it again, or after the process exited, is
// harmless.
func (p *process) Kill(context.Context) error {
	p.lifeline.Close()
	if p.cmd.Process == nil {
		return nil
	}
	if err := p.cmd.Process.Kill(); err != nil && err != os.ErrProcessDone {
		return err
	}
	return nil
}

func (p *process) Stdout() io.ReadCloser { return p.stdout }
func (p *process) Stderr() io.ReadCloser { return p.stderr }
func (p *process) Name() string          { return p.cmd.Path }
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

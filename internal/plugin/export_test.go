package plugin

import (
	"context"

	"github.com/r35157/journal-lint/internal/config"
	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// PIDs returns the process ids of the started packs of ps, which are also
// their process group ids; 0 for a pack connected in-process.
func PIDs(ps *Packs) []int {
	var out []int
	for _, p := range ps.packs {
		pid := 0
		if p.proc != nil {
			p.proc.startMu.Lock()
			if p.proc.cmd.Process != nil {
				pid = p.proc.cmd.Process.Pid
			}
			p.proc.startMu.Unlock()
		}
		out = append(out, pid)
	}
	return out
}

// Connected returns the Packs of packs already served on clients, named
// names ("" for the pack's own name) and configured with cfg (nil for
// none), without starting or verifying anything: the packs' run is the
// host's, their process is none.
func Connected(ctx context.Context, clients []*wire.Client, names []string, cfg map[string]any) (*Packs, error) {
	ps := &Packs{cfg: config.Default(), started: make(chan struct{})}
	close(ps.started)
	for i, c := range clients {
		spec := Spec{Name: names[i], Config: cfg}
		js, err := configJSON(spec)
		if err != nil {
			return nil, err
		}
		p := &pack{spec: spec, tail: &tail{}, config: js}
		if err := p.describe(ctx, c, ""); err != nil {
			return nil, err
		}
		ps.packs = append(ps.packs, p)
	}
	return ps, nil
}

// Client returns the connection of the i-th started pack of ps.
func Client(ps *Packs, i int) *wire.Client { return ps.packs[i].client }

// CgroupOffered reports whether the machine lets journal-lint put each
// pack's processes in a cgroup of their own (cgroup_linux.go).
func CgroupOffered() bool {
	c := newCgroup()
	c.remove()
	return c != nil
}

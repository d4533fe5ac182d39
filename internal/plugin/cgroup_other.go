//go:build !linux

package plugin

import "os/exec"

// cgroup stands for the cgroup of a pack's processes, which only Linux
// offers (cgroup_linux.go): elsewhere a pack's process group is all there
// is, and a process that leaves it (setsid) outlives the pack
// (docs/plugins.md).
type cgroup struct{}

// newCgroup returns nil: no cgroups here.
func newCgroup() *cgroup { return nil }

func (c *cgroup) apply(*exec.Cmd) {}
func (c *cgroup) kill()           {}
func (c *cgroup) remove()         {}

//go:build unix

package plugin

import (
	"os/exec"
	"syscall"
)

// setGroup makes cmd start in a process group of its own, whose id is the
// process id.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills every process of the group pgid; an empty group is not
// an error.
func killGroup(pgid int) {
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

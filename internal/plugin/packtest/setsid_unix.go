//go:build unix

package packtest

import (
	"os/exec"
	"syscall"
)

// setsid makes cmd start in a session (and process group) of its own.
func setsid(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

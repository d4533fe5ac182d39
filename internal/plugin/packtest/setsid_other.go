//go:build !unix

package packtest

import "os/exec"

// setsid does nothing where there are no sessions.
func setsid(*exec.Cmd) {}

//go:build !unix

package plugin

import "os/exec"

// setGroup does nothing where there are no process groups: the pack alone
// is killed.
func setGroup(*exec.Cmd) {}

// killGroup does nothing where there are no process groups.
func killGroup(int) {}

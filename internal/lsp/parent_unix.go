//go:build unix

package lsp

import (
	"errors"
	"syscall"
)

// alive reports whether the process pid exists: signal 0 checks without
// sending (kill(2)); a process of another user answers EPERM.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

//go:build !unix

package lsp

import "os"

// alive reports whether the process pid exists: elsewhere than on Unix,
// finding a process opens it, which fails once it is gone.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}

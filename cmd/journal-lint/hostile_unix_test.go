//go:build unix

package main

import "syscall"

// mkfifo makes a FIFO at path and returns the error of doing so.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

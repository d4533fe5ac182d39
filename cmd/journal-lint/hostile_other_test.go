//go:build !unix

package main

import "errors"

// mkfifo returns errors.ErrUnsupported: this system has no FIFOs to make.
func mkfifo(string) error { return errors.ErrUnsupported }

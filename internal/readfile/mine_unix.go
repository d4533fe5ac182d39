//go:build unix

package readfile

import (
	"os"
	"syscall"
)

// Mine reports whether the file that fi (from Lstat or Stat) describes
// belongs to the effective user of this process.
func Mine(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Uid == uint32(os.Geteuid())
}

package readfile

import (
	"fmt"
	"hash/maphash"
	"os"
	"time"
)

// stampSeed keys the hash of [Stamp]; stamps live only in this process.
var stampSeed = maphash.MakeSeed()

// Stamp returns a stamp of the state of the file that fi (from Lstat or
// Stat) describes: a hash of what [same] compares between two looks at a
// file (on Linux device, inode, size, modification time and change time;
// elsewhere size and modification time), and its mode. Two stamps of one
// path differ when the file was written, truncated, replaced (a rename
// over it), touched or changed in mode between them, unless the change
// came so soon after the first look that the file system's clock gave it
// the same times: see [Recent]. Equal stamps of different states are as
// likely as a 64-bit hash collision. It is never 0, so 0 can stand for no
// stamp.
func Stamp(fi os.FileInfo) uint64 {
	id := identity(fi)
	return max(maphash.Comparable(stampSeed, id), 1)
}

// Recent reports whether fi (from Lstat or Stat, taken at or before now)
// changed so recently, as the file system's clock tells it, that a write
// right after now could leave its stamp as it is: a stamp of a recent file
// does not vouch for the bytes read after it.
func Recent(fi os.FileInfo, now time.Time) bool {
	return changedSince(fi, now.Add(-racyWindow))
}

// Durable returns a stamp of the state of the file that fi (from Lstat or
// Stat) describes that keeps its meaning across processes, for a record
// on disk: the device, inode, size, modification and change times and
// mode, as decimal numbers. It returns false where the system gives no
// change time, which no user can set (unlike the modification time): there
// a stamp does not tell a file that was written and given its old
// modification time back. A stamp of a [Recent] file does not vouch for
// its bytes either.
func Durable(fi os.FileInfo) (string, bool) {
	id, ok := durableIdentity(fi)
	if !ok {
		return "", false
	}
	return fmt.Sprint(id), true
}

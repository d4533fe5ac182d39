//go:build linux

package plugin

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// cgroup is a cgroup v2 of its own for the processes of one pack: a child
// of the cgroup journal-lint runs in. A process that leaves the pack's
// process group (setsid) cannot leave its cgroup, so killing the cgroup
// kills everything the pack started. The machine offers one when
// journal-lint may create a cgroup below its own (root, or a delegated
// cgroup as systemd gives a user's session); elsewhere [newCgroup] returns
// nil and the process group is all there is (docs/plugins.md).
type cgroup struct {
	dir     string
	fd      int // an open descriptor of dir, for CLONE_INTO_CGROUP
	removed sync.Once
}

// cgroupSeq numbers the cgroups of one journal-lint process.
var cgroupSeq atomic.Int64

// newCgroup creates the cgroup of one pack, or returns nil when the
// machine offers none (no cgroup v2 hierarchy, or no permission to create
// a cgroup below journal-lint's own).
func newCgroup() *cgroup {
	own, ok := ownCgroupDir()
	if !ok {
		return nil
	}
	dir := filepath.Join(own, fmt.Sprintf("journal-lint-pack-%d-%d", os.Getpid(), cgroupSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil
	}
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		_ = os.Remove(dir)
		return nil
	}
	return &cgroup{dir: dir, fd: fd}
}

// ownCgroupDir returns the directory of the cgroup v2 journal-lint runs
// in: the mount point of the cgroup2 file system (/proc/self/mountinfo)
// joined with the path of the "0::" line of /proc/self/cgroup.
func ownCgroupDir() (string, bool) {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", false
	}
	var rel string
	found := false
	for line := range strings.SplitSeq(string(data), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			rel, found = p, true
		}
	}
	if !found {
		return "", false
	}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root mountpoint options... - fstype source options
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		fields := strings.Fields(pre)
		if !ok || len(fields) < 5 || !strings.HasPrefix(post, "cgroup2 ") || fields[3] != "/" {
			continue
		}
		return filepath.Join(unescapeMount(fields[4]), filepath.FromSlash(rel)), true
	}
	return "", false
}

// unescapeMount undoes the octal escapes (\040 for a space) of a path in
// /proc/self/mountinfo.
func unescapeMount(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// apply makes cmd start inside c (CLONE_INTO_CGROUP); nothing for a nil c.
func (c *cgroup) apply(cmd *exec.Cmd) {
	if c == nil {
		return
	}
	cmd.SysProcAttr.UseCgroupFD = true
	cmd.SysProcAttr.CgroupFD = c.fd
}

// kill kills every process in c: through cgroup.kill (Linux 5.14), else
// each process cgroup.procs lists, until it lists none; a nil c does
// nothing.
func (c *cgroup) kill() {
	if c == nil {
		return
	}
	if err := os.WriteFile(filepath.Join(c.dir, "cgroup.kill"), []byte("1"), 0); err == nil {
		return
	}
	for range 100 { // a process may fork while the others are killed
		data, err := os.ReadFile(filepath.Join(c.dir, "cgroup.procs"))
		if err != nil || len(strings.TrimSpace(string(data))) == 0 {
			return
		}
		for f := range strings.FieldsSeq(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		time.Sleep(time.Millisecond)
	}
}

// remove kills what is left in c and removes it, waiting up to a second
// for the killed processes to leave it; a nil c does nothing. It is safe
// to call more than once, also concurrently.
func (c *cgroup) remove() {
	if c == nil {
		return
	}
	c.removed.Do(func() {
		c.kill()
		syscall.Close(c.fd)
		deadline := time.Now().Add(time.Second)
		for {
			err := os.Remove(c.dir)
			if err == nil || errors.Is(err, os.ErrNotExist) || time.Now().After(deadline) {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
}

package plugin

// PID returns the process id of p, which is also its process group id; 0
// for a pack connected in-process.
func PID(p *Pack) int {
	if p.proc == nil || p.proc.cmd.Process == nil {
		return 0
	}
	return p.proc.cmd.Process.Pid
}

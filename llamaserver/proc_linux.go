package llamaserver

import "syscall"

// dieWithParent makes a child get SIGKILL when the thread that started it
// ends, so no server or compiler outlives a test binary that timed out.
func dieWithParent() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

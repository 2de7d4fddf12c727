//go:build !linux

package llamaserver

import "syscall"

// dieWithParent: only Linux can tie a child's life to its parent's; elsewhere
// Stop and the test's cleanup end the server.
func dieWithParent() *syscall.SysProcAttr { return nil }

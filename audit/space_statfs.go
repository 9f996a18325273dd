//go:build linux || darwin

package audit

import "syscall"

// freeSpace is the space an unprivileged process may still write on the
// file system of dir.
func freeSpace(dir string) (uint64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true
}

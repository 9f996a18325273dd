//go:build linux

package atomicfile

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchangeDirs swaps the directories a and b in one step (renameat2 with
// RENAME_EXCHANGE): no moment sees b missing. errors.ErrUnsupported when the
// kernel or the file system cannot.
func exchangeDirs(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EOPNOTSUPP) {
		return errors.ErrUnsupported
	}
	return err
}

//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// errWouldBlock is flock's error when another process holds the lock.
var errWouldBlock = syscall.EWOULDBLOCK

// flock takes an exclusive flock(2) on f without waiting.
func flock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

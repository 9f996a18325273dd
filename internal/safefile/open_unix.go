//go:build unix

package safefile

import (
	"os"
	"syscall"
)

// openNoBlock opens path for reading without waiting for a writer, should
// it have become a FIFO since it was checked.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

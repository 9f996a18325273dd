//go:build !linux

package atomicfile

import "errors"

// exchangeDirs would swap the directories a and b in one step; this system
// has no such call, so the caller moves b aside first.
func exchangeDirs(a, b string) error { return errors.ErrUnsupported }

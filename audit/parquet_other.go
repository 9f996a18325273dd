//go:build duckdb_arrow && !linux

package audit

import "errors"

// exchangeDirs would swap the directories a and b in one step; this system
// has no such call, so it returns errors.ErrUnsupported and the caller
// moves b aside first.
func exchangeDirs(a, b string) error { return errors.ErrUnsupported }

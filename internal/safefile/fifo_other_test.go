//go:build !unix

package safefile

import "errors"

func mkfifo(string) error { return errors.New("no named pipes") }
